package engine

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// fuzzy resolves a reading whose search does not occur as it is, even
// ignoring white space: some lines are mistyped, stale, missing, added or
// elided. Candidate regions come from the search's distinctive lines; each
// is aligned line by line and scored; the best is taken only when it
// passes every check of fuzzyChecks, in order.
func (r *resolver) fuzzy(rd reading) (*Match, *Error) {
	if oneLine(rd.old) {
		if m, err, done := r.subline(rd); done {
			return m, err
		}
	}
	f, err := r.fuzzyRegions(rd)
	if err != nil {
		return nil, err
	}
	for _, c := range fuzzyChecks {
		if err := c.check(r, f); err != nil {
			return nil, err
		}
	}
	m, err := r.place(f.s, f.new, f.chosen, rd)
	if err != nil {
		return nil, err
	}
	if f.note != "" {
		m.Notes = append(m.Notes, f.note)
	}
	return m, nil
}

// A fuzzyDecision is what the checks of a similarity search decide on:
// the regions found, cheapest first, and the one chosen so far.
type fuzzyDecision struct {
	rd     reading
	s      []sline  // the search's lines
	new    []string // the replacement's lines
	c      candidateSet
	thr    float64
	regs   []region
	pruned bool // regions that could not be taken were left out of regs
	wins   []window
	best   *region // the region the checks start from
	chosen *region // the region the checks end with
	note   string  // how a line hint decided, for the match's notes
}

// every returns the regions, those pruned included: a refusal shows the
// closest places, which may be among them.
func (f *fuzzyDecision) every(r *resolver) []region {
	if !f.pruned {
		return f.regs
	}
	all, _ := r.regions(f.s, f.wins, 0)
	return all
}

// fuzzyRegions finds the regions that line up with the search, or refuses
// the search as found nowhere.
func (r *resolver) fuzzyRegions(rd reading) (*fuzzyDecision, *Error) {
	old, new := trimEnds(splitLines(rd.old), splitLines(rd.new))
	srch := r.search(old)
	f := &fuzzyDecision{rd: rd, s: srch.lines, new: new, thr: r.opt.threshold()}
	f.c = r.candidates(srch, true)
	f.wins = f.c.wins
	if rd.hint > 0 && len(f.wins) > 0 {
		// Always compare the place the hint points at, even if none of
		// the search's lines is found there as it is.
		pad := 3 + len(f.s)/4
		if lo, hi := max(0, rd.hint-1-pad), min(r.d.lineCount(), rd.hint-1+len(f.s)+pad); lo < hi {
			f.wins = append(f.wins[:len(f.wins):len(f.wins)], window{lo: lo, hi: hi})
		}
	}
	if len(f.wins) == 0 {
		if f.c.unplaced {
			return nil, refuse(ReasonNotFound, "not found: no line of the search occurs in the file as it is, and too many lines resemble its lines (such as %q) to compare them all; read the file again and quote it exactly", firstDistinct(f.s))
		}
		if f.c.crowded {
			return nil, refuse(ReasonAmbiguous, "ambiguous: the search's lines occur, or nearly occur, in too many places of the file (such as %q): quote a line that is unique to the place to change", firstDistinct(f.s))
		}
		return nil, refuse(ReasonNotFound, "not found: no line of the search occurs in the file, even approximately; read the file again")
	}
	prune := f.thr
	if r.doc.exhaustive {
		prune = 0
	}
	f.regs, f.pruned = r.regions(f.s, f.wins, prune)
	if len(f.regs) == 0 {
		return nil, refuse(ReasonNotFound, "not found: nothing in the file lines up with the search; read the file again")
	}
	// The cheapest region, unless it is not good enough and a dearer one
	// holds every line of the search nearly as written (the place with a
	// forgotten line, against a cheaper look-alike that lacks lines).
	f.best = &f.regs[0]
	for k := range f.regs {
		if f.regs[k].good(f.thr) {
			if k == 0 || f.regs[k].cover >= 1 && f.regs[k].searchOnly == 0 {
				f.best = &f.regs[k]
			}
			break
		}
	}
	f.chosen = f.best
	return f, nil
}

