package engine

import (
	"cmp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/graft-editor/graft/engine/internal/editdist"
	"github.com/graft-editor/graft/engine/internal/linecache"
	"github.com/graft-editor/graft/engine/internal/loose"
	"github.com/graft-editor/graft/engine/internal/textscan"
)

// The candidates of a search are the windows of the file worth aligning
// it against: where its lines occur as they are (a tally), or, when too
// few do, where lines like its longest lines are (a scan within a
// budget), grouped by the diagonal they put the search on (cluster).

// mix spreads a value over the top bits of a word when multiplied by it
// (Fibonacci hashing): the ends filter takes a shape's bit from those
// bits (see shape).
const mix = 0x9e3779b97f4a7c15

// A probeTable maps each key a tally counts to its place among the keys.
type probeTable map[uint64]int

// fill empties the table and puts keys in it.
func (t *probeTable) fill(keys []uint64) {
	if *t == nil {
		*t = make(probeTable, len(keys))
	}
	clear(*t)
	for x, k := range keys {
		(*t)[k] = x
	}
}

// find returns the place of key k among the keys, or -1.
func (t *probeTable) find(k uint64) int {
	if x, ok := (*t)[k]; ok {
		return x
	}
	return -1
}

// A window is a range of file lines [lo, hi) worth aligning the search
// against, with the weight of the evidence that pointed at it.
type window struct {
	lo, hi int
	weight float64
}

type vote struct {
	diag int // file line minus search line
	line int // the search line
	w    float64
}

// A tally says where the lines of a search occur in the file as they are,
// and the votes for places that follow from it.
type tally struct {
	occs      map[uint64]*lineOccurrences
	votes     []vote
	unfound   []int // the non-blank search lines not in the file
	tooCommon int   // search lines that occur too often to vote
	// weight is that of the search, distinctive that of its lines that
	// voted and say something.
	weight, distinctive float64
}

// newTally counts where the search's lines occur in ix's file. Lines that
// occur often never vote for a place on their own.
func newTally(ix *index, s []sline) *tally {
	t := &tally{occs: make(map[uint64]*lineOccurrences, len(s)), unfound: []int{}}
	// The occurrences of every key, and the first places of each, are
	// taken from two arrays rather than allocated one by one.
	all := make([]lineOccurrences, 0, len(s))
	// The keys, and the first search line of each, on the stack unless
	// the search is long.
	var keyBuf [64]uint64
	var firstBuf [64]*sline
	keys, firsts := keyBuf[:0], firstBuf[:0]
	for j := range s {
		l := &s[j]
		if !l.blank && !l.elision && t.occs[l.key] == nil {
			all = append(all, lineOccurrences{})
			t.occs[l.key] = &all[len(all)-1]
			keys = append(keys, l.key)
			firsts = append(firsts, l)
		}
	}
	if len(keys) == 0 {
		return t
	}
	places := make([]int32, commonLine*len(keys))
	for k := range keys {
		t.occs[keys[k]].lines = places[k*commonLine : k*commonLine : (k+1)*commonLine]
	}
	if ix.post != nil {
		for _, k := range keys {
			o, lines := t.occs[k], ix.post.Of(k)
			o.count = min(len(lines), commonLine+1)
			o.lines = append(o.lines, lines[:min(len(lines), commonLine)]...)
		}
		return t.vote(s)
	}
	ix.probes.fill(keys)
	var f endsFilter
	f.init(firsts)
	ends := ix.Ends()
	// Every line's ends are known: the filter turns lines away whether
	// they are hashed or not. A line of ASCII it lets through is compared
	// with the search lines of its shape, and takes the key of the one it
	// equals; another is hashed, if it is not yet, and its key looked up.
	for i := f.next(ends, 0); i < len(ends); i = f.next(ends, i+1) {
		e := ends[i]
		x := hashIt
		if !ix.Keyed(i) && e != linecache.EndsUnknown {
			if x = f.match(ix.d.line(i), e, firsts); x >= 0 {
				l := firsts[x]
				ix.SetKey(i, l.key, l.n, l.sig)
			}
		}
		if x == hashIt {
			x = ix.probes.find(ix.Key(i))
		}
		if x < 0 {
			continue
		}
		o := &all[x]
		if o.count > commonLine {
			continue
		}
		o.count++
		if len(o.lines) < commonLine {
			o.lines = append(o.lines, int32(i))
		} else if f.counted(x); f.live == 0 {
			break // every line of the search occurs too often to vote
		}
	}
	return t.vote(s)
}

