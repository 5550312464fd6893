package lsp

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/lsp/internal/span"
	"github.com/graft-editor/graft/workspace"
)

// A hunk is one contiguous change of a suggestion: one of the edits the
// engine made of its block (workspace.FileChange.Edits), lines or part of
// a line removed and text added in their place.
type hunk struct {
	// n numbers the hunk in its suggestion: its id is the suggestion's id
	// and n, "s3.2".
	n int
	// old is the text the hunk replaces, new what it puts there.
	old, new string
	// block is the hunk pinned: the exact edit of its region, which
	// starts at ps in the file's text, into the region with the hunk
	// made. Its line hint follows the buffer.
	block dialect.Block
	ps    int
	// res is the last resolution of block (of the suggestion's block,
	// before the first).
	res workspace.BlockResult
	// start and end are where old stood in the file's text when the
	// hunk was last resolved; rng is that range, and diag the range its
	// diagnostic covers (without the line break that ends it), in the
	// client's encoding.
	start, end int
	rng, diag  protocol.Range
	summary    string
	// moved says the last change of the text left the hunk's region as
	// it was, moved at most: the hunk stands where it was moved to, as it
	// was last resolved.
	moved bool
}

// pending reports whether the hunk resolves in its file's text.
func (h *hunk) pending() bool { return h.res.Status == engine.StatusApplied }

// hunkID returns the id of h, a hunk of sg.
func (sg *suggestion) hunkID(h *hunk) string { return fmt.Sprintf("%s.%d", sg.id, h.n) }

// hunkEntry is a hunk as graft.suggest and graft.suggestions list it: the
// hunk, and the suggestion (the block) it is part of.
type hunkEntry struct {
	// ID names the hunk, "s3.2": for graft.accept and graft.reject.
	ID  string               `json:"id"`
	URI protocol.DocumentURI `json:"uri"`
	// Range is where OldText stands in the document's text at Version
	// (the file on disk when Version is null): the range NewText
	// replaces. An insertion's is empty.
	Range   protocol.Range `json:"range"`
	OldText string         `json:"oldText"`
	NewText string         `json:"newText"`
	// Block is the id of the suggestion the hunk is part of, "s3".
	Block    string  `json:"block"`
	Path     string  `json:"path"`
	Version  *int32  `json:"version"`
	Strategy string  `json:"strategy"`
	Score    float64 `json:"score"`
	// Summary says in one line what the hunk changes.
	Summary string `json:"summary"`
	// State is "pending", or "stale" when the hunk no longer resolves
	// (the person changed its lines); Message then says why, and Range
	// is where the hunk was last seen.
	State   string `json:"state"`
	Message string `json:"message"`
	// Dialect is the format the block was written in.
	Dialect string `json:"dialect"`
}

// entries returns the hunks of sg as graft.suggestions lists them.
func (g *suggestions) entries(f *suggestedFile, sg *suggestion) []hunkEntry {
	uri := f.uri
	if uri == "" {
		uri = fileURI(f.abs)
	}
	out := make([]hunkEntry, 0, len(sg.hunks))
	for _, h := range sg.hunks {
		strategy, score := sg.how(h)
		e := hunkEntry{
			ID:       sg.hunkID(h),
			URI:      uri,
			Range:    h.rng,
			OldText:  h.old,
			NewText:  h.new,
			Block:    sg.id,
			Path:     sg.res.Path,
			Version:  f.version,
			Strategy: strategy,
			Score:    score,
			Summary:  h.summary,
			State:    suggestionPending,
			Dialect:  sg.orig.Dialect,
		}
		if !h.pending() {
			e.State, e.Message = suggestionStale, h.res.Message
		}
		out = append(out, e)
	}
	return out
}

// how returns how the hunk h of sg resolves: as the block first
// resolved while the pinned hunk resolves exactly, else as it resolves
// now.
func (sg *suggestion) how(h *hunk) (string, float64) {
	if h.res.Strategy == "exact" && h.res.Score >= 1 {
		return sg.res.Strategy, sg.res.Score
	}
	return h.res.Strategy, h.res.Score
}

