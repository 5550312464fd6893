package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/graft-editor/graft/engine/internal/loose"
)

// An answer is often applied twice: sent again, retried, applied block by
// block and then whole. Its change then already stands in the text, and
// making it again would write the replacement a second time beside itself
// (an insertion whose replacement still holds the search finds the search
// again), or merge the old change into the code it became. Resolve tells
// such an edit by the text alone, in two places:
//
//   - a match whose replacement is there already where it would land
//     (standing): the bytes it would write are the bytes there, or the
//     region it found is part of the replacement and the text holds the
//     rest of the replacement around it (an insertion beside it);
//   - a refusal, when the replacement stands once in the text, white space
//     aside, and the search is clearly nowhere else (standingInstead).
//
// Where the replacement is in the text only as the resolver finds a search
// (a model's copy a little off, lines the model elided or forgot), the
// replacement is aligned where the search landed, or came closest, and
// the evidence is the lines that tell the change: those it adds are there,
// those it takes out are not (standingAligned). A resemblance alone never
// is: a one-digit change leaves the replacement 99% like the text it was
// not yet made in.
//
// Either way the edit comes back as a Match with AlreadyApplied set and
// no Changes, at the lines where the change stands.

// standing returns m, or the match saying that its change already stands
// in the text, where m would write it.
func (d *document) standing(m *Match, opt Options) *Match {
	if m == nil || m.AlreadyApplied || len(m.Changes) != 1 || opt.ignoreStanding {
		return m
	}
	c := m.Changes[0]
	x := c.Text
	if d.text[c.Start:c.End] == x {
		return d.stands(m, c.Start, c.End, "the replacement is what the text holds there")
	}
	if strings.TrimSpace(x) == "" {
		return m // a deletion, or white space: nothing tells it stands
	}
	// The replacement stands around the region the search found: the
	// replacement still holds the search, and the text holds the rest of
	// it there too. An insertion's empty region may be at either end.
	if len(x) < c.End-c.Start {
		return m
	}
	lo, hi := max(0, c.End-len(x)), min(len(d.text), c.Start+len(x))
	for _, at := range occurrences(d.text[lo:hi], x, maxOccurrences) {
		if p := lo + at; p <= c.Start && c.End <= p+len(x) {
			return d.stands(m, p, p+len(x), "the replacement is there already")
		}
	}
	return m
}

// stands returns the match of an edit whose change stands at the bytes
// [start, end) of the text, found as m was.
func (d *document) stands(m *Match, start, end int, why string) *Match {
	a, b := d.lineAt(start), d.lineAt(max(start, end-1))
	if start == end && start == len(d.text) && a > 0 {
		a, b = a-1, a-1
	}
	where := d.linesWord(a+1, b+1)
	if d.lineCount() == 0 {
		// Nothing inserted into an empty text: the match is an insertion
		// before its first line, as Insert reports one.
		a, b, where = 0, -1, "the start of the empty text"
	}
	note := fmt.Sprintf("already applied at %s: %s; nothing changed", where, why)
	return &Match{
		Strategy:       m.Strategy,
		Score:          m.Score,
		StartLine:      a + 1,
		EndLine:        b + 1,
		AlreadyApplied: true,
		Notes:          []string{note},
	}
}