// fuzzyChecks are the checks a region found by similarity must pass to be
// taken, in order: each refuses the search, saying why, or lets it on.
// Every rule of fuzzy acceptance is here, with the case that motivates it.
var fuzzyChecks = []struct {
	name  string
	check func(*resolver, *fuzzyDecision) *Error
}{
	// A copy too far from every place: a function rewritten since the
	// model read it, another file's code.
	{"similar enough", checkSimilarEnough},
	// A search whose lines are everywhere (a run of "}" and "return
	// nil"): more places were pointed at than are compared, so the best
	// compared may not be the best there is.
	{"all places compared", checkAllCompared},
	// Two sibling functions that the search resembles about equally: a
	// line hint may decide, nothing else may.
	{"one place", checkOnePlace},
	// A distinctive search line the region lacks stands elsewhere in the
	// file, where the search lines up as well: the code moved, or the
	// answer was applied to its place already.
	{"not moved", checkNotMoved},
	// The search names ReadAt where the region consistently names Read,
	// or every name says V1 where the file's say V2: it is about other
	// code.
	{"not renamed", checkNotRenamed},
	// "..." between lines that occur twice where the elision may stand.
	{"elision placed", checkElisionPlaced},
	// Near twins that differ in a line where the search matches neither
	// (a third name): no evidence tells them apart, unless a line hint.
	{"no twin", checkNoTwin},
}

// checkSimilarEnough refuses the search when even the best region is
// below the threshold, or holds too little of the search nearly as
// written.
func checkSimilarEnough(r *resolver, f *fuzzyDecision) *Error {
	best := f.best
	if best.good(f.thr) {
		return nil
	}
	e := &Error{
		Reason: ReasonBelowThreshold,
		Summary: fmt.Sprintf("no place is similar enough: the best, %s, is %.0f%% similar and %.0f%% is needed",
			r.d.linesWord(best.first+1, best.last+1), 100*best.score, 100*f.thr),
	}
	if best.score >= f.thr {
		e.Summary = fmt.Sprintf("no place is similar enough: at the best, %s, only %.0f%% of the search is nearly as written; read the file again",
			r.d.linesWord(best.first+1, best.last+1), 100*best.cover)
	}
	if best.score < 0.5 {
		e.Reason = ReasonNotFound
		e.Summary = fmt.Sprintf("not found: nothing in the file resembles the search; the closest, %s, is %.0f%% similar",
			r.d.linesWord(best.first+1, best.last+1), 100*best.score)
	}
	// Show the most similar places first; the cheapest alignment
	// (best) may be a short one.
	shown := append([]region(nil), f.every(r)...)
	sort.SliceStable(shown, func(a, b int) bool { return shown[a].score > shown[b].score })
	for k := range shown {
		if k == 3 {
			break
		}
		e.Candidates = append(e.Candidates, r.candidate(f.s, &shown[k]))
	}
	return e
}

// checkAllCompared refuses a search that points at more places than are
// compared, unless the best holds it nearly whole.
func checkAllCompared(r *resolver, f *fuzzyDecision) *Error {
	best := f.best
	if !f.c.truncated || best.cover >= 1 && best.score >= 0.98 {
		return nil
	}
	e := refuse(ReasonAmbiguous, "ambiguous: the search resembles more places than are compared (the best, %s, is %.0f%% similar); quote lines that are unique to the place to change",
		r.d.linesWord(best.first+1, best.last+1), 100*best.score)
	e.Candidates = append(e.Candidates, r.candidate(f.s, best))
	return e
}

