package corpus

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/graft-editor/graft/engine"
)

// The kinds of this file vary where and how much a block quotes: a part
// of a line, whole lines deleted, near twins, a far line hint, a big
// region, several mistakes at once, chained edits.

// buildSubline edits part of a line, or a span from the middle of one line
// to the middle of another, sometimes with an extra blank inside the
// quoted span (in Old and New alike).
func buildSubline(g *Generator, rng *rand.Rand) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	i := rng.IntN(len(s.lines))
	span := 0
	if rng.IntN(3) == 0 {
		span = 1 + rng.IntN(3)
	}
	if i+span >= len(s.lines) || !usableChunk(append(s.lines[i:i+span+1:i+span+1], "substance")) {
		return Case{}, errSkip
	}
	first, last := s.lines[i], s.lines[i+span]
	ft, lt := scan(s.lang, first), scan(s.lang, last)
	var from, to int // byte offsets of the span in the first and last lines
	if span == 0 {
		if len(ft) < 3 {
			return Case{}, errSkip
		}
		a := rng.IntN(len(ft) - 1)
		b := a + 1 + rng.IntN(len(ft)-a-1)
		from, to = ft[a].start, ft[b].end
		if from == len(indentOf(first)) && to == len(first) {
			return Case{}, errSkip
		}
	} else {
		if len(ft) == 0 || len(lt) == 0 {
			return Case{}, errSkip
		}
		from, to = ft[rng.IntN(len(ft))].start, lt[rng.IntN(len(lt))].end
		if from == len(indentOf(first)) || to == len(last) {
			return Case{}, errSkip
		}
	}
	off := lineOffset(s.lines, i) + from
	end := lineOffset(s.lines, i+span) + to
	frag := s.text[off:end]
	// Unique even blanks aside, as the blank the model may add asks.
	if len(frag) < 12 || strings.Count(s.text, frag) != 1 || strings.Count(s.squeezedText(), squeeze(frag)) != 1 {
		return Case{}, errSkip
	}
	edited, what, ok := editFragment(rng, s.lang, frag)
	if !ok {
		return Case{}, errSkip
	}
	old, new := frag, edited
	if rng.IntN(3) == 0 {
		if old, new, ok = blankInside(rng, frag, edited); !ok {
			return Case{}, errSkip
		}
		what += "; an extra blank inside"
	}
	f := randomForm(rng)
	want := s.text[:off] + edited + s.text[end:]
	return Case{
		Path:    s.path,
		Line:    i + 1,
		Variant: fmt.Sprintf("%s in a span of %d line(s)%s", what, span+1, bracket(f)),
		File:    f.render(s.lines),
		Edits:   []engine.Edit{{Path: s.path, Old: old, New: new}},
		Want:    f.render(strings.Split(strings.TrimSuffix(want, "\n"), "\n")),
	}, nil
}

// bracket returns the form's name in brackets, or nothing for a plain file.
func bracket(f form) string {
	if s := f.String(); s != "" {
		return " [" + s + "]"
	}
	return ""
}

// lineOffset returns the byte offset of line i in lines joined by "\n".
func lineOffset(lines []string, i int) int {
	off := 0
	for _, l := range lines[:i] {
		off += len(l) + 1
	}
	return off
}

// editFragment renames an identifier through a fragment of code, or
// changes one of its literals.
func editFragment(rng *rand.Rand, l *lang, frag string) (string, string, bool) {
	var toks []token
	for _, t := range scan(l, frag) {
		w := frag[t.start:t.end]
		if t.kind == tokIdent && len(w) >= 2 && !l.isKeyword(w) || t.kind == tokNumber && isDecimal(w) {
			toks = append(toks, t)
		}
	}
	if len(toks) == 0 {
		return "", "", false
	}
	t := toks[rng.IntN(len(toks))]
	w := frag[t.start:t.end]
	if t.kind == tokIdent {
		return replaceWord(frag, w, newName(rng, l, w)), "rename " + w, true
	}
	n, _ := strconv.Atoi(w)
	return frag[:t.start] + strconv.Itoa(n+1) + frag[t.end:], "change literal " + w, true
}

