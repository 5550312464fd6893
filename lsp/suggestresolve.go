package lsp

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/internal/affix"
	"github.com/graft-editor/graft/lsp/internal/span"
	"github.com/graft-editor/graft/workspace"
)

// syncLocked brings the suggestions of f to the file's text in view: when
// the text or its version moved since they were resolved, their line
// hints follow the change and they are resolved again. Those whose change
// now stands in the text (made by hand, or by another apply) are removed,
// as applied ones are. g.mu is held.
func (g *suggestions) syncLocked(ctx context.Context, view *workspace.View, f *suggestedFile) error {
	doc, err := view.Read(ctx, f.abs)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var version *int32
	var mapper *span.Mapper
	if snap, ok := view.Snapshot(f.abs); ok {
		v := snap.Version
		version = &v
		if err == nil && snap.Text == doc.Text {
			mapper = mapperOf(snap) // from the buffer's lines, at little cost
		}
	}
	if err == nil && !doc.Exists {
		err = fmt.Errorf("%s does not exist", view.Rel(f.abs))
	}
	if f.mapper != nil && err == nil && f.err == nil && doc.Text == f.text && sameVersion(version, f.version) {
		return nil
	}
	// A pending hunk that the change leaves as it was, moved at most,
	// stands where follow puts it, and need not be resolved again.
	carry := f.mapper != nil && err == nil && f.err == nil
	for _, sg := range f.list {
		for _, h := range sg.hunks {
			h.moved = carry && h.pending()
		}
	}
	if carry && doc.Text != f.text {
		f.follow(doc.Text)
	}
	if doc.Text != f.text || !carry {
		f.followChoices(doc.Text, carry)
	}
	f.text, f.version, f.err = doc.Text, version, err
	if f.mapper = mapper; f.mapper == nil {
		f.mapper = span.NewMapper(f.text)
	}
	g.placeChoicesLocked(f)
	for _, sg := range f.list {
		if err := g.resolveHunksLocked(ctx, view, f, sg); err != nil {
			return err
		}
	}
	f.list = slices.DeleteFunc(f.list, func(sg *suggestion) bool {
		if sg.landed() {
			g.s.log.Info("suggestion applied already", zap.String("id", sg.id), zap.String("path", sg.res.Path))
		}
		return sg.landed()
	})
	return nil
}

// sameVersion reports whether two optional versions are the same.
func sameVersion(a, b *int32) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// resolveLocked resolves the block of sg, a suggestion being made,
// against the text of f, which must be that of f in view, records the
// outcome in sg, and makes its hunks of its changes. It returns an error
// only when ctx is done. g.mu is held.
func (g *suggestions) resolveLocked(ctx context.Context, view *workspace.View, f *suggestedFile, sg *suggestion) error {
	stale := func(err error) {
		sg.res.Status, sg.res.Err, sg.res.Message = engine.StatusFailed, err, err.Error()
		sg.start, sg.end = clampOffsets(f.text, sg.start, sg.end)
		sg.rng = g.protocolRange(f, sg.start, sg.end)
	}
	if f.err != nil {
		stale(f.err)
		return nil
	}
	res, err := workspace.Plan(ctx, view, []dialect.Block{sg.orig}, workspace.PlanOptions{Engine: g.engineOptions(), History: g.s.history})
	if err != nil {
		return err
	}
	index := sg.res.Index
	sg.res = res.Blocks[0]
	sg.res.Index = index
	if !sg.pending() {
		sg.start, sg.end = clampOffsets(f.text, sg.start, sg.end)
		sg.rng = g.protocolRange(f, sg.start, sg.end)
		return nil
	}
	fc := res.Files[0]
	if fc.Before != f.text {
		stale(fmt.Errorf("%s changed while the suggestion was resolved; it is resolved again at the next change", fc.Path))
		return nil
	}
	// The plan's edits of the file are the block's changes, as the
	// engine resolved them.
	if len(fc.Edits) == 0 {
		stale(fmt.Errorf("%s: the block changes nothing; not suggested", fc.Path))
		return nil
	}
	// The suggestion stands on what it changes; for a change of whole
	// lines, on the block's region: the lines it quotes, which a person
	// recognises.
	sg.start, sg.end = fc.Edits[0].Start, fc.Edits[len(fc.Edits)-1].End
	wholeLines := (sg.start == 0 || f.text[sg.start-1] == '\n') && (sg.end == len(f.text) || sg.end > 0 && f.text[sg.end-1] == '\n')
	if b := sg.res; wholeLines && b.ResolvedStartLine >= 1 && b.ResolvedEndLine <= f.mapper.Lines() && b.ResolvedStartLine <= b.ResolvedEndLine {
		if a, err := f.mapper.Offset(span.Position{Line: b.ResolvedStartLine - 1}, span.UTF8); err == nil {
			sg.start = min(sg.start, a)
		}
		if z, err := f.mapper.Offset(span.Position{Line: b.ResolvedEndLine}, span.UTF8); err == nil && b.ResolvedEndLine < f.mapper.Lines() {
			sg.end = max(sg.end, z)
		} else if b.ResolvedEndLine == f.mapper.Lines() {
			sg.end = len(f.text)
		}
	}
	sg.rng = g.protocolRange(f, sg.start, trimLineBreak(f.text, sg.start, sg.end))
	sg.hunks = nil
	for _, e := range fc.Edits {
		sg.nhunk++
		h := &hunk{n: sg.nhunk, res: sg.res}
		g.pinLocked(f, sg, h, e)
		sg.hunks = append(sg.hunks, h)
	}
	return nil
}

