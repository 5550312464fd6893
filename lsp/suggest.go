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
	"github.com/graft-editor/graft/workspace"
)

// suggestions are the pending suggestions of graft.suggest: the blocks of
// an agent's answer, each shown where it would land in its target
// document (a diagnostic over the region, code actions and code lenses
// there) until the person applies or dismisses it.
//
// Every suggestion is resolved on its own against its document as it is,
// and again after each change of the document, so that it follows the
// buffer as the person edits it: the region it would change moves with
// the lines above it, and a suggestion whose region no longer resolves
// says why and cannot be applied. A suggestion whose change has landed
// (the person made it by hand, or graft.apply applied the same block)
// resolves as already applied, and goes as an applied one does: it is no
// longer pending, and its diagnostic and lenses are cleared. Applying one
// re-resolves it against the buffer version the edit is sent for: a
// suggestion is never applied against a version it was not computed for.
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
	mapper  *workspace.Mapper
	// list holds the file's suggestions in the order they were made.
	list  []*suggestion
	timer *time.Timer
}

// A suggestion is one block of an answer, pending in its target file.
type suggestion struct {
	id string
	// block is the block as the answer wrote it, but for its line hint,
	// which follows the buffer: the line the region starts on, or for an
	// insertion the line it goes after, in the text last resolved.
	block dialect.Block
	// res is the block's last resolution, as graft.apply reports it.
	res workspace.BlockResult
	// start and end are the byte offsets, in the file's text, of the
	// region the suggestion changes; for a stale one, where that region
	// was last seen.
	start, end int
	rng        protocol.Range
	summary    string
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

// suggestionEntry is a suggestion as graft.suggestions lists it.
type suggestionEntry struct {
	ID   string               `json:"id"`
	URI  protocol.DocumentURI `json:"uri"`
	Path string               `json:"path"`
	// Range is the region the suggestion would change, in the document's
	// text at Version (null for a file that is not open).
	Range    protocol.Range `json:"range"`
	Version  *int32         `json:"version"`
	Strategy string         `json:"strategy"`
	Score    float64        `json:"score"`
	Summary  string         `json:"summary"`
	// State is "pending", or "stale" when the region no longer resolves;
	// Message then says why.
	State   string `json:"state"`
	Message string `json:"message"`
	// Dialect is the format the block was written in.
	Dialect string `json:"dialect"`
}

// suggestReport is a block's entry in the reply to graft.suggest and
// graft.applySuggestion: the report of graft.apply, with the id of the
// suggestion the block is (none for a block that did not resolve).
type suggestReport struct {
	blockReport
	ID string `json:"id,omitempty"`
}

// suggestResult is the reply to graft.suggest.
type suggestResult struct {
	Blocks []suggestReport `json:"blocks"`
	// Suggestions are the suggestions the blocks made.
	Suggestions []suggestionEntry `json:"suggestions"`
}

// applySuggestionResult is the reply to graft.applySuggestion.
type applySuggestionResult struct {
	Applied       bool            `json:"applied"`
	FailureReason string          `json:"failureReason,omitempty"`
	Blocks        []suggestReport `json:"blocks"`
}

// suggestionArgs are the argument of graft.applySuggestion, graft.dismiss
// and graft.suggestions.
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

	out := &suggestResult{Blocks: make([]suggestReport, len(blocks)), Suggestions: []suggestionEntry{}}
	made := make([]*suggestion, len(blocks))
	files := make([]*suggestedFile, len(blocks))
	var touched []*suggestedFile
	failed := -1
	for i, b := range blocks {
		sg := &suggestion{block: b}
		sg.res = workspace.BlockResult{Index: i, Number: max(b.Number, 1), Path: b.Path, Dialect: b.Dialect}
		f, err := g.fileFor(view, b)
		if err != nil && b.Err != nil {
			err = b.Err // the malformed block says more than its path
		}
		if err == nil && b.Err == nil && isFileOp(b.Op) {
			err = fmt.Errorf("%s a file is not a suggestion, which changes text in an open document: use graft.apply", fileOpVerb(b.Op))
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
		if old := f.same(sg.block); old != nil {
			// The same suggestion again: it stays one, as it was.
			sg = old
		} else {
			g.seq++
			sg.id = fmt.Sprintf("s%d", g.seq)
			f.list = append(f.list, sg)
		}
		out.Blocks[i].ID = sg.id
		out.Suggestions = append(out.Suggestions, g.entry(f, sg))
	}
	for _, f := range touched {
		g.publishLocked(ctx, view, f)
	}
	for _, f := range g.files {
		if len(f.list) == 0 {
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
		return "creating"
	case engine.OpDelete:
		return "deleting"
	}
	return "moving"
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
		e, o := sg.block.Edit, b.Edit
		if e.Op == o.Op && e.Old == o.Old && e.New == o.New && e.ReplaceAll == o.ReplaceAll &&
			e.EndOfFile == o.EndOfFile && slices.Equal(e.Scope, o.Scope) && (e.Op != engine.OpInsert || e.Line == o.Line) {
			return sg
		}
	}
	return nil
}

// showSummary tells the person what graft.suggest made of the answer.
func (g *suggestions) showSummary(ctx context.Context, out *suggestResult) {
	var b strings.Builder
	fmt.Fprintf(&b, "Graft: %d suggested", len(out.Suggestions))
	typ := protocol.MessageTypeInfo
	count := map[string]int{}
	for _, r := range out.Blocks {
		count[r.Status]++
	}
	// The words of graft.apply's summary, and of the editors' status.
	for _, st := range []engine.Status{engine.StatusAlreadyApplied, engine.StatusFailed, engine.StatusSkipped} {
		if n := count[string(st)]; n > 0 {
			fmt.Fprintf(&b, ", %d %s", n, strings.ReplaceAll(string(st), "-", " "))
		}
	}
	for _, r := range out.Blocks {
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

// selectLocked returns the files and suggestions that a names: one
// suggestion, those of a file, or all of them. g.mu is held.
func (g *suggestions) selectLocked(a suggestionArgs) (map[*suggestedFile][]*suggestion, error) {
	out := map[*suggestedFile][]*suggestion{}
	switch {
	case a.ID != "":
		f, sg := g.findLocked(a.ID)
		if sg == nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no suggestion %q: it was applied or dismissed", a.ID)
		}
		if a.URI != "" && g.lookupLocked(a.URI) != f {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "suggestion %q is not in %s", a.ID, a.URI)
		}
		out[f] = []*suggestion{sg}
	case a.URI != "":
		if f := g.lookupLocked(a.URI); f != nil {
			out[f] = slices.Clone(f.list)
		}
	default:
		for _, f := range g.files {
			out[f] = slices.Clone(f.list)
		}
	}
	return out, nil
}

// list is graft.suggestions: the suggestions, of the file at uri when the
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
	sel, err := g.selectLocked(a)
	if err != nil {
		return nil, err
	}
	out := []suggestionEntry{}
	for _, f := range g.sortedLocked(sel) {
		if err := g.refreshLocked(ctx, view, f); err != nil {
			return nil, err
		}
		for _, sg := range f.list {
			out = append(out, g.entry(f, sg))
		}
	}
	return out, nil
}

