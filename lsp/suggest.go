package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/lsp/internal/span"
	"github.com/graft-editor/graft/workspace"
)

// suggestions are the pending suggestions of graft.suggest: the blocks of
// an agent's answer, each shown where it would land in its target
// document as hunks, its contiguous changes (a diagnostic over each, code
// actions and code lenses there), until the person accepts or rejects
// them, one by one or all at once.
//
// Every hunk is resolved on its own against its document as it is, and
// again after each change of the document, so that it follows the buffer
// as the person edits it: it moves with the lines above it, and a hunk
// whose lines no longer resolve says why and cannot be accepted. A hunk
// whose change has landed (the person made it by hand, or graft.apply
// applied the same block) resolves as already applied, and goes as an
// accepted one does. Accepting a hunk resolves it again against the
// buffer version its edit is sent for: a hunk is never applied against a
// version it was not computed for.
//
// Handlers run one at a time, but the refreshes after a change run on
// timers: mu guards everything below it.
type suggestions struct {
	s *server

	mu    sync.Mutex
	seq   int                       // numbers the suggestions' ids
	files map[string]*suggestedFile // by absolute path
	// abs maps the path of a document, as its URI spells it, to the
	// path the workspace resolves it to (symbolic links followed);
	// empty for a path outside the workspace.
	abs     map[string]string
	stopped bool
	// decided holds how the person decided each hunk accepted or
	// rejected ("accepted", "rejected"), by id, for a review that waits
	// for it (see Decisions); order bounds it, oldest first.
	decided map[string]string
	order   []string
}

// The decisions of a hunk, as Decisions reports them.
const (
	decisionAccepted = "accepted"
	decisionRejected = "rejected"
	decisionPending  = "pending"
)

// maxDecisions bounds the decisions kept for reviews to read.
const maxDecisions = 4096

// decideLocked records that the person decided the hunk id. g.mu is held.
func (g *suggestions) decideLocked(id, decision string) {
	if g.decided == nil {
		g.decided = map[string]string{}
	}
	if _, ok := g.decided[id]; !ok {
		g.order = append(g.order, id)
	}
	g.decided[id] = decision
	for len(g.order) > maxDecisions {
		delete(g.decided, g.order[0])
		g.order = g.order[1:]
	}
}

// Decisions returns how the person has decided the hunks of the
// suggestions ids names (a suggestion's id, "s3", names every hunk it
// has had): each hunk's id with "accepted" (its change is in the
// document, accepted or made by hand), "rejected", or "pending" (still
// shown, or stale and waiting for the person to reject it). A suggestion
// that waits for the person to choose its place is "pending" under its
// own id, and "rejected" once rejected whole; chosen, it has hunks. A
// review routed from an agent asks it until no hunk is pending.
func (g *suggestions) Decisions(ids []string) map[string]string {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := map[string]string{}
	for _, id := range ids {
		prefix := id + "."
		for h, d := range g.decided {
			if h == id || strings.HasPrefix(h, prefix) {
				out[h] = d
			}
		}
		for _, f := range g.files {
			for _, sg := range f.list {
				if sg.id != id && !strings.HasPrefix(id, sg.id+".") {
					continue
				}
				for _, h := range slices.Concat(sg.hunks, sg.sent) {
					if hid := sg.hunkID(h); hid == id || sg.id == id {
						if _, ok := out[hid]; !ok || slices.Contains(sg.hunks, h) {
							out[hid] = decisionPending
						}
					}
				}
			}
			for _, c := range f.choices {
				if c.id == id {
					out[id] = decisionPending
				}
			}
		}
	}
	return out
}

// A suggestedFile is a file with suggestions, and the text they were last
// resolved against.
type suggestedFile struct {
	abs string
	// uri is the document the file's diagnostics were last published
	// for, as the client spells it; empty before the first publication.
	uri protocol.DocumentURI
	// text and version are what the suggestions were last resolved
	// against: the open buffer's text and version, or the file on disk
	// (version nil). err is why the file could not be read, if it could
	// not.
	text    string
	version *int32
	err     error
	mapper  *span.Mapper
	// list holds the file's suggestions in the order they were made.
	list []*suggestion
	// choices are the blocks that fit several places of the file, each
	// waiting for the person to choose one.
	choices []*choice
	timer   *time.Timer
}