// engineOptions returns the engine options of the server's settings.
func (g *suggestions) engineOptions() engine.Options {
	g.s.mu.Lock()
	defer g.s.mu.Unlock()
	return engine.Options{Threshold: g.s.settings.Threshold}
}

// trimLineBreak returns where a region's range ends: before the line break
// that ends its last line, so that the range stays on the region's lines.
func trimLineBreak(text string, start, end int) int {
	if end > start && text[end-1] == '\n' {
		end--
		if end > start && text[end-1] == '\r' {
			end--
		}
	} else if end > start && text[end-1] == '\r' {
		end--
	}
	return end
}

// clampOffsets returns start and end inside text, in order.
func clampOffsets(text string, start, end int) (int, int) {
	start, end = min(max(start, 0), len(text)), min(max(end, 0), len(text))
	return start, max(start, end)
}

// protocolRange returns the LSP range of the bytes [start, end) of the
// text of f, in the encoding agreed with the client. An end that falls
// inside a character or a line break moves back to where its line starts.
func (g *suggestions) protocolRange(f *suggestedFile, start, end int) protocol.Range {
	enc := g.s.encoding()
	pos := func(off int) protocol.Position {
		p, err := f.mapper.Position(off, enc)
		if err != nil {
			off = strings.LastIndexByte(f.text[:off], '\n') + 1
			p, _ = f.mapper.Position(off, enc)
		}
		return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
	}
	return protocol.Range{Start: pos(start), End: pos(end)}
}

// follow carries the places of f's hunks from its text to new, the text
// the document holds now: the region each is pinned on, its line hint,
// and where it was last seen move with the lines inserted or deleted
// above them. A hunk whose region the change touches is moved no more
// (moved false): it must be resolved again.
func (f *suggestedFile) follow(new string) {
	edits := lineDiffEdits(f.text, new)
	shift := func(start, end int) (int, int, bool) {
		s, lost := shiftOffset(edits, start)
		e, _ := shiftOffset(edits, end)
		return s, max(s, e), lost
	}
	// touched reports whether the change touches the region [ps, pe) of
	// the text: changes or inserts lines inside it.
	touched := func(ps, pe int) bool {
		for _, e := range edits {
			if e.Start < pe && e.End > ps || e.Start == e.End && e.Start > ps && e.Start < pe {
				return true
			}
		}
		return ps == pe
	}
	// lineShift returns how many lines the change inserts (or, below
	// zero, deletes) above the offset off of the text.
	lineShift := func(off int) int {
		n := 0
		for _, e := range edits {
			if e.End > off {
				break
			}
			n += strings.Count(e.New, "\n") - strings.Count(f.text[e.Start:e.End], "\n")
		}
		return n
	}
	for _, sg := range f.list {
		sg.start, sg.end, _ = shift(sg.start, sg.end)
		for _, h := range slices.Concat(sg.hunks, sg.sent) {
			h.moved = h.moved && !touched(h.ps, h.ps+len(h.block.Old))
			h.start, h.end, _ = shift(h.start, h.end)
			if e := &h.block.Edit; e.Op == engine.OpReplace {
				e.Line += lineShift(h.ps)
			}
			h.ps, _, _ = shift(h.ps, h.ps)
		}
	}
}