// sortedLocked returns the files of sel in the order of their first
// suggestions.
func (g *suggestions) sortedLocked(sel map[*suggestedFile][]*suggestion) []*suggestedFile {
	var files []*suggestedFile
	for f := range sel {
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

// dismiss is graft.dismiss: it clears one suggestion ({"id"}), those of a
// file ({"uri"}), or all of them (no argument), and their diagnostics.
func (g *suggestions) dismiss(ctx context.Context, arg json.RawMessage) (any, error) {
	a, err := decodeSuggestionArgs(arg)
	if err != nil {
		return nil, err
	}
	view := g.s.docs.View()
	g.mu.Lock()
	defer g.mu.Unlock()
	sel, err := g.selectLocked(a)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, f := range g.sortedLocked(sel) {
		n += f.remove(sel[f])
		g.publishLocked(ctx, view, f)
	}
	g.refreshLenses()
	return map[string]int{"dismissed": n}, nil
}

// remove removes the suggestions of list from f and returns how many it
// held.
func (f *suggestedFile) remove(list []*suggestion) int {
	n := len(f.list)
	f.list = slices.DeleteFunc(f.list, func(sg *suggestion) bool { return slices.Contains(list, sg) })
	return n - len(f.list)
}

// apply is graft.applySuggestion: it applies one suggestion ({"uri",
// "id"}) or every pending one of a file ({"uri"}). The suggestions are
// resolved again against the documents as they are now, and the edit is
// sent for that version of the buffer; a suggestion that no longer
// resolves is not applied, and one whose change has landed meanwhile is
// reported already-applied, a success. Those the client applied, and
// those that landed, are removed.
func (g *suggestions) apply(ctx context.Context, arg json.RawMessage) (any, error) {
	a, err := decodeSuggestionArgs(arg)
	if err != nil {
		return nil, err
	}
	if a.URI == "" && a.ID == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "graft.applySuggestion needs the uri of a document, and the id of a suggestion to apply only that one")
	}
	view := g.s.docs.View()
	g.mu.Lock()
	sel, err := g.selectLocked(a)
	if err != nil {
		g.mu.Unlock()
		return nil, err
	}
	var f *suggestedFile
	var picked []*suggestion
	for sf, list := range sel {
		f, picked = sf, list
	}
	if f == nil || len(picked) == 0 {
		g.mu.Unlock()
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no suggestions in %s", a.URI)
	}
	// Never against a version it was not computed for: resolve again
	// against the documents of view, which the edit is computed for.
	if err := g.refreshLocked(ctx, view, f); err != nil {
		g.mu.Unlock()
		return nil, err
	}
	var targets, stale, landed []*suggestion
	for _, sg := range picked {
		switch {
		case sg.pending():
			targets = append(targets, sg)
		case sg.landed():
			landed = append(landed, sg) // removed by the refresh
		default:
			stale = append(stale, sg)
		}
	}
	if len(targets) == 0 && len(stale) == 0 {
		// Every one has landed: nothing to send, and nothing failed.
		out := &applySuggestionResult{Applied: true}
		for _, sg := range landed {
			out.Blocks = append(out.Blocks, g.report(view, f, sg))
		}
		g.mu.Unlock()
		msg := "Graft: the suggestion is applied already"
		if len(landed) > 1 {
			msg = fmt.Sprintf("Graft: the %d suggestions are applied already", len(landed))
		}
		g.s.showMessage(ctx, protocol.MessageTypeInfo, msg)
		return out, nil
	}
	if len(targets) == 0 {
		sg := stale[0]
		reason := fmt.Sprintf("the suggestion no longer applies: %s", strings.TrimSpace(sg.res.Message))
		if len(picked) > 1 {
			reason = fmt.Sprintf("none of the %d suggestions in %s applies any more: %s", len(picked), f.uri, strings.TrimSpace(sg.res.Message))
		}
		out := &applySuggestionResult{FailureReason: reason}
		for _, sg := range slices.Concat(stale, landed) {
			out.Blocks = append(out.Blocks, g.report(view, f, sg))
		}
		g.mu.Unlock()
		first, _, _ := strings.Cut(reason, "\n")
		g.s.showMessage(ctx, protocol.MessageTypeWarning, "Graft: "+first)
		return out, nil
	}
	// Bottom up: each change leaves the lines above it, where the others
	// are, as they were, and so their line hints right.
	slices.SortStableFunc(targets, func(a, b *suggestion) int { return b.start - a.start })
	blocks := make([]dialect.Block, len(targets))
	for i, sg := range targets {
		blocks[i] = sg.block
	}
	g.s.mu.Lock()
	threshold, caps := g.s.settings.Threshold, g.s.caps
	g.s.mu.Unlock()
	res, err := workspace.Plan(ctx, view, blocks, workspace.PlanOptions{Engine: engine.Options{Threshold: threshold}, History: g.s.history})
	if err != nil {
		g.mu.Unlock()
		return nil, err
	}
	refuseUnsupported(res, caps)
	g.mu.Unlock()

	p := &plan{view: view, blocks: blocks, res: res}
	label := "Graft: apply suggestion"
	if len(targets) > 1 {
		label = fmt.Sprintf("Graft: apply %d suggestions", len(targets))
	}
	sent, err := g.s.send(ctx, p, label)
	if err != nil {
		return nil, err
	}
	g.s.summarize(ctx, p)
	out := &applySuggestionResult{Applied: sent.Applied, FailureReason: sent.FailureReason}
	reports := g.s.reports(p)
	g.mu.Lock()
	defer g.mu.Unlock()
	var done []*suggestion
	for i, sg := range targets {
		out.Blocks = append(out.Blocks, suggestReport{blockReport: reports[i], ID: sg.id})
		if res.Blocks[i].Status.OK() {
			done = append(done, sg)
		}
	}
	for _, sg := range landed {
		out.Blocks = append(out.Blocks, g.report(view, f, sg))
	}
	if sent.Applied && len(done) > 0 {
		f.remove(done)
		g.publishLocked(ctx, view, f)
		g.refreshLenses()
	}
	g.s.log.Info("applySuggestion", zap.Int("sent", len(targets)), zap.Int("applied", len(done)), zap.Bool("client", sent.Applied))
	return out, nil
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