// An endsFilter turns away, without reading them again, the file lines
// that cannot have the loose view of a search line still counted, and
// finds the search line a line of ASCII it lets through has (see match).
// A line of ASCII is known by its ends and the length of its loose view,
// which cost a few word operations per eight bytes: the first and last
// bytes of its loose view are those of the line around its white space,
// and the length is that of the line less its white space. A line with a
// byte beyond ASCII (which may be white space or fold) is never turned
// away. Once a search line has been counted as often as matters (see
// lineOccurrences), lines like it are turned away too.
type endsFilter struct {
	bits [endsBits / 64]uint64 // the shapes of the keys still counted
	// byShape holds every key of the tally by shape, the keys a line of a
	// shape may have (shapes rarely repeat: a search has few lines), and
	// at holds where in byShape each key is, in the order of the keys.
	byShape []shapeKey
	at      []int32
	live    int // keys still counted
}

// A shapeKey is a key of the tally: its place in the tally's keys, its
// shape, the text of its first search line, white space trimmed, and
// whether it is still counted.
type shapeKey struct {
	shape, x int32
	trimmed  string
	live     bool
}

// ends returns the ends a file line of ASCII has when its loose view is
// l's (see linecache.EndsNotYet), or EndsNotYet when l's view is not
// ASCII or too long for them: a file line beyond ASCII may still fold to
// it.
func (l *sline) ends() uint32 {
	v := l.loose
	if v == "" || len(v) >= 0xffff {
		return linecache.EndsNotYet
	}
	for i := 0; i < len(v); i++ {
		if v[i] >= utf8.RuneSelf {
			return linecache.EndsNotYet
		}
	}
	return linecache.PackEnds(v[0], v[len(v)-1], len(v))
}

// endsBits is the size of the filter's table of shapes, 1<<endsLog.
const (
	endsLog  = 14
	endsBits = 1 << endsLog
)

// shape returns the bit of the filter for a line of ASCII with ends e.
func shape(e uint32) int {
	return int(uint64(e) * mix >> (64 - endsLog))
}

// init prepares the filter for the keys of the search lines firsts, one
// line for each key.
func (f *endsFilter) init(firsts []*sline) {
	f.byShape = make([]shapeKey, len(firsts))
	for k, l := range firsts {
		// (A view beyond ASCII or too long for ends has ends EndsNotYet,
		// which no line has once its ends are known: its bit lets no
		// line through that is not let through anyway.)
		e := shape(l.ends())
		f.byShape[k] = shapeKey{int32(e), int32(k), strings.TrimSpace(l.text), true}
		f.bits[e/64] |= 1 << (e % 64)
	}
	f.bits[unknownShape/64] |= 1 << (unknownShape % 64)
	f.live = len(firsts)
	slices.SortFunc(f.byShape, func(a, b shapeKey) int { return cmp.Compare(a.shape, b.shape) })
	f.at = make([]int32, len(firsts))
	for k, c := range f.byShape {
		f.at[c.x] = int32(k)
	}
}

// first returns where in byShape the keys of shape b begin.
func (f *endsFilter) first(b int32) int {
	k, hi := 0, len(f.byShape)
	for k < hi {
		if m := int(uint(k+hi) >> 1); f.byShape[m].shape < b {
			k = m + 1
		} else {
			hi = m
		}
	}
	return k
}

// match returns the place among the tally's keys of the key of line, a
// line of ASCII whose ends are e, or -1 when it has none of them: it
// compares the line with each search line of its shape, of firsts, as it
// reads loosely, which costs less than hashing it and stops at the first
// byte that differs. Where more than shapeCompares search lines have the
// shape, it returns hashIt: one hash of the line costs less than so many
// comparisons, and comparing every line of a file with every line of a
// search of one shape (a table of data) would be quadratic.
func (f *endsFilter) match(line string, e uint32, firsts []*sline) int {
	b := int32(shape(e))
	first := f.first(b)
	for k := first; k < len(f.byShape) && f.byShape[k].shape == b; k++ {
		if k-first == shapeCompares {
			return hashIt
		}
		c := &f.byShape[k]
		// A line is most often the search line with its indentation
		// changed, which one comparison of their bytes tells.
		if indentedCopy(line, c.trimmed) || loose.ASCIIEquals(line, firsts[c.x].loose) {
			return int(c.x)
		}
	}
	return -1
}

// shapeCompares is the most search lines of one shape match compares a
// line with; hashIt is what it returns beyond them.
const (
	shapeCompares = 8
	hashIt        = -2
)