// A suggestion is one block of an answer, pending in its target file as
// hunks: the block's contiguous changes (the engine's own, the plan's
// FileChange.Edits), each accepted or rejected on its own.
//
// Once the block resolves, each hunk is pinned: it becomes the exact edit
// of its lines and the line on either side (of the part of a line it
// changes, for a block that changes part of a line) into those lines with
// the hunk made. Each hunk is then resolved on its own after the document
// changes, and follows the buffer as suggestions do: a hunk stays valid
// when the person edits elsewhere, between the hunks of its block
// included, and when other hunks are accepted or rejected.
type suggestion struct {
	id string
	// orig is the block as the answer wrote it: what graft.suggest
	// resolves, and by which it knows the same suggestion made again.
	orig dialect.Block
	// res is the block's resolution, as graft.apply reports it; once its
	// hunks are made, its status says whether any is pending (applied),
	// none (already applied: the suggestion is gone) or only stale ones
	// (failed, and why the first does not apply).
	res workspace.BlockResult
	// start and end are the byte offsets, in the file's text, of the
	// region the block changes, where it resolved; rng is the range of
	// the region, then of the hunks.
	start, end int
	rng        protocol.Range
	// hunks are the block's changes not yet accepted or rejected, in the
	// order of the text; nhunk numbers them.
	hunks []*hunk
	nhunk int
	// sent are the hunks accepted, which the editor said it applied, until
	// the document is seen to hold them.
	sent []*hunk
}

// pending reports whether the suggestion resolves in its file's text.
func (sg *suggestion) pending() bool { return sg.res.Status == engine.StatusApplied }

// landed reports whether the suggestion's change stands in its file's
// text already: it was made, by hand or by another apply.
func (sg *suggestion) landed() bool { return sg.res.Status == engine.StatusAlreadyApplied }

// The states of a suggestion in graft.suggestions.
const (
	suggestionPending = "pending"
	suggestionStale   = "stale"
)

// suggestReport is a block's entry in the reply to graft.suggest, and a
// hunk's in that of graft.accept: the report of graft.apply, with the id
// of the suggestion the block is (none for a block that did not resolve),
// or of the hunk.
type suggestReport struct {
	blockReport
	ID string `json:"id,omitempty"`
	// Places are, for a block refused because it fits several places of
	// its file equally, those places: graft.choose makes the one the
	// person picks a suggestion, under ID.
	Places []choicePlaceEntry `json:"places,omitempty"`
}

// suggestResult is the reply to graft.suggest.
type suggestResult struct {
	Blocks []suggestReport `json:"blocks"`
	// Hunks are the hunks of the suggestions the blocks made, as
	// graft.suggestions lists them.
	Hunks []hunkEntry `json:"hunks"`
	// Suggestions holds the same list, under the name the editors'
	// plugins read before there were hunks.
	Suggestions []hunkEntry `json:"suggestions"`
}

// suggestionArgs are the argument of graft.accept, graft.reject, their
// aliases graft.applySuggestion and graft.dismiss, and graft.suggestions.
type suggestionArgs struct {
	URI string `json:"uri"`
	ID  string `json:"id"`
}

func newSuggestions(s *server) *suggestions {
	return &suggestions{s: s, files: map[string]*suggestedFile{}, abs: map[string]string{}}
}

