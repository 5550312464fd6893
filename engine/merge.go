package engine

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff/lcs"
	"github.com/graft-editor/graft/engine/internal/editdist"
	"github.com/graft-editor/graft/engine/internal/loose"
	"github.com/graft-editor/graft/engine/internal/textscan"
)

// The model's search and its replacement say what it meant to change: the
// lines the replacement leaves as they were are not to be rewritten, even
// where the model's copy of them is off. Merging is a three-way merge with
// the search as the base, the matched region as one side and the
// replacement as the other: lines the model did not change keep the file's
// bytes; the model's changes land on the lines they belong to, indented
// like the file; a change that falls on a line the file has changed since
// the model read it is a conflict.

// A hunk is one change of the model: search lines [sa, sb) become
// replacement lines [ta, tb).
type hunk struct{ sa, sb, ta, tb int }

const elisionToken = "\x00elision"

// hunks diffs the search against the replacement, ignoring trailing white
// space and treating any two elision lines as equal.
func hunks(s []sline, t []string) ([]hunk, []int) {
	a := make([]string, len(s))
	for i := range s {
		a[i] = diffKey(s[i].text)
	}
	b := make([]string, len(t))
	for i := range t {
		b[i] = diffKey(t[i])
	}
	var hs []hunk
	of := make([]int, len(s))
	for i := range of {
		of[i] = -1
	}
	la, lb := make([]string, len(s)), make([]string, len(t))
	for i := range s {
		la[i] = depthKey(s[i].text)
	}
	for i := range t {
		lb[i] = depthKey(t[i])
	}
	add := func(d lcs.Diff) {
		for i := d.Start; i < d.End; i++ {
			of[i] = len(hs)
		}
		hs = append(hs, hunk{d.Start, d.End, d.ReplStart, d.ReplEnd})
	}
	diffs := diff(la, lb)
	i, j := 0, 0
	kept := func(to int) {
		for ; i < to; i, j = i+1, j+1 {
			if a[i] == b[j] {
				continue
			}
			if n := len(hs); n > 0 && hs[n-1].sb == i && hs[n-1].tb == j {
				hs[n-1].sb, hs[n-1].tb = i+1, j+1
				of[i] = n - 1
				continue
			}
			add(lcs.Diff{Start: i, End: i + 1, ReplStart: j, ReplEnd: j + 1})
		}
	}
	for k, d := range diffs {
		if (d.Start == d.End) != (d.ReplStart == d.ReplEnd) {
			d = slideKept(d, s, t, la, lb, diffs, k)
		}
		kept(d.Start)
		add(d)
		i, j = d.End, d.ReplEnd
	}
	kept(len(s))
	return hs, of
}

// depthKey is the key a line of the search or the replacement is lined up
// by: its text without its indentation and trailing white space, any
// elision the same. Inner white space counts: two lines that differ only
// inside a string ("    }\n" and "        }\n") are two lines.
func depthKey(line string) string {
	if isElision(line) {
		return elisionToken
	}
	return strings.TrimSpace(line)
}

// slideKept returns the insertion or deletion d, the k-th of diffs, the
// diff of the search s (its keys a) against the replacement t (keys b),
// at the place, of those it may stand at as well (see slideSpan: a "}"
// added before a "}", a check added above the same check, one of two
// lines alike deleted), where the most of the lines the model kept are
// byte for byte as its copy has them: the copy of a repeated line that
// carries the copy's own white space is the one kept, and the lines added
// or deleted are the others. Among places alike, an insertion goes last,
// so that the line the model kept is the first of the two and the block
// it adds ends with its own copy; a deletion stays where the diff put it.
func slideKept(d lcs.Diff, s []sline, t []string, a, b []string, diffs []lcs.Diff, k int) lcs.Diff {
	loA, loB, hiA, hiB := 0, 0, len(a), len(b)
	if k > 0 {
		loA, loB = diffs[k-1].End, diffs[k-1].ReplEnd
	}
	if k+1 < len(diffs) {
		hiA, hiB = diffs[k+1].Start, diffs[k+1].ReplStart
		if d.Start == d.End {
			hiA-- // an insertion stops a line short of the next edit
		}
	}
	lo, hi := slideSpan(d, a, b, loA, loB, hiA, hiB)
	na, nb := d.End-d.Start, d.ReplEnd-d.ReplStart
	// cost counts the kept lines of the stretch the places share that
	// differ from their copies, with d at line p of the search.
	cost := func(p int) int {
		c, j := 0, lo.ReplStart
		for i := lo.Start; i < hi.End; i, j = i+1, j+1 {
			if i == p {
				i, j = i+na, j+nb
				if i >= hi.End {
					break
				}
			}
			if s[i].text != t[j] {
				c++
			}
		}
		return c
	}
	place := func(p int) lcs.Diff {
		q := lo.ReplStart + p - lo.Start
		return lcs.Diff{Start: p, End: p + na, ReplStart: q, ReplEnd: q + nb}
	}
	// The places are weighed from the one preferred among equals: an
	// insertion's last, then those before it; a deletion's own, then the
	// others from the first.
	best, from, to, step := d, lo.Start, hi.Start, 1
	if na == 0 {
		best, from, to, step = hi, hi.Start, lo.Start, -1
	}
	bestCost := cost(best.Start)
	for p := from; p != to+step; p += step {
		if c := cost(p); c < bestCost {
			best, bestCost = place(p), c
		}
	}
	return best
}

