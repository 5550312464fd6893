package corpus

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/graft-editor/graft/engine"
)

// The kinds of this file are slips an independent corpus of model
// mistakes caught the engine out with: a twin block and a search that
// names neither twin, a change on a name the file spells one letter
// differently, a fragment quoted with its operators' spacing collapsed, a
// changed line whose aligned columns or trailing blanks the model's copy
// lacks, and an over-escaped search that only similarity finds.

// buildTrapTwinThird makes two blocks that differ in one name on one line
// and quotes the block with a third name on that line, one or two letters
// from one twin's name: the model remembers a name that is not there, and
// nothing tells which twin it meant.
func buildTrapTwinThird(g *Generator, rng *rand.Rand) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	l := s.lang
	n := regionLength(rng, 6, 25)
	start, ok := s.region(rng, n)
	if !ok {
		return Case{}, errSkip
	}
	region := s.lines[start : start+n]
	block := strings.Join(region, "\n")
	for _, x := range rng.Perm(n) {
		line := region[x]
		var names []string
		for _, t := range scan(l, line) {
			w := line[t.start:t.end]
			if renamable(l, line, t) && len(w) >= 5 && countWord(block, w) == countWord(line, w) {
				names = append(names, w)
			}
		}
		if len(names) == 0 {
			continue
		}
		w := names[rng.IntN(len(names))]
		twin := newName(rng, l, w)
		near := w
		if rng.IntN(2) == 0 {
			near = twin
		}
		third := slipLetters(rng, near, 1+rng.IntN(2))
		if third == w || third == twin || countWord(s.text, twin) > 0 || countWord(s.text, third) > 0 {
			continue
		}
		twinBlock := slices.Clone(region)
		twinBlock[x] = renameIn(l, line, w, twin)
		lines, at, ok := insertTwin(rng, s.lines, start, n, twinBlock)
		if !ok {
			return Case{}, errSkip
		}
		if at <= start {
			start += len(lines) - len(s.lines)
		}
		search := slices.Clone(region)
		search[x] = renameIn(l, line, w, third)
		from, m := start, n
		// Now and then only the line that tells the twins apart, quoted
		// alone, when both twins' lines are as like it as a match must
		// be (a search of one short line is far from a twin of another
		// length).
		alike := func(a string) bool { return similarity(squeeze(search[x]), squeeze(a)) >= 0.85 }
		if rng.IntN(3) == 0 && alike(line) && alike(twinBlock[x]) {
			from, m, search = start+x, 1, search[x:x+1]
		}
		c, ok := pickChange(rng, s, search, m > 1)
		if !ok {
			return Case{}, errSkip
		}
		d := newDraft(rng, s, lines, from, m, change{})
		d.model = c.entries(search)
		d.trap = true
		d.pinned = true
		d.what = []string{c.what, fmt.Sprintf("twins name %s and %s on line %d of the block, the search %s (near %s)", w, twin, x+1, third, near)}
		if rng.IntN(2) == 0 {
			if err := d.whitespaceDamage(); err != nil {
				return Case{}, err
			}
		}
		return d.build(), nil
	}
	return Case{}, errSkip
}

// insertTwin puts block into lines after a "}" or blank line away from the
// region [start, start+n), as copied code stands, and returns the new
// lines and the index of the block's first line.
func insertTwin(rng *rand.Rand, lines []string, start, n int, block []string) ([]string, int, bool) {
	var spots []int
	for p, line := range lines {
		if (p < start-2 || p > start+n+1) && (line == "}" || line == "") {
			spots = append(spots, p)
		}
	}
	if len(spots) == 0 {
		return nil, 0, false
	}
	p := spots[rng.IntN(len(spots))]
	at := p + 1
	ins, first := slices.Concat([]string{""}, block), at+1
	if lines[p] == "" {
		ins, first = slices.Concat(block, []string{""}), at
	}
	return slices.Concat(lines[:at], ins, lines[at:]), first, true
}

// slipLetters changes k letters of a name, never its first, to other
// letters of the same case: a name one or two letters from another.
func slipLetters(rng *rand.Rand, name string, k int) string {
	b := []byte(name)
	var pos []int
	for i := 1; i < len(b); i++ {
		if isLetter(b[i]) {
			pos = append(pos, i)
		}
	}
	if len(pos) < k {
		return name
	}
	for _, p := range rng.Perm(len(pos))[:k] {
		i := pos[p]
		c := b[i]
		base := byte('a')
		if c >= 'A' && c <= 'Z' {
			base = 'A'
		}
		for b[i] == c {
			b[i] = base + byte(rng.IntN(26))
		}
	}
	return string(b)
}