// checkOnePlace refuses a search that resembles other places about as
// well as the best, apart from it, unless a line hint picks one of them,
// which it then chooses.
func checkOnePlace(r *resolver, f *fuzzyDecision) *Error {
	best := f.best
	tied := []*region{best}
	for k := range f.regs {
		o := &f.regs[k]
		if o != best && o.good(f.thr) && !o.overlaps(best) && !best.clearlyBetter(o) {
			tied = append(tied, o)
		}
	}
	if len(tied) == 1 {
		return nil
	}
	spans := make([]Span, len(tied))
	for k, t := range tied {
		spans[k] = Span{t.first + 1, t.last + 1}
	}
	k, ok := byHint(spans, f.rd.hint)
	if !ok || !tied[k].good(f.thr) {
		e := &Error{Reason: ReasonAmbiguous}
		var places []string
		for _, t := range tied {
			e.Candidates = append(e.Candidates, r.candidate(f.s, t))
			places = append(places, fmt.Sprintf("%s (%.0f%%)", r.d.linesWord(t.first+1, t.last+1), 100*t.score))
		}
		e.Summary = fmt.Sprintf("ambiguous: the search resembles %d places about equally: %s; quote lines that tell them apart, or give a line number", len(tied), strings.Join(places, ", "))
		if f.rd.hint > 0 {
			e.Summary += fmt.Sprintf(" (line hint %d is not clearly closer to one)", r.d.shown(f.rd.hint))
		}
		return e
	}
	f.chosen = tied[k]
	f.note = byHintNote(r.d, f.rd.hint, spans[k], len(tied))
	return nil
}

// checkNotMoved refuses the chosen region when a distinctive line of the
// search stands elsewhere, where the search lines up as well.
func checkNotMoved(r *resolver, f *fuzzyDecision) *Error {
	j, at := r.elsewhere(f.s, f.chosen, f.c.occs)
	if j < 0 {
		return nil
	}
	e := refuse(ReasonAmbiguous, "ambiguous: the search's line %q is at line %d of the file, but the place most like the search, %s, has another line there; the code may have changed or moved: read the file again",
		strings.TrimSpace(f.s[j].text), r.d.shown(at+1), r.d.linesWord(f.chosen.first+1, f.chosen.last+1))
	e.Candidates = append(e.Candidates, r.candidate(f.s, f.chosen))
	e.line = at + 1
	return e
}

// checkNotRenamed refuses the chosen region when the search consistently
// names something else there (see renaming).
func checkNotRenamed(r *resolver, f *fuzzyDecision) *Error {
	from, to, lines := r.renaming(f.s, f.chosen)
	if lines == "" {
		return nil
	}
	e := refuse(ReasonAmbiguous, "ambiguous: the search names %q where the file has %q (lines %s): it may be meant for code that is not in the file; quote the code as it is", from, to, lines)
	shown := f.every(r)
	for k := range shown[:min(3, len(shown))] {
		e.Candidates = append(e.Candidates, r.candidate(f.s, &shown[k]))
	}
	return e
}

// checkElisionPlaced refuses the chosen region when its elision could
// stand in two places.
func checkElisionPlaced(r *resolver, f *fuzzyDecision) *Error {
	if f.chosen.ambiguousElision == "" {
		return nil
	}
	e := refuse(ReasonAmbiguous, "ambiguous: the lines around \"...\" occur twice where the elision may stand (from %q): quote more lines, or fewer elided", f.chosen.ambiguousElision)
	e.Candidates = append(e.Candidates, r.candidate(f.s, f.chosen))
	return e
}