func diffKey(line string) string {
	if isElision(line) {
		return elisionToken
	}
	return strings.TrimRight(line, " \t\r")
}

// An outLine is a line of the merged region with its line ending: a line
// of the file kept or changed keeps its own, and a new line standing
// where a line of the search stood takes that line's; "" for the other
// new lines, which end as the line before them in a file that mixes
// endings, else as the file.
type outLine struct {
	text, eol string
	// blank says the line is a blank line on one side only: one the
	// replacement adds (blankNew), or one of the file the search lacks
	// (blankFile). Side by side, the two are the same blank line.
	blank blankSide
}

type blankSide uint8

const (
	blankNone blankSide = iota
	blankNew
	blankFile
)

// merger carries the state of one merge.
type merger struct {
	ix      *index
	s       []sline
	t       []string
	r       *region
	hs      []hunk
	hunkOf  []int
	emitted []bool
	pairOf  []int  // file line paired with each search line, or -1
	dist    []int  // edit distance of each paired search line to its file line
	merged  []bool // search lines whose file line took the model's change
	clash   []bool // search lines whose change touches a token their file line has differently
	source  []int  // the search line each replacement line is a changed version of, or -1
	re      *reindenter
	// uneven holds two paired search lines that the model's copy
	// indents otherwise than the file by different amounts, once looked
	// for (see unevenCopy).
	uneven      [2]int
	unevenKnown bool
	// depth is the depth in the file, in columns, of each replacement
	// line placed so far, -1 for the others (see indent); keptAs is the
	// search line each line the replacement keeps stands for, once
	// needed (see beside).
	depth  []int
	keptAs []int
	// err is the conflict an emitted line ran into.
	err     error
	out     []outLine
	kept    []int         // file lines kept that differ from the model's copy
	missing []int         // file lines kept that the model's copy lacks
	into    []int         // file lines that differ from the model's copy and took its change
	rewrote []int         // file lines that differ from the model's copy, replaced by its lines as written
	punct   map[rune]bool // unicode punctuation the region's file lines use
	// dropped and added count the words the model's change takes out of
	// its search lines and puts into its replacement; nil until needed.
	dropped, added map[string]int
	// keys are the loose keys of the region's lines and the lines beside
	// it, for regionLine; nil until needed.
	keys map[uint64]int

	// A replacement with one elision line keeps some of its hunk's search
	// lines: [keepFrom, keepTo), or keepFrom -1 when it has none.
	marker   []int // index in t of the elision line, or -1
	keepFrom []int
	keepTo   []int
	tailDone []bool
}

// merged says which file lines a merge kept although the model's copy of
// them differs (kept) or lacks them (missing), which it changed while
// keeping what differs (into), and which it replaced by the model's lines
// as written although they differ from its copy (rewrote): 0-based file
// lines.
type merged struct{ kept, missing, into, rewrote []int }