// slip misspells a name by one letter, as a stale or careless read does:
// a letter added at the end, one dropped, or one changed.
func slip(rng *rand.Rand, name string) string {
	switch rng.IntN(3) {
	case 0:
		return name + "s"
	case 1:
		k := 1 + rng.IntN(len(name)-1)
		return name[:k] + name[k+1:]
	}
	return slipLetters(rng, name, 1)
}

// buildTrapStaleToken makes the model's copy of a line spell one of its
// names one letter off (the file says hash, the model read hashs) and
// renames that very name: the change has no safe meaning on the file's
// name, and must be refused as a conflict.
func buildTrapStaleToken(g *Generator, rng *rand.Rand) (Case, error) {
	return g.staleToken(rng, true)
}

// buildStaleToken makes the same slip in the model's copy, and changes
// another part of the line: Want has the file's name and the model's
// change.
func buildStaleToken(g *Generator, rng *rand.Rand) (Case, error) {
	return g.staleToken(rng, false)
}

func (g *Generator) staleToken(rng *rand.Rand, trap bool) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	l := s.lang
	n := regionLength(rng, 5, 30)
	start, ok := s.region(rng, n)
	if !ok {
		return Case{}, errSkip
	}
	region := s.lines[start : start+n]
	for _, x := range rng.Perm(n - 2) {
		x++ // the model quotes context around its change
		line := region[x]
		var names []string
		for _, t := range scan(l, line) {
			if w := line[t.start:t.end]; renamable(l, line, t) && len(w) >= 4 && !slices.Contains(names, w) {
				names = append(names, w)
			}
		}
		if len(names) == 0 {
			continue
		}
		w := names[rng.IntN(len(names))]
		stale := slip(rng, w)
		if stale == w || countWord(s.text, stale) > 0 {
			continue
		}
		read := renameIn(l, line, w, stale) // the line as the model read it
		var model, merged, what string
		// Now and then the stale token is a word of a message the file
		// has reworded since.
		at := -1 // the offset of a stale word of a message
		if a, word, ok := stringWord(rng, l, line); ok && rng.IntN(3) == 0 {
			w, stale, at = word, slip(rng, word), a
			if stale == w || strings.Contains(s.text, stale) {
				continue
			}
			read = line[:at] + stale + line[at+len(word):]
		}
		if trap {
			to := newName(rng, l, stale)
			if strings.Contains(s.text, to) {
				continue
			}
			model = renameIn(l, read, stale, to)
			if at >= 0 {
				model = read[:at] + to + read[at+len(stale):]
			}
			if model == read {
				continue
			}
			what = "change " + stale + " to " + to
		} else {
			var ok bool
			for range 4 {
				if rng.IntN(2) == 0 {
					model, what, ok = changeLiteral(rng, l, read)
				} else {
					model, what, ok = rename(rng, l, read)
				}
				if ok && countWord(model, stale) == countWord(read, stale) {
					if merged, ok = mergeApart(read, model, line); ok {
						break
					}
				}
				ok = false
			}
			if !ok {
				continue
			}
		}
		d := newDraft(rng, s, s.lines, start, n, change{at: x, del: 1, ins: []string{model}, what: what})
		d.model[x].old = read
		d.model[x].touched = true
		if trap {
			d.trap = true
		} else {
			d.truth[x+1].new = merged
		}
		if !d.recognizable() {
			return Case{}, errSkip
		}
		d.note("the model's copy of line %d says %s where the file says %s", d.startLine()+x, stale, w)
		return d.build(), nil
	}
	return Case{}, errSkip
}

// stringWord draws a word of a string literal of line that a typo can
// hit, and returns its offset in the line.
func stringWord(rng *rand.Rand, l *lang, line string) (int, string, bool) {
	var words []span
	for _, t := range scan(l, line) {
		if t.kind != tokString {
			continue
		}
		for _, w := range typoWords(line[t.start:t.end]) {
			words = append(words, span{t.start + w.start, t.start + w.end})
		}
	}
	if len(words) == 0 {
		return 0, "", false
	}
	w := words[rng.IntN(len(words))]
	return w.start, line[w.start:w.end], true
}

// spacedOperators are binary operators written with a blank on each side,
// and what a model might change each into.
var spacedOperators = [...][2]string{
	{" || ", "&&"}, {" && ", "||"}, {" == ", "!="}, {" != ", "=="},
	{" <= ", "<"}, {" >= ", ">"}, {" < ", "<="}, {" > ", ">="}, {" + ", "-"}, {" - ", "+"},
}

