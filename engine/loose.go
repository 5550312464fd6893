package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/graft-editor/graft/engine/internal/editdist"
	"github.com/graft-editor/graft/engine/internal/loose"
	"github.com/graft-editor/graft/engine/internal/textscan"
)

// looseMatch resolves a reading whose search occurs in the file once white
// space is ignored and unicode punctuation folded: indentation shifted,
// tabs turned to spaces, spaces collapsed or added, blank lines missing or
// added, curly quotes. It reports done=false when there is no such place.
func (r *resolver) looseMatch(rd reading) (*Match, *Error, bool) {
	hits := r.looseHits(rd.old)
	if len(hits) == 0 {
		return nil, nil, false
	}
	d := r.d
	spans := make([]Span, len(hits))
	for k, h := range hits {
		spans[k] = Span{d.lineAt(h.start) + 1, d.lineAt(h.end-1) + 1}
	}
	pick, err := r.choose(spans, rd.hint, "the search text occurs (ignoring white space)")
	if err != nil {
		return nil, err, true
	}
	h := hits[pick]
	a, b, whole := d.wholeLines(h.start, h.end)
	if !whole {
		if !r.sameShape(h, rd.old) {
			// The lines of the search fall on the file's lines askew: a
			// line of its own taken for the start of another ("}" for
			// "})"). Leave it to the line-level alignment.
			return nil, nil, false
		}
		frd := rd
		frd.old, frd.new = r.fileIndented(h, rd.old, rd.new)
		m, err := r.fragment(h, frd, "whitespace-normalized")
		return m, err, true
	}
	ix := r.index()
	s, t := trimEnds(splitLines(rd.old), splitLines(rd.new))
	srch := r.search(s)
	sl := srch.lines
	reg, ok := align(ix, sl, a, b+1)
	if !ok || reg.mismatches() > 0 {
		// The text is there but not its lines (a line break where the
		// file has a space): leave it to the line-level alignment.
		return nil, nil, false
	}
	if f, n := r.writtenElsewhere(srch, &reg); f >= 0 {
		// The model copied its spacing from another place, where a line
		// or two differ (a stale line): either may be meant.
		other := Span{f + 1, f + len(sl)}
		here := Span{reg.first + 1, reg.last + 1}
		if !r.hintPicks([]Span{here, other}, rd.hint, 0) {
			e := refuse(ReasonAmbiguous, "ambiguous: the search is at %s white space aside, and %d of its %d lines are as written at %s, where the others differ: quote the lines as the file has them at the place to change, or give a line number",
				d.linesWord(here.StartLine, here.EndLine), n, nonBlank(sl), d.linesWord(other.StartLine, other.EndLine))
			e.Candidates = append(e.Candidates, r.candidate(sl, &reg), Candidate{StartLine: other.StartLine, EndLine: other.EndLine})
			return nil, e, true
		}
	}
	m, err := r.place(sl, t, &reg, rd)
	if err != nil {
		return nil, err, true
	}
	if len(hits) > 1 {
		m.Notes = append(m.Notes, byHintNote(r.d, rd.hint, spans[pick], len(hits)))
	}
	return m, nil, true
}

// A looseView is the loose view of a stretch of the file, with the offset
// in d.lf of the rune behind each of its bytes.
type looseView struct {
	text string
	src  []int32
}

func (r *resolver) view(lo, hi int) *looseView {
	from, to := r.d.lfOffset(lo), r.d.lfOffset(hi)
	text, src := loose.Map(r.d.lf[from:to])
	for i := range src {
		src[i] += int32(from)
	}
	return &looseView{text, src}
}

// A looseHit is one place where the loose view of the search occurs.
type looseHit struct {
	v          *looseView
	at         int // offset of the hit in v.text
	n          int // its length in v.text
	start, end int // the bytes of d.text it covers
	// align maps offsets of the search's loose view to offsets from at,
	// for a hit that is only similar; nil for an equal one.
	align []int
	score float64 // 1 for an equal hit
}

// pos is the offset in h.v.text of offset k of the search's loose view.
func (h *looseHit) pos(k int) int {
	if h.align == nil {
		return h.at + k
	}
	return h.at + h.align[k]
}