// merge builds the lines that replace region r.
func merge(ix *index, s []sline, t []string, r *region) ([]outLine, merged, error) {
	hs, hunkOf := hunks(s, t)
	m := &merger{ix: ix, s: s, t: t, r: r, hs: hs, hunkOf: hunkOf}
	// The per-line arrays, and room for the lines out, in one allocation
	// of each kind.
	ints, flags := make([]int, 2*len(s)), make([]bool, 2*len(s)+len(hs))
	m.pairOf, m.dist = ints[:len(s)], ints[len(s):]
	m.merged, m.clash, m.emitted = flags[:len(s)], flags[len(s):2*len(s)], flags[2*len(s):]
	m.out = make([]outLine, 0, len(r.ops)+len(t))
	for i := range m.pairOf {
		m.pairOf[i] = -1
	}
	m.depth = make([]int, len(t))
	for i := range m.depth {
		m.depth[i] = -1
	}
	pairs := make([][2]string, 0, len(s))
	region := make([]string, 0, len(r.ops))
	for _, o := range r.ops {
		if o.kind == opPair {
			m.pairOf[o.s], m.dist[o.s] = o.f, o.dist
			pairs = append(pairs, [2]string{s[o.s].text, ix.Line(o.f)})
		}
		if o.f >= 0 {
			region = append(region, ix.Line(o.f))
		}
	}
	m.re = newReindenter(pairs, region, func() []string {
		var lines []string
		for i := 0; i < ix.Lines() && len(lines) < 2000; i++ {
			lines = append(lines, ix.Line(i))
		}
		return lines
	})
	if err := m.elisionHunks(); err != nil {
		return nil, merged{}, err
	}
	m.sources()

	last := -1 // the last search line handled
	for k, o := range r.ops {
		if o.s >= 0 {
			m.tails(o.s)
			m.insertions(o.s)
		}
		if m.err != nil {
			return nil, merged{}, m.err
		}
		switch o.kind {
		case opPair:
			if err := m.pair(o); err != nil {
				return nil, merged{}, err
			}
			last = o.s
		case opSearchOnly:
			if err := m.searchOnly(o); err != nil {
				return nil, merged{}, err
			}
			last = o.s
		case opElided:
			if h := m.hunkOf[o.s]; h < 0 || m.keeping(h, o.s) {
				m.keep(o.f)
			} else {
				m.enter(h)
			}
			last = o.s
		case opFileOnly:
			if err := m.fileOnly(o, last, m.nextSearch(k)); err != nil {
				return nil, merged{}, err
			}
		}
	}
	m.tails(len(s))
	m.insertions(len(s))
	if m.err != nil {
		return nil, merged{}, m.err
	}
	return m.out, merged{kept: m.kept, missing: m.missing, into: m.into, rewrote: m.rewrote}, nil
}

// elisionHunks finds the hunks whose replacement elides lines the search
// spells out, and which of their search lines the elision keeps: the
// replacement lines before it replace the hunk's first search lines where
// they resemble them (otherwise they are new), and likewise at the end.
func (m *merger) elisionHunks() error {
	n := len(m.hs)
	m.marker, m.keepFrom, m.keepTo, m.tailDone = make([]int, n), make([]int, n), make([]int, n), make([]bool, n)
	for h, hk := range m.hs {
		m.marker[h], m.keepFrom[h], m.keepTo[h] = -1, -1, -1
		searchElides := false
		for i := hk.sa; i < hk.sb; i++ {
			searchElides = searchElides || m.s[i].elision
		}
		if searchElides {
			continue
		}
		for i := hk.ta; i < hk.tb; i++ {
			if !isElision(m.t[i]) {
				continue
			}
			if m.marker[h] >= 0 {
				return refuse(ReasonInvalid, "the replacement elides code more than once in one change (search lines %d-%d): cannot tell which lines each \"...\" keeps", hk.sa+1, hk.sb)
			}
			m.marker[h] = i
		}
		mk := m.marker[h]
		if mk < 0 {
			continue
		}
		from := hk.sa
		for i := hk.ta; i < mk; i++ {
			if from < hk.sb && resembles(&m.s[from], m.t[i]) {
				from++
			}
		}
		to := hk.sb
		for i := hk.tb - 1; i > mk; i-- {
			if to > from && resembles(&m.s[to-1], m.t[i]) {
				to--
			}
		}
		m.keepFrom[h], m.keepTo[h] = from, to
	}
	return nil
}

// resembles reports whether a replacement line is a changed version of a
// search line rather than a new one.
func resembles(l *sline, line string) bool {
	if l.blank || isBlank(line) {
		return l.blank && isBlank(line)
	}
	_, ok := editdist.AtLeast(l.loose, loose.View(line), minLineSim)
	return ok
}

// nextSearch returns the search line of the first op after k that has one.
func (m *merger) nextSearch(k int) int {
	for _, o := range m.r.ops[k+1:] {
		if o.s >= 0 {
			return o.s
		}
	}
	return len(m.s)
}

func (m *merger) keep(f int) {
	m.out = append(m.out, outLine{text: m.ix.Line(f), eol: m.ix.d.lineEnding(f)})
}

// insertions emits the pure insertions that go before search line upTo.
func (m *merger) insertions(upTo int) {
	for h, hk := range m.hs {
		if hk.sa == hk.sb && hk.sa <= upTo && !m.emitted[h] {
			m.enter(h)
		}
	}
}

// enter emits a hunk's replacement lines the first time one of its search
// lines is met; for a hunk whose replacement elides lines, only those
// before the elision.
func (m *merger) enter(h int) {
	if m.emitted[h] {
		return
	}
	m.emitted[h] = true
	hk := m.hs[h]
	end := hk.tb
	if m.marker[h] >= 0 {
		end = m.marker[h]
	}
	for i := hk.ta; i < end; i++ {
		m.emitNew(h, i)
	}
}

