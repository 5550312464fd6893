package corpus

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/graft-editor/graft/engine"
)

// kindSpecs is the table of kinds, each in its family of mistakes.
func kindSpecs() []kindSpec {
	return []kindSpec{
		{Kind{Name: "exact", Family: "control", Doc: "no mistake: the control"}, mistakeKind(3, 40, (*draft).exact)},
		{Kind{Name: "indent-shift", Family: "white space", Doc: "the copy shifted left or right by a tab or 2 or 4 spaces, Old and New alike"}, mistakeKind(3, 40, (*draft).indentShift)},
		{Kind{Name: "one-line-shift", Family: "white space", Doc: "one line quoted with statements inserted before or after it, all shifted left or right by a tab or 2 or 4 spaces, or flush left"}, buildOneLineShift},
		{Kind{Name: "tabs-to-spaces", Family: "white space", Doc: "4 spaces where the file has tabs, Old and New alike"}, mistakeKind(3, 40, (*draft).tabsToSpaces)},
		{Kind{Name: "trailing-ws", Family: "white space", Doc: "trailing blanks added to Old (or Old and New), or missing from the copy"}, mistakeKind(3, 40, (*draft).trailingWS)},
		{Kind{Name: "inner-ws", Family: "white space", Doc: "blanks collapsed or added inside kept lines"}, mistakeKind(3, 40, (*draft).innerWS)},
		{Kind{Name: "escaped", Family: "escaping", Doc: `Old and New over-escaped onto one line with \n, \t and \"`}, mistakeKind(3, 30, (*draft).escape)},
		{Kind{Name: "line-numbers", Family: "escaping", Doc: "lines prefixed with line numbers as tools print them"}, mistakeKind(3, 40, (*draft).lineNumbers)},
		{Kind{Name: "unicode-punct", Family: "escaping", Doc: "curly quotes, en dashes, no-break spaces in kept lines"}, mistakeKind(3, 40, (*draft).unicodePunct)},
		{Kind{Name: "elision", Family: "stale or mistyped lines", Doc: "the middle of a long region written as one '... existing code ...' line"}, mistakeKind(15, 40, (*draft).elision)},
		{Kind{Name: "blank-lines", Family: "white space", Doc: "a blank line missing from or added to the copy"}, mistakeKind(5, 40, (*draft).blankLines)},
		{Kind{Name: "stale-line", Family: "stale or mistyped lines", Doc: "a kept line changed in the file since the model read it"}, mistakeKind(6, 40, (*draft).staleLine)},
		{Kind{Name: "typo-line", Family: "stale or mistyped lines", Doc: "a typo in a kept line of Old, in New too or not"}, mistakeKind(6, 40, (*draft).typoLine)},
		{Kind{Name: "forgotten-line", Family: "stale or mistyped lines", Doc: "a kept middle line missing from the copy"}, mistakeKind(6, 40, (*draft).forgottenLine)},
		{Kind{Name: "trimmed-boundary", Family: "white space", Doc: "blank lines or blanks around Old, or its first indentation trimmed"}, mistakeKind(3, 40, (*draft).trimmedBoundary)},
		{Kind{Name: "hint", Family: "place", Doc: "a line hint that picks one of two equal regions, or is a little off"}, buildHint},
		{Kind{Name: "replace-all", Family: "place", Doc: "an identifier or short expression renamed everywhere"}, buildReplaceAll},
		{Kind{Name: "trap-duplicate", Family: "place", Trap: true, Doc: "the region stands twice and no hint decides"}, buildTrapDuplicate},
		{Kind{Name: "trap-other-file", Family: "other code", Trap: true, Doc: "Old comes from another file"}, buildTrapOtherFile},
		{Kind{Name: "trap-foreign-middle", Family: "other code", Trap: true, Doc: "Old keeps the region's first and last lines around a foreign middle"}, buildTrapForeignMiddle},
		{Kind{Name: "trap-rewritten", Family: "other code", Trap: true, Doc: "Old is the region rewritten beyond recognition"}, buildTrapRewritten},
		{Kind{Name: "subline", Family: "place", Doc: "Old is part of a line, or runs from the middle of one line to the middle of another"}, buildSubline},
		{Kind{Name: "delete-lines", Family: "place", Doc: "New is empty: whole lines deleted"}, buildDeleteLines},
		{Kind{Name: "near-twin", Family: "place", Doc: "two near-identical blocks; the search is clearly one of them"}, buildNearTwin},
		{Kind{Name: "trap-near-twin", Family: "place", Trap: true, Doc: "two near-identical blocks; the search names a third"}, buildTrapNearTwin},
		{Kind{Name: "wrong-hint", Family: "place", Doc: "a line hint 100 to 300 lines off a unique match"}, buildWrongHint},
		{Kind{Name: "big-block", Family: "stale or mistyped lines", Doc: "a 40 to 150 line region with one mistake"}, buildBigBlock},
		{Kind{Name: "compound", Family: "stale or mistyped lines", Doc: "two or three mistakes at once"}, buildCompound},
		{Kind{Name: "chained", Family: "place", Doc: "several edits, out of file order, one quoting text an earlier one wrote"}, buildChained},
		{Kind{Name: "stale-merge", Family: "stale or mistyped lines", Doc: "the edit changes a line the file changed since, in another part of the line"}, buildStaleMerge},
		{Kind{Name: "trap-conflict", Family: "stale or mistyped lines", Trap: true, Doc: "the edit changes a line the file changed since, in the same characters"}, buildTrapConflict},
		{Kind{Name: "trap-twin-third", Family: "place", Trap: true, Doc: "twin blocks differ in one name on one line; the search has a third name one or two letters from one twin's"}, buildTrapTwinThird},
		{Kind{Name: "trap-stale-token", Family: "stale or mistyped lines", Trap: true, Doc: "the copy spells a name of a line one letter off the file's, and the edit renames that name"}, buildTrapStaleToken},
		{Kind{Name: "stale-token", Family: "stale or mistyped lines", Doc: "the copy spells a name of a line one letter off the file's, and the edit changes another part of the line"}, buildStaleToken},
		{Kind{Name: "subline-spacing", Family: "white space", Doc: "part of a line quoted with the blanks around its operators left out, an operator or name changed"}, buildSublineSpacing},
		{Kind{Name: "aligned-change", Family: "white space", Doc: "a changed line has aligned columns or trailing blanks in the file that the copy lacks"}, buildAlignedChange},
		{Kind{Name: "blank-added", Family: "white space", Doc: "a blank line of the region left out of Old and kept in New"}, mistakeKind(6, 40, (*draft).blankAdded)},
		{Kind{Name: "escaped-fuzzy", Family: "escaping", Doc: "Old over-escaped (and New, unless plain) with a damaged kept line: found only by similarity"}, buildEscapedFuzzy},
		{Kind{Name: "trap-sibling-digit", Family: "other code", Trap: true, Doc: "Old is the region's sibling: every name that carries a version or width carries another, the same in each (loadV1 for loadV2, Float32 for Float64)"}, buildTrapSiblingDigit},
		{Kind{Name: "digit-slip", Family: "stale or mistyped lines", Doc: "names carry a version or width, and the copy of one kept line has another in one name"}, buildDigitSlip},
		{Kind{Name: "trap-renamed-in-copy", Family: "stale or mistyped lines", Trap: true, Doc: "the edit renames a name, and the copy of a line it keeps already has the new name"}, buildTrapRenamedInCopy},
		{Kind{Name: "trap-uneven-reindent", Family: "white space", Trap: true, Doc: "the copy of the region's first line a level deeper or shallower (not flush left) than the file's, the others as the file has them, and the edit moves the others a level deeper"}, buildTrapUnevenReindent},
		{Kind{Name: "rename-kept-slip", Family: "stale or mistyped lines", Doc: "the edit renames a name, and the copy of a line it keeps misspells another name by a letter"}, buildRenameKeptSlip},
	}
}