// looseHits finds where the loose view of old occurs, if it is not empty.
// Only the lines that could hold it are looked at: for a one-line search,
// the lines that have every character it has; otherwise the windows where
// its distinctive lines occur. A search of nothing but common lines, or of
// at most two partial lines, is looked for in the whole file.
func (r *resolver) looseHits(old string) []looseHit {
	ix := r.index()
	var needle string  // the loose view of old, once there is a place to look for it
	var views [][2]int // the lines to look in, whose loose view is mapped to the file's bytes only if it holds needle
	if oneLine(old) {
		if needle = loose.View(old); needle == "" {
			return nil
		}
		_, _, sig := loose.Key(needle)
		ix.MeasureAll()
		for i := range ix.Lines() {
			if n, lineSig := ix.Measure(i); n >= len(needle) && lineSig&sig == sig && strings.Contains(ix.View(i), needle) {
				views = append(views, [2]int{i, i + 1})
				if len(views) > maxOccurrences {
					break
				}
			}
		}
	} else {
		lines, _ := trimEnds(splitLines(old), nil)
		srch := r.search(lines)
		s := srch.lines
		// Every line between the first and the last (which may be parts
		// of lines) must be in the file as it is, ignoring white space.
		occs := r.tally(srch).occs
		for j := 1; j < len(s)-1; j++ {
			if o := occs[s[j].key]; o != nil && o.count == 0 {
				return nil
			}
		}
		c := r.candidates(srch, false)
		for _, w := range c.wins {
			views = append(views, [2]int{w.lo, w.hi})
		}
		switch {
		case len(c.wins) > 0:
		case c.crowded:
			// Every line is common: look only where all of them follow
			// each other, whole lines, blank lines aside.
			var lines []*sline
			for j := range s {
				if !s[j].blank {
					lines = append(lines, &s[j])
				}
			}
			for _, at := range ix.findSeq(lines, maxOccurrences+1) {
				views = append(views, [2]int{at[0], at[1]})
			}
		case nonBlank(s) <= 2:
			views = append(views, [2]int{0, ix.Lines()})
		}
	}
	if len(views) == 0 {
		return nil
	}
	if needle == "" {
		if needle = loose.View(old); needle == "" {
			return nil
		}
	}
	var hits []looseHit
	seen := map[int]bool{}
	for _, lines := range views {
		if !strings.Contains(loose.View(r.d.lf[r.d.lfOffset(lines[0]):r.d.lfOffset(lines[1])]), needle) {
			continue // most windows: the search is not there as it is
		}
		v := r.view(lines[0], lines[1])
		for _, at := range occurrences(v.text, needle, maxOccurrences) {
			h := r.hit(v, at, len(needle))
			if !seen[h.start] {
				seen[h.start] = true
				hits = append(hits, h)
			}
		}
		if len(hits) >= maxOccurrences {
			break
		}
	}
	slices.SortFunc(hits, func(a, b looseHit) int { return cmp.Compare(a.start, b.start) })
	return hits
}

func (r *resolver) hit(v *looseView, at, n int) looseHit {
	d := r.d
	last := int(v.src[at+n-1])
	_, size := utf8.DecodeRuneInString(d.lf[last:])
	return looseHit{v: v, at: at, n: n, start: d.fromLF(int(v.src[at])), end: d.fromLF(last + size), score: 1}
}

func nonBlank(s []sline) int {
	n := 0
	for i := range s {
		if !s[i].blank && !s[i].elision {
			n++
		}
	}
	return n
}

// A hitLine is a line of a search, after its first, that matched part of
// the file white space aside, with the file line its first character
// stands on and the file's bytes before it there.
type hitLine struct {
	text   string
	f      int
	before string
}

// hitLines returns the lines of the search old after its first, blank
// ones aside, as they stand on the file's lines in the hit h.
func (r *resolver) hitLines(h looseHit, old string) []hitLine {
	lines := strings.Split(old, "\n")
	d := r.d
	var out []hitLine
	k := len(loose.View(lines[0]))
	for _, line := range lines[1:] {
		n := len(loose.View(line))
		if n == 0 {
			continue
		}
		pos := d.fromLF(int(h.v.src[h.pos(k)]))
		f := d.lineAt(pos)
		out = append(out, hitLine{text: line, f: f, before: d.text[d.start[f]:pos]})
		k += n
	}
	return out
}

