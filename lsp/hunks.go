package lsp

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
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
	// rs and re are where old stands in the region of the pinned block
	// (its Edit.Old).
	rs, re int
	// start and end are where old stood in the file's text when the
	// suggestion was last resolved; rng is that range, and diag the range
	// its diagnostic covers (without the line break that ends it), in the
	// client's encoding.
	start, end int
	rng, diag  protocol.Range
	summary    string
}

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
	// State is "pending", or "stale" when the block no longer resolves;
	// Message then says why, and Range is where the hunk was last seen.
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
	strategy, score := sg.how()
	out := make([]hunkEntry, 0, len(sg.hunks))
	for _, h := range sg.hunks {
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
		if !sg.pending() {
			e.State, e.Message = suggestionStale, sg.res.Message
		}
		out = append(out, e)
	}
	return out
}

// how returns how the suggestion resolves: as its block first resolved
// while the pinned block resolves exactly, else as it resolves now.
func (sg *suggestion) how() (string, float64) {
	if sg.res.Strategy == "exact" && sg.res.Score >= 1 && sg.strategy != "" {
		return sg.strategy, sg.score
	}
	return sg.res.Strategy, sg.res.Score
}

// pinLocked makes the changes of sg, resolved in the text of f as edits,
// its hunks, and pins its block on them: the exact edit of the lines they
// change (and of those the block quoted) into those lines with the hunks
// made. A hunk that makes the same change as one of the hunks before, in
// the same order, keeps its id. g.mu is held.
func (g *suggestions) pinLocked(f *suggestedFile, sg *suggestion, edits []workspace.TextEdit) {
	if !sg.pinned {
		sg.strategy, sg.score = sg.res.Strategy, sg.res.Score
	}
	ps, pe := pinRegion(f.text, f.mapper, edits, sg.res.ResolvedStartLine, sg.res.ResolvedEndLine)
	prev := sg.hunks
	hunks := make([]*hunk, 0, len(edits))
	rel := make([]workspace.TextEdit, 0, len(edits))
	j := 0
	for _, e := range edits {
		h := &hunk{old: f.text[e.Start:e.End], new: e.New, rs: e.Start - ps, re: e.End - ps, start: e.Start, end: e.End}
		if k := slices.IndexFunc(prev[j:], func(p *hunk) bool { return p.old == h.old && p.new == h.new }); k >= 0 {
			h.n = prev[j+k].n
			j += k + 1
		} else {
			sg.nhunk++
			h.n = sg.nhunk
		}
		h.rng = g.protocolRange(f, h.start, h.end)
		h.diag = g.protocolRange(f, h.start, trimLineBreak(f.text, h.start, h.end))
		h.summary = summarizeChange(f.text, []workspace.TextEdit{e})
		hunks = append(hunks, h)
		rel = append(rel, workspace.TextEdit{Start: h.rs, End: h.re, New: h.new})
	}
	sg.hunks = hunks
	old := f.text[ps:pe]
	b := dialect.Block{Edit: engine.Edit{
		Path:    sg.orig.Path,
		Old:     old,
		New:     workspace.ApplyEdits(old, rel),
		Line:    strings.Count(f.text[:ps], "\n") + 1,
		Dialect: sg.orig.Dialect,
		Source:  sg.orig.Source,
	}}
	if old == "" {
		// Only in an empty file: the block inserts at its top.
		b.Op, b.Line = engine.OpInsert, 0
	}
	sg.block, sg.pinned = b, true
}

// pinRegion returns the region a block with edits is pinned on, in text:
// the whole lines from the first edit to the last, and the lines first to
// last (1-based, the lines the block quoted; 0 for none). A region that
// would be empty, an insertion at the end of the file, takes the line
// before it, so that the pinned block has a place to be found at.
//
// A block that changes part of a line (a str-replace of a few words) is
// pinned on exactly what it changes: resolved again, the block then
// changes that part as it did, where a region of whole lines would make
// its change one of whole lines.
func pinRegion(text string, m *workspace.Mapper, edits []workspace.TextEdit, first, last int) (int, int) {
	ps, pe := edits[0].Start, edits[len(edits)-1].End
	lineStart := func(i int) bool { return i == 0 || text[i-1] == '\n' }
	lineEnd := func(i int) bool { return i == len(text) || lineStart(i) }
	whole := true
	for _, e := range edits {
		whole = whole && lineStart(e.Start) && lineEnd(e.End)
	}
	if !whole && ps < pe {
		return ps, pe
	}
	if first >= 1 && first <= last && last <= m.Lines() {
		if a, err := m.Offset(workspace.Position{Line: first - 1}, workspace.UTF8); err == nil {
			ps = min(ps, a)
		}
		if last == m.Lines() {
			pe = len(text)
		} else if z, err := m.Offset(workspace.Position{Line: last}, workspace.UTF8); err == nil {
			pe = max(pe, z)
		}
	}
	ps = strings.LastIndexByte(text[:ps], '\n') + 1
	if pe == ps || pe > 0 && text[pe-1] != '\n' {
		if i := strings.IndexByte(text[pe:], '\n'); i >= 0 {
			pe += i + 1
		} else {
			pe = len(text)
		}
	}
	if pe == ps && ps > 0 {
		ps = strings.LastIndexByte(text[:ps-1], '\n') + 1
	}
	return ps, pe
}