// pinLocked makes h the hunk of the edit e of the text of f, pinned on
// its region there. g.mu is held.
func (g *suggestions) pinLocked(f *suggestedFile, sg *suggestion, h *hunk, e engine.Change) {
	h.old, h.new, h.start, h.end = f.text[e.Start:e.End], e.Text, e.Start, e.End
	h.rng = g.protocolRange(f, h.start, h.end)
	h.diag = g.protocolRange(f, h.start, trimLineBreak(f.text, h.start, h.end))
	h.summary = summarizeChange(f.text, []engine.Change{e})
	ps, pe := pinRegion(f.text, e)
	old := f.text[ps:pe]
	h.ps = ps
	var line int
	if p, err := f.mapper.Position(ps, span.UTF8); err == nil {
		line = p.Line // found in the line index, not counted
	} else {
		line = strings.Count(f.text[:ps], "\n")
	}
	h.block = dialect.Block{Edit: engine.Edit{
		Path:    sg.orig.Path,
		Old:     old,
		New:     old[:e.Start-ps] + e.Text + old[e.End-ps:],
		Line:    line + 1,
		Dialect: sg.orig.Dialect,
		Source:  sg.orig.Source,
	}, Number: sg.res.Number}
	if old == "" {
		// Only in an empty file: the hunk inserts at its top.
		h.block.Op, h.block.Line = engine.OpInsert, 0
	}
}

// pinRegion returns the region the edit e of text is pinned on: its
// lines and the line on either side, which find it again where its own
// lines occur elsewhere too (a line "}", an insertion). An edit of part
// of a line (a block that replaced a few words) is pinned on exactly what
// it changes: resolved again, it changes that part as it did, where a
// region of whole lines would make its change one of whole lines.
func pinRegion(text string, e engine.Change) (int, int) {
	lineStart := func(i int) bool { return i == 0 || text[i-1] == '\n' }
	if e.Start < e.End && !(lineStart(e.Start) && (e.End == len(text) || lineStart(e.End))) {
		return e.Start, e.End
	}
	ps, pe := strings.LastIndexByte(text[:e.Start], '\n')+1, e.End
	if !lineStart(pe) {
		pe = lineEndAt(text, pe) // an insertion inside a line: all of it
	}
	// The line on either side.
	if ps > 0 {
		ps = strings.LastIndexByte(text[:ps-1], '\n') + 1
	}
	return ps, lineEndAt(text, pe)
}

// lineEndAt returns where the line at i ends in text, after its line
// break; i itself at the end of the text.
func lineEndAt(text string, i int) int {
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(text)
}