// indentedCopy reports whether line, of ASCII, is trimmed with white
// space before it only.
func indentedCopy(line, trimmed string) bool {
	n := len(line) - len(trimmed)
	if n < 0 || line[n:] != trimmed {
		return false
	}
	for i := range n {
		if !textscan.IsSpace(line[i]) {
			return false
		}
	}
	return true
}

// turnsAway reports whether a line whose ends are e (see
// linecache.EndsNotYet) cannot have the key of a search line still
// counted: it is blank (no search line counted is), or a line of ASCII
// with a shape no such line has. The shape of EndsUnknown, of a line to
// hash, is always let through (see init): one look at the shape's bit
// decides for all but the blank lines whose shape is a search line's.
func (f *endsFilter) turnsAway(e uint32) bool {
	b := shape(e)
	return f.bits[b/64]&(1<<(b%64)) == 0 || e == linecache.EndsBlank
}

// next returns the first line from i on that the filter does not turn
// away, or len(ends) when there is none: a loop of its own, with few
// values live, which the compiler keeps in registers, for every line.
func (f *endsFilter) next(ends []uint32, i int) int {
	for ; i < len(ends); i++ {
		if !f.turnsAway(ends[i]) {
			break
		}
	}
	return i
}

// unknownShape is the shape of EndsUnknown, whose bit the filter keeps.
var unknownShape = shape(linecache.EndsUnknown)

// counted takes key k (its place in the tally's keys), counted enough, out
// of the filter.
func (f *endsFilter) counted(k int) {
	f.live--
	f.byShape[f.at[k]].live = false
	b := f.byShape[f.at[k]].shape
	if b == int32(unknownShape) {
		return // lines to hash are let through whatever is counted
	}
	for j := f.first(b); j < len(f.byShape) && f.byShape[j].shape == b; j++ {
		if f.byShape[j].live {
			return // another key of its shape is still counted
		}
	}
	f.bits[b/64] &^= 1 << (b % 64)
}

// vote adds to a tally whose occurrences are counted the votes of the
// search's lines for places, and returns it.
func (t *tally) vote(s []sline) *tally {
	n := 0
	for j := range s {
		if l := &s[j]; !l.blank && !l.elision {
			n += len(t.occs[l.key].lines)
		}
	}
	t.votes = make([]vote, 0, n)
	for j := range s {
		l := &s[j]
		if l.blank || l.elision {
			continue
		}
		t.weight += float64(l.weight())
		o := t.occs[l.key]
		switch {
		case o.count == 0:
			t.unfound = append(t.unfound, j)
			continue
		case o.count > commonLine:
			t.tooCommon++
			continue
		}
		if l.n > 3 {
			t.distinctive += float64(l.weight())
		}
		w := float64(l.weight()) / float64(o.count)
		for _, i := range o.lines {
			t.votes = append(t.votes, vote{diag: int(i) - j, line: j, w: w})
		}
	}
	return t
}

// candidates finds the windows where the search's distinctive lines line
// up, from the tally t of the search. When no line of the search occurs
// in the file as it is, and approximate is set, the longest lines are
// looked for approximately, within a fixed budget. crowded reports that
// the search cannot be placed: its lines are all too common, or resemble
// too many lines. t is left as it was.
func candidates(ix *index, s []sline, t *tally, approximate bool) candidateSet {
	occs := t.occs
	if len(occs) == 0 {
		return candidateSet{}
	}
	votes := slices.Clone(t.votes)
	unfound, tooCommon := slices.Clone(t.unfound), t.tooCommon
	if len(votes) == 0 && !approximate {
		return candidateSet{crowded: tooCommon > 0 && len(unfound) == 0, occs: occs}
	}
	if approximate && t.wantsScan() {
		more, exhausted := scan(ix, s, unfound)
		if exhausted && len(votes) == 0 {
			// Too many lines resemble the search's to compare them all.
			// Some of its lines being in the file, too often, the search
			// is ambiguous; none being there, it is not found.
			return candidateSet{crowded: tooCommon > 0, unplaced: tooCommon == 0, occs: occs}
		}
		if !exhausted {
			votes = append(votes, more...)
		}
		if len(votes) == 0 {
			return candidateSet{crowded: tooCommon > 0 && len(unfound) == 0, occs: occs}
		}
	}
	if len(votes) == 0 {
		return candidateSet{crowded: tooCommon > 0 && len(unfound) == 0, occs: occs}
	}
	wins, truncated := cluster(ix, s, votes)
	return candidateSet{wins: wins, truncated: truncated, occs: occs}
}