// sameShape reports whether the lines of a search that matched part of
// the file ignoring white space stand on the file's lines the way they
// stand in the search: each line after the first starts a file line, and
// all of them are indented alike relative to the file.
func (r *resolver) sameShape(h looseHit, old string) bool {
	shift, seen := 0, false
	for _, l := range r.hitLines(h, old) {
		if strings.TrimSpace(l.before) != "" {
			return false
		}
		delta := columns(l.before, 4) - columns(indentOf(l.text), 4)
		if seen && delta != shift {
			return false
		}
		shift, seen = delta, true
	}
	return true
}

// fileIndented returns a search that matched part of the file white
// space aside, over several lines (see sameShape), and its replacement,
// with the lines after the first indented as the file indents them: each
// line of the search as its file line, each line of the replacement as
// the file would indent it by the model's indentation (see reindenter).
// The change carried onto the file's text then writes the lines it adds
// at the file's depth, not the model's (a copy shifted a tab deeper).
func (r *resolver) fileIndented(h looseHit, old, new string) (string, string) {
	var pairs [][2]string
	var fileLines []string
	for _, l := range r.hitLines(h, old) {
		pairs = append(pairs, [2]string{l.text, l.before + strings.TrimLeft(l.text, " \t")})
		fileLines = append(fileLines, r.d.line(l.f))
	}
	if len(pairs) == 0 {
		return old, new
	}
	if !slices.ContainsFunc(pairs, func(p [2]string) bool { return indentOf(p[0]) != indentOf(p[1]) }) {
		return old, new // the copy indents as the file does
	}
	re := newReindenter(pairs, fileLines, nil)
	refModel, refFile := indentOf(pairs[0][0]), indentOf(pairs[0][1])
	indent := func(text string) string {
		ls := strings.Split(text, "\n")
		for i := 1; i < len(ls); i++ {
			if strings.TrimSpace(ls[i]) == "" {
				continue
			}
			ind := indentOf(ls[i])
			ls[i] = re.indent(ind, refModel, refFile) + ls[i][len(ind):]
		}
		return strings.Join(ls, "\n")
	}
	return indent(old), indent(new)
}

// fragment replaces part of a line (or from the middle of one line to the
// middle of another) that matched the search ignoring white space, or
// nearly. The model's change is carried onto the file's text token by
// token (see carry), so that the file keeps its own spacing around it;
// where it touches a token that the file has differently from the search,
// it is a conflict. The match's change is the whole part of the text the
// search matched, as the change makes it, as for a search found as it is:
// cut to the bytes that change, a change that writes again the text
// beside it (NewBuilder made NewNewBuilder) would read as made already
// (see standing).
func (r *resolver) fragment(h looseHit, rd reading, strategy string) (*Match, *Error) {
	d := r.d
	file := d.text[h.start:h.end]
	if text, ok := carry(rd.old, toLF(file), rd.new); ok {
		return &Match{
			Strategy:  strings.Join(append(append([]string(nil), rd.tags...), strategy), "+"),
			Score:     round3(h.score),
			StartLine: d.lineAt(h.start) + 1,
			EndLine:   d.lineAt(max(h.start, h.end-1)) + 1,
			Changes:   []Change{{Start: h.start, End: h.end, Text: d.endings(h.start, h.end, text)}},
		}, nil
	}
	if h.align != nil {
		return nil, &Error{
			Reason:  ReasonConflict,
			Summary: fmt.Sprintf("conflict at line %d: the edit changes a part of the line that differs in the file from the model's copy", d.shown(d.lineAt(h.start)+1)),
			Detail:  fmt.Sprintf("the file reads:\n  %s\nthe model's copy reads:\n  %s\nand the model changes it to:\n  %s\n", file, rd.old, rd.new),
		}
	}
	return r.spliceFragment(h, rd, strategy), nil
}

// commonEnds returns the lengths of the common beginning and end of a and
// b, on rune boundaries, not overlapping.
func commonEnds(a, b string) (int, int) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	for p > 0 && p < len(a) && !utf8.RuneStart(a[p]) {
		p--
	}
	q := 0
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	for q > 0 && !utf8.RuneStart(a[len(a)-q]) {
		q--
	}
	return p, q
}