// standingInstead returns the match of an edit refused with e whose
// replacement new stands where the search old could be: aligned where the
// search came closest, the lines that tell the change say it was made
// there (standingAligned); or it stands once in the text, white space
// aside, and the search resolves to no place above the threshold apart
// from it. Where that is not clear (the replacement stands in several
// places, or the search is clearly at another one), it returns nil and a
// note for the refusal, that the replacement is in the text already.
func (r *resolver) standingInstead(e *Error, old, new string) (*Match, string) {
	if e == nil || strings.TrimSpace(new) == "" || loose.View(new) == loose.View(old) || r.opt.ignoreStanding {
		return nil, ""
	}
	if len(e.Candidates) > 0 && e.Reason != ReasonAmbiguous {
		c := e.Candidates[0]
		if r.changeNear(old, new, c.StartLine-1, c.EndLine-1) {
			if m := r.standingAligned(old, new, c.StartLine-1, c.EndLine-1); m != nil {
				return m, ""
			}
		}
	}
	if !oneLine(new) {
		// A line inside the replacement that is nowhere in the file rules
		// it out (as looseHits would, after a tally of its lines): so it
		// is for most refusals, whose replacement keeps lines of a search
		// that was not found.
		lines, _ := trimEnds(splitLines(new), nil)
		for j := 1; j < len(lines)-1; j++ {
			if r.absent(lines[j]) {
				return nil, ""
			}
		}
	}
	var hits []looseHit
	for _, h := range r.looseHits(new) {
		if r.wholeLines(h, new) {
			hits = append(hits, h)
		}
	}
	if len(hits) == 0 {
		return nil, ""
	}
	d := r.d
	var places []string
	for i, h := range hits {
		if i == 5 {
			places = append(places, "...")
			break
		}
		pa, pb := d.shownSpan(d.lineAt(h.start)+1, d.lineAt(max(h.start, h.end-1))+1)
		places = append(places, fmt.Sprintf("%d-%d", pa, pb))
	}
	h := hits[0]
	a, b := d.lineAt(h.start)+1, d.lineAt(max(h.start, h.end-1))+1
	// The search is elsewhere when a place it resembles enough is apart
	// from the replacement; for an ambiguous search, when none of the
	// places it resembles is the replacement's.
	elsewhere := len(hits) > 1
	switch {
	case e.Reason == ReasonAmbiguous:
		// A search whose telling line stands in the replacement's place
		// is about that place, whatever else it resembles.
		elsewhere = elsewhere || !overlapsAny(e.Candidates, a, b) && (e.line < a || e.line > b)
	case len(e.Candidates) > 0:
		c := e.Candidates[0]
		elsewhere = elsewhere || (c.EndLine < a || c.StartLine > b) && c.Score >= r.opt.threshold()
	}
	if elsewhere {
		return nil, fmt.Sprintf("the replacement is in the file already, at lines %s: the edit may have been applied before", strings.Join(places, ", "))
	}
	strategy, why := "exact", "the replacement is there already"
	if toLF(d.text[h.start:h.end]) != strings.TrimSpace(toLF(new)) {
		strategy, why = "whitespace-blind", "the replacement is there already, white space aside"
	}
	m := &Match{Strategy: strategy, Score: h.score}
	return d.stands(m, h.start, h.end, why+", and the search is nowhere else"), ""
}

// overlapsAny reports whether one of cands overlaps lines a-b (1-based).
func overlapsAny(cands []Candidate, a, b int) bool {
	for _, c := range cands {
		if c.StartLine <= b && a <= c.EndLine {
			return true
		}
	}
	return false
}

// standingMatch returns m, the match of the reading rd, or the match
// saying that its change stands already where m landed: its replacement
// is there as m would write it (standing); for a match found only
// approximately, the lines that tell the change say it was made there
// (standingAligned); for a match found as it is, away from the line the
// edit's hint gives, the replacement stands once where the hint points
// (standingByHint). A match found only approximately next to a place
// where the replacement stands, but not there, is refused: the search may
// be the text the change replaced, quoted again (see nearReplacement).
func (r *resolver) standingMatch(m *Match, rd reading) (*Match, error) {
	if s := r.d.standing(m, r.opt); s != m || r.opt.ignoreStanding {
		return s, nil
	}
	if c := m.Changes; len(c) == 1 && toLF(r.d.text[c[0].Start:c[0].End]) == rd.old {
		// The search is there as it is.
		if e := r.changedSince(m, rd); e != nil {
			return nil, e
		}
		return r.standingByHint(m, rd), nil
	}
	// The cheap test first: most edits, made the first time, end here.
	if !r.changeNear(rd.old, rd.new, m.StartLine-1, m.EndLine-1) || loose.View(rd.new) == loose.View(rd.old) {
		return m, nil
	}
	if s := r.standingAligned(rd.old, rd.new, m.StartLine-1, m.EndLine-1); s != nil {
		return s, nil
	}
	if m.Score < 1 {
		if e := r.nearReplacement(m, rd); e != nil {
			return nil, e
		}
	}
	return m, nil
}