// wantsScan reports whether the candidates with approximate lines look
// for the search's unfound lines approximately: when only short lines
// ("}") were found as they are, or too few to say much, the lines the
// model changed a little point the way too. Otherwise they are the
// candidates without.
func (t *tally) wantsScan() bool {
	return 3*t.distinctive < t.weight && len(t.unfound) > 0
}

// lineOccurrences lists where a line occurs in the file (its first
// commonLine places), and how often: up to commonLine+1, which says that
// it is too common to vote, whatever its count beyond.
type lineOccurrences struct {
	lines []int32
	count int
}

// A candidateSet is the outcome of candidates.
type candidateSet struct {
	wins []window
	// crowded: the search cannot be placed, its lines being too common or
	// resembling too many lines.
	crowded bool
	// unplaced: no line of the search is in the file as it is, and so
	// many resemble its lines that they were not compared.
	unplaced bool
	// truncated: more places were pointed at than are compared; the best
	// of those compared may not be the best of all.
	truncated bool
	// occs says where each non-blank search line occurs as it is.
	occs map[uint64]*lineOccurrences
}

// scan looks for the longest unfound search lines approximately and
// returns a vote for each line that resembles one. It reports exhausted
// when so many lines resemble them that the budget ran out: the search
// cannot be placed.
func scan(ix *index, s []sline, unfound []int) (votes []vote, exhausted bool) {
	slices.SortStableFunc(unfound, func(a, b int) int { return cmp.Compare(s[b].n, s[a].n) })
	if len(unfound) > maxLooked {
		unfound = unfound[:maxLooked]
	}
	var looked []int // the search lines looked for: those long enough
	for _, j := range unfound {
		if s[j].n >= 4 {
			looked = append(looked, j)
		}
	}
	if len(looked) == 0 {
		return nil, false
	}
	ix.Ends() // scanPairs reads the length of a line of ASCII from its ends
	pairs, exhausted := scanPairs(ix, s, looked)
	if exhausted {
		return nil, true
	}
	type hit struct {
		i   int
		sim float64
	}
	hits := make([][]hit, len(looked))
	// Only the commonLine most similar lines of each search line vote,
	// the earlier first among equals: once that many are found, a line
	// further on counts only if it is more similar than the least of
	// them, which bounds its edit distance more tightly than limit does.
	best := make([]topSims, len(looked))
	// A line of ASCII that the bag of its bytes does not turn away is
	// compared first by the longest subsequence it has in common with the
	// search line, which turns away most of the rest for a third of what
	// the distance costs: the bag counts a byte in common wherever it is.
	var peqs [maxLooked][256]uint64
	var fits [maxLooked]bool
	for k, j := range looked {
		fits[k] = ix.pattern(&s[j]).Masks(&peqs[k])
	}
	var b lineBag
	for p := 0; p < len(pairs); {
		// The pairs of one file line, with the bag of the line, which
		// turns most unlike lines away, when it can be counted.
		i := int(pairs[p].line)
		q := p + 1
		for q < len(pairs) && int(pairs[q].line) == i {
			q++
		}
		n := ix.ViewLen(i)
		counted := b.fill(ix.d.line(i))
		for _, c := range pairs[p:q] {
			l, limit := &s[looked[c.search]], int(c.limit)
			longer := max(n, l.n)
			limit = best[c.search].bound(limit, longer)
			if counted && (b.bagDistance(l, n) > limit ||
				fits[c.search] && editdist.LCSBound(&peqs[c.search], l.n, ix.d.line(i), n, limit) > limit) {
				continue
			}
			if d := ix.patternDist(l, i, limit); d <= limit {
				sim := 1 - float64(d)/float64(longer)
				hits[c.search] = append(hits[c.search], hit{i, sim})
				best[c.search].add(sim)
			}
		}
		p = q
	}
	for k, j := range looked {
		l, hits := &s[j], hits[k]
		slices.SortStableFunc(hits, func(a, b hit) int { return cmp.Compare(b.sim, a.sim) })
		if len(hits) > commonLine {
			hits = hits[:commonLine]
		}
		for _, h := range hits {
			votes = append(votes, vote{diag: h.i - j, line: j, w: h.sim * float64(l.weight())})
		}
	}
	return votes, false
}

// maxLooked is how many of the longest unfound search lines scan looks
// for.
const maxLooked = 3

// topSims keeps the commonLine greatest similarities found so far, least
// first once there are that many.
type topSims struct {
	sims []float64
}