// buildSublineSpacing quotes part of a line with the blanks around its
// operators left out (a||!b for a || !b), and changes an operator or a
// name in it: the change must land inside the file's own spacing.
func buildSublineSpacing(g *Generator, rng *rand.Rand) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	l := s.lang
	i := rng.IntN(len(s.lines))
	line := s.lines[i]
	toks, comment := scanLine(l, line)
	if len(toks) < 2 || len(line) > maxLineBytes {
		return Case{}, errSkip
	}
	type spot struct{ at, op int }
	var spots []spot
	for k, op := range spacedOperators {
		for from := 0; ; {
			j := strings.Index(line[from:comment], op[0])
			if j < 0 {
				break
			}
			j += from
			if !insideString(toks, j) && j > len(indentOf(line)) {
				spots = append(spots, spot{j, k})
			}
			from = j + 1
		}
	}
	if len(spots) == 0 {
		return Case{}, errSkip
	}
	sp := spots[rng.IntN(len(spots))]
	op := spacedOperators[sp.op]
	end := sp.at + len(op[0])
	var before, after []token
	for _, t := range toks {
		switch {
		case t.end <= sp.at:
			before = append(before, t)
		case t.start >= end:
			after = append(after, t)
		}
	}
	if len(before) == 0 || len(after) == 0 {
		return Case{}, errSkip
	}
	from := before[len(before)-1-rng.IntN(min(2, len(before)))].start
	to := after[rng.IntN(min(2, len(after)))].end
	frag := line[from:to]
	if insideString(toks, from) || strings.Count(s.text, frag) != 1 || strings.Count(s.squeezedText(), squeeze(frag)) != 1 {
		return Case{}, errSkip
	}
	edited := line[from:sp.at] + " " + op[1] + " " + line[end:to]
	what := fmt.Sprintf("change %q to %q", strings.TrimSpace(op[0]), op[1])
	if rng.IntN(3) == 0 {
		var ok bool
		if edited, what, ok = editFragment(rng, l, frag); !ok {
			return Case{}, errSkip
		}
	}
	old, new := collapseOperators(frag), collapseOperators(edited)
	if old == frag || len(squeeze(old)) < 12 || strings.Contains(s.text, old) {
		return Case{}, errSkip
	}
	f := randomForm(rng)
	want := slices.Clone(s.lines)
	want[i] = line[:from] + edited + line[to:]
	return Case{
		Path:    s.path,
		Line:    i + 1,
		Variant: fmt.Sprintf("%s in a fragment quoted as %q%s", what, old, bracket(f)),
		File:    f.render(s.lines),
		Edits:   []engine.Edit{{Path: s.path, Old: old, New: new}},
		Want:    f.render(want),
	}, nil
}

// insideString reports whether byte i of a line is inside a string
// literal among toks.
func insideString(toks []token, i int) bool {
	for _, t := range toks {
		if t.kind == tokString && t.start <= i && i < t.end {
			return true
		}
	}
	return false
}

// collapseOperators drops the blanks around the spaced binary operators
// of a fragment of code, as a model that quotes it carelessly does.
func collapseOperators(frag string) string {
	for _, op := range spacedOperators {
		frag = strings.ReplaceAll(frag, op[0], strings.TrimSpace(op[0]))
	}
	return frag
}

// buildAlignedChange changes a line whose file version has aligned
// columns or trailing blanks, which the model's copy (Old and New) lacks:
// the change must land on the file's line, keeping its blanks.
func buildAlignedChange(g *Generator, rng *rand.Rand) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	l := s.lang
	n := regionLength(rng, 3, 30)
	start, ok := s.region(rng, n)
	if !ok {
		return Case{}, errSkip
	}
	lines := slices.Clone(s.lines)
	region := lines[start : start+n]
	for _, x := range rng.Perm(n) {
		line := region[x]
		if isBlank(line) {
			continue
		}
		trail := ""
		aligned := alignedRuns(l, line)
		if stringRuns(l, line) {
			continue
		}
		if !aligned || rng.IntN(3) == 0 {
			trail = [...]string{" ", "  ", "\t", "    "}[rng.IntN(4)]
		}
		changed, what, ok := rename(rng, l, line)
		if !ok || rng.IntN(2) == 0 {
			if c, w, ok2 := changeLiteral(rng, l, line); ok2 {
				changed, what, ok = c, w, true
			}
		}
		if !ok {
			continue
		}
		read, write := line, changed
		if aligned {
			read, write = collapseRuns(line), collapseRuns(changed)
		}
		if read == line && trail == "" {
			continue
		}
		region[x] = line + trail
		d := newDraft(rng, s, lines, start, n, change{at: x, del: 1, ins: []string{changed + trail}, what: what})
		d.model[x].old = read
		d.model[x+1].new = write
		if !d.recognizable() {
			return Case{}, errSkip
		}
		switch {
		case aligned && trail != "":
			d.note("the file's line has aligned columns and trailing blanks the copy lacks")
		case aligned:
			d.note("the file's line has aligned columns the copy lacks")
		default:
			d.note("the file's line has trailing blanks the copy lacks")
		}
		return d.build(), nil
	}
	return Case{}, errSkip
}