// relEdits returns the hunks hs as edits of the pinned block's region.
func relEdits(hs []*hunk) []workspace.TextEdit {
	rel := make([]workspace.TextEdit, len(hs))
	for i, h := range hs {
		rel[i] = workspace.TextEdit{Start: h.rs, End: h.re, New: h.new}
	}
	slices.SortFunc(rel, func(a, b workspace.TextEdit) int { return cmp.Compare(a.Start, b.Start) })
	return rel
}

// with returns the pinned block of sg with only the hunks hs made.
func (sg *suggestion) with(hs []*hunk) dialect.Block {
	b := sg.block
	b.New = workspace.ApplyEdits(b.Old, relEdits(hs))
	return b
}

// fold makes the hunks hs, which the editor applied, part of the pinned
// block's region: the other hunks move along, and the block's New stays.
func (sg *suggestion) fold(hs []*hunk) {
	var made []*hunk
	delta := 0
	keep := make([]*hunk, 0, len(sg.hunks))
	for _, h := range sg.hunks {
		if slices.Contains(hs, h) {
			made = append(made, h)
			delta += len(h.new) - (h.re - h.rs)
			continue
		}
		h.rs, h.re = h.rs+delta, h.re+delta
		keep = append(keep, h)
	}
	sg.block.Old = workspace.ApplyEdits(sg.block.Old, relEdits(made))
	sg.hunks = keep
}

