package engine

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/graft-editor/graft/engine/internal/editdist"
	"github.com/graft-editor/graft/engine/internal/loose"
)

// minSubline is the shortest search (in loose bytes) looked for as an
// approximate part of a line: shorter fragments match too much by chance.
const minSubline = 10

// maxSubline is the longest: a longer search is a line, or lines, of its own.
const maxSubline = 256

// subline resolves a one-line search that quotes part of a line with a
// slip in it (a typo, a stale name): the closest substring of any line,
// found by bounded approximate matching, taken when it is close enough and
// clearly closer than any other. Like every fragment, only the part the
// model changed is rewritten. It reports done=false to leave the search to
// the line-level strategies: when it quotes a whole line, or when nothing
// is close.
func (r *resolver) subline(rd reading) (*Match, *Error, bool) {
	needle := loose.View(rd.old)
	n := len(needle)
	if n < minSubline || n > maxSubline {
		return nil, nil, false
	}
	thr := r.opt.threshold()
	k := int(float64(n) * (1 - thr))
	// Places up to twice as far are looked for too: not to be taken, but
	// as twins whose differences from the best place the search may have
	// confused.
	reach := 2 * k
	_, _, sig := loose.Key(needle)
	ix := r.index()
	ix.MeasureAll()
	type hit struct{ line, start, end, dist int }
	var hits []hit
	near := func(i int) bool {
		ln, lsig := ix.Measure(i)
		return ln >= n-reach && bits.OnesCount64(sig&^lsig) <= reach
	}
	// The budget runs out when more lines are near than it allows: count
	// them before searching any.
	budget := scanBudget
	for i := range ix.Lines() {
		if near(i) {
			if budget--; budget < 0 {
				return nil, nil, false
			}
		}
	}
	for i := range ix.Lines() {
		if !near(i) {
			continue
		}
		text := ix.View(i)
		for from := 0; from < len(text); {
			s, e, d, ok := editdist.Find(needle, text[from:], reach)
			if !ok {
				break
			}
			hits = append(hits, hit{i, from + s, from + e, d})
			from += max(e, s+1)
		}
	}
	if len(hits) == 0 {
		return nil, nil, false
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].dist < hits[b].dist })
	best := hits[0]
	if best.dist > k || best.dist == 0 || (best.start == 0 && best.end == ix.ViewLen(best.line)) {
		return nil, nil, false
	}
	score := 1 - float64(best.dist)/float64(n)
	var tied []hit
	for _, h := range hits[1:] {
		if h.dist < best.dist+2 {
			tied = append(tied, h)
		}
	}
	if len(tied) > 0 {
		spans := []Span{{best.line + 1, best.line + 1}}
		sameLine := false
		for _, h := range tied {
			spans = append(spans, Span{h.line + 1, h.line + 1})
			sameLine = sameLine || h.line == best.line
		}
		if sameLine || !r.hintPicks(spans, rd.hint, 0) {
			e := refuse(ReasonAmbiguous, "ambiguous: the search resembles parts of lines %d and %d about equally (%.0f%% similar); quote more of the line", r.d.shown(best.line+1), r.d.shown(tied[0].line+1), 100*score)
			for _, h := range append([]hit{best}, tied...) {
				e.Candidates = append(e.Candidates, Candidate{StartLine: h.line + 1, EndLine: h.line + 1, Score: 1 - float64(h.dist)/float64(n)})
			}
			return nil, e, true
		}
	}
	// Another place within reach is a twin: the words that tell it from
	// the best one decide, as for blocks (see twin).
	raw := func(h hit) string {
		v := r.view(h.line, h.line+1)
		last := int(v.src[h.end-1])
		_, size := utf8.DecodeRuneInString(r.d.lf[last:])
		return r.d.lf[v.src[h.start] : last+size]
	}
	for k, h := range hits[1:] {
		if k == 8 {
			break
		}
		if h.line == best.line && h.start < best.end && best.start < h.end {
			continue
		}
		if v := sideOn(rd.old, raw(best), raw(h)); v.other > 0 || v.chosen <= v.neither {
			spans := []Span{{best.line + 1, best.line + 1}, {h.line + 1, h.line + 1}}
			if r.hintPicks(spans, rd.hint, 0) {
				break
			}
			e := refuse(ReasonAmbiguous, "ambiguous: the search resembles parts of lines %d and %d, which differ where the search matches neither; quote the text as the file has it, or give a line number", r.d.shown(best.line+1), r.d.shown(h.line+1))
			for _, c := range []hit{best, h} {
				e.Candidates = append(e.Candidates, Candidate{StartLine: c.line + 1, EndLine: c.line + 1, Score: 1 - float64(c.dist)/float64(n)})
			}
			return nil, e, true
		}
	}
	v := r.view(best.line, best.line+1)
	align := editdist.Align(needle, v.text[best.start:best.end])
	if align == nil {
		return nil, nil, false
	}
	last := int(v.src[best.end-1])
	_, size := utf8.DecodeRuneInString(r.d.lf[last:])
	h := looseHit{v: v, at: best.start, n: best.end - best.start, start: r.d.fromLF(int(v.src[best.start])), end: r.d.fromLF(last + size), align: align, score: score}
	m, err := r.fragment(h, rd, "similarity")
	if err != nil {
		return nil, err, true
	}
	m.Notes = append(m.Notes, fmt.Sprintf("matched part of line %d, %d character(s) differ from the search", r.d.shown(best.line+1), best.dist))
	return m, nil, true
}

// hintPicks reports whether the line hint points clearly at spans[want].
func (r *resolver) hintPicks(spans []Span, hint, want int) bool {
	k, ok := byHint(spans, hint)
	return ok && k == want
}

// oneLine reports whether a search quotes at most one line.
func oneLine(old string) bool { return !strings.Contains(strings.TrimSpace(old), "\n") }