// checkNoTwin refuses the chosen region when it has a near twin that the
// search tells apart from it by nothing (see twin), unless a line hint
// picks it.
func checkNoTwin(r *resolver, f *fuzzyDecision) *Error {
	chosen := f.chosen
	twin, line := r.twin(f.s, chosen, f.regs, f.thr)
	if twin == nil {
		return nil
	}
	spans := []Span{{chosen.first + 1, chosen.last + 1}, {twin.first + 1, twin.last + 1}}
	if !r.hintPicks(spans, f.rd.hint, 0) {
		e := refuse(ReasonAmbiguous, "ambiguous: the search resembles %s and %s, which differ where the search matches neither (its line %q); quote the lines as the file has them, or give a line number",
			r.d.linesWord(chosen.first+1, chosen.last+1), r.d.linesWord(twin.first+1, twin.last+1), strings.TrimSpace(f.s[line].text))
		e.Candidates = append(e.Candidates, r.candidate(f.s, chosen), r.candidate(f.s, twin))
		return e
	}
	f.note = fmt.Sprintf("line hint %d chose %s over their twin, %s", r.d.shown(f.rd.hint), r.d.linesWord(chosen.first+1, chosen.last+1), r.d.linesWord(twin.first+1, twin.last+1))
	return nil
}

// elsewhere finds a distinctive search line that the region does not hold
// as it is, while the file holds it, once or twice, outside the region,
// where the search lines up at least as well as in the region (as many of
// its lines found as they are): the region only resembles the search (a
// sibling function), and the place the search was copied from has changed
// (an answer applied twice). It returns the search line and where the file
// has it, or -1.
func (r *resolver) elsewhere(s []sline, reg *region, occs map[uint64]*lineOccurrences) (int, int) {
	ix := r.index()
	exact := exactPairs(s, reg)
	pad := 3 + len(s)/4
	for _, o := range reg.ops {
		if (o.kind != opPair || o.dist == 0) && o.kind != opSearchOnly {
			continue
		}
		l := &s[o.s]
		if l.blank || l.elision || l.n <= 3 {
			continue
		}
		oc := occs[l.key]
		if oc == nil || oc.count == 0 || oc.count > 2 {
			continue
		}
		for _, f := range oc.lines {
			if int(f) >= reg.first && int(f) <= reg.last {
				continue
			}
			start := int(f) - o.s
			lo, hi := max(0, start-pad), min(ix.Lines(), start+len(s)+pad)
			if alt, ok := align(ix, s, lo, hi); ok && !alt.overlaps(reg) && exactPairs(s, &alt) >= exact {
				return o.s, int(f)
			}
		}
	}
	return -1, -1
}

// twin finds another region about as similar as a match must be that
// differs from the chosen one where the search does not side with the
// chosen one. Where two places are both good matches, the words that tell
// them apart decide (white space and unicode punctuation aside): the
// search must have some of them as the chosen place has them, none as the
// other has them, and fewer that neither has. A name the search has that
// is a letter or two from one twin's and nothing like the other's is a
// name the model remembers wrongly, not a typo for the closer twin. It
// returns the twin and the first search line that sides with neither, or
// nil.
func (r *resolver) twin(s []sline, chosen *region, regs []region, thr float64) (*region, int) {
	at := chosen.pairs(len(s))
	ix := r.index()
	for k := range regs {
		o := &regs[k]
		// A twin need only be as similar as a match must be: the lines
		// in which it differs are what the search may have confused.
		if o == chosen || o.score < thr || o.overlaps(chosen) {
			continue
		}
		other := o.pairs(len(s))
		var v sides
		first := -1
		for i := range s {
			if s[i].blank || s[i].elision {
				continue
			}
			var w sides
			switch {
			case at[i] < 0 && other[i] < 0:
				continue
			case at[i] < 0:
				w.other++ // a line only the twin has
			case other[i] < 0:
				// A line only the chosen place has tells them apart as a
				// whole.
				if s[i].loose == ix.View(at[i]) {
					w.chosen++
				} else {
					w.neither++
				}
			default:
				w = sideOn(s[i].text, ix.Line(at[i]), ix.Line(other[i]))
			}
			if w.neither+w.other > 0 && first < 0 {
				first = i
			}
			v.chosen, v.other, v.neither = v.chosen+w.chosen, v.other+w.other, v.neither+w.neither
		}
		if v.chosen+v.other+v.neither > 0 && (v.other > 0 || v.chosen <= v.neither) {
			return o, max(first, 0)
		}
	}
	return nil, -1
}