// drop removes the hunks hs, which the person rejected: the pinned block
// no longer makes them.
func (sg *suggestion) drop(hs []*hunk) {
	sg.hunks = slices.DeleteFunc(sg.hunks, func(h *hunk) bool { return slices.Contains(hs, h) })
	sg.block.New = workspace.ApplyEdits(sg.block.Old, relEdits(sg.hunks))
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
	out := make([]pick, len(f.list))
	for i, sg := range f.list {
		out[i] = pick{f: f, sg: sg}
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
	// Blocks report each suggestion the hunks are part of, as graft.apply
	// reports a block: what was sent of it.
	Blocks []suggestReport `json:"blocks"`
}

// A target is the hunks of one suggestion that graft.accept sends.
type target struct {
	f     *suggestedFile
	sg    *suggestion
	hunks []*hunk
}

// accept is graft.accept, and graft.applySuggestion (command) as its
// alias: it sends the hunks a names, one, a suggestion's, a document's or
// all, to the editor as one WorkspaceEdit, exactly those changes, each
// document's for the buffer version they were computed for. The
// suggestions are resolved again against the documents as they are now
// first: a hunk is never applied against a version it was not computed
// for, and the editor refuses the edit when the buffer changed on its way
// (the hunks then stay pending). The hunks the editor applied become part
// of their block, whose other hunks stay pending; a block with none left
// is gone.
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
	var targets []target
	var stale, landed []pick
	for _, p := range picks {
		switch {
		case p.sg.landed() || !slices.Contains(p.f.list, p.sg):
			landed = append(landed, p)
		case !p.sg.pending():
			stale = append(stale, p)
		default:
			if hs := p.hunks(); len(hs) > 0 {
				targets = append(targets, target{f: p.f, sg: p.sg, hunks: hs})
			} else {
				landed = append(landed, p) // its change was made meanwhile
			}
		}
	}
	for _, p := range landed {
		out.Accepted = append(out.Accepted, p.ids...)
		out.Blocks = append(out.Blocks, g.report(view, p.f, p.sg))
	}
	if len(targets) == 0 {
		defer g.mu.Unlock()
		if len(stale) == 0 {
			// Every one has landed: nothing to send, and nothing failed.
			out.Applied = true
			g.s.showMessage(ctx, protocol.MessageTypeInfo, "Graft: the change is made already")
			return out, nil
		}
		sg := stale[0].sg
		out.FailureReason = fmt.Sprintf("the suggestion no longer applies: %s", strings.TrimSpace(sg.res.Message))
		if len(picks) > 1 {
			out.FailureReason = fmt.Sprintf("none of the %d suggestions applies any more: %s", len(picks), strings.TrimSpace(sg.res.Message))
		}
		for _, p := range stale {
			out.Blocks = append(out.Blocks, g.report(view, p.f, p.sg))
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
	n := 0
	for _, t := range targets {
		n += len(t.hunks)
	}
	label := "Graft: accept hunk"
	if n > 1 {
		label = fmt.Sprintf("Graft: accept %d hunks", n)
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
		out.Blocks = append(out.Blocks, suggestReport{blockReport: reports[i], ID: t.sg.id})
		if !sent.Applied || !p.res.Blocks[i].Status.OK() {
			continue
		}
		for _, h := range t.hunks {
			out.Accepted = append(out.Accepted, t.sg.hunkID(h))
		}
		t.sg.fold(t.hunks)
		if len(t.sg.hunks) == 0 {
			t.f.remove([]*suggestion{t.sg})
		}
		if !slices.Contains(touched, t.f) {
			touched = append(touched, t.f)
		}
	}
	for _, f := range touched {
		g.publishLocked(ctx, view, f)
	}
	if len(touched) > 0 {
		g.refreshLenses()
	}
	g.s.log.Info("accept", zap.Int("hunks", n), zap.Strings("accepted", out.Accepted), zap.Bool("client", sent.Applied))
	return out, nil
}

// planLocked returns the plan that makes exactly the hunks of targets:
// each suggestion's pinned block with only those hunks, resolved against
// view, bottom up in each file, whose edits are the hunks themselves. A
// file whose text in view is not the one the hunks were resolved in, or
// where the blocks do not make exactly the hunks, is failed: nothing of
// it is sent. g.mu is held.
func (g *suggestions) planLocked(ctx context.Context, view *workspace.View, targets []target) (*plan, error) {
	// Bottom up: each change leaves the lines above it, where the others
	// are, as they were, and so their line hints right.
	slices.SortStableFunc(targets, func(a, b target) int {
		if a.f != b.f {
			return strings.Compare(a.f.abs, b.f.abs)
		}
		return b.hunks[0].start - a.hunks[0].start
	})
	blocks := make([]dialect.Block, len(targets))
	for i, t := range targets {
		blocks[i] = t.sg.with(t.hunks)
	}
	g.s.mu.Lock()
	threshold, caps := g.s.settings.Threshold, g.s.caps
	g.s.mu.Unlock()
	res, err := workspace.Plan(ctx, view, blocks, workspace.PlanOptions{Engine: engine.Options{Threshold: threshold}, History: g.s.history})
	if err != nil {
		return nil, err
	}
	for i := range res.Files {
		fc := &res.Files[i]
		if !fc.Changed {
			continue
		}
		f := g.files[fc.Abs()]
		var edits []workspace.TextEdit
		for _, t := range targets {
			if t.f != f {
				continue
			}
			for _, h := range t.hunks {
				edits = append(edits, workspace.TextEdit{Start: h.start, End: h.end, New: h.new})
			}
		}
		slices.SortFunc(edits, func(a, b workspace.TextEdit) int { return cmp.Compare(a.Start, b.Start) })
		if f == nil || fc.Before != f.text || !apart(edits) || workspace.ApplyEdits(fc.Before, edits) != fc.After {
			res.Fail(i, fmt.Errorf("%s changed since its hunks were computed; nothing sent: try again", fc.Path))
			continue
		}
		fc.Edits = edits
	}
	refuseUnsupported(res, caps)
	return &plan{view: view, blocks: blocks, res: res}, nil
}

// apart reports whether edits, in order, do not overlap.
func apart(edits []workspace.TextEdit) bool {
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
	picks, err := g.pickLocked(a)
	if err != nil {
		return nil, err
	}
	rejected, gone := 0, 0
	var touched []*suggestedFile
	for _, p := range picks {
		hs := p.hunks()
		rejected += len(hs)
		p.sg.drop(hs)
		if len(p.sg.hunks) == 0 {
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