// keeping reports whether search line s is one a hunk's elision keeps.
func (m *merger) keeping(h, s int) bool {
	return h >= 0 && m.keepFrom[h] >= 0 && m.keepFrom[h] <= s && s < m.keepTo[h]
}

// tails emits the replacement lines after an elision once the search
// lines it keeps have been passed (s is the next search line).
func (m *merger) tails(s int) {
	for h, hk := range m.hs {
		if m.marker[h] < 0 || m.tailDone[h] || !m.emitted[h] || s < m.keepTo[h] {
			continue
		}
		m.tailDone[h] = true
		for i := m.marker[h] + 1; i < hk.tb; i++ {
			m.emitNew(h, i)
		}
	}
}

// emitNew emits replacement line i of hunk h, indented like the file.
// Where the line is a changed version of a search line paired with a file
// line, the model's change is carried onto the file's line token by token
// (see carry), keeping the file's bytes around it; when the change touches
// a token the file has differently, the line is a conflict (see pair).
func (m *merger) emitNew(h, i int) {
	line := m.t[i]
	if isBlank(line) {
		if k := m.blankBefore(blankFile); k >= 0 {
			// The file has the blank line the model adds, where the
			// search lacked it: it stands for this one.
			m.out[k].blank = blankNone
			return
		}
		m.out = append(m.out, outLine{blank: blankNew})
		return
	}
	hk := m.hs[h]
	if j := m.source[i]; j >= 0 && m.pairOf[j] >= 0 {
		f := m.ix.Line(m.pairOf[j])
		b := m.s[j].text
		if content, ok := carry(strings.TrimLeft(b, " \t"), strings.TrimLeft(f, " \t"), strings.TrimLeft(line, " \t")); ok {
			if m.r.folded {
				content = foldText(content, m.fileRunes())
			}
			ind := m.indent(i, j)
			m.out = append(m.out, outLine{text: ind + content, eol: m.ix.d.lineEnding(m.pairOf[j])})
			m.merged[j] = true
			if m.dist[j] > 0 {
				m.into = append(m.into, m.pairOf[j])
			}
			return
		}
		m.clash[j] = true
	}
	m.rewriting(h)
	if m.r.folded {
		line = foldText(line, m.fileRunes())
	}
	ref, eol := hk.sa-1, ""
	if hk.sb > hk.sa {
		// The line stands where a line of the search stood: it ends as
		// that line's file line does.
		ref = hk.sa + min(i-hk.ta, hk.sb-hk.sa-1)
		if f := m.pairOf[ref]; f >= 0 {
			eol = m.ix.d.lineEnding(f)
		}
	}
	if j := m.reference(ref); j >= 0 {
		line = m.indent(i, j) + strings.TrimLeft(line, " \t")
	}
	m.out = append(m.out, outLine{text: line, eol: eol})
}

// indent returns the file's indentation for replacement line i, placed by
// the paired search line j: its depth in the file, moved as the model
// moved the line from j's depth, or the file's depth of a line of the
// copy the model indents as much (see reindenter.indent). Where the
// model's copy indents its lines otherwise than the file by different
// amounts (see unevenCopy), a line it moves to another depth than j's has
// several meanings that may differ: the depth of j moved as the model
// moved the line, and its depth beside the lines next to it in the
// replacement, as far from each as the model wrote it (see beside).
// Where they differ, which the model means cannot be told: that is a
// conflict (m.err).
func (m *merger) indent(i, j int) string {
	mi, refModel, refFile := indentOf(m.t[i]), indentOf(m.s[j].text), indentOf(m.ix.Line(m.pairOf[j]))
	ind := m.re.indent(mi, refModel, refFile)
	tw := m.re.tabWidth
	m.depth[i] = columns(ind, tw)
	if mi == refModel || m.err != nil {
		return ind
	}
	moved := columns(refFile, tw) + columns(mi, tw) - columns(refModel, tw)
	for _, step := range []int{-1, 1} {
		p, pf := m.beside(i, step)
		if p < 0 || moved == pf+columns(mi, tw)-columns(indentOf(m.t[p]), tw) {
			continue
		}
		if a, b := m.unevenCopy(); a >= 0 {
			m.err = m.unevenConflict(i, p, a, b)
			break
		}
	}
	return ind
}