// sides counts the differences between two places that a search line has
// as the chosen place has them, as the other has them, or as neither.
type sides struct{ chosen, other, neither int }

// sideOn counts, for each difference between file line a (the chosen
// place) and its twin b, whether the search line s has it as a, as b, or
// neither way. Elsewhere on the line s may differ from both (a stale or
// mistyped word the twins share).
func sideOn(s, a, b string) sides {
	if a == b {
		return sides{} // nothing tells them apart
	}
	al, bl := cutTokens(a), cutTokens(b)
	ak := al.keys()
	apart := diff(ak, bl.keys())
	if strings.TrimSpace(s) == strings.TrimSpace(a) {
		// The search line is the chosen place's line, as most are: it has
		// every difference as the chosen place has it.
		return sides{chosen: len(apart)}
	}
	sl := cutTokens(s)
	said := diff(ak, sl.keys())
	var v sides
	for _, x := range apart {
		side := &v.chosen
		for _, y := range said {
			if touches(x, y) {
				side = &v.neither
				if sameEdit(x, y, bl, sl) {
					side = &v.other
				}
				break
			}
		}
		*side++
	}
	return v
}

// pairs returns the file line paired with each of n search lines, or -1.
func (r *region) pairs(n int) []int {
	at := make([]int, n)
	for i := range at {
		at[i] = -1
	}
	for _, o := range r.ops {
		if o.kind == opPair {
			at[o.s] = o.f
		}
	}
	return at
}

// exactPairs counts the non-blank search lines a region holds as they are.
func exactPairs(s []sline, reg *region) int {
	n := 0
	for _, o := range reg.ops {
		if o.kind == opPair && o.dist == 0 && !s[o.s].blank {
			n++
		}
	}
	return n
}

// renaming finds a word the search has where the region consistently has
// another, on two lines or more: the search is about something else (a
// ReadAt method against a Read one) rather than a stale or mistyped copy,
// whose slips are scattered. The words may differ from line to line by
// the same part: a sibling file's block, where every name says V1 and the
// file's say V2 (HandlerV1, loadV1, "v1: bad request"), is about other
// code as well. It returns the words of the first such line, and the
// lines.
func (r *resolver) renaming(s []sline, reg *region) (from, to, lines string) {
	type sub struct{ from, to string }
	type seen struct {
		from, to string // the words of the first line
		lines    []string
	}
	var by map[sub]*seen // made when a line differs by a renaming
	ix := r.index()
	for _, o := range reg.ops {
		if o.kind != opPair || o.dist == 0 {
			continue
		}
		f, t, part, ok := renamedBy(s[o.s].text, ix.Line(o.f))
		if !ok {
			continue
		}
		k := sub{part[0], part[1]}
		if by == nil {
			by = map[sub]*seen{}
		}
		sn := by[k]
		if sn == nil {
			sn = &seen{from: f, to: t}
			by[k] = sn
		}
		sn.lines = append(sn.lines, fmt.Sprint(o.f+1))
		if len(sn.lines) >= 2 {
			return sn.from, sn.to, strings.Join(sn.lines, ", ")
		}
	}
	return "", "", ""
}

// renamedBy returns the first word of a (the model's line) that b (the
// file's) has another in place of, that other, and the part by which they
// differ, when the two lines are the same tokens but for words that all
// differ by that same part: "Int32 int32" for "Int64 int64", or one word
// renamed wherever it stands (see renamed). White space does not count.
func renamedBy(a, b string) (from, to string, part [2]string, ok bool) {
	same := eachTokenPair(a, b, func(x, y string) bool {
		if x == y {
			return true
		}
		if !isWordToken(x) || !isWordToken(y) {
			return false
		}
		p, q := differingPart(x, y)
		if from == "" {
			from, to, part = x, y, [2]string{p, q}
			return true
		}
		return part == [2]string{p, q}
	})
	if !same || from == "" {
		return "", "", [2]string{}, false
	}
	return from, to, part, true
}