// blankInside adds a blank inside old and new at the same place, after a
// comma or parenthesis or beside a space, away from what the edit changed.
func blankInside(rng *rand.Rand, old, new string) (string, string, bool) {
	pre := 0
	for pre < len(old) && pre < len(new) && old[pre] == new[pre] {
		pre++
	}
	suf := 0
	for suf < len(old)-pre && suf < len(new)-pre && old[len(old)-1-suf] == new[len(new)-1-suf] {
		suf++
	}
	var spots []int // positions in old; a blank goes before old[p]
	for p := 1; p < len(old); p++ {
		if old[p-1] != ',' && old[p-1] != '(' && old[p] != ' ' || old[p-1] == '\n' || old[p] == '\n' {
			continue
		}
		if line := old[strings.LastIndexByte(old[:p], '\n')+1 : p]; isBlank(line) {
			// Indentation is not inside the span.
			continue
		}
		if p+1 < pre || p-1 > len(old)-suf {
			spots = append(spots, p)
		}
	}
	if len(spots) == 0 {
		return "", "", false
	}
	p := spots[rng.IntN(len(spots))]
	q := p
	if p >= pre {
		q = p + len(new) - len(old)
	}
	return old[:p] + " " + old[p:], new[:q] + " " + new[q:], true
}

// buildDeleteLines deletes one to eight whole lines: New is empty.
func buildDeleteLines(g *Generator, rng *rand.Rand) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	n := regionLength(rng, 1, 8)
	start, ok := s.region(rng, n)
	if !ok || start+n == len(s.lines) {
		return Case{}, errSkip
	}
	d := newDraft(rng, s, s.lines, start, n, change{del: n, what: fmt.Sprintf("delete %d line(s)", n)})
	d.trailNL = true
	if rng.IntN(2) == 0 {
		if err := d.whitespaceDamage(); err != nil {
			return Case{}, err
		}
	}
	return d.build(), nil
}

// buildNearTwin makes a block and its twin with one name changed on
// several lines, and quotes one of them, mostly with whitespace damage.
func buildNearTwin(g *Generator, rng *rand.Rand) (Case, error) { return twins(g, rng, false) }

// buildTrapNearTwin makes twin blocks, each with its own name, and quotes
// the block with a third name.
func buildTrapNearTwin(g *Generator, rng *rand.Rand) (Case, error) { return twins(g, rng, true) }