// spliceFragment rewrites the part of a fragment between the common
// beginning and end of the model's search and replacement: the fallback
// for a fragment whose tokens do not line up with the file's (a word the
// file writes in two).
func (r *resolver) spliceFragment(h looseHit, rd reading, strategy string) *Match {
	start, end := h.start, h.end
	old, new := rd.old, rd.new
	p, q := editdist.CommonEnds(old, new)
	for p > 0 && p < len(old) && !utf8.RuneStart(old[p]) {
		p--
	}
	for q > 0 && !utf8.RuneStart(old[len(old)-q]) {
		q--
	}
	kp := len(loose.View(old[:p]))
	ke := len(loose.View(old[:len(old)-q]))
	total := len(loose.View(old))
	d := r.d
	from := start
	if kp > 0 && h.pos(kp) > h.at {
		last := int(h.v.src[h.pos(kp)-1])
		_, size := utf8.DecodeRuneInString(d.lf[last:])
		from = d.fromLF(last + size)
	}
	to := end
	if ke < total && h.pos(ke) < h.at+h.n {
		to = d.fromLF(int(h.v.src[h.pos(ke)]))
	}
	// Where the model's unchanged beginning ends in white space, so does
	// the part of the file it stands for; likewise at the end.
	if p > 0 && textscan.IsSpace(old[p-1]) {
		for from < to && textscan.IsSpace(d.text[from]) {
			from++
		}
	}
	if q > 0 && textscan.IsSpace(old[len(old)-q]) {
		for to > from && textscan.IsSpace(d.text[to-1]) {
			to--
		}
	}
	if to < from {
		to = from
	}
	mid := new[p : len(new)-q]
	strategy = strings.Join(append(append([]string(nil), rd.tags...), strategy), "+")
	m := &Match{
		Strategy:  strategy,
		Score:     round3(h.score),
		StartLine: d.lineAt(start) + 1,
		EndLine:   d.lineAt(max(start, end-1)) + 1,
		Changes:   []Change{{Start: start, End: end, Text: d.text[start:from] + d.endings(from, to, mid) + d.text[to:end]}},
	}
	return m
}

// trimEnds drops the lines at the ends of the search that say nothing
// about where it is, elisions and blank lines, together with the same
// lines at the ends of the replacement: a blank line the model padded its
// search with must not pull the region onto a blank line of the file.
func trimEnds(old, new []string) ([]string, []string) {
	idle := func(l string) bool { return isElision(l) || isBlank(l) }
	for len(old) > 0 && idle(old[0]) {
		if len(new) > 0 && idle(new[0]) && isElision(new[0]) == isElision(old[0]) {
			new = new[1:]
		}
		old = old[1:]
	}
	for len(old) > 0 && idle(old[len(old)-1]) {
		if n := len(new); n > 0 && idle(new[n-1]) && isElision(new[n-1]) == isElision(old[len(old)-1]) {
			new = new[:n-1]
		}
		old = old[:len(old)-1]
	}
	return old, new
}

// writtenElsewhere returns the first line of a place apart from the
// region reg, found white space aside, where more of the search's lines
// stand exactly as written (trailing white space aside) than in reg, and
// more than half of them: the model copied its spacing from there, where
// some line differs (a stale line), and the region only has the same
// words spaced otherwise (a copy of the code aligned another way). It
// returns -1 when there is none, else the place and how many lines stand
// there as written. Lines too common to place a search do not count.
func (r *resolver) writtenElsewhere(srch *search, reg *region) (first, n int) {
	ix := r.index()
	s := srch.lines
	asWritten := func(j, f int) bool {
		return strings.TrimRight(s[j].text, " \t\r") == strings.TrimRight(ix.Line(f), " \t\r")
	}
	here := 0
	for _, o := range reg.ops {
		if o.kind == opPair && asWritten(o.s, o.f) {
			here++
		}
	}
	t := r.tally(srch)
	votes := map[int]int{}
	for j := range s {
		occ := t.occs[s[j].key]
		if s[j].blank || s[j].elision || occ == nil || occ.count > commonLine {
			continue
		}
		for _, f := range occ.lines {
			if f := int(f); (f < reg.first || f > reg.last) && asWritten(j, f) {
				votes[f-j]++
			}
		}
	}
	first, n = -1, 0
	for diag, v := range votes {
		if v > n || v == n && diag < first {
			first, n = diag, v
		}
	}
	if n <= here || 2*n <= nonBlank(s) || first < 0 {
		return -1, 0
	}
	return first, n
}
