package engine

import (
	"math"
	"slices"
	"strings"
)

// An opKind says how one step of an alignment pairs the model's search
// lines with the file's lines.
type opKind uint8

const (
	opPair       opKind = iota // search line s is file line f (maybe changed)
	opSearchOnly               // search line s is not in the file
	opFileOnly                 // file line f is not in the search
	opElided                   // file line f is one of the lines elision s stands for
)

type op struct {
	kind opKind
	s, f int
	dist int // edit distance of a pair under the loose view
}

// A region is a candidate place for the search, aligned line by line.
type region struct {
	first, last int // file lines, both included
	ops         []op
	cost        float64
	score       float64
	level       int     // the loosest view a pair needed
	elided      bool    // an elision stands for some lines
	similar     int     // pairs of lines that are similar, not equal
	searchOnly  int     // non-blank search lines not in the file
	fileOnly    int     // non-blank file lines in the region not in the search
	blankOnly   int     // blank lines on one side only
	folded      bool    // some pair needed unicode punctuation folded
	cover       float64 // share of the search's non-blank weight paired with lines at least 80% alike
	lines       int     // non-blank, non-elision search lines

	// ambiguousElision names the lines of a search segment next to a
	// "..." that occur twice where it may stand, empty when none does.
	ambiguousElision string
}

func (r *region) overlaps(o *region) bool { return r.first <= o.last && o.first <= r.last }

const (
	mvStart byte = iota
	mvPair
	mvSkipSearch
	mvSkipFile
)

// align finds the best placement of search s inside lines [lo, hi) of
// ix's document: first a line-level alignment on exact loose keys (cheap:
// no distances), then, in the gaps it leaves, pairs of similar lines (a
// typo, a stale line). It works in the tables ix lends (see scratch), and
// returns false when nothing of the search lines up. A search too long
// for one table of its lines against the window's (tableCells) is placed
// where it stands line for line (inRow), or else aligned between anchors
// (anchoredAlign), so that no search makes it quadratic in the file.
func align(ix *index, s []sline, lo, hi int) (region, bool) {
	m, w := len(s), hi-lo
	if m == 0 || w <= 0 {
		return region{}, false
	}
	var rev []op
	if m*w <= tableCells && !ix.anchorAll {
		rev = keyAlign(ix, s, 0, lo, hi, true, true)
	} else {
		if at, ok := inRow(s, ix.Keys(lo, hi)); ok {
			// Standing line for line, at the first place the table would
			// end: it is paired there.
			ops := make([]op, m)
			for j := range ops {
				ops[j] = op{kind: opPair, s: j, f: lo + at + j}
			}
			return score(ix, s, ops)
		}
		rev = anchoredAlign(ix, s, lo, hi)
	}
	ops, whole := refine(ix, s, rev, lo, hi)
	reg, ok := score(ix, s, ops)
	// (When refine aligned the whole window by similarity already, doing
	// it again would find the same.)
	if ok && !whole && reg.fileOnly+reg.searchOnly > 0 && len(s)*w <= wholeWindowCells && mayAlignWithout(ix, s, reg.mismatches(), lo, hi) {
		// Lines of the file left out in the middle may be a jump: the
		// exact pairs after them copies of the search's lines, while the
		// lines it was copied from changed a little. Lines of the search
		// left out may be one too: "return err" and "}" paired with the
		// next statement's copies, while a mistyped line and the lines
		// before it are skipped. Aligning the whole
		// window by similarity tells: it wins only when it breaks fewer
		// lines (not when it is cheaper, as it is when it shifts every
		// line onto a neighbour one digit away, or trades a forgotten line
		// for an exact line paired with a look-alike).
		all := make([]int, len(s))
		for j := range all {
			all[j] = j
		}
		if alt, ok := score(ix, s, gap(ix, s, all, lo, hi, true, true)); ok && alt.mismatches() < reg.mismatches() {
			reg = alt
		}
	}
	return reg, ok
}