// mistakeKind makes the cases of a region of minN to maxN lines whose copy
// has mistake m.
func mistakeKind(minN, maxN int, m mistake) builder {
	return func(g *Generator, rng *rand.Rand) (Case, error) {
		d, err := g.draft(rng, minN, maxN, nil)
		if err != nil {
			return Case{}, err
		}
		if err := m(d); err != nil {
			return Case{}, err
		}
		return d.build(), nil
	}
}

// buildOneLineShift makes an edit that quotes one line, distinctive in its
// file, and inserts statements before or after it, the model's copy
// shifted as indentShift shifts it: a line quoted flush left matches the
// file's line inside its indentation, and the inserted lines must take
// the file's indentation all the same.
func buildOneLineShift(g *Generator, rng *rand.Rand) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	start, ok := s.region(rng, 2)
	if !ok {
		return Case{}, errSkip
	}
	c, ok := insertLines(rng, s, s.lines[start:start+2])
	if !ok {
		return Case{}, errSkip
	}
	// The line kept: the one before the inserted lines, or the one after.
	at := 1
	if rng.IntN(2) == 0 {
		start, at = start+1, 0
	}
	if line := s.lines[start]; indentOf(line) == "" || !s.distinctive(line) || s.rivalled(line) {
		return Case{}, errSkip
	}
	d := newDraft(rng, s, s.lines, start, 1, change{at: at, ins: c.ins, what: c.what})
	if err := d.indentShift(); err != nil {
		return Case{}, err
	}
	return d.build(), nil
}