// beside returns the line of the replacement next to line i, above it
// (step -1) or below it (step 1), blank lines aside, and that line's depth
// in the file: as the merge placed it, or as the file has it where the
// replacement keeps the line. It returns -1 when there is none, when its
// depth is not known yet (a line of a hunk not placed yet), or when it
// stands for a first line trimmed (see trimmedFirst).
func (m *merger) beside(i, step int) (p, depth int) {
	p = i + step
	for p >= 0 && p < len(m.t) && isBlank(m.t[p]) {
		p += step
	}
	if p < 0 || p >= len(m.t) {
		return -1, 0
	}
	if j := m.source[p]; m.depth[p] >= 0 && !m.trimmedFirst(j) {
		return p, m.depth[p]
	}
	if m.keptAs == nil {
		// The search line each line the replacement keeps stands for,
		// counted between hunks; -1 for the lines of hunks.
		m.keptAs = make([]int, len(m.t))
		ti, si := 0, 0
		for k := 0; k <= len(m.hs); k++ {
			hk := hunk{len(m.s), len(m.s), len(m.t), len(m.t)} // past the last
			if k < len(m.hs) {
				hk = m.hs[k]
			}
			for ; ti < hk.ta; ti, si = ti+1, si+1 {
				m.keptAs[ti] = si
			}
			for ; ti < hk.tb; ti++ {
				m.keptAs[ti] = -1
			}
			si = hk.sb
		}
	}
	if si := m.keptAs[p]; si >= 0 && si < len(m.s) && m.pairOf[si] >= 0 && !m.trimmedFirst(si) {
		return p, columns(indentOf(m.ix.Line(m.pairOf[si])), m.re.tabWidth)
	}
	return -1, 0
}

// trimmedFirst reports whether search line j is the first, quoted flush
// left where the file indents it, and other lines follow: the start of
// the copy trimmed (an answer's code block, a tool's quote), which tells
// nothing of how the model indents the lines after it.
func (m *merger) trimmedFirst(j int) bool {
	return j == 0 && len(m.s) > 1 && m.pairOf[0] >= 0 && !m.s[0].blank && indentOf(m.s[0].text) == "" && indentOf(m.ix.Line(m.pairOf[0])) != ""
}

// unevenCopy returns two paired search lines that teach how the model
// indents (see teachesIndent), whose copies are off the
// file's indentation by different amounts; -1, -1 when all are off by one.
func (m *merger) unevenCopy() (a, b int) {
	if !m.unevenKnown {
		m.unevenKnown, m.uneven = true, [2]int{-1, -1}
		shift, first := 0, -1
		for j, f := range m.pairOf {
			if f < 0 || m.s[j].blank || !teachesIndent(m.s[j].text) || m.trimmedFirst(j) {
				continue
			}
			d := columns(indentOf(m.ix.Line(f)), m.re.tabWidth) - columns(indentOf(m.s[j].text), m.re.tabWidth)
			if first < 0 {
				shift, first = d, j
			} else if d != shift {
				m.uneven = [2]int{first, j}
				break
			}
		}
	}
	return m.uneven[0], m.uneven[1]
}

// unevenConflict is the conflict of replacement line i, which the model
// moved to another depth beside line p than its own move makes it, the copy
// off by one amount on search line a and another on search line b.
func (m *merger) unevenConflict(i, p, a, b int) error {
	var d strings.Builder
	for _, s := range []int{a, b} {
		f := m.pairOf[s]
		fmt.Fprintf(&d, "file line %d reads:\n  %s\nthe model's copy of it reads:\n  %s\n", m.ix.d.shown(f+1), m.ix.Line(f), m.s[s].text)
	}
	fmt.Fprintf(&d, "the model moves this line to another depth:\n  %s\nbeside:\n  %s\n", m.t[i], m.t[p])
	d.WriteString("quote the lines as the file indents them, and indent the replacement to match")
	return &Error{
		Reason:  ReasonConflict,
		Summary: fmt.Sprintf("conflict: the edit moves lines to another depth, and the model's copy indents its lines otherwise than the file, by different amounts (lines %d and %d): which depth it means cannot be told", m.ix.d.shown(m.pairOf[a]+1), m.ix.d.shown(m.pairOf[b]+1)),
		Detail:  d.String(),
	}
}

// rewriting records the file lines of hunk h that differ in their bytes
// from the model's copy and that its replacement lines, written as the
// model wrote them, replace: the change could not be carried onto them.
func (m *merger) rewriting(h int) {
	hk := m.hs[h]
	for j := hk.sa; j < hk.sb; j++ {
		if f := m.pairOf[j]; f >= 0 && !m.merged[j] && m.s[j].text != m.ix.Line(f) && !slices.Contains(m.rewrote, f) {
			m.rewrote = append(m.rewrote, f)
		}
	}
}