// resolveHunksLocked resolves each hunk of sg again, against the text of
// f, which must be that of f in view. A hunk whose change now stands in
// the text is gone, as accepted; one that no longer resolves stays,
// stale, saying why. The edits a hunk's block makes are the hunk again,
// pinned on the text as it is; a hunk that resolves other than exactly
// (the person edited its lines) is the edits its block now makes, of
// which the one that makes the same change keeps its id. It returns an
// error only when ctx is done. g.mu is held.
func (g *suggestions) resolveHunksLocked(ctx context.Context, view *workspace.View, f *suggestedFile, sg *suggestion) error {
	opt := workspace.PlanOptions{Engine: g.engineOptions(), History: g.s.history}
	var hunks []*hunk
	sent := sg.sent
	sg.sent = nil
	// An accepted hunk, which the editor said it applied, goes as its
	// change now stands, or comes back if the editor did not make it.
	for _, h := range slices.Concat(sg.hunks, sent) {
		stale := func(err error) {
			h.res.Status, h.res.Err, h.res.Message = engine.StatusFailed, err, err.Error()
			h.start, h.end = clampOffsets(f.text, h.start, h.end)
			h.ps, _ = clampOffsets(f.text, h.ps, h.ps)
			h.rng = g.protocolRange(f, h.start, h.end)
			h.diag = g.protocolRange(f, h.start, trimLineBreak(f.text, h.start, h.end))
			hunks = append(hunks, h)
		}
		if f.err != nil {
			stale(f.err)
			continue
		}
		if h.moved && h.end <= len(f.text) && f.text[h.start:h.end] == h.old {
			// Its lines are as they were: pinned again where they are,
			// without resolving it. Accepting it resolves it all the same.
			h.moved = false
			g.pinLocked(f, sg, h, engine.Change{Start: h.start, End: h.end, Text: h.new})
			hunks = append(hunks, h)
			continue
		}
		h.moved = false
		res, err := workspace.Plan(ctx, view, []dialect.Block{h.block}, opt)
		if err != nil {
			return err
		}
		h.res = res.Blocks[0]
		if h.res.Status == engine.StatusAlreadyApplied {
			g.s.log.Info("hunk applied already", zap.String("id", sg.hunkID(h)), zap.String("path", h.res.Path))
			if _, ok := g.decided[sg.hunkID(h)]; !ok {
				g.decideLocked(sg.hunkID(h), decisionAccepted) // made by hand
			}
			continue
		}
		if !h.pending() {
			err := h.res.Err
			if err == nil {
				err = errors.New(h.res.Message)
			}
			stale(err)
			continue
		}
		fc := res.Files[0]
		if fc.Before != f.text {
			stale(fmt.Errorf("%s changed while the hunk was resolved; it is resolved again at the next change", fc.Path))
			continue
		}
		kept := false
		for _, e := range fc.Edits {
			nh := &hunk{n: h.n, res: h.res}
			if kept || f.text[e.Start:e.End] != h.old || e.Text != h.new {
				sg.nhunk++
				nh.n = sg.nhunk
			}
			kept = kept || nh.n == h.n
			g.pinLocked(f, sg, nh, e)
			hunks = append(hunks, nh)
		}
	}
	slices.SortStableFunc(hunks, func(a, b *hunk) int { return cmp.Compare(a.start, b.start) })
	for _, h := range hunks {
		if slices.ContainsFunc(sent, func(s *hunk) bool { return s.n == h.n }) {
			g.s.log.Warn("an accepted hunk is not in the document: pending again", zap.String("id", sg.hunkID(h)))
			delete(g.decided, sg.hunkID(h))
		}
	}
	sg.hunks = hunks
	sg.settle()
	return nil
}

// settle sets the status of sg from its hunks': applied while any is
// pending or on its way to the editor, already applied when none is
// left, else failed, as the first hunk fails; and its range, that of its
// hunks.
func (sg *suggestion) settle() {
	switch {
	case len(sg.hunks) == 0 && len(sg.sent) == 0:
		sg.res.Status, sg.res.Err, sg.res.Message = engine.StatusAlreadyApplied, nil, ""
		return
	case len(sg.hunks) == 0:
		sg.res.Status, sg.res.Err, sg.res.Message = engine.StatusApplied, nil, ""
		return
	case slices.ContainsFunc(sg.hunks, (*hunk).pending):
		sg.res.Status, sg.res.Err, sg.res.Message = engine.StatusApplied, nil, ""
	default:
		h := sg.hunks[0]
		sg.res.Status, sg.res.Err, sg.res.Message = engine.StatusFailed, h.res.Err, h.res.Message
	}
	sg.rng = protocol.Range{Start: sg.hunks[0].rng.Start, End: sg.hunks[len(sg.hunks)-1].rng.End}
}

// remove removes the hunks hs of sg, which were accepted or rejected.
func (sg *suggestion) remove(hs []*hunk) {
	sg.hunks = slices.DeleteFunc(sg.hunks, func(h *hunk) bool { return slices.Contains(hs, h) })
	sg.settle()
}

// A pick is what graft.accept or graft.reject names in one suggestion:
// some of its hunks by id, or all of them (ids nil).
type pick struct {
	f   *suggestedFile
	sg  *suggestion
	ids []string
}

// hunks returns the hunks of the pick's suggestion that it names.
func (p pick) hunks() []*hunk {
	if p.ids == nil {
		return slices.Clone(p.sg.hunks)
	}
	var out []*hunk
	for _, h := range p.sg.hunks {
		if slices.Contains(p.ids, p.sg.hunkID(h)) {
			out = append(out, h)
		}
	}
	return out
}