func twins(g *Generator, rng *rand.Rand, trap bool) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	n := regionLength(rng, 6, 25)
	start, ok := s.region(rng, n)
	if !ok {
		return Case{}, errSkip
	}
	region := s.lines[start : start+n]
	name, ok := sharedName(rng, s.lang, region)
	if !ok {
		return Case{}, errSkip
	}
	// Suffixes of equal length with no byte in common, so that the third
	// name is as far from either twin's as they are from each other.
	triples := [...][3]string{{"Src", "Dst", "Tmp"}, {"Old", "New", "Cur"}, {"A", "B", "C"}, {"Lo", "Hi", "Md"}}
	sfx := triples[rng.IntN(len(triples))]
	names := [3]string{name + sfx[0], name + sfx[1], name + sfx[2]}
	for _, nm := range names {
		if strings.Contains(s.text, nm) {
			return Case{}, errSkip
		}
	}
	orig, twin := region, renameAll(region, name, names[1])
	if trap {
		orig = renameAll(region, name, names[0])
	}
	lines := slices.Concat(s.lines[:start], orig, s.lines[start+n:])
	var spots []int
	for p, line := range lines {
		if (p < start-2 || p > start+n+1) && (line == "}" || line == "") {
			spots = append(spots, p)
		}
	}
	if len(spots) == 0 {
		return Case{}, errSkip
	}
	p := spots[rng.IntN(len(spots))]
	at := p + 1
	block, twinStart := slices.Concat([]string{""}, twin), at+1
	if lines[p] == "" {
		block, twinStart = slices.Concat(twin, []string{""}), at
	}
	lines = slices.Concat(lines[:at], block, lines[at:])
	if at <= start {
		start += len(block)
	}
	var d *draft
	if trap {
		search := renameAll(region, name, names[2])
		c, ok := pickChange(rng, s, search, true)
		if !ok {
			return Case{}, errSkip
		}
		d = newDraft(rng, s, lines, start, n, change{})
		d.model = c.entries(search)
		d.trap = true
		d.what = []string{c.what, fmt.Sprintf("twins name %s and %s, the search %s", names[0], names[1], names[2])}
	} else {
		from, which := start, name
		if rng.IntN(2) == 0 {
			from, which = twinStart, names[1]
		}
		c, ok := pickChange(rng, s, lines[from:from+n], true)
		if !ok {
			return Case{}, errSkip
		}
		d = newDraft(rng, s, lines, from, n, c)
		d.note("twins name %s and %s; the search is the one with %s", name, names[1], which)
	}
	d.pinned = true
	if trap && rng.IntN(2) == 0 || !trap && rng.IntN(4) != 0 {
		if err := d.whitespaceDamage(); err != nil {
			return Case{}, err
		}
	}
	return d.build(), nil
}

// sharedName returns a name a block uses, as a whole word, on two lines or
// more and on at least a sixth of its lines of code.
func sharedName(rng *rand.Rand, l *lang, block []string) (string, bool) {
	lines := map[string]int{}
	code := 0
	for _, line := range block {
		if isBlank(line) {
			continue
		}
		code++
		seen := map[string]bool{}
		for _, t := range scan(l, line) {
			w := line[t.start:t.end]
			if t.kind == tokIdent && len(w) >= 3 && !l.isKeyword(w) && !seen[w] {
				seen[w] = true
				lines[w]++
			}
		}
	}
	var names []string
	for w, k := range lines {
		if k >= 2 && 6*k >= code {
			names = append(names, w)
		}
	}
	if len(names) == 0 {
		return "", false
	}
	slices.Sort(names)
	return names[rng.IntN(len(names))], true
}

// renameAll renames a word wherever it stands in lines.
func renameAll(lines []string, word, to string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = replaceWord(l, word, to)
	}
	return out
}

// buildWrongHint gives a unique region, quoted exactly or with whitespace
// damage, a line hint 100 to 300 lines away.
func buildWrongHint(g *Generator, rng *rand.Rand) (Case, error) {
	d, err := g.draft(rng, 3, 30, nil)
	if err != nil {
		return Case{}, err
	}
	if rng.IntN(2) == 0 {
		if err := d.whitespaceDamage(); err != nil {
			return Case{}, err
		}
	}
	if err := d.hintOff(100 + rng.IntN(201)); err != nil {
		return Case{}, err
	}
	return d.build(), nil
}

// buildBigBlock makes a region of 40 to 150 lines with one mistake.
func buildBigBlock(g *Generator, rng *rand.Rand) (Case, error) {
	d, err := g.draft(rng, 40, 150, nil)
	if err != nil {
		return Case{}, err
	}
	ways := []mistake{
		(*draft).indentShift, (*draft).tabsToSpaces, (*draft).trailingWS, (*draft).innerWS,
		(*draft).lineNumbers, (*draft).unicodePunct, (*draft).elision, (*draft).blankLines,
		(*draft).staleLine, (*draft).typoLine, (*draft).forgottenLine, (*draft).escape,
	}
	if err := ways[rng.IntN(len(ways))](d); err != nil {
		return Case{}, err
	}
	return d.build(), nil
}