// suggest is graft.suggest: every block of cp that resolves, each against
// its document as it is now, becomes a pending suggestion there; a block
// whose change stands already is reported already-applied, and suggests
// nothing. Nothing is applied.
func (g *suggestions) suggest(ctx context.Context, cp commandParams) (any, error) {
	view, err := g.s.view(cp)
	if err != nil {
		return nil, err
	}
	blocks, err := g.s.parse(cp, view)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shut down")
	}

	out := &suggestResult{Blocks: make([]suggestReport, len(blocks)), Hunks: []hunkEntry{}}
	made := make([]*suggestion, len(blocks))
	files := make([]*suggestedFile, len(blocks))
	var touched []*suggestedFile
	failed := -1
	for i, b := range blocks {
		sg := &suggestion{orig: b}
		sg.res = workspace.BlockResult{Index: i, Number: max(b.Number, 1), Path: b.Path, Dialect: b.Dialect}
		f, err := g.fileFor(view, b)
		if err != nil && b.Err != nil {
			err = b.Err // the malformed block says more than its path
		}
		if err == nil && b.Err == nil && isFileOp(b.Op) {
			err = fmt.Errorf("%s %s cannot be reviewed as a suggestion, which changes the text of a file that is there: apply this block instead (graft.apply: Graft: Apply in VS Code, :GraftApply in Neovim)", fileOpVerb(b.Op), b.Path)
		}
		switch {
		case err != nil:
			sg.res.Status, sg.res.Err, sg.res.Message = engine.StatusFailed, err, err.Error()
		default:
			if !slices.Contains(touched, f) {
				if err := g.syncLocked(ctx, view, f); err != nil {
					return nil, err
				}
				touched = append(touched, f)
			}
			if err := g.resolveLocked(ctx, view, f, sg); err != nil {
				return nil, err
			}
		}
		out.Blocks[i].BlockReport = sg.res.Report()
		if f != nil {
			out.Blocks[i].URI = g.uriFor(view, f.abs)
		}
		if c := g.makeChoiceLocked(f, sg); c != nil && !cp.Atomic {
			// It fits several places: the person chooses one.
			if old := f.sameChoice(c.orig); old != nil {
				c = old
			} else {
				c.id = g.newIDLocked()
				f.choices = append(f.choices, c)
			}
			out.Blocks[i].ID, out.Blocks[i].Places = c.id, c.entries()
		}
		if !sg.pending() {
			if failed < 0 && !sg.landed() {
				failed = i
			}
			continue
		}
		made[i], files[i] = sg, f
		rng := sg.rng
		out.Blocks[i].Range = &rng
	}

	if cp.Atomic && failed >= 0 {
		// Nothing is suggested unless every block resolves.
		for i, sg := range made {
			if sg == nil {
				continue
			}
			r := &out.Blocks[i]
			r.Status = string(engine.StatusSkipped)
			r.Message = fmt.Sprintf("withheld: the edits are atomic, and block %d did not resolve", failed+1)
			made[i] = nil
		}
	}
	for i, sg := range made {
		if sg == nil {
			continue
		}
		f := files[i]
		if old := f.same(sg.orig); old != nil {
			// The same suggestion again: it stays one, as it was.
			sg = old
		} else {
			sg.id = g.newIDLocked()
			f.list = append(f.list, sg)
		}
		out.Blocks[i].ID = sg.id
		out.Hunks = append(out.Hunks, g.entries(f, sg)...)
	}
	out.Suggestions = out.Hunks
	for _, f := range touched {
		g.publishLocked(ctx, view, f)
	}
	for _, f := range g.files {
		if len(f.list) == 0 && len(f.choices) == 0 {
			g.forgetLocked(f) // a file whose blocks all failed
		}
	}
	g.showSummary(ctx, out)
	g.refreshLenses()
	return out, nil
}

// isFileOp reports whether op creates, deletes or moves a file.
func isFileOp(op engine.Op) bool {
	return op == engine.OpCreate || op == engine.OpDelete || op == engine.OpMove
}

// fileOpVerb names what a file operation does, for messages.
func fileOpVerb(op engine.Op) string {
	switch op {
	case engine.OpCreate:
		return "Creating"
	case engine.OpDelete:
		return "Deleting"
	}
	return "Moving"
}

// fileFor returns the file block b targets, made when it has no
// suggestions yet (it is then kept only once it has some).
func (g *suggestions) fileFor(view *workspace.View, b dialect.Block) (*suggestedFile, error) {
	if b.Path == "" {
		return nil, fmt.Errorf("the block names no file, and no target uri was given")
	}
	abs, err := view.Path(b.Path)
	if err != nil {
		return nil, err
	}
	if f := g.files[abs]; f != nil {
		return f, nil
	}
	f := &suggestedFile{abs: abs}
	g.files[abs] = f
	return f, nil
}