// keyAlign aligns search lines s (s[k] is search line off+k) with file
// lines [lo, hi) on exact loose keys, in a table of len(s)×(hi-lo) cells
// (see align), and returns the ops, first to last. The region may start
// anywhere in the window when freeStart, else at lo, its file lines
// before the first pair left out; it may end anywhere when freeEnd, else
// at hi.
func keyAlign(ix *index, s []sline, off, lo, hi int, freeStart, freeEnd bool) []op {
	m, w := len(s), hi-lo
	moves, costs := ix.tables.take((m+1)*(w+1), 3*(w+1))
	prev, cur := costs[:w+1], costs[w+1:2*(w+1)]
	// What leaving out each file line costs, the same in every row but an
	// elision's, and each line's key.
	skipFile, keys := costs[2*(w+1):][:w], ix.Keys(lo, hi)
	for i := range skipFile {
		skipFile[i] = fileLineCost(ix.weight(lo + i))
	}
	if !freeStart {
		// Row 0: the file lines before the region's first are left out.
		for i := 1; i <= w; i++ {
			prev[i] = prev[i-1] + skipFile[i-1]
		}
	}
	for j := 1; j <= m; j++ {
		l := &s[j-1]
		row := moves[j*(w+1):][:w+1]
		skipS := searchLineCost(l)
		cur[0] = prev[0] + skipS
		row[0] = mvSkipSearch
		if l.elision {
			// An elision pairs with no line and stands for any lines for
			// nothing.
			for i := 1; i <= w; i++ {
				best, mv := prev[i]+skipS, mvSkipSearch
				if c := cur[i-1]; c < best {
					best, mv = c, mvSkipFile
				}
				cur[i], row[i] = best, mv
			}
			prev, cur = cur, prev
			continue
		}
		for i := 1; i <= w; i++ {
			best, mv := prev[i]+skipS, mvSkipSearch
			if c := cur[i-1] + skipFile[i-1]; c < best {
				best, mv = c, mvSkipFile
			}
			if l.key == keys[i-1] && prev[i-1] <= best {
				best, mv = prev[i-1], mvPair
			}
			cur[i], row[i] = best, mv
		}
		prev, cur = cur, prev
	}
	end := w
	if freeEnd {
		end = 0
		for i := 1; i <= w; i++ {
			if prev[i] < prev[end] {
				end = i
			}
		}
	}
	// Walk back from the end.
	rev := make([]op, 0, m+end)
	j, i := m, end
	for j > 0 {
		switch moves[j*(w+1)+i] {
		case mvPair:
			rev = append(rev, op{kind: opPair, s: off + j - 1, f: lo + i - 1})
			j, i = j-1, i-1
		case mvSkipSearch:
			rev = append(rev, op{kind: opSearchOnly, s: off + j - 1, f: -1})
			j--
		case mvSkipFile:
			if s[j-1].elision {
				rev = append(rev, op{kind: opElided, s: off + j - 1, f: lo + i - 1})
			} else {
				rev = append(rev, op{kind: opFileOnly, s: -1, f: lo + i - 1})
			}
			i--
		}
	}
	if !freeStart {
		for ; i > 0; i-- {
			rev = append(rev, op{kind: opFileOnly, s: -1, f: lo + i - 1})
		}
	}
	slices.Reverse(rev)
	return rev
}