// nearLines is how many lines around a match, beyond as many as the
// replacement has, nearReplacement looks at.
const nearLines = 3

// nearReplacement returns the refusal of m, a match found only
// approximately, when the replacement stands, white space aside, among
// the lines around it (as many on each side as it has, and nearLines
// more), and not merely inside m where m holds the whole search, white
// space aside (a change that takes lines off the search's ends, the lines
// still there); nil when it does not. Which of the two places the edit means
// cannot be told: the search resembles one, and the change it makes is
// already at the other. The caller has checked changeNear.
func (r *resolver) nearReplacement(m *Match, rd reading) *Error {
	new := rd.new
	needle := loose.View(new)
	if needle == "" {
		return nil
	}
	d := r.d
	n := strings.Count(strings.TrimSuffix(toLF(new), "\n"), "\n") + 1 + nearLines
	lo, hi := max(0, m.StartLine-1-n), min(d.lineCount(), m.EndLine+n)
	if lines := splitLines(toLF(new)); len(lines) > 2 {
		if in, of := r.among(lines[1:len(lines)-1], nil, lo, hi, 0); in < of {
			return nil // a whole line inside the replacement is not there
		}
	}
	// Where m holds the search whole, white space aside, the lines the
	// change takes out are there: the replacement found inside m is the
	// search's own text (a change that takes lines off its ends), not the
	// change made before.
	whole := loose.View(d.text[d.start[m.StartLine-1]:d.end[m.EndLine-1]]) == loose.View(rd.old)
	v := r.view(lo, hi)
	var a, b int
	found := false
	for _, at := range occurrences(v.text, needle, maxOccurrences) {
		h := r.hit(v, at, len(needle))
		if !r.wholeLines(h, new) {
			continue
		}
		a, b = d.lineAt(h.start)+1, d.lineAt(max(h.start, h.end-1))+1
		if whole && m.StartLine <= a && b <= m.EndLine {
			continue
		}
		found = true
		break
	}
	if !found {
		return nil
	}
	e := refuse(ReasonAmbiguous, "ambiguous: the search resembles %s, but its replacement stands already at %s: the edit may have been applied there before; quote the lines as they are now",
		d.linesWord(m.StartLine, m.EndLine), d.linesWord(a, b))
	e.Candidates = []Candidate{{StartLine: m.StartLine, EndLine: m.EndLine, Score: m.Score}, {StartLine: a, EndLine: b, Score: 1}}
	return e
}

// standingByHint returns m, the match of a search found as it is, or the
// match saying that its change stands already: the replacement is in the
// text as it is, once, apart from m, and the edit's line hint points at
// it rather than at m. A hint decides between two places, as it decides
// between two places a search occurs: here, the search as the model last
// saw it and the change it already made.
func (r *resolver) standingByHint(m *Match, rd reading) *Match {
	if rd.hint <= 0 || strings.TrimSpace(rd.new) == "" || loose.View(rd.new) == loose.View(rd.old) {
		return m
	}
	d := r.d
	at := occurrences(d.lf, toLF(rd.new), 2)
	if len(at) != 1 {
		return m
	}
	start, end := d.fromLF(at[0]), d.fromLF(at[0]+len(toLF(rd.new)))
	a, b := d.lineAt(start), d.lineAt(max(start, end-1))
	if strings.TrimSpace(d.text[d.start[a]:start]) != "" || end < d.end[b] && strings.TrimSpace(d.text[end:d.end[b]]) != "" {
		return m // part of a line: a piece of other text, not a change made
	}
	there := Span{a + 1, b + 1}
	here := Span{m.StartLine, m.EndLine}
	if k, ok := byHint([]Span{here, there}, rd.hint); !ok || k != 1 {
		return m
	}
	return d.stands(m, start, end, fmt.Sprintf("the replacement is there already, where line hint %d points, while the search is at %s", d.shown(rd.hint), d.linesWord(here.StartLine, here.EndLine)))
}