// sources pairs each replacement line with the search line it is a
// changed version of, or -1: in a hunk with as many lines on both sides,
// line for line; in another, each replacement line with the next search
// line of the hunk it resembles, in order. Hunks whose replacement elides
// lines are left alone.
func (m *merger) sources() {
	m.source = make([]int, len(m.t))
	for i := range m.source {
		m.source[i] = -1
	}
	for h, hk := range m.hs {
		if m.marker[h] >= 0 {
			continue
		}
		if hk.sb-hk.sa == hk.tb-hk.ta {
			for i := hk.ta; i < hk.tb; i++ {
				m.source[i] = hk.sa + i - hk.ta
			}
			continue
		}
		next := hk.sa
		for i := hk.ta; i < hk.tb && next < hk.sb; i++ {
			for j := next; j < hk.sb; j++ {
				if !m.s[j].blank && resembles(&m.s[j], m.t[i]) {
					m.source[i], next = j, j+1
					break
				}
			}
		}
	}
}

// fileRunes returns the unicode punctuation the region's file lines use
// themselves, which new lines keep.
func (m *merger) fileRunes() map[rune]bool {
	if m.punct == nil {
		m.punct = map[rune]bool{}
		for f := m.r.first; f <= m.r.last; f++ {
			for _, c := range m.ix.Line(f) {
				if c >= 0x80 && (loose.Fold(c) != "" || unicode.IsSpace(c)) {
					m.punct[c] = true
				}
			}
		}
	}
	return m.punct
}

// reference returns the paired, non-blank search line nearest to j, or -1.
// j may be -1, the place before the first search line (lines inserted
// there), whose nearest is len(m.s) lines away at most.
func (m *merger) reference(j int) int {
	for d := 0; d <= len(m.s); d++ {
		for _, c := range []int{j - d, j + d} {
			if c >= 0 && c < len(m.s) && m.pairOf[c] >= 0 && !m.s[c].blank {
				return c
			}
		}
	}
	return -1
}

func (m *merger) pair(o op) error {
	h := m.hunkOf[o.s]
	if h >= 0 {
		m.enter(h)
	}
	if h < 0 || m.keeping(h, o.s) {
		if o.dist > 0 {
			if err := m.renamedKept(o); err != nil {
				return err
			}
			m.kept = append(m.kept, o.f)
		}
		m.keep(o.f)
		return nil
	}
	switch {
	case m.merged[o.s] || m.agrees(h, o.f):
	case m.clash[o.s]:
		// The model changes a token its copy has differently from the
		// file: whatever the reason (a stale read, a slip), the change
		// has no safe meaning there.
		return m.conflict(h, o.f, o.s)
	case o.dist > 0 && !isTypo(m.s[o.s].text, m.ix.Line(o.f)):
		return m.conflict(h, o.f, o.s)
	}
	return nil
}

// renamedKept refuses to keep the file's version of a line the model
// leaves as its copy has it, when the copy differs from the file by a
// name that the model's change renames to the copy's elsewhere: the model
// wrote the line as it would be after the rename ("if (byte2 !== 0)" while
// renaming byte to byte2 on the lines it changes), so the file's line
// would keep the old name and break the code, and writing the model's line
// would change a line it did not mark as changed. Only the model can say.
func (m *merger) renamedKept(o op) error {
	from, to, ok := renamed(m.s[o.s].text, m.ix.Line(o.f))
	if !ok {
		return nil
	}
	m.changeWords()
	if m.dropped[to] <= 0 || m.added[from] <= 0 {
		return nil
	}
	return &Error{
		Reason: ReasonConflict,
		Summary: fmt.Sprintf("conflict at line %d: the model's copy of the line has %q where the file has %q, and its change renames %q to %q on other lines; the line would keep the old name: quote it as the file has it",
			m.ix.d.shown(o.f+1), from, to, to, from),
		Detail: fmt.Sprintf("file line %d now reads:\n  %s\nthe model's copy of it, which the edit leaves unchanged, reads:\n  %s\n", m.ix.d.shown(o.f+1), m.ix.Line(o.f), m.s[o.s].text),
	}
}

// changeWords counts, once, the words the model's change takes out of its
// search lines (dropped) and puts into its replacement (added).
func (m *merger) changeWords() {
	if m.dropped != nil {
		return
	}
	m.dropped, m.added = map[string]int{}, map[string]int{}
	count := func(line string, into map[string]int, by int) {
		for i := 0; ; {
			var w string
			if w, i = nextToken(line, i); w == "" {
				return
			}
			if isWordToken(w) {
				into[w] += by
			}
		}
	}
	for _, hk := range m.hs {
		for j := hk.sa; j < hk.sb; j++ {
			count(m.s[j].text, m.dropped, 1)
			count(m.s[j].text, m.added, -1)
		}
		for i := hk.ta; i < hk.tb; i++ {
			count(m.t[i], m.dropped, -1)
			count(m.t[i], m.added, 1)
		}
	}
}