// anchoredAlign aligns a search too long for one table (see align) in
// tables between anchors: the lines that stand once in the search and
// once in the window, distinctive, kept where their order agrees (the
// longest run in increasing order of both). Between two anchors the
// search lines and file lines are aligned in a table of their own, which
// ends at both; before the first, the region may start anywhere, and
// after the last end anywhere. A stretch too long for a table even so
// pairs none of its lines, and the region fares as its other lines let
// it: the time stays linear in the search and the window but for the
// tables, each bounded.
func anchoredAlign(ix *index, s []sline, lo, hi int) []op {
	keys := ix.Keys(lo, hi)
	inSearch := make(map[uint64]int, len(s))
	for j := range s {
		if l := &s[j]; !l.blank && !l.elision {
			inSearch[l.key]++
		}
	}
	where := make(map[uint64]int, len(s)) // the window line of a key found once, -1 when more
	for i, k := range keys {
		if inSearch[k] != 1 || ix.Blank(lo+i) {
			continue
		}
		if _, seen := where[k]; seen {
			where[k] = -1
		} else {
			where[k] = i
		}
	}
	type anchor struct{ j, i int }
	var cands []anchor
	for j := range s {
		if l := &s[j]; !l.blank && !l.elision && l.n > 3 && inSearch[l.key] == 1 {
			if i, ok := where[l.key]; ok && i >= 0 {
				cands = append(cands, anchor{j, i})
			}
		}
	}
	// The longest run of candidates in increasing order of window line
	// (patience sorting): tails[k] is the candidate ending the best run
	// of k+1, back its predecessor.
	var tails []int
	back := make([]int, len(cands))
	for c, a := range cands {
		k, _ := slices.BinarySearchFunc(tails, a.i, func(t, i int) int { return cands[t].i - i })
		if k > 0 {
			back[c] = tails[k-1]
		} else {
			back[c] = -1
		}
		if k == len(tails) {
			tails = append(tails, c)
		} else {
			tails[k] = c
		}
	}
	chain := make([]anchor, len(tails))
	if len(tails) > 0 {
		for k, c := len(tails)-1, tails[len(tails)-1]; k >= 0; k, c = k-1, back[c] {
			chain[k] = cands[c]
		}
	}
	var ops []op
	// stretch aligns search lines [ja, jb) with window lines [ia, ib).
	stretch := func(ja, jb, ia, ib int, freeStart, freeEnd bool) {
		if m, w := jb-ja, ib-ia; m > 0 && w > 0 && m*w <= tableCells {
			ops = append(ops, keyAlign(ix, s[ja:jb], ja, lo+ia, lo+ib, freeStart, freeEnd)...)
			return
		}
		// Nothing to align with, or too long for a table: the search
		// lines pair with none, and the file lines between two anchors
		// are the region's.
		for j := ja; j < jb; j++ {
			ops = append(ops, op{kind: opSearchOnly, s: j, f: -1})
		}
		if !freeStart && !freeEnd {
			for i := ia; i < ib; i++ {
				ops = append(ops, op{kind: opFileOnly, s: -1, f: lo + i})
			}
		}
	}
	j, i := 0, 0
	for k, a := range chain {
		stretch(j, a.j, i, a.i, k == 0, false)
		ops = append(ops, op{kind: opPair, s: a.j, f: lo + a.i})
		j, i = a.j+1, a.i+1
	}
	stretch(j, len(s), i, hi-lo, len(chain) == 0, true)
	return ops
}

// tableCells is the most cells of an alignment's table before align looks
// for the search standing line for line in the window, in linear time
// (about a 2,000-line search in a 2,000-line window, 4 MB of moves).
const tableCells = 1 << 22

// inRow returns the first place in keys, the keys of a window's lines,
// where the keys of the lines of s follow each other as they are, blank
// lines included: Knuth, Morris and Pratt's search, in linear time. A
// search with an elision is never in a row.
func inRow(s []sline, keys []uint64) (int, bool) {
	m := len(s)
	if m == 0 || m > len(keys) || slices.ContainsFunc(s, func(l sline) bool { return l.elision }) {
		return 0, false
	}
	// fail[j] is the length of the longest proper prefix of the first j+1
	// search lines that is also a suffix of them.
	fail := make([]int, m)
	for j, k := 1, 0; j < m; j++ {
		for k > 0 && s[j].key != s[k].key {
			k = fail[k-1]
		}
		if s[j].key == s[k].key {
			k++
		}
		fail[j] = k
	}
	for i, k := 0, 0; i < len(keys); i++ {
		for k > 0 && keys[i] != s[k].key {
			k = fail[k-1]
		}
		if keys[i] == s[k].key {
			k++
		}
		if k == m {
			return i - m + 1, true
		}
	}
	return 0, false
}

// mayAlignWithout reports whether an alignment of s inside file lines
// [lo, hi) may have fewer than k mismatches (see region.mismatches). With
// k = 1 that takes an alignment with none: every non-blank line of the
// search paired with an equal line, and every non-blank file line between
// them paired, so the non-blank lines of the search follow each other in
// the window as they are, which costs a look at the window's keys rather
// than an edit distance per cell.
func mayAlignWithout(ix *index, s []sline, k, lo, hi int) bool {
	if k != 1 {
		return k > 1
	}
	var keys []uint64
	for j := range s {
		if !s[j].blank && !s[j].elision {
			keys = append(keys, s[j].key)
		}
	}
	return ix.countSeq(keys, lo, hi, 1) > 0
}

// alignTables are the tables of an alignment, kept by an index for the
// next: one alignment is done with its tables before another begins.
type alignTables struct {
	moves []byte
	costs []int32
}

// take returns a table of moves, which every alignment fills before it
// reads, and a table of costs, cleared.
func (t *alignTables) take(moves, costs int) ([]byte, []int32) {
	if cap(t.moves) < moves {
		t.moves = make([]byte, moves)
	}
	if cap(t.costs) < costs {
		t.costs = make([]int32, costs)
	}
	c := t.costs[:costs]
	clear(c)
	return t.moves[:moves], c
}