// standingAligned returns the match of a change from old to new that
// stands about file lines a-b (0-based, both included), where the search
// old came closest: new, aligned in those lines and as many again on each
// side as new has, is like the text there above the threshold, and the
// lines that tell the change say it was made: every line new adds is
// paired with a line there as it is, white space aside, and each line the
// change adds or takes out is there as many times as new has it, not as
// many as old has, in those lines and the lines a-b. It returns nil when
// that is not so. The caller has checked changeNear, which rules most
// places out at a fraction of the cost.
func (r *resolver) standingAligned(old, new string, a, b int) *Match {
	if a < 0 {
		return nil
	}
	lines, _ := trimEnds(splitLines(toLF(new)), nil)
	olines, _ := trimEnds(splitLines(toLF(old)), nil)
	if len(lines) == 0 || len(olines) == 0 {
		return nil
	}
	d, ix := r.d, r.index()
	lo, hi := max(0, a-len(lines)), min(d.lineCount(), b+1+len(lines))
	if in, of := r.among(lines, newLines(olines, lines), lo, hi, 0); in < of {
		return nil // a line the change adds is nowhere near: most edits, made the first time
	}
	added, removed, counts := changedLines(olines, lines)
	if len(counts) == 0 {
		return nil // white space only: nothing tells it was made
	}
	sl := r.searchLines(lines)
	reg, ok := align(ix, sl, lo, hi)
	if !ok || !reg.good(r.opt.threshold()) || reg.searchOnly > 0 || reg.ambiguousElision != "" {
		// The replacement is not there as a search would be found, or a
		// line of it is not there at all: a line the change keeps (a
		// deletion's context quoted from elsewhere) is no evidence that
		// the change was made here.
		return nil
	}
	if _, _, l := r.renaming(sl, &reg); l != "" {
		return nil // the replacement names other code: a sibling's change
	}
	for _, o := range reg.ops {
		if o.s >= 0 && added[o.s] && (o.kind != opPair || sl[o.s].loose != ix.View(o.f)) {
			return nil // a line the change adds is not there
		}
	}
	// The lines are counted where the search landed and where the
	// replacement lines up, both: a replacement that lines up on a part
	// of the search's place (one copy of a repeated line fewer) must not
	// leave out the copy the change takes out.
	// Lines an elision of the replacement stands for are not its own.
	elided := map[int]bool{}
	for _, o := range reg.ops {
		if o.kind == opElided {
			elided[o.f] = true
		}
	}
	there := map[string]int{}
	for f := min(reg.first, a); f <= max(reg.last, b); f++ {
		if elided[f] {
			continue
		}
		if k := ix.View(f); counts[k] != (lineCounts{}) {
			there[k]++
		}
	}
	for k, c := range counts {
		if c.new > c.old && there[k] < c.new || c.new < c.old && there[k] > c.new {
			return nil // the region has a changed line as old has it
		}
	}
	if len(removed) > 0 {
		// Where the search lines up, no line the change takes out is
		// there, as it is or rewritten into a line the change neither
		// keeps nor writes (a line the change deletes that was edited
		// since is not deleted: "m = n.Value" taken out where the file
		// has "m = n.ValueOut" now); a copy of it elsewhere may remain.
		osl := r.searchLines(olines)
		oreg, ok := align(ix, osl, min(lo, a), max(hi, b+1))
		if !ok {
			return nil
		}
		kept := map[string]bool{} // the lines the change keeps or writes, loosely
		for i, l := range osl {
			if !removed[i] {
				kept[l.loose] = true
			}
		}
		for _, l := range sl {
			kept[l.loose] = true
		}
		for _, o := range oreg.ops {
			if o.kind == opPair && removed[o.s] && (osl[o.s].loose == ix.View(o.f) || !kept[ix.View(o.f)]) {
				return nil
			}
		}
	}
	m := &Match{Strategy: "similarity", Score: round3(reg.score)}
	return d.stands(m, d.start[reg.first], d.end[reg.last], fmt.Sprintf("the lines it adds and takes out are as it leaves them, and the rest is %.0f%% alike", 100*reg.score))
}