// pickLocked returns what a names: one hunk ({"id": "s3.2"}), every hunk
// of a suggestion ({"id": "s3"}), of a document ({"uri"}), or all of them
// (neither). g.mu is held.
func (g *suggestions) pickLocked(a suggestionArgs) ([]pick, error) {
	if a.URI != "" {
		if _, err := uriPath(a.URI); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "uri %q: %v", a.URI, err)
		}
	}
	switch {
	case a.ID != "":
		sid, _, isHunk := strings.Cut(a.ID, ".")
		f, sg := g.findLocked(sid)
		if sg == nil || isHunk && !slices.ContainsFunc(sg.hunks, func(h *hunk) bool { return sg.hunkID(h) == a.ID }) {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no pending hunk or suggestion %q: it was accepted or rejected, or never suggested", a.ID)
		}
		if a.URI != "" && g.lookupLocked(a.URI) != f {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%q is not in %s", a.ID, a.URI)
		}
		p := pick{f: f, sg: sg}
		if isHunk {
			p.ids = []string{a.ID}
		}
		return []pick{p}, nil
	case a.URI != "":
		f := g.lookupLocked(a.URI)
		if f == nil {
			return nil, nil
		}
		return picksOf(f), nil
	}
	var out []pick
	for _, f := range g.sortedLocked() {
		out = append(out, picksOf(f)...)
	}
	return out, nil
}

// picksOf returns every hunk of f, suggestion by suggestion.
func picksOf(f *suggestedFile) []pick {
	var out []pick
	for _, sg := range f.list {
		if len(sg.hunks) > 0 {
			out = append(out, pick{f: f, sg: sg})
		}
	}
	return out
}

// acceptResult is the reply to graft.accept and graft.applySuggestion.
type acceptResult struct {
	Applied       bool   `json:"applied"`
	FailureReason string `json:"failureReason,omitempty"`
	// Accepted are the ids of the hunks the editor applied, and of those
	// whose change stood in the document already.
	Accepted []string `json:"accepted"`
	// Blocks report each hunk, as graft.apply reports a block, with the
	// hunk's id: what was sent of it, or why nothing was. A suggestion
	// whose changes all stood already is reported whole, with its id.
	Blocks []suggestReport `json:"blocks"`
}

// A target is a hunk that graft.accept sends.
type target struct {
	f  *suggestedFile
	sg *suggestion
	h  *hunk
}

// hunkReport returns the report of the hunk h of sg, in f.
func (g *suggestions) hunkReport(view *workspace.View, f *suggestedFile, sg *suggestion, h *hunk) suggestReport {
	r := suggestReport{ID: sg.hunkID(h)}
	r.BlockReport = h.res.Report()
	r.Index, r.Block = sg.res.Index, sg.res.Number
	r.URI = g.uriFor(view, f.abs)
	rng := h.rng
	r.Range = &rng
	return r
}