// add counts a similarity found.
func (t *topSims) add(sim float64) {
	if len(t.sims) < commonLine {
		t.sims = append(t.sims, sim)
		if len(t.sims) == commonLine {
			slices.Sort(t.sims)
		}
		return
	}
	if sim <= t.sims[0] {
		return
	}
	// Drop the least and insert sim in order.
	k := 1
	for k < len(t.sims) && t.sims[k] < sim {
		t.sims[k-1] = t.sims[k]
		k++
	}
	t.sims[k-1] = sim
}

// bound returns the edit distance, at most limit, beyond which a line of
// longer bytes (the longer of the two lines compared) is less similar
// than the least of the greatest similarities, when there are
// commonLine of them: it cannot be among them. A distance at the bound
// may still be; the margin of one edit covers the rounding of
// similarities.
func (t *topSims) bound(limit, longer int) int {
	if len(t.sims) < commonLine {
		return limit
	}
	return min(limit, int((1-t.sims[0])*float64(longer))+1)
}

// A scanPair is a file line that scan compares with a search line, and
// the most edits by which they may differ.
type scanPair struct {
	line   int32
	limit  int32
	search int32 // the index in scan's looked
}

// scanPairs returns, in the order of the file, the pairs of a file line
// and a search line of looked that pass the bounds of length and
// signature: those scan compares, in a list the next call reuses. It
// reports exhausted when more than scanBudget pass, in whatever order
// they are counted, so that a search that exhausts the budget computes no
// edit distance at all.
//
// The length of a line of ASCII is known from its ends; its signature,
// which costs a look at every byte, is computed only when its length is
// close enough to a search line's (with the lines' ends known first).
func scanPairs(ix *index, s []sline, looked []int) (pairs []scanPair, exhausted bool) {
	pairs = ix.pairs[:0]
	for i := range ix.Lines() {
		n := ix.PeekViewLen(i)
		if n == 0 {
			continue // blank: unlike every search line of 4 bytes or more
		}
		for k, j := range looked {
			l := &s[j]
			limit := l.editLimit(n)
			if abs(n-l.n) > limit {
				continue
			}
			if _, sig := ix.Measure(i); l.leastEdits(n, sig) > limit {
				continue
			}
			if len(pairs) == scanBudget {
				ix.pairs = pairs
				return nil, true
			}
			pairs = append(pairs, scanPair{line: int32(i), limit: int32(limit), search: int32(k)})
		}
	}
	ix.pairs = pairs
	return pairs, false
}

// cluster groups votes whose diagonals are close (a forgotten or extra
// line shifts the diagonal by one) into windows, strongest first, and
// reports whether strong groups were left out for want of room.
func cluster(ix *index, s []sline, votes []vote) (wins []window, truncated bool) {
	// (slices.SortFunc is sort.Slice's pattern-defeating quicksort, without
	// the reflection that allocates.)
	slices.SortFunc(votes, func(a, b vote) int { return cmp.Compare(a.diag, b.diag) })
	m := len(s)
	tol := 2 + m/8
	pad := 3 + m/4
	for i := range s {
		if s[i].elision {
			pad += elisionReach
			tol += elisionReach
		}
	}
	type group struct {
		lo, hi int
		w      float64
	}
	var groupBuf [16]group
	groups := groupBuf[:0] // on the stack, unless the votes fall far apart
	// A group is one place of the search: each search line counts once in
	// its weight, with its best vote there. Votes of one line at nearby
	// diagonals are other places of that line (a one-line search among
	// lines like it, "{XPos.WithNotStmt, PosNotStmt},"), which would
	// otherwise weigh as evidence for one place and leave a twin further
	// off below the cut.
	best := make([]float64, m) // of each search line, in the group
	var seen []int             // the lines with a vote in the group
	for _, v := range votes {
		k := len(groups) - 1
		if k < 0 || v.diag-groups[k].hi > tol {
			groups = append(groups, group{v.diag, v.diag, 0})
			for _, j := range seen {
				best[j] = 0
			}
			seen = seen[:0]
			k++
		}
		groups[k].hi = v.diag
		if b := best[v.line]; v.w > b {
			if b == 0 {
				seen = append(seen, v.line)
			}
			groups[k].w += v.w - b
			best[v.line] = v.w
		}
	}
	slices.SortStableFunc(groups, func(a, b group) int { return cmp.Compare(b.w, a.w) })
	top := groups[0].w
	for _, g := range groups {
		if g.w < top/5 {
			break
		}
		if len(wins) == maxCandidates {
			return wins, true
		}
		lo, hi := max(0, g.lo-pad), min(ix.Lines(), g.hi+m+pad)
		if lo < hi {
			wins = append(wins, window{lo, hi, g.w})
		}
	}
	return wins, false
}