// renamedMissing refuses a line the model keeps that is not in the file
// but would be a line of the region, or beside it, with the name the
// model's change renames elsewhere put back: the model wrote the line as
// it would be after its rename, and the alignment, short of that line,
// may have shifted the rename onto lines it did not mean (a list that
// repeats "- *fma_op").
func (m *merger) renamedMissing(o op) error {
	line := m.s[o.s].text
	m.changeWords()
	if len(m.added) == 0 {
		return nil
	}
	for i := 0; ; {
		var from string
		if from, i = nextToken(line, i); from == "" {
			return nil
		}
		if !isWordToken(from) || m.added[from] <= 0 {
			continue // a word of the line the change does not write
		}
		for to, n := range m.dropped {
			if n <= 0 {
				continue
			}
			key, _, _ := loose.Key(renameWord(line, from, to))
			if f, ok := m.regionLine(key); ok {
				return &Error{
					Reason: ReasonConflict,
					Summary: fmt.Sprintf("conflict: the model's copy has a line the file does not, %q, which the file has at line %d with %q for %q, the rename the edit makes on other lines; quote the lines as the file has them",
						strings.TrimSpace(line), m.ix.d.shown(f+1), to, from),
				}
			}
		}
	}
}

// regionLine returns the first line of the region, or of the lines on
// either side of it, whose loose key is key.
func (m *merger) regionLine(key uint64) (int, bool) {
	if m.keys == nil {
		m.keys = map[uint64]int{}
		for f := min(m.ix.Lines()-1, m.r.last+1); f >= max(0, m.r.first-1); f-- {
			m.keys[m.ix.Key(f)] = f
		}
	}
	f, ok := m.keys[key]
	return f, ok
}

// renameWord returns line with every word from replaced by to.
func renameWord(line, from, to string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		j := wordEnd(line, i)
		if isWordToken(line[i:j]) {
			if line[i:j] == from {
				b.WriteString(to)
				i = j
				continue
			}
		}
		b.WriteString(line[i:j])
		i = j
	}
	return b.String()
}

// agrees reports whether the model's change already holds the file's
// version of line f (the model's copy was stale, its change is not).
func (m *merger) agrees(h, f int) bool {
	key := m.ix.Key(f)
	for i := m.hs[h].ta; i < m.hs[h].tb; i++ {
		if k, _, _ := loose.Key(m.t[i]); k == key {
			return true
		}
	}
	return false
}

func (m *merger) searchOnly(o op) error {
	h := m.hunkOf[o.s]
	if h < 0 {
		return m.renamedMissing(o)
	}
	m.enter(h)
	l := &m.s[o.s]
	if m.keeping(h, o.s) || l.blank || l.elision {
		return nil
	}
	if hk := m.hs[h]; hk.tb > hk.ta {
		return &Error{
			Reason:  ReasonConflict,
			Summary: fmt.Sprintf("conflict: the edit changes a line of its search that is not in the file: %q", strings.TrimSpace(l.text)),
			Detail:  "the file has changed since the model read it, or the model misremembered it; read the file again",
		}
	}
	return nil
}

func (m *merger) fileOnly(o op, last, next int) error {
	blank := m.ix.Blank(o.f)
	if last >= 0 && next < len(m.s) {
		if h := m.hunkOf[last]; h >= 0 && h == m.hunkOf[next] && !(m.keeping(h, last) && m.keeping(h, next)) {
			if blank {
				return nil // a blank line inside lines the model rewrote
			}
			return m.conflict(h, o.f, -1)
		}
	}
	for h, hk := range m.hs {
		if hk.sa == hk.sb && hk.sa == last+1 && !m.emitted[h] {
			if !blank {
				return m.conflict(h, o.f, -1)
			}
			if hk.tb > hk.ta && isBlank(m.t[hk.ta]) {
				// The insertion opens with the blank line the file has
				// here and the search lacked: the file's stands for it.
				m.keep(o.f)
				m.out[len(m.out)-1].blank = blankFile
				m.enter(h)
				return nil
			}
			m.enter(h)
		}
	}
	if !blank {
		m.missing = append(m.missing, o.f)
		m.keep(o.f)
		return nil
	}
	if k := m.blankBefore(blankNew); k >= 0 {
		// A blank line the model adds right before it is this one.
		m.out = slices.Delete(m.out, k, k+1)
		m.keep(o.f)
		return nil
	}
	m.keep(o.f)
	m.out[len(m.out)-1].blank = blankFile
	return nil
}

// blankBefore returns the index of a blank line of the given side among
// the blank lines that end the output so far, or -1.
func (m *merger) blankBefore(side blankSide) int {
	for k := len(m.out) - 1; k >= 0 && isBlank(m.out[k].text); k-- {
		if m.out[k].blank == side {
			return k
		}
	}
	return -1
}