// wholeWindowCells bounds the cells of an alignment of the search against
// a whole window by similarity (about a 128-line search in a 128-line
// window): each cell may cost an edit distance.
const wholeWindowCells = 16384

// searchLineCost and fileLineCost are what the alignment pays for a line
// of the search the file does not have, and for a file line the search
// does not have. Leaving out the model's lines costs four times as much:
// models forget lines from their copy far more often than they invent
// them, so a region grows over a forgotten line rather than dropping the
// search's last lines. (The score counts both alike.)
func searchLineCost(l *sline) int32 { return int32(2 * l.weight()) }

func fileLineCost(weight int) int32 { return int32(max(1, weight/2)) }

// refine re-aligns the gaps between exactly paired lines allowing pairs
// of similar lines, and looks just outside the region for search lines
// at its ends that did not pair. Only distinctive pairs bound a gap: a
// "}" or a blank line next to a gap pairs with any of its kind, so it is
// aligned again together with the gap. It reports whole when no
// distinctive line paired and it aligned the whole window by similarity.
func refine(ix *index, s []sline, ops []op, lo, hi int) (refined []op, whole bool) {
	anchor := func(o op) bool { return o.kind == opPair && s[o.s].n > 3 }
	firstPair, lastPair := -1, -1
	for k, o := range ops {
		if anchor(o) {
			if firstPair < 0 {
				firstPair = k
			}
			lastPair = k
		}
	}
	if firstPair < 0 {
		// No distinctive line paired as it is: align the whole window by
		// similarity.
		ss := make([]int, len(s))
		for j := range ss {
			ss[j] = j
		}
		return gap(ix, s, ss, lo, hi, true, true), true
	}
	searchLines := func(ops []op) []int {
		var ss []int
		for _, o := range ops {
			if o.s >= 0 && o.kind != opElided {
				ss = append(ss, o.s)
			}
		}
		return ss
	}
	elided := func(ops []op) bool {
		for _, o := range ops {
			if o.kind == opElided || (o.s >= 0 && s[o.s].elision) {
				return true
			}
		}
		return false
	}
	// The gaps at the ends add at most the two file lines beyond each
	// of their search lines; the gaps inside replace as many ops.
	out := make([]op, 0, len(ops)+len(s)+4)
	// Leading search lines: look at the lines just before the region
	// (an elision among them has placed them already).
	if head := ops[:firstPair]; elided(head) {
		out = append(out, head...)
	} else {
		lead := searchLines(head)
		f0 := ops[firstPair].f
		out = append(out, gap(ix, s, lead, max(0, f0-len(lead)-2), f0, true, false)...)
	}
	// Interior stretches between distinctive pairs.
	out = append(out, ops[firstPair])
	for k := firstPair; k < lastPair; {
		e := k + 1
		for !anchor(ops[e]) {
			e++
		}
		run := ops[k+1 : e]
		clean := true
		for _, o := range run {
			clean = clean && o.kind == opPair
		}
		if clean || elided(run) {
			out = append(out, run...)
		} else {
			out = append(out, gap(ix, s, searchLines(run), ops[k].f+1, ops[e].f, false, false)...)
		}
		out = append(out, ops[e])
		k = e
	}
	// Trailing search lines: look at the lines just after the region.
	if tail := ops[lastPair+1:]; elided(tail) {
		out = append(out, tail...)
	} else {
		trail := searchLines(tail)
		fl := ops[lastPair].f + 1
		out = append(out, gap(ix, s, trail, fl, min(ix.Lines(), fl+len(trail)+2), false, true)...)
	}
	return out, false
}