// buildHint makes a region that stands twice, exactly, with a hint that
// names the right one; or a damaged copy of a unique region with a hint a
// few lines off.
func buildHint(g *Generator, rng *rand.Rand) (Case, error) {
	d, err := g.draft(rng, 3, 25, nil)
	if err != nil {
		return Case{}, err
	}
	if rng.IntN(2) == 0 {
		if err := d.duplicate(); err != nil {
			return Case{}, err
		}
		d.line = d.startLine()
		d.note("the region stands twice; the hint names line %d", d.line)
		return d.build(), nil
	}
	if err := d.whitespaceDamage(); err != nil {
		return Case{}, err
	}
	if err := d.hintOff(5 + rng.IntN(46)); err != nil {
		return Case{}, err
	}
	return d.build(), nil
}

// hintOff gives the draft a line hint off lines away from its region, up
// or down at random, within the file.
func (d *draft) hintOff(off int) error {
	line, ok := offLine(d.rng, d.startLine(), off, len(d.fileLines()))
	if !ok {
		return errSkip
	}
	d.line = line
	d.note("hint %+d lines off", line-d.startLine())
	return nil
}

// offLine moves line by off lines, up or down at random, staying within a
// text of total lines.
func offLine(rng *rand.Rand, line, off, total int) (int, bool) {
	dirs := []int{-1, 1}
	if rng.IntN(2) == 0 {
		dirs[0], dirs[1] = 1, -1
	}
	for _, dir := range dirs {
		if l := line + dir*off; l >= 1 && l <= total {
			return l, true
		}
	}
	return 0, false
}

// duplicate puts a copy of the region elsewhere in the file, after the
// end of another function or after a blank line, as code that was
// copied and pasted.
func (d *draft) duplicate() error {
	lines := d.fileLines()
	start, end := len(d.before), len(d.before)+len(d.region)
	var spots []int
	for p, line := range lines {
		if (p < start-2 || p > end+1) && (line == "}" || line == "") {
			spots = append(spots, p)
		}
	}
	if len(spots) == 0 {
		return errSkip
	}
	p := spots[d.rng.IntN(len(spots))]
	block := slices.Concat([]string{""}, d.region)
	if lines[p] == "" {
		block = slices.Concat(d.region, []string{""})
	}
	if p < start {
		d.before = slices.Concat(d.before[:p+1], block, d.before[p+1:])
	} else {
		q := p - end + 1
		d.after = slices.Concat(d.after[:q], block, d.after[q:])
	}
	d.pinned = true
	text := strings.Join(d.fileLines(), "\n")
	if strings.Count(text, strings.Join(d.region, "\n")) != 2 {
		return errSkip
	}
	return nil
}

// buildReplaceAll renames an identifier, or a selector expression, that a
// file uses several times, everywhere.
func buildReplaceAll(g *Generator, rng *rand.Rand) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	for range 30 {
		line := s.lines[rng.IntN(len(s.lines))]
		toks := scan(s.lang, line)
		if len(toks) == 0 {
			continue
		}
		t := toks[rng.IntN(len(toks))]
		word := line[t.start:t.end]
		if t.kind != tokIdent || len(word) < 3 || s.lang.isKeyword(word) {
			continue
		}
		to := newName(rng, s.lang, word)
		if rng.IntN(3) == 0 && t.end+1 < len(line) && line[t.end] == '.' && isIdentStart(line[t.end+1]) {
			j := t.end + 1
			for j < len(line) && isIdentByte(line[j]) {
				j++
			}
			field := line[t.end+1 : j]
			word, to = line[t.start:j], word+"."+newName(rng, s.lang, field)
		}
		n := countWord(s.text, word)
		if n < 2 || n > 40 || strings.Count(s.text, word) != n || strings.Contains(s.text, to) {
			continue
		}
		f := randomForm(rng)
		file := f.render(s.lines)
		variant := fmt.Sprintf("%s to %s, %d occurrences", word, to, n)
		if fs := f.String(); fs != "" {
			variant += " [" + fs + "]"
		}
		return Case{
			Path:    s.path,
			Line:    strings.Count(s.text[:strings.Index(s.text, word)], "\n") + 1,
			Variant: variant,
			File:    file,
			Edits:   []engine.Edit{{Path: s.path, Old: word, New: to, ReplaceAll: true}},
			Want:    strings.ReplaceAll(file, word, to),
		}, nil
	}
	return Case{}, errSkip
}