func (m *merger) conflict(h, f, s int) error {
	hk := m.hs[h]
	var b strings.Builder
	fmt.Fprintf(&b, "file line %d now reads:\n  %s\n", m.ix.d.shown(f+1), m.ix.Line(f))
	if s >= 0 {
		fmt.Fprintf(&b, "the model's copy of it reads:\n  %s\n", m.s[s].text)
	} else {
		b.WriteString("the model's copy does not have this line\n")
	}
	b.WriteString("and the model changes it to:\n")
	for i := hk.ta; i < hk.tb; i++ {
		fmt.Fprintf(&b, "  %s\n", m.t[i])
	}
	if hk.ta == hk.tb {
		b.WriteString("  (nothing: the lines are deleted)\n")
	}
	return &Error{
		Reason:  ReasonConflict,
		Summary: fmt.Sprintf("conflict at line %d: the edit changes a line that differs in the file from the model's copy", m.ix.d.shown(f+1)),
		Detail:  b.String(),
	}
}

// isTypo reports whether two lines differ only by a slip of the keyboard
// inside one word (a letter dropped, doubled, swapped or mistyped), white
// space aside: not by a changed number, a word that extends another, or
// another word that happens to be close ("fixed", "failed").
func isTypo(a, b string) bool {
	var wa, wb string
	same := eachTokenPair(a, b, func(x, y string) bool {
		if x == y {
			return true
		}
		if wa != "" || !isWordToken(x) || !isWordToken(y) {
			return false
		}
		wa, wb = x, y
		return true
	})
	if !same {
		return false
	}
	if wa == "" {
		return true
	}
	if strings.ContainsAny(wa+wb, "0123456789") {
		return false
	}
	short, long := min(len(wa), len(wb)), max(len(wa), len(wb))
	if long < 3 || long-short >= 2 && (strings.HasPrefix(wa, wb) || strings.HasPrefix(wb, wa) || strings.HasSuffix(wa, wb) || strings.HasSuffix(wb, wa)) {
		return false
	}
	switch editdist.Distance(wa, wb) {
	case 1:
		return true
	case 2:
		return long >= 8 || sameLetters(wa, wb) // a long word, or two letters swapped
	}
	return false
}

// sameLetters reports whether a and b are made of the same bytes.
func sameLetters(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	x, y := []byte(a), []byte(b)
	slices.Sort(x)
	slices.Sort(y)
	return string(x) == string(y)
}

// renamed returns the word of a (the model's line) that b (the file's)
// has in its place, when the two lines are the same tokens but for that
// word, wherever it stands in the line: a slip of the keyboard once, but a
// different name when it recurs on other lines. White space does not
// count.
func renamed(a, b string) (from, to string, ok bool) {
	same := eachTokenPair(a, b, func(x, y string) bool {
		if x == y {
			return true
		}
		if !isWordToken(x) || !isWordToken(y) || from != "" && (x != from || y != to) {
			return false
		}
		from, to = x, y
		return true
	})
	if !same {
		return "", "", false
	}
	return from, to, from != ""
}

// eachTokenPair calls f with the tokens of a and b that stand at the same
// place in each, in order, while it returns true, and reports whether it
// did so to the end of both: a and b have as many tokens and f accepted
// every pair. A token is a word or a single other character; white space
// separates tokens and is none.
func eachTokenPair(a, b string, f func(x, y string) bool) bool {
	for i, j := 0, 0; ; {
		var x, y string
		x, i = nextToken(a, i)
		y, j = nextToken(b, j)
		switch {
		case x == "" || y == "":
			return x == y
		case !f(x, y):
			return false
		}
	}
}

// nextToken returns the first token of s from offset i on (see
// eachTokenPair), "" when there is none, and the offset after it.
func nextToken(s string, i int) (string, int) {
	for i < len(s) && textscan.IsSpace(s[i]) {
		i++
	}
	if i == len(s) {
		return "", i
	}
	j := wordEnd(s, i)
	return s[i:j], j
}

// wordEnd returns the end of the token of s that starts at offset i: the
// run of letters, digits and '_' (see isWordRune), or the one other
// character. A non-ASCII character that is no letter (Go assembly's "·"
// in "runtime·osyield") separates words as ASCII punctuation does.
func wordEnd(s string, i int) int {
	r, size := utf8.DecodeRuneInString(s[i:])
	j := i + size
	if isWordRune(r) {
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !isWordRune(r) {
				break
			}
			j += size
		}
	}
	return j
}

// isWordToken reports whether a token (see nextToken) is a word.
func isWordToken(tok string) bool {
	r, _ := utf8.DecodeRuneInString(tok)
	return isWordRune(r)
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// word widens [i, j) of s to the word around it.
func word(s string, i, j int) string {
	for i > 0 && isWordByte(s[i-1]) {
		i--
	}
	for j < len(s) && isWordByte(s[j]) {
		j++
	}
	return s[i:j]
}