// gap aligns search lines ss with file lines [flo, fhi), allowing similar
// lines to pair. File lines before the first pair are free to skip when
// freeStart, after the last when freeEnd (they are then outside the
// region and left out of the result).
func gap(ix *index, s []sline, ss []int, flo, fhi int, freeStart, freeEnd bool) []op {
	p, q := len(ss), fhi-flo
	limit := 4096
	if freeStart && freeEnd {
		limit = wholeWindowCells
	}
	if p == 0 || q <= 0 || p*q > limit {
		var out []op
		for _, j := range ss {
			out = append(out, op{kind: opSearchOnly, s: j, f: -1})
		}
		if !freeStart && !freeEnd {
			for f := flo; f < fhi; f++ {
				out = append(out, op{kind: opFileOnly, s: -1, f: f})
			}
		}
		return out
	}
	const inf = math.MaxInt32 / 2
	cells := (p + 1) * (q + 1)
	moves, ints := ix.tables.take(cells, 2*cells+q)
	cost, dists, skipFile := ints[:cells], ints[cells:2*cells], ints[2*cells:]
	// What leaving out each file line costs, worked out once for every
	// row. At one end of the region, a line or two of the file between
	// the region and the search's first or last lines is a forgotten line:
	// the window is only two lines longer than those search lines. (Not
	// so in a whole window, free at both ends.)
	for b := range skipFile {
		skipFile[b] = 1
		if freeStart == freeEnd {
			skipFile[b] = fileLineCost(ix.weight(flo + b))
		}
	}
	at := func(a, b int) int { return a*(q+1) + b }
	for b := 1; b <= q; b++ {
		c := cost[at(0, b-1)] + skipFile[b-1]
		if freeStart {
			c = 0
		}
		cost[at(0, b)], moves[at(0, b)] = c, mvSkipFile
	}
	for a := 1; a <= p; a++ {
		l := &s[ss[a-1]]
		cost[at(a, 0)], moves[at(a, 0)] = cost[at(a-1, 0)]+searchLineCost(l), mvSkipSearch
		for b := 1; b <= q; b++ {
			f := flo + b - 1
			best, mv := cost[at(a-1, b)]+searchLineCost(l), mvSkipSearch
			skipF := skipFile[b-1]
			if freeEnd && a == p {
				skipF = 0
			}
			if c := cost[at(a, b-1)] + skipF; c < best {
				best, mv = c, mvSkipFile
			}
			if d, ok := ix.lineDist(l, f); ok {
				if c := cost[at(a-1, b-1)] + int32(d); c <= best {
					best, mv = c, mvPair
					dists[at(a, b)] = int32(d)
				}
			}
			if best > inf {
				best = inf
			}
			cost[at(a, b)], moves[at(a, b)] = best, mv
		}
	}
	rev := make([]op, 0, p+q)
	for a, b := p, q; a > 0 || b > 0; {
		switch {
		case a > 0 && moves[at(a, b)] == mvPair && b > 0:
			rev = append(rev, op{kind: opPair, s: ss[a-1], f: flo + b - 1, dist: int(dists[at(a, b)])})
			a, b = a-1, b-1
		case a > 0 && (b == 0 || moves[at(a, b)] == mvSkipSearch):
			rev = append(rev, op{kind: opSearchOnly, s: ss[a-1], f: -1})
			a--
		default:
			rev = append(rev, op{kind: opFileOnly, s: -1, f: flo + b - 1})
			b--
		}
	}
	slices.Reverse(rev)
	out := rev
	// Drop the free file lines at the ends: they are outside the region.
	if freeStart {
		for len(out) > 0 && out[0].kind == opFileOnly {
			out = out[1:]
		}
	}
	if freeEnd {
		for len(out) > 0 && out[len(out)-1].kind == opFileOnly {
			out = out[:len(out)-1]
		}
	}
	return out
}

// score measures an alignment: the loose characters it failed to pair,
// over all the characters of the search and the region (a ratio like
// difflib's), and checks the elisions are anchored on both sides.
func score(ix *index, s []sline, ops []op) (region, bool) {
	// Trim file lines at the ends: a region starts and ends on a pair.
	for len(ops) > 0 && (ops[0].kind == opFileOnly || ops[0].kind == opElided) {
		ops = ops[1:]
	}
	for len(ops) > 0 && (ops[len(ops)-1].kind == opFileOnly || ops[len(ops)-1].kind == opElided) {
		ops = ops[:len(ops)-1]
	}
	r := region{first: -1, last: -1, ops: ops}
	var cost, total, exact, weight float64
	pairs := 0
	for i := range s {
		if !s[i].blank && !s[i].elision {
			weight += float64(s[i].weight())
			r.lines++
		}
	}
	for _, o := range ops {
		switch o.kind {
		case opPair:
			l := &s[o.s]
			total += float64(l.weight() + ix.weight(o.f))
			cost += float64(o.dist)
			// A pair at a distance has different loose views, which no
			// view but the similarity makes equal.
			lv := levelSimilar
			if o.dist == 0 {
				lv = level(l.text, ix.Line(o.f))
			}
			if lv > r.level {
				r.level = lv
			}
			if lv >= levelInnerWS && lv < levelSimilar {
				cost += 0.25 // equal but for white space or punctuation
			}
			if o.dist > 0 {
				r.similar++
			}
			if lv == levelUnicode {
				r.folded = true
			}
			if !l.blank {
				pairs++
				if float64(o.dist) <= 0.2*float64(max(l.n, ix.ViewLen(o.f))) {
					exact += float64(l.weight())
				}
			}
		case opSearchOnly:
			total += float64(s[o.s].weight())
			cost += float64(s[o.s].weight())
			switch {
			case s[o.s].blank:
				r.blankOnly++
			case !s[o.s].elision:
				r.searchOnly++
			}
		case opFileOnly:
			total += float64(ix.weight(o.f))
			cost += float64(ix.weight(o.f))
			if ix.Blank(o.f) {
				r.blankOnly++
			} else {
				r.fileOnly++
			}
		case opElided:
			r.elided = true
		}
		if o.f >= 0 {
			if r.first < 0 {
				r.first = o.f
			}
			r.last = o.f
		}
	}
	if pairs == 0 || total == 0 {
		return region{}, false
	}
	if !elisionsAnchored(ix, s, ops) {
		return region{}, false
	}
	r.ambiguousElision = elisionAmbiguity(ix, s, ops)
	r.cost = cost
	r.cover = exact / weight
	r.score = 1 - cost/total
	if r.score < 0 {
		r.score = 0
	}
	return r, true
}