// accept is graft.accept, and graft.applySuggestion (command) as its
// alias: it sends the hunks a names, one, a suggestion's, a document's or
// all, to the editor as one WorkspaceEdit, exactly those changes, each
// document's for the buffer version they were computed for. The hunks
// are resolved again against the documents as they are now first: a hunk
// is never applied against a version it was not computed for, and the
// editor refuses the edit when the buffer changed on its way (the hunks
// then stay pending). The hunks the editor applied are gone; the other
// hunks of their blocks stay pending, and a block with none left is gone.
func (g *suggestions) accept(ctx context.Context, arg json.RawMessage, command string) (any, error) {
	a, err := decodeSuggestionArgs(arg)
	if err != nil {
		return nil, err
	}
	if command == cmdApplySuggestion && a.URI == "" && a.ID == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "graft.applySuggestion needs the uri of a document, and the id of a suggestion to apply only that one")
	}
	view := g.s.docs.View()
	g.mu.Lock()
	if _, c := g.findChoiceLocked(a.ID); c != nil && a.ID != "" {
		g.mu.Unlock()
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "suggestion %s fits %d places: choose one first (graft.choose), then accept it", a.ID, len(c.left()))
	}
	picks, err := g.pickLocked(a)
	if err == nil && len(picks) == 0 {
		err = jsonrpc2.NewError(jsonrpc2.InvalidParams, "no pending hunks")
		if a.URI != "" {
			err = jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no pending hunks in %s", a.URI)
		}
	}
	if err != nil {
		g.mu.Unlock()
		return nil, err
	}
	// Never against a version they were not computed for: resolve again
	// against the documents of view, which the edit is computed for.
	var files []*suggestedFile
	for _, p := range picks {
		if !slices.Contains(files, p.f) {
			files = append(files, p.f)
			if err := g.refreshLocked(ctx, view, p.f); err != nil {
				g.mu.Unlock()
				return nil, err
			}
		}
	}
	out := &acceptResult{Accepted: []string{}}
	var targets, stale []target
	for _, p := range picks {
		if p.sg.landed() || !slices.Contains(p.f.list, p.sg) {
			// Every change of the block was made meanwhile.
			out.Accepted = append(out.Accepted, p.ids...)
			out.Blocks = append(out.Blocks, g.report(view, p.f, p.sg))
			continue
		}
		hs := p.hunks()
		for _, id := range p.ids {
			if !slices.ContainsFunc(hs, func(h *hunk) bool { return p.sg.hunkID(h) == id }) {
				// The hunk's change was made meanwhile.
				out.Accepted = append(out.Accepted, id)
				r := suggestReport{ID: id}
				r.Index, r.Block, r.Path, r.Status, r.Dialect = p.sg.res.Index, p.sg.res.Number, p.sg.res.Path, string(engine.StatusAlreadyApplied), p.sg.orig.Dialect
				out.Blocks = append(out.Blocks, r)
			}
		}
		for _, h := range hs {
			if h.pending() {
				targets = append(targets, target{f: p.f, sg: p.sg, h: h})
			} else {
				stale = append(stale, target{f: p.f, sg: p.sg, h: h})
			}
		}
	}
	if len(targets) == 0 {
		defer g.mu.Unlock()
		if len(stale) == 0 {
			// Every one has landed: nothing to send, and nothing failed.
			out.Applied = true
			g.s.showMessage(ctx, protocol.MessageTypeInfo, "Graft: the change is made already")
			return out, nil
		}
		msg := strings.TrimSpace(stale[0].h.res.Message)
		out.FailureReason = "the hunk no longer applies: " + msg
		if len(stale) > 1 {
			out.FailureReason = fmt.Sprintf("none of the %d hunks applies any more: %s", len(stale), msg)
		}
		for _, t := range stale {
			out.Blocks = append(out.Blocks, g.hunkReport(view, t.f, t.sg, t.h))
		}
		first, _, _ := strings.Cut(out.FailureReason, "\n")
		g.s.showMessage(ctx, protocol.MessageTypeWarning, "Graft: "+first)
		return out, nil
	}
	p, err := g.planLocked(ctx, view, targets)
	g.mu.Unlock()
	if err != nil {
		return nil, err
	}
	label := "Graft: accept hunk"
	if len(targets) > 1 {
		label = fmt.Sprintf("Graft: accept %d hunks", len(targets))
	}
	sent, err := g.s.send(ctx, p, label)
	if err != nil {
		return nil, err
	}
	g.s.summarize(ctx, p)
	out.Applied, out.FailureReason = sent.Applied, sent.FailureReason
	reports := g.s.reports(p)
	g.mu.Lock()
	defer g.mu.Unlock()
	var touched []*suggestedFile
	for i, t := range targets {
		r := suggestReport{blockReport: reports[i], ID: t.sg.hunkID(t.h)}
		r.Index = t.sg.res.Index // the block's in the answer, not the hunk's in the plan
		out.Blocks = append(out.Blocks, r)
		if !sent.Applied || !p.res.Blocks[i].Status.OK() {
			continue
		}
		// Shown no more; the next resolution, once the document holds
		// the change, finds it made and drops it, or the hunk back if the
		// editor did not make it after all (Neovim 0.7.2 says it applied
		// an edit it skipped as stale).
		out.Accepted = append(out.Accepted, t.sg.hunkID(t.h))
		g.decideLocked(t.sg.hunkID(t.h), decisionAccepted)
		t.sg.sent = append(t.sg.sent, t.h)
		t.sg.remove([]*hunk{t.h})
		if !slices.Contains(touched, t.f) {
			touched = append(touched, t.f)
		}
	}
	for _, t := range stale {
		out.Blocks = append(out.Blocks, g.hunkReport(view, t.f, t.sg, t.h))
	}
	for _, f := range touched {
		g.publishLocked(ctx, view, f)
	}
	if len(touched) > 0 {
		g.refreshLenses()
	}
	g.s.log.Info("accept", zap.Int("hunks", len(targets)), zap.Strings("accepted", out.Accepted), zap.Bool("client", sent.Applied))
	return out, nil
}