// lineCounts counts a line's copies in a change's search and replacement.
type lineCounts struct{ old, new int }

// changedLines returns the lines of new (by index) that the change from
// old adds, the lines of old (by index) it takes out, and the counts of
// the lines, by loose view, that old and new have a different number of.
// Blank lines and elisions do not count.
func changedLines(old, new []string) (added, removed map[int]bool, counts map[string]lineCounts) {
	a := make([]string, len(old))
	for i, l := range old {
		a[i] = loose.View(l)
	}
	b := make([]string, len(new))
	for i, l := range new {
		b[i] = loose.View(l)
	}
	counts = map[string]lineCounts{}
	for i, k := range a {
		if k != "" && !isElision(old[i]) {
			c := counts[k]
			c.old++
			counts[k] = c
		}
	}
	for i, k := range b {
		if k != "" && !isElision(new[i]) {
			c := counts[k]
			c.new++
			counts[k] = c
		}
	}
	for k, c := range counts {
		if c.old == c.new {
			delete(counts, k)
		}
	}
	added, removed = map[int]bool{}, map[int]bool{}
	for _, dd := range diff(a, b) {
		for j := dd.ReplStart; j < dd.ReplEnd; j++ {
			if b[j] != "" && !isElision(new[j]) {
				added[j] = true
			}
		}
		for i := dd.Start; i < dd.End; i++ {
			if a[i] != "" && !isElision(old[i]) {
				removed[i] = true
			}
		}
	}
	return added, removed, counts
}

// wholeLines reports whether the loose hit h of text stands on the
// file's lines as text stands on its own: each of its lines after the
// first starts a line of the file (sameShape), and where text ends with a
// line ending, the hit ends its line. A text of one line may be part of a
// line, but not of a word: "01" inside "00001" is no change made. The loose view runs the lines
// together, so a hit may otherwise join the end of one line to the start
// of the next.
func (r *resolver) wholeLines(h looseHit, text string) bool {
	text = toLF(text)
	if oneLine(strings.TrimSpace(text)) {
		return r.tokenBounded(h.start, h.end)
	}
	d := r.d
	b := d.lineAt(max(h.start, h.end-1))
	if strings.HasSuffix(text, "\n") && strings.TrimSpace(d.text[h.end:max(h.end, d.end[b])]) != "" {
		return false
	}
	return r.sameShape(h, strings.TrimRight(text, "\n"))
}