// elisionsAnchored checks that every elision that stands for lines sits
// between two non-blank paired lines whose indentation agrees, so that a
// "..." cannot swallow code up to an unrelated closing brace.
func elisionsAnchored(ix *index, s []sline, ops []op) bool {
	for k, o := range ops {
		if o.kind != opElided && !(o.kind == opSearchOnly && s[o.s].elision) {
			continue
		}
		var before, after *op
		for b := k - 1; b >= 0; b-- {
			if ops[b].kind == opPair && !s[ops[b].s].blank {
				before = &ops[b]
				break
			}
		}
		for a := k + 1; a < len(ops); a++ {
			if ops[a].kind == opPair && !s[ops[a].s].blank {
				after = &ops[a]
				break
			}
		}
		if before == nil || after == nil {
			return false
		}
		d1 := columns(indentOf(ix.Line(before.f)), 4) - columns(indentOf(s[before.s].text), 4)
		d2 := columns(indentOf(ix.Line(after.f)), 4) - columns(indentOf(s[after.s].text), 4)
		if d1 != d2 {
			return false
		}
	}
	return true
}

// elisionAmbiguity checks that each stretch of the search between
// elisions is the only place it could be: a distinctive stretch that also
// occurs elsewhere in the lines it may occupy (between its neighbours, or
// within reach of "...") makes the elision's extent a guess. A stretch of
// trivial lines ("}", "end") takes the nearest place, as "..." stands for
// as few lines as it can.
func elisionAmbiguity(ix *index, s []sline, ops []op) string {
	type segment struct{ j0, j1, f0, f1 int } // search lines [j0, j1), file lines [f0, f1]
	var segs []segment
	for j0 := 0; j0 < len(s); {
		j1 := j0
		for j1 < len(s) && !s[j1].elision {
			j1++
		}
		if j1 > j0 {
			segs = append(segs, segment{j0, j1, -1, -1})
		}
		j0 = j1 + 1
	}
	for _, o := range ops {
		if o.kind != opPair {
			continue
		}
		for k := range segs {
			if g := &segs[k]; g.j0 <= o.s && o.s < g.j1 {
				if g.f0 < 0 {
					g.f0 = o.f
				}
				g.f1 = o.f
			}
		}
	}
	if len(segs) < 2 {
		return ""
	}
	for k, g := range segs {
		var keys []uint64
		distinctive := false
		for j := g.j0; j < g.j1; j++ {
			if !s[j].blank && !s[j].elision {
				keys = append(keys, s[j].key)
				distinctive = distinctive || s[j].n > 3
			}
		}
		if !distinctive || len(keys) == 0 || g.f0 < 0 {
			continue
		}
		lo, hi := max(0, g.f0-elisionReach), min(ix.Lines(), g.f1+1+elisionReach)
		if k > 0 && segs[k-1].f1 >= 0 {
			lo = segs[k-1].f1 + 1
		}
		if k+1 < len(segs) && segs[k+1].f0 >= 0 {
			hi = segs[k+1].f0
		}
		if ix.countSeq(keys, lo, hi, 2) >= 2 {
			return strings.TrimSpace(s[g.j0].text)
		}
	}
	return ""
}