// same returns the suggestion of f that makes the same change as b, if any.
func (f *suggestedFile) same(b dialect.Block) *suggestion {
	for _, sg := range f.list {
		e, o := sg.orig.Edit, b.Edit
		if e.Op == o.Op && e.Old == o.Old && e.New == o.New && e.ReplaceAll == o.ReplaceAll &&
			e.EndOfFile == o.EndOfFile && slices.Equal(e.Scope, o.Scope) && (e.Op != engine.OpInsert || e.Line == o.Line) {
			return sg
		}
	}
	return nil
}

// showSummary tells the person what graft.suggest made of the answer:
// the blocks suggested (and their hunks, when there are more), in the
// words of graft.apply's summary for the others.
func (g *suggestions) showSummary(ctx context.Context, out *suggestResult) {
	var b strings.Builder
	typ := protocol.MessageTypeInfo
	count := map[string]int{}
	suggested := 0
	places := 0
	for _, r := range out.Blocks {
		count[r.Status]++
		if r.ID != "" && len(r.Places) == 0 {
			suggested++
		}
		if len(r.Places) > 0 {
			places++
		}
	}
	fmt.Fprintf(&b, "Graft: %d suggested", suggested)
	if len(out.Hunks) != suggested {
		fmt.Fprintf(&b, " (%d hunks)", len(out.Hunks))
	}
	// The words of graft.apply's summary, and of the editors' status.
	for _, st := range []engine.Status{engine.StatusAlreadyApplied, engine.StatusFailed, engine.StatusSkipped} {
		if n := count[string(st)]; n > 0 {
			fmt.Fprintf(&b, ", %d %s", n, strings.ReplaceAll(string(st), "-", " "))
		}
	}
	if places > 0 {
		fmt.Fprintf(&b, ", %d to place", places)
	}
	for _, r := range out.Blocks {
		if len(r.Places) > 0 {
			fmt.Fprintf(&b, ": block %d (%s) fits %d places equally: choose one (code action)", r.Block, r.Path, len(r.Places))
			break
		}
		if r.Status == string(engine.StatusFailed) {
			typ = protocol.MessageTypeWarning
			first, _, _ := strings.Cut(r.Message, "\n")
			fmt.Fprintf(&b, ": block %d (%s): %s", r.Block, r.Path, first)
			break
		}
	}
	g.s.showMessage(ctx, typ, b.String())
}

// decodeSuggestionArgs decodes the optional argument of a suggestions
// command.
func decodeSuggestionArgs(arg json.RawMessage) (suggestionArgs, error) {
	var a suggestionArgs
	if len(arg) == 0 || string(arg) == "null" {
		return a, nil
	}
	if err := json.Unmarshal(arg, &a); err != nil {
		return a, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid arguments: %v", err)
	}
	return a, nil
}

// newIDLocked returns the id of a new suggestion or choice: "s1", "s2",
// and so on, one count for both. g.mu is held.
func (g *suggestions) newIDLocked() string {
	g.seq++
	return fmt.Sprintf("s%d", g.seq)
}

// lookupLocked returns the file at uri, or nil. g.mu is held.
func (g *suggestions) lookupLocked(uri string) *suggestedFile {
	for _, f := range g.files {
		if string(f.uri) == uri {
			return f
		}
	}
	if path, err := uriPath(uri); err == nil {
		if f := g.files[path]; f != nil {
			return f
		}
		if abs := g.absLocked(path); abs != "" {
			return g.files[abs]
		}
	}
	return nil
}

// absLocked returns the path the workspace resolves the document path to,
// or "" when it is outside the workspace. g.mu is held.
func (g *suggestions) absLocked(path string) string {
	abs, ok := g.abs[path]
	if !ok {
		var err error
		if abs, err = g.s.docs.View().Path(path); err != nil {
			abs = ""
		}
		g.abs[path] = abs
	}
	return abs
}

// find returns the suggestion with id and its file.
func (g *suggestions) findLocked(id string) (*suggestedFile, *suggestion) {
	for _, f := range g.files {
		for _, sg := range f.list {
			if sg.id == id {
				return f, sg
			}
		}
	}
	return nil, nil
}