// alignedRuns reports whether a line has runs of blanks after its
// indentation, outside its strings and before its comment: columns lined
// up by hand or by a formatter.
func alignedRuns(l *lang, line string) bool {
	toks, comment := scanLine(l, line)
	body := len(indentOf(line))
	for i := body; i+1 < comment; i++ {
		if isRun(line, i) && !insideString(toks, i) {
			return true
		}
	}
	return false
}

// stringRuns reports whether a string literal of a line holds a run of
// blanks, which a copy that collapses runs would change.
func stringRuns(l *lang, line string) bool {
	for _, t := range scan(l, line) {
		if w := line[t.start:t.end]; t.kind == tokString && (strings.Contains(w, "  ") || strings.Contains(w, "\t")) {
			return true
		}
	}
	return false
}

func isRun(line string, i int) bool {
	return line[i] == '\t' || line[i] == ' ' && line[i+1] == ' '
}

// collapseRuns writes every run of blanks after the indentation as one
// space, as models copy aligned code. Lines whose strings hold runs of
// blanks are not given to it (see stringRuns).
func collapseRuns(line string) string {
	ind := indentOf(line)
	return ind + strings.Join(strings.Fields(line[len(ind):]), " ")
}

// buildEscapedFuzzy over-escapes the model's copy, Old and New (or, when
// New has no backslash, Old alone), and damages a kept line, so that only
// a similarity search finds the region: the replacement must be read the
// way the search was, unescaped.
func buildEscapedFuzzy(g *Generator, rng *rand.Rand) (Case, error) {
	d, err := g.draft(rng, 6, 30, nil)
	if err != nil {
		return Case{}, err
	}
	ways := []mistake{(*draft).typoLine, (*draft).forgottenLine}
	if err := ways[rng.IntN(len(ways))](d); err != nil {
		return Case{}, err
	}
	// Escaping only the lines around the search tells nothing: the
	// search itself must hold a quote or a backslash.
	old, new := sides(d.model)
	quoted := false
	for _, line := range old {
		quoted = quoted || strings.ContainsAny(line, `"\`)
	}
	switch v := rng.IntN(3); {
	case v == 0 || !quoted:
		d.escaped = true
		d.note("Old and New over-escaped onto one line")
	case v == 1 || strings.Contains(strings.Join(new, "\n"), `\`):
		d.pad = func(o, n string) (string, string) { return escapeQuotes(o), escapeQuotes(n) }
		d.note(`quotes and backslashes of Old and New escaped, line breaks kept`)
	default:
		d.pad = func(o, n string) (string, string) { return escapeQuotes(o), n }
		d.note(`quotes and backslashes of Old escaped, New as it is`)
	}
	return d.build(), nil
}

// escapeQuotes escapes the backslashes and double quotes of a text,
// keeping its line breaks, as a model that quotes code inside a string
// once too often writes it.
func escapeQuotes(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
}

// blankAdded leaves a blank line of the region out of Old but keeps it in
// New, as a model that forgot it in its search and wrote it back in its
// replacement: the file's blank line is the one the replacement has, and
// the file must not gain a second.
func (d *draft) blankAdded() error {
	var idx []int
	for i := 1; i+1 < len(d.model); i++ {
		if e := d.model[i]; e.op == '=' && isBlank(e.old) && !isBlank(d.model[i-1].old) && d.model[i-1].op == '=' {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return errSkip
	}
	i := idx[d.rng.IntN(len(idx))]
	d.model[i] = entry{op: '+', new: d.model[i].new, src: -1}
	if !d.recognizable() {
		return errSkip
	}
	d.note("blank line %d left out of Old, kept in New", d.startLine()+d.model[i-1].src+1)
	return nil
}