// changedSince returns the refusal of m, a match of a search found as it
// is whose replacement keeps the search and adds lines around it, when
// those lines stand there already, but not as the replacement writes
// them: aligned about m, at least half the lines the replacement adds (two
// or more) pair with lines of the text, and one of some length that the
// file has once is there as it is. The change
// was made, and the lines it added edited since; making it again would
// write them twice. It returns nil otherwise.
func (r *resolver) changedSince(m *Match, rd reading) *Error {
	if !strings.Contains(rd.new, strings.TrimSpace(rd.old)) {
		return nil
	}
	lines, _ := trimEnds(splitLines(toLF(rd.new)), nil)
	olines, _ := trimEnds(splitLines(toLF(rd.old)), nil)
	d, ix := r.d, r.index()
	a, b := m.StartLine-1, m.EndLine-1
	if !r.changeNear(rd.old, rd.new, a, b) {
		return nil
	}
	lo, hi := max(0, a-len(lines)), min(d.lineCount(), b+1+len(lines))
	if in, _ := r.among(lines, newLines(olines, lines), lo, hi, 10); in == 0 {
		return nil // no telling line it adds is near: most insertions, made the first time
	}
	added, _, _ := changedLines(olines, lines)
	if len(added) < 2 {
		return nil // one line added tells too little
	}
	sl := r.searchLines(lines)
	reg, ok := align(ix, sl, lo, hi)
	if !ok {
		return nil
	}
	// A telling line is one of some length that the file has once: a
	// line like many others ("t.Parallel()") says nothing.
	occs := r.tally(r.search(lines)).occs
	paired, telling := 0, false
	for _, o := range reg.ops {
		if o.s < 0 || !added[o.s] || o.kind != opPair {
			continue
		}
		paired++
		l := &sl[o.s]
		if oc := occs[l.key]; oc != nil && oc.count == 1 && len(l.loose) >= 10 && l.loose == ix.View(o.f) {
			telling = true
		}
	}
	if 2*paired < len(added) || !telling || reg.first >= a && reg.last <= b {
		return nil
	}
	e := refuse(ReasonConflict, "conflict: the lines this edit adds stand already at %s, but not as it writes them: it may have been applied, and those lines edited since; read them, and quote them as they are now",
		r.d.linesWord(reg.first+1, reg.last+1))
	e.Candidates = []Candidate{{StartLine: reg.first + 1, EndLine: reg.last + 1, Score: round3(reg.score)}}
	return e
}

// among counts the lines of lines that which picks (all when which is
// nil), of at least min bytes white space aside (and not blank), elisions
// aside: in is how many of them are among file lines [lo, hi), of how
// many there are. It compares the lines' keys, which costs far less than
// aligning them.
func (r *resolver) among(lines []string, which map[int]bool, lo, hi, min int) (in, of int) {
	ix := r.index()
	keys := ix.Keys(lo, hi)
	for j, l := range lines {
		if which != nil && !which[j] || isElision(l) {
			continue
		}
		k, n, _ := loose.Key(l)
		if n == 0 || n < min {
			continue
		}
		of++
		if slices.Contains(keys, k) {
			in++
		}
	}
	return in, of
}

// newLines returns the lines of new (by index) whose loose view old has
// nowhere: lines the change surely adds, found without a diff, to rule a
// place out before anything costlier.
func newLines(old, new []string) map[int]bool {
	in := make(map[string]bool, len(old))
	for _, l := range old {
		in[loose.View(l)] = true
	}
	out := map[int]bool{}
	for j, l := range new {
		if k := loose.View(l); k != "" && !in[k] {
			out[j] = true
		}
	}
	return out
}

// changeNear reports whether the whole line of new that holds the first
// byte where new and old differ is among the file lines about a-b
// (0-based), as many again on each side as new has lines and nearLines
// more, white space aside; and true when that line cannot say (it is the
// first or the last of new, which may be part of a line, or new only
// takes text out). It is the cheap test that rules out a place for a
// change that stands, before the lines are split and aligned: it costs
// one pass over the two texts and the keys of the lines about a-b.
func (r *resolver) changeNear(old, new string, a, b int) bool {
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	start := strings.LastIndexByte(new[:p], '\n') + 1
	end := strings.IndexByte(new[p:], '\n')
	if start == 0 || end < 0 || p == len(new) {
		return true
	}
	k, n, _ := loose.Key(new[start : p+end])
	if n == 0 {
		return true
	}
	d, ix := r.d, r.index()
	lines := strings.Count(new, "\n") + 1 + nearLines
	lo, hi := max(0, a-lines), min(d.lineCount(), b+1+lines)
	return slices.Contains(ix.Keys(lo, hi), k)
}

// tokenBounded reports whether the bytes [start, end) of the text begin
// and end where a word does: no letter, digit or underscore on both sides
// of either end.
func (r *resolver) tokenBounded(start, end int) bool {
	t := r.d.text
	word := func(i int) bool { return i >= 0 && i < len(t) && isWordByte(t[i]) }
	return !(word(start-1) && word(start)) && !(word(end-1) && word(end))
}