// buildCompound makes a region with two or three mistakes at once.
func buildCompound(g *Generator, rng *rand.Rand) (Case, error) {
	// Mistakes that change what the copy holds come first, those that
	// change how it is written last.
	combos := [...][]mistake{
		{(*draft).typoLine, (*draft).crlf},
		{(*draft).indentShift, (*draft).lineNumbers},
		{(*draft).staleLine, (*draft).tabsToSpaces},
		{(*draft).forgottenLine, (*draft).indentShift},
		{(*draft).blankLines, (*draft).trailingWS, (*draft).crlf},
		{(*draft).innerWS, (*draft).unicodePunct},
		{(*draft).elision, (*draft).tabsToSpaces},
		{(*draft).staleLine, (*draft).lineNumbers, (*draft).crlf},
	}
	k := rng.IntN(len(combos))
	minN := 6
	if k == 6 {
		minN = 15
	}
	d, err := g.draft(rng, minN, 40, nil)
	if err != nil {
		return Case{}, err
	}
	for _, m := range combos[k] {
		if err := m(d); err != nil {
			return Case{}, err
		}
	}
	return d.build(), nil
}

// buildChained makes three edits of one file: the first in its lower half,
// the second above it, the third quoting a line the first one wrote.
// Now and then one of them has whitespace damage.
func buildChained(g *Generator, rng *rand.Rand) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	f := randomForm(rng)
	cur := s.lines

	n1 := regionLength(rng, 3, 15)
	lo := len(cur) / 2
	start1 := lo + rng.IntN(len(cur)-lo-n1+1)
	if !s.quotable(start1, n1) {
		return Case{}, errSkip
	}
	c1, ok := pickChange(rng, s, cur[start1:start1+n1], false)
	if !ok {
		return Case{}, errSkip
	}
	e1, cur := chainStep(rng, s, f, cur, start1, n1, c1)
	wrote := start1 + c1.at // the first line edit 1 wrote

	n2 := regionLength(rng, 3, 15)
	if start1-n2-1 <= 0 {
		return Case{}, errSkip
	}
	start2 := rng.IntN(start1 - n2)
	if !newDoc(cur).quotable(start2, n2) {
		return Case{}, errSkip
	}
	c2, ok := pickChange(rng, s, cur[start2:start2+n2], true)
	if !ok {
		return Case{}, errSkip
	}
	after1 := cur
	e2, cur := chainStep(rng, s, f, cur, start2, n2, c2)
	wrote += len(c2.ins) - c2.del

	n3 := regionLength(rng, 3, 10)
	k := wrote + rng.IntN(len(c1.ins))
	start3 := max(0, k-rng.IntN(n3))
	if !newDoc(cur).quotable(start3, n3) {
		return Case{}, errSkip
	}
	c3, ok := pickChange(rng, s, cur[start3:start3+n3], true)
	if !ok {
		return Case{}, errSkip
	}
	after2 := cur
	e3, cur := chainStep(rng, s, f, cur, start3, n3, c3)

	steps := []string{f.render(after1), f.render(after2), f.render(cur)}
	return Case{
		Path:    s.path,
		Line:    start1 + 1,
		Variant: fmt.Sprintf("%s at %d; %s at %d; %s at %d%s", c1.what, start1+1, c2.what, start2+1, c3.what, start3+1, bracket(f)),
		File:    f.render(s.lines),
		Edits:   []engine.Edit{e1, e2, e3},
		Want:    steps[2],
		Steps:   steps,
	}, nil
}

// chainStep makes the edit c of lines [start, start+n) of a text, and
// returns it with the text it leaves.
func chainStep(rng *rand.Rand, s *source, f form, lines []string, start, n int, c change) (engine.Edit, []string) {
	d := newDraft(rng, s, lines, start, n, c)
	d.form = f
	d.pinned = true
	if rng.IntN(4) == 0 {
		// Whitespace damage is optional here; a draft that allows none
		// keeps its exact copy.
		_ = d.whitespaceDamage()
	}
	return d.edit(), d.wantLines()
}