// planLocked returns the plan that makes exactly the hunks of targets:
// each hunk's pinned block, resolved against view, bottom up in each
// file, with the hunks themselves as the file's edits. A file whose text
// in view is not the one the hunks were resolved in, or where the blocks
// do not make exactly the hunks, is failed: nothing of it is sent. g.mu
// is held.
func (g *suggestions) planLocked(ctx context.Context, view *workspace.View, targets []target) (*plan, error) {
	// Bottom up: each change leaves the lines above it, where the others
	// are, as they were, and so their line hints right.
	slices.SortStableFunc(targets, func(a, b target) int {
		if a.f != b.f {
			return strings.Compare(a.f.abs, b.f.abs)
		}
		return b.h.start - a.h.start
	})
	blocks := make([]dialect.Block, len(targets))
	for i, t := range targets {
		blocks[i] = t.h.block
	}
	g.s.mu.Lock()
	caps := g.s.caps
	g.s.mu.Unlock()
	res, err := workspace.Plan(ctx, view, blocks, workspace.PlanOptions{Engine: g.engineOptions(), History: g.s.history, Prepared: &g.s.prepared})
	if err != nil {
		return nil, err
	}
	for i := range res.Files {
		fc := &res.Files[i]
		if !fc.Changed {
			continue
		}
		f := g.files[fc.Abs()]
		var edits []engine.Change
		for _, t := range targets {
			if t.f == f {
				edits = append(edits, engine.Change{Start: t.h.start, End: t.h.end, Text: t.h.new})
			}
		}
		slices.SortFunc(edits, func(a, b engine.Change) int { return cmp.Compare(a.Start, b.Start) })
		if f == nil || fc.Before != f.text || !apart(edits) || engine.ApplyChanges(fc.Before, edits) != fc.After {
			res.Fail(i, fmt.Errorf("%s changed since its hunks were computed; nothing sent: try again", fc.Path))
			continue
		}
		fc.Edits = edits
	}
	refuseUnsupported(res, caps)
	return &plan{view: view, blocks: blocks, res: res}, nil
}

// apart reports whether edits, in order, do not overlap.
func apart(edits []engine.Change) bool {
	for i := 1; i < len(edits); i++ {
		if edits[i].Start < edits[i-1].End {
			return false
		}
	}
	return true
}

// reject is graft.reject, and graft.dismiss (command) as its alias: it
// drops the hunks a names, one, a suggestion's, a document's or all; the
// other hunks of their blocks stay pending, and a block with none left is
// gone. Nothing is sent to the editor.
func (g *suggestions) reject(ctx context.Context, arg json.RawMessage, command string) (any, error) {
	a, err := decodeSuggestionArgs(arg)
	if err != nil {
		return nil, err
	}
	view := g.s.docs.View()
	g.mu.Lock()
	defer g.mu.Unlock()
	// A suggestion waiting for its place is rejected whole.
	rejected, touched, named := g.dropChoicesLocked(a)
	gone := rejected
	var picks []pick
	if !named {
		picks, err = g.pickLocked(a)
	}
	if err != nil {
		return nil, err
	}
	for _, p := range picks {
		hs := p.hunks()
		rejected += len(hs)
		for _, h := range hs {
			g.decideLocked(p.sg.hunkID(h), decisionRejected)
		}
		p.sg.remove(hs)
		if len(p.sg.hunks) == 0 && len(p.sg.sent) == 0 {
			gone += p.f.remove([]*suggestion{p.sg})
		}
		if !slices.Contains(touched, p.f) {
			touched = append(touched, p.f)
		}
	}
	for _, f := range touched {
		g.publishLocked(ctx, view, f)
	}
	g.refreshLenses()
	if command == cmdDismiss {
		return map[string]int{"dismissed": gone}, nil
	}
	return map[string]int{"rejected": rejected}, nil
}