// differingPart returns what is left of two words without the start and
// the end they share: "1" and "2" for HandlerV1 and HandlerV2; the words
// themselves when they share neither.
func differingPart(a, b string) (string, string) {
	p, q := commonEnds(a, b)
	return a[p : len(a)-q], b[p : len(b)-q]
}

// clearlyBetter reports whether r beats o by enough to take r without a
// line hint: its cost is lower by a margin that grows with its own cost,
// or it has at most half as many lines that differ from the search (a
// forgotten line against a look-alike whose names all differ).
func (r *region) clearlyBetter(o *region) bool {
	if o.cost-r.cost >= max(2, r.cost/2) {
		return true
	}
	rm, om := r.mismatches(), o.mismatches()
	return r.cost <= o.cost && om > rm && 2*rm <= om
}

// mismatches counts the non-blank lines that are not the same on both
// sides: similar pairs, and lines on one side only.
func (r *region) mismatches() int { return r.similar + r.searchOnly + r.fileOnly }

// good reports whether a region is similar enough to be taken: above the
// threshold, with at most a quarter of the search's lines missing from it,
// and at least half of them nearly as written (a search
// of one or two lines may have them all changed a little).
func (r *region) good(threshold float64) bool {
	if r.score < threshold {
		return false
	}
	// Lines of the search missing from the file weigh more in a short
	// search: at most one in four.
	if 4*r.searchOnly > r.lines {
		return false
	}
	return r.cover >= 0.5 || (r.lines <= 2 && r.score >= 0.9)
}

// regions aligns the search in every window, and once more in what is
// left of the window around the region found, so that two similar places
// in one window both compete; it returns them cheapest first, one per
// place. With a threshold thr above zero, it leaves out what is left of a
// window where no region could be taken, and says so in pruned (see
// restMatters).
func (r *resolver) regions(s []sline, wins []window, thr float64) (regs []region, pruned bool) {
	ix := r.index()
	nonBlank := 0
	for i := range s {
		if !s[i].blank && !s[i].elision {
			nonBlank++
		}
	}
	for _, w := range wins {
		reg, ok := align(ix, s, w.lo, w.hi)
		if !ok {
			continue
		}
		regs = append(regs, reg)
		for _, rest := range [][2]int{{w.lo, reg.first}, {reg.last + 1, w.hi}} {
			if rest[1]-rest[0] < max(1, nonBlank/2) {
				continue
			}
			if thr > 0 {
				if !restMatters(ix, s, rest[0], rest[1], reg.cost, thr) {
					pruned = true
					continue
				}
			}
			if o, ok := align(ix, s, rest[0], rest[1]); ok {
				regs = append(regs, o)
			}
		}
	}
	slices.SortStableFunc(regs, func(a, b region) int {
		if a.cost != b.cost {
			return cmp.Compare(a.cost, b.cost)
		}
		return cmp.Compare(a.first, b.first)
	})
	out := regs[:0]
	for _, g := range regs {
		dup := false
		for k := range out {
			if out[k].first == g.first && out[k].last == g.last {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, g)
		}
	}
	return out, pruned
}