// list is graft.suggestions: the hunks, of the document at uri when the
// argument names one, each as it stands against its document now.
func (g *suggestions) list(arg json.RawMessage) (any, error) {
	a, err := decodeSuggestionArgs(arg)
	if err != nil {
		return nil, err
	}
	a.ID = ""
	ctx := context.Background()
	view := g.s.docs.View()
	g.mu.Lock()
	defer g.mu.Unlock()
	files := g.sortedLocked()
	if a.URI != "" {
		if _, err := uriPath(a.URI); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "uri %q: %v", a.URI, err)
		}
		files = nil
		if f := g.lookupLocked(a.URI); f != nil {
			files = append(files, f)
		}
	}
	out := []hunkEntry{}
	for _, f := range files {
		if err := g.refreshLocked(ctx, view, f); err != nil {
			return nil, err
		}
		for _, sg := range f.list {
			out = append(out, g.entries(f, sg)...)
		}
	}
	return out, nil
}

// sortedLocked returns the files in the order of their first
// suggestions. g.mu is held.
func (g *suggestions) sortedLocked() []*suggestedFile {
	var files []*suggestedFile
	for _, f := range g.files {
		if len(f.list) > 0 {
			files = append(files, f)
		}
	}
	slices.SortFunc(files, func(a, b *suggestedFile) int { return suggestionNumber(a.list[0].id) - suggestionNumber(b.list[0].id) })
	return files
}

// suggestionNumber returns the number of a suggestion id.
func suggestionNumber(id string) int {
	var n int
	fmt.Sscanf(id, "s%d", &n)
	return n
}

// remove removes the suggestions of list from f and returns how many it
// held.
func (f *suggestedFile) remove(list []*suggestion) int {
	n := len(f.list)
	f.list = slices.DeleteFunc(f.list, func(sg *suggestion) bool { return slices.Contains(list, sg) })
	return n - len(f.list)
}

// report returns the block report of sg against the text of f.
func (g *suggestions) report(view *workspace.View, f *suggestedFile, sg *suggestion) suggestReport {
	r := suggestReport{ID: sg.id}
	r.BlockReport = sg.res.Report()
	r.URI = g.uriFor(view, f.abs)
	rng := sg.rng
	r.Range = &rng
	return r
}

// changed follows a document that was opened, changed or closed: the
// suggestions of its file are resolved again once the changes pause.
func (g *suggestions) changed(ctx context.Context, d *openDoc) {
	if d.path == "" {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped || len(g.files) == 0 {
		return
	}
	f := g.files[d.path]
	if f == nil {
		f = g.lookupLocked(d.uri)
	}
	if f == nil {
		return
	}
	g.scheduleLocked(f)
}

// watching reports whether a suggestion is pending in a file.
func (g *suggestions) watching() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.files) > 0
}

// diskChanged resolves the suggestions of the file at path (real, with
// its symbolic links evaluated), or of the files under it, again after the
// debounce delay: they changed on the disk, and the editor does not have
// them open.
func (g *suggestions) diskChanged(path, real string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return
	}
	for abs, f := range g.files {
		if under(abs, path) || under(abs, real) {
			g.scheduleLocked(f)
		}
	}
}

// scheduleLocked resolves the suggestions of f again after the debounce
// delay, unless asked to again before. g.mu is held.
func (g *suggestions) scheduleLocked(f *suggestedFile) {
	if f.timer != nil {
		f.timer.Stop()
	}
	abs := f.abs
	f.timer = time.AfterFunc(g.s.opt.Debounce, func() { g.refresh(abs) })
}

// refresh resolves the suggestions of the file at abs again, against the
// documents as they are now, and shows where they stand.
func (g *suggestions) refresh(abs string) {
	ctx := context.Background()
	g.mu.Lock()
	defer g.mu.Unlock()
	f := g.files[abs]
	if g.stopped || f == nil {
		return
	}
	// Taken under the lock, the view is never older than the one the
	// suggestions were last resolved against.
	view := g.s.docs.View()
	if err := g.refreshLocked(ctx, view, f); err != nil {
		g.s.log.Warn("refresh suggestions", zap.String("path", abs), zap.Error(err))
	}
}

// stop ends the refreshes to come.
func (g *suggestions) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stopped = true
	for _, f := range g.files {
		if f.timer != nil {
			f.timer.Stop()
		}
	}
}