// maxFollowBytes bounds the text that lineDiffEdits compares line by line; a
// larger change between the common ends is one change as a whole.
const maxFollowBytes = 1 << 20

// lineDiffEdits returns the edits, whole lines and in order, that turn old
// into new. The common ends are skipped first, in linear time, so that a
// change of a few lines costs little whatever the size of the text.
func lineDiffEdits(old, new string) []udiff.Edit { return linesBetweenEnds(old, new, maxFollowBytes) }

// linesBetweenEnds is lineDiffEdits with follow for maxFollowBytes: the
// most text between the common ends that is compared line by line.
func linesBetweenEnds(old, new string, follow int) []udiff.Edit {
	p := affix.Prefix(old, new)
	p = strings.LastIndexByte(old[:p], '\n') + 1 // back to a line start
	s := affix.Suffix(old[p:], new[p:])
	// The common end starts a line of both texts: else the middle of one
	// ends within a line, which then matches none of the other's.
	lineStart := func(t string, i int) bool { return i == p || t[i-1] == '\n' }
	for s > 0 && !(lineStart(old, len(old)-s) && lineStart(new, len(new)-s)) {
		s--
	}
	oldMid, newMid := old[p:len(old)-s], new[p:len(new)-s]
	if oldMid == newMid {
		return nil
	}
	if len(oldMid)+len(newMid) > follow {
		return []udiff.Edit{{Start: p, End: len(old) - s, New: newMid}}
	}
	edits := udiff.Lines(oldMid, newMid)
	for i := range edits {
		edits[i].Start += p
		edits[i].End += p
	}
	return edits
}

// shiftOffset returns where the offset off of the old text of edits is in
// the new text. An offset inside a changed region maps to the region's
// start, and lost is true; an insertion at off goes before it.
func shiftOffset(edits []udiff.Edit, off int) (to int, lost bool) {
	delta := 0
	for _, e := range edits {
		switch {
		case e.End < off || (e.End == off && e.Start < off) || (e.Start == off && e.End == off):
			delta += len(e.New) - (e.End - e.Start)
		case e.Start >= off:
			return off + delta, false
		default:
			return e.Start + delta, true
		}
	}
	return off + delta, false
}

// summarizeChange says in one line what the edits change in text.
func summarizeChange(text string, edits []engine.Change) string {
	count := func(s string) int { return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1 }
	lines := func(s string) string {
		if n := count(s); n != 1 {
			return fmt.Sprintf("%d lines", n)
		}
		return "1 line"
	}
	// gist is the first line of s that is not blank, cut to a length
	// that reads on one line.
	gist := func(s string) string {
		line := ""
		for l := range strings.Lines(s) {
			if line = strings.TrimSpace(l); line != "" {
				break
			}
		}
		const maxRunes = 60
		if utf8.RuneCountInString(line) > maxRunes {
			line = string([]rune(line)[:maxRunes-1]) + "…"
		}
		if line == "" {
			return "(blank)"
		}
		return line
	}
	if len(edits) == 0 {
		return "no change"
	}
	var s string
	e := edits[0]
	removed, added := text[e.Start:e.End], e.Text
	switch {
	case removed == "":
		s = fmt.Sprintf("insert %s: %s", lines(added), gist(added))
	case added == "":
		s = fmt.Sprintf("delete %s: %s", lines(removed), gist(removed))
	default:
		s = gist(removed) + " → " + gist(added)
		if a, b := count(removed), count(added); a > 1 || b > 1 {
			s = fmt.Sprintf("replace %s with %d: %s", lines(removed), b, s)
		}
	}
	switch n := len(edits) - 1; {
	case n == 1:
		s += " (and 1 more change)"
	case n > 1:
		s += fmt.Sprintf(" (and %d more changes)", n)
	}
	return s
}