// restMatters reports whether aligning the search s in file lines
// [lo, hi), what is left of a window around a region of cost cost, may
// find a region that matters: one that scores thr or more (which may be
// taken, tie, or be a twin) or costs no more than that region (which may
// be the cheapest). Where no line of the search that tells places apart
// (more than three bytes) is one of those lines as it is, and no line is
// an elision, the region is aligned inside them by similarity alone: the
// search's lines it leaves out cost it their weight, and the lines it
// pairs at least the distance that their lengths and signatures tell
// (see lineDist), which bounds its cost from below over all the ways to
// pair them in order; that cost is out of at most the weight of the
// search and of those lines. (Without an elision, two regions of the same
// lines score in the order of their costs: a region left out never
// outranks one kept for the same lines.)
func restMatters(ix *index, s []sline, lo, hi int, cost, thr float64) bool {
	keys := ix.Keys(lo, hi)
	for j := range s {
		if s[j].elision || s[j].n > 3 && slices.Contains(keys, s[j].key) {
			return true
		}
	}
	// most[i] is the most that pairing the search's lines so far with
	// file lines [lo, lo+i) in order can save on leaving them all out.
	var buf [64]int
	most := buf[:0]
	if hi-lo+1 > len(buf) {
		most = make([]int, 0, hi-lo+1)
	}
	most = most[:hi-lo+1]
	clear(most)
	weight := 0
	for i := lo; i < hi; i++ {
		weight += ix.weight(i)
	}
	searchWeight := 0
	for j := range s {
		l := &s[j]
		searchWeight += l.weight()
		diag := 0 // most[i-1] of the lines before l
		for i := 1; i < len(most); i++ {
			up := most[i]
			v := max(up, most[i-1])
			if g := pairSaving(ix, l, lo+i-1); g > 0 {
				v = max(v, diag+g)
			}
			diag, most[i] = up, v
		}
	}
	floor := float64(searchWeight - most[len(most)-1])
	return floor <= cost || floor <= (1-thr)*float64(searchWeight+weight)
}

// pairSaving bounds from above what pairing search line l with file line
// i saves on leaving l out: its weight less the least distance their
// lengths and signatures allow (see lineDist), or 0 when they tell that
// the lines are not similar enough to pair.
func pairSaving(ix *index, l *sline, i int) int {
	if l.blank || ix.Blank(i) {
		if l.blank && ix.Blank(i) {
			return l.weight()
		}
		return 0
	}
	n, sig := ix.Measure(i)
	least := l.leastEdits(n, sig)
	if least > l.editLimit(n) {
		return 0
	}
	return l.weight() - least
}

// candidate describes a region for an error message.
func (r *resolver) candidate(s []sline, reg *region) Candidate {
	var search, file strings.Builder
	for i := range s {
		search.WriteString(s[i].text)
		search.WriteByte('\n')
	}
	for f := reg.first; f <= reg.last; f++ {
		file.WriteString(r.d.line(f))
		file.WriteByte('\n')
	}
	diff := udiff.Unified("search", "file "+r.d.linesWord(reg.first+1, reg.last+1), search.String(), file.String())
	return Candidate{StartLine: reg.first + 1, EndLine: reg.last + 1, Score: reg.score, Diff: clip(diff, 40)}
}

// clip keeps the first n lines of text.
func clip(text string, n int) string {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) <= n {
		return text
	}
	return strings.Join(lines[:n], "") + fmt.Sprintf("... (%d more lines)\n", len(lines)-n)
}

func firstDistinct(s []sline) string {
	for i := range s {
		if !s[i].blank && !s[i].elision {
			return strings.TrimSpace(s[i].text)
		}
	}
	return ""
}

func byHintNote(d *document, hint int, s Span, n int) string {
	return fmt.Sprintf("line hint %d chose %s among %d equally good places", d.shown(hint), d.linesWord(s.StartLine, s.EndLine), n)
}

// place merges the model's change into a region and builds the match.
func (r *resolver) place(s []sline, t []string, reg *region, rd reading) (*Match, *Error) {
	ix := r.index()
	out, mg, err := merge(ix, s, t, reg)
	if err != nil {
		e, _ := err.(*Error)
		if e == nil {
			e = refuse(ReasonInvalid, "%v", err)
		}
		e.Candidates = append(e.Candidates, r.candidate(s, reg))
		return nil, e
	}
	d := r.d
	start, end := d.offsetOfLine(reg.first), d.offsetOfLine(reg.last+1)
	var b strings.Builder
	size := 0
	for _, l := range out {
		size += len(l.text) + len("\r\n")
	}
	b.Grow(size)
	atEOF := reg.last == d.lineCount()-1 && !d.endsWithNewline()
	prev := d.eol()
	if e := d.endingBefore(start); d.mixed && e != "" {
		prev = e
	}
	for k, l := range out {
		b.WriteString(l.text)
		eol := l.eol
		if eol == "" {
			eol = prev
		}
		if d.mixed {
			prev = eol
		}
		if k == len(out)-1 && atEOF {
			eol = ""
		}
		b.WriteString(eol)
	}
	if len(out) == 0 && atEOF && reg.first > 0 {
		start = d.end[reg.first-1]
	}
	m := &Match{
		Strategy:  r.strategy(s, reg, rd, len(mg.kept)+len(mg.missing)+len(mg.into) > 0),
		Score:     round3(reg.score),
		StartLine: reg.first + 1,
		EndLine:   reg.last + 1,
		Changes:   []Change{{Start: start, End: end, Text: b.String()}},
	}
	if len(mg.kept) > 0 {
		m.Notes = append(m.Notes, "kept the file's version of line(s) "+r.d.lineList(mg.kept)+" where the model's copy differs and its change does not touch them")
	}
	if len(mg.missing) > 0 {
		m.Notes = append(m.Notes, "kept line(s) "+r.d.lineList(mg.missing)+", which the model's copy leaves out")
	}
	if len(mg.rewrote) > 0 {
		m.Notes = append(m.Notes, "rewrote line(s) "+r.d.lineList(mg.rewrote)+" as the model wrote them: its change does not line up with the file's version of them word by word")
	}
	if len(mg.into) > 0 {
		m.Notes = append(m.Notes, "merged the model's change into line(s) "+r.d.lineList(mg.into)+", keeping what differs there from the model's copy")
	}
	return m, nil
}

// lineList formats 0-based lines of d as a list of the 1-based lines the
// person sees (see shown).
func (d *document) lineList(lines []int) string {
	ls := make([]string, len(lines))
	for k, l := range lines {
		ls[k] = strconv.Itoa(d.shown(l + 1))
	}
	return strings.Join(ls, ", ")
}

// strategy names what it took to find a region.
func (r *resolver) strategy(s []sline, reg *region, rd reading, merged bool) string {
	names := append([]string(nil), rd.tags...)
	switch {
	case reg.similar > 0 || reg.searchOnly > 0 || reg.fileOnly > 0:
		names = append(names, "similarity")
	case reg.level == levelUnicode:
		names = append(names, "unicode-normalized")
	case reg.level == levelInnerWS:
		names = append(names, "whitespace-normalized")
	case reg.level == levelIndent && uniformShift(s, reg, r.index()):
		names = append(names, "indentation-flexible")
	case reg.level >= levelTrailing:
		names = append(names, "line-trimmed")
	case reg.blankOnly > 0:
		names = append(names, "blank-lines")
	}
	if reg.elided {
		names = append(names, "elision")
	}
	if merged {
		names = append(names, "merge")
	}
	if len(names) == 0 {
		names = append(names, "trimmed-boundary")
	}
	return strings.Join(names, "+")
}

// uniformShift reports whether every paired line is indented by the same
// amount more (or less) in the file than in the model's copy.
func uniformShift(s []sline, reg *region, ix *index) bool {
	shift, seen := 0, false
	for _, o := range reg.ops {
		if o.kind != opPair || ix.Blank(o.f) {
			continue
		}
		d := columns(indentOf(ix.Line(o.f)), 4) - columns(indentOf(s[o.s].text), 4)
		if seen && d != shift {
			return false
		}
		shift, seen = d, true
	}
	return true
}

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }
