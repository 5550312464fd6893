package corpus

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
)

// A mistake damages the model's copy of a draft, or the file behind its
// back, in one way models are seen to; it returns errSkip when the draft
// offers nothing to damage that way.
type mistake func(*draft) error

// exact leaves the copy as it is: the control. A model that copies a CRLF
// file byte for byte copies its line endings too.
func (d *draft) exact() error {
	d.modelCRLF = d.form.crlf
	return nil
}

// indentShift shifts the whole copy, Old and New alike, left or right by
// a tab (in a tab-indented file) or by 2 or 4 spaces, or flush left.
func (d *draft) indentShift() error {
	var lines []string
	for _, e := range d.model {
		if e.inOld() && !isBlank(e.old) {
			lines = append(lines, e.old)
		}
		if e.inNew() && !isBlank(e.new) {
			lines = append(lines, e.new)
		}
	}
	common := commonIndent(lines)
	type shift struct{ add, cut, what string }
	var opts []shift
	if strings.Contains(common, "\t") || common == "" && d.src.unit == "\t" {
		opts = append(opts, shift{add: "\t", what: "right by a tab"})
		if strings.HasPrefix(common, "\t") {
			opts = append(opts, shift{cut: "\t", what: "left by a tab"})
		}
		if len(common) >= 2 {
			opts = append(opts, shift{cut: common, what: "flush left"})
		}
	} else {
		for _, w := range []string{"  ", "    "} {
			opts = append(opts, shift{add: w, what: fmt.Sprintf("right by %d spaces", len(w))})
			if strings.HasPrefix(common, w) {
				opts = append(opts, shift{cut: w, what: fmt.Sprintf("left by %d spaces", len(w))})
			}
		}
		if len(common) > 4 {
			opts = append(opts, shift{cut: common, what: "flush left"})
		}
	}
	sh := opts[d.rng.IntN(len(opts))]
	for i := range d.model {
		d.model[i].mapText(func(line string) string {
			if isBlank(line) {
				return line
			}
			return sh.add + strings.TrimPrefix(line, sh.cut)
		})
	}
	d.note("indentation shifted %s", sh.what)
	return nil
}

// commonIndent returns the longest indentation all lines start with.
func commonIndent(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	common := indentOf(lines[0])
	for _, line := range lines[1:] {
		ind := indentOf(line)
		n := 0
		for n < len(common) && n < len(ind) && common[n] == ind[n] {
			n++
		}
		common = common[:n]
	}
	return common
}

// tabsToSpaces writes four spaces for every tab of indentation in the
// copy, Old and New alike.
func (d *draft) tabsToSpaces() error {
	// Only in a region indented with tabs alone: where spaces indent some
	// lines too, four spaces could stand for either.
	tabs := false
	for _, e := range d.model {
		ind := indentOf(e.old) + indentOf(e.new)
		if strings.Contains(ind, " ") {
			return errSkip
		}
		// The copy of the file's lines must show the tabs it turned into
		// spaces, not only the lines the edit adds.
		tabs = tabs || e.inOld() && strings.Contains(indentOf(e.old), "\t")
	}
	if !tabs {
		return errSkip
	}
	for i := range d.model {
		d.model[i].mapText(func(line string) string {
			ind := indentOf(line)
			return strings.ReplaceAll(ind, "\t", "    ") + line[len(ind):]
		})
	}
	d.note("tabs written as 4 spaces")
	return nil
}

// trailingWS adds trailing blanks to some lines of the copy's Old, or to
// Old and New alike, or gives the file trailing blanks the model's copy
// lacks.
func (d *draft) trailingWS() error {
	pads := [...]string{" ", "  ", "   ", "\t", " \t"}
	pad := func() string { return pads[d.rng.IntN(len(pads))] }
	for _, v := range d.rng.Perm(3) {
		switch v {
		case 0:
			var idx []int
			for i, e := range d.model {
				if e.inOld() && !isBlank(e.old) {
					idx = append(idx, i)
				}
			}
			if len(idx) == 0 {
				continue
			}
			for _, i := range some(d.rng, idx, 3) {
				d.model[i].old += pad()
			}
			d.note("trailing blanks added to Old")
		case 1:
			idx := d.kept(false, false, func(line string) bool { return !isBlank(line) })
			if len(idx) == 0 {
				continue
			}
			for _, i := range some(d.rng, idx, 3) {
				p := pad()
				d.model[i].old += p
				d.model[i].new += p
			}
			d.note("trailing blanks added to Old and New")
		case 2:
			idx := d.kept(false, false, func(string) bool { return true })
			if len(idx) == 0 || d.pinned {
				continue
			}
			for _, i := range some(d.rng, idx, 3) {
				j := d.truthOf(i)
				if j < 0 {
					continue
				}
				p := pad()
				if isBlank(d.truth[j].old) {
					// An editor's leftover: the indentation of the next line.
					p = " "
					for _, e := range d.truth[j+1:] {
						if e.inOld() && !isBlank(e.old) {
							p = cmp.Or(indentOf(e.old), p)
							break
						}
					}
				}
				d.truth[j].old += p
				d.truth[j].new += p
			}
			d.note("the file has trailing blanks the copy lacks")
		}
		return nil
	}
	return errSkip
}

// innerWS collapses or adds blanks inside some kept lines, Old and New
// alike: alignment runs made single spaces, `a  =  b`, `f( x )`.
func (d *draft) innerWS() error {
	ways := []rewrite{collapseInner, padOperator, padParens}
	idx := d.kept(false, false, applies(ways))
	if len(idx) == 0 {
		return errSkip
	}
	for _, i := range some(d.rng, idx, 3) {
		for _, w := range d.rng.Perm(len(ways)) {
			if line, ok := ways[w](d.model[i].old); ok {
				d.model[i].old, d.model[i].new = line, line
				break
			}
		}
	}
	d.note("inner whitespace changed")
	return nil
}

// A rewrite changes a line one way, and reports whether that way applies
// to it.
type rewrite func(line string) (string, bool)

// applies returns the test of whether any of ways applies to a line.
func applies(ways []rewrite) func(line string) bool {
	return func(line string) bool {
		for _, w := range ways {
			if _, ok := w(line); ok {
				return true
			}
		}
		return false
	}
}

// collapseInner turns every run of blanks after the indentation into one
// space, as a model that ignored alignment writes it.
func collapseInner(line string) (string, bool) {
	ind := indentOf(line)
	body := line[len(ind):]
	if !strings.Contains(body, "  ") && !strings.Contains(body, "\t") {
		return "", false
	}
	return ind + strings.Join(strings.Fields(body), " "), true
}

// padOperator doubles the spaces around the first assignment or
// comparison of a line.
func padOperator(line string) (string, bool) {
	for _, op := range []string{" := ", " = ", " == ", " != ", " <= ", " >= ", " && ", " || "} {
		if i := strings.Index(line, op); i > len(indentOf(line)) {
			core := strings.TrimSpace(op)
			return line[:i] + "  " + core + "  " + line[i+len(op):], true
		}
	}
	return "", false
}

// padParens puts spaces inside the first non-empty pair of parentheses of
// a line.
func padParens(line string) (string, bool) {
	for i := 0; i+1 < len(line); i++ {
		if line[i] != '(' || line[i+1] == ')' || line[i+1] == ' ' {
			continue
		}
		depth := 0
		for j := i; j < len(line); j++ {
			switch line[j] {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth == 0 {
				if line[j-1] == ' ' {
					break
				}
				return line[:i+1] + " " + line[i+1:j] + " " + line[j:], true
			}
		}
		return "", false
	}
	return "", false
}

// escaped over-escapes Old and New onto one line each.
func (d *draft) escape() error {
	d.escaped = true
	d.note("over-escaped")
	return nil
}

// lineNumbers prefixes the copy's lines with line numbers.
func (d *draft) lineNumbers() error {
	style := d.rng.IntN(3)
	d.numbers = style + 1
	d.note("line numbers in style %d", style)
	return nil
}

// unicodePunct turns straight quotes curly, a hyphen into an en dash or a
// space into a no-break space, in some kept lines, Old and New alike.
func (d *draft) unicodePunct() error {
	ways := []rewrite{curlyQuotes, enDash, noBreakSpace}
	idx := d.kept(false, false, applies(ways))
	if len(idx) == 0 {
		return errSkip
	}
	for _, i := range some(d.rng, idx, 3) {
		line := d.model[i].old
		done := 0
		for _, w := range d.rng.Perm(len(ways)) {
			if l, ok := ways[w](line); ok {
				line = l
				if done++; done == 2 || d.rng.IntN(2) == 0 {
					break
				}
			}
		}
		d.model[i].old, d.model[i].new = line, line
	}
	d.note("unicode punctuation")
	return nil
}

// curlyQuotes turns straight double quotes into curly ones, in pairs, or
// else apostrophes into right single quotes.
func curlyQuotes(line string) (string, bool) {
	if strings.Count(line, `"`) >= 2 {
		var b strings.Builder
		open := true
		for _, r := range line {
			if r == '"' {
				if open {
					r = '“'
				} else {
					r = '”'
				}
				open = !open
			}
			b.WriteRune(r)
		}
		return b.String(), true
	}
	if strings.Contains(line, "'") {
		return strings.ReplaceAll(line, "'", "’"), true
	}
	return "", false
}

// enDash turns the first hyphen after the indentation into an en dash.
func enDash(line string) (string, bool) {
	ind := len(indentOf(line))
	i := strings.IndexByte(line[ind:], '-')
	if i < 0 {
		return "", false
	}
	i += ind
	return line[:i] + "–" + line[i+1:], true
}

// noBreakSpace turns the first space between two words into a no-break
// space.
func noBreakSpace(line string) (string, bool) {
	ind := len(indentOf(line))
	for i := ind + 1; i+1 < len(line); i++ {
		if line[i] == ' ' && line[i-1] != ' ' && line[i+1] != ' ' {
			return line[:i] + "\u00a0" + line[i+1:], true
		}
	}
	return "", false
}

// elision replaces a run of kept middle lines of a long copy by one line
// that says code was left out, in Old and New at the same place, away from
// the edit.
func (d *draft) elision() error {
	es := d.model
	n := len(es)
	if n < 15 {
		return errSkip
	}
	type window struct{ lo, hi int }
	var windows []window
	for a := 0; a < n; {
		if es[a].op != '=' {
			a++
			continue
		}
		b := a
		for b < n && es[b].op == '=' {
			b++
		}
		// Keep a line of context on each side, and the region's first two
		// and last two lines.
		lo, hi := max(a+1, 2), min(b-1, n-2)
		if hi-lo >= 3 {
			windows = append(windows, window{lo, hi})
		}
		a = b
	}
	if len(windows) == 0 {
		return errSkip
	}
	// The elided lines are the inside of one block: none is indented less
	// than the first, where the marker stands.
	start, length, indent := 0, 0, ""
	for try := 0; length == 0; try++ {
		if try == 10 {
			return errSkip
		}
		w := windows[d.rng.IntN(len(windows))]
		size := w.hi - w.lo
		n := max(3, size*(50+d.rng.IntN(41))/100)
		at := w.lo + d.rng.IntN(size-n+1)
		if ind, ok := blockIndent(es[at : at+n]); ok {
			start, length, indent = at, n, ind
		}
	}
	marker := d.src.lang.elision()
	if d.rng.IntN(3) == 0 {
		marker = "..."
	}
	// Each side of the elision must say where it is, or the elision could
	// stretch from another copy of one side to the other.
	if !d.anchored(es[:start]) || !d.anchored(es[start+length:]) {
		return errSkip
	}
	line := indent + marker
	elided := entry{op: '=', old: line, new: line, src: -1, touched: true}
	d.model = append(append(es[:start:start], elided), es[start+length:]...)
	if !d.recognizable() {
		return errSkip
	}
	d.note("%d lines elided as %q", length, marker)
	return nil
}

// blockIndent returns the indentation of the first non-blank line of es,
// and whether no line of es is indented less.
func blockIndent(es []entry) (string, bool) {
	indent, seen := "", false
	for _, e := range es {
		if isBlank(e.old) {
			continue
		}
		ind := indentOf(e.old)
		if !seen {
			indent, seen = ind, true
		} else if len(ind) < len(indent) {
			return "", false
		}
	}
	return indent, seen
}

// blankLines drops a blank line from the copy, or adds one, between kept
// lines, in Old and New alike.
func (d *draft) blankLines() error {
	drop := d.kept(true, true, isBlank)
	var add []int
	for i := 1; i < len(d.model); i++ {
		a, b := d.model[i-1], d.model[i]
		if a.op == '=' && b.op == '=' && !isBlank(a.old) && !isBlank(b.old) {
			add = append(add, i)
		}
	}
	switch {
	case len(drop) > 0 && (len(add) == 0 || d.rng.IntN(2) == 0):
		i := drop[d.rng.IntN(len(drop))]
		d.model = append(d.model[:i:i], d.model[i+1:]...)
		d.note("blank line missing")
	case len(add) > 0:
		i := add[d.rng.IntN(len(add))]
		d.model = append(d.model[:i:i], append([]entry{{op: '=', src: -1}}, d.model[i:]...)...)
		d.note("blank line added")
	default:
		return errSkip
	}
	if !d.recognizable() {
		return errSkip
	}
	return nil
}

// staleLine edits a middle line of the file that the edit keeps, after the
// model read it: the model's copy holds the line as it was, and Want the
// line as the file has it now, with the model's edit around it.
func (d *draft) staleLine() error {
	if len(d.model) != len(d.truth) || d.pinned {
		return errSkip
	}
	idx := d.kept(true, true, func(line string) bool { return !isBlank(line) })
	for _, p := range d.rng.Perm(len(idx)) {
		i := idx[p]
		line := d.model[i].old
		now, what, ok := rename(d.rng, d.src.lang, line)
		if !ok || d.rng.IntN(2) == 0 {
			if l, w, ok2 := changeLiteral(d.rng, d.src.lang, line); ok2 {
				now, what, ok = l, w, true
			}
		}
		if !ok {
			continue
		}
		j := d.truthOf(i)
		d.truth[j].old, d.truth[j].new = now, now
		d.model[i].touched = true
		if !d.recognizable() {
			return errSkip
		}
		d.note("stale line %d (%s since the model read it)", d.startLine()+d.truth[j].src, what)
		return nil
	}
	return errSkip
}

// typoLine swaps or drops a letter of a word in a middle line of Old the
// edit keeps; New carries the same typo, or the correct line.
func (d *draft) typoLine() error {
	idx := d.kept(true, true, func(line string) bool { return len(typoWords(line)) > 0 })
	if len(idx) == 0 {
		return errSkip
	}
	i := idx[d.rng.IntN(len(idx))]
	bad := typo(d.rng, d.model[i].old)
	d.model[i].old = bad
	d.model[i].touched = true
	if d.rng.IntN(2) == 0 {
		d.model[i].new = bad
		d.note("typo in a kept line, in Old and New")
	} else {
		d.note("typo in a kept line of Old, New correct")
	}
	if !d.recognizable() {
		return errSkip
	}
	return nil
}

// A span is the bytes [start, end) of a line.
type span struct{ start, end int }

// typoWords returns the words of a line a typo can hit: four letters or
// more, not all the same after the first.
func typoWords(line string) []span {
	var words []span
	for i := 0; i < len(line); {
		if !isLetter(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && isLetter(line[j]) {
			j++
		}
		if j-i >= 4 && strings.Count(line[i+1:j], line[i+1:i+2]) < j-i-1 {
			words = append(words, span{i, j})
		}
		i = j
	}
	return words
}

// typo swaps two neighbouring letters of a word of line, or drops one,
// never the first. The line must have a word typoWords returns.
func typo(rng *rand.Rand, line string) string {
	words := typoWords(line)
	w := words[rng.IntN(len(words))]
	s := line[w.start:w.end]
	if rng.IntN(2) == 0 {
		for _, k := range []int{1 + rng.IntN(len(s)-2), 1, 2} {
			if s[k] != s[k+1] {
				return line[:w.start] + s[:k] + s[k+1:k+2] + s[k:k+1] + s[k+2:] + line[w.end:]
			}
		}
	}
	k := 1 + rng.IntN(len(s)-1)
	return line[:w.start] + s[:k] + s[k+1:] + line[w.end:]
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// forgottenLine leaves a middle line out of the copy, in Old and New
// alike; the lines next to it are kept by the edit.
func (d *draft) forgottenLine() error {
	idx := d.kept(true, true, func(line string) bool { return !isBlank(line) })
	if len(idx) == 0 {
		return errSkip
	}
	i := idx[d.rng.IntN(len(idx))]
	line := d.startLine() + d.model[i].src
	d.model = append(d.model[:i:i], d.model[i+1:]...)
	if !d.recognizable() {
		return errSkip
	}
	d.note("line %d forgotten", line)
	return nil
}

// trimmedBoundary trims or pads the boundary of Old: the first line's
// indentation cut (as a trimmed string), blank lines around Old and New,
// a blank line only Old has, or the next line's indentation after both.
func (d *draft) trimmedBoundary() error {
	old, _ := sides(d.model)
	nextIndent := ""
	if len(d.after) > 0 {
		nextIndent = indentOf(d.after[0])
	}
	for _, v := range d.rng.Perm(5) {
		switch v {
		case 0:
			if indentOf(old[0]) == "" {
				continue
			}
			d.pad = func(o, n string) (string, string) { return strings.TrimSpace(o), strings.TrimSpace(n) }
			d.note("Old and New trimmed")
		case 1:
			if len(d.after) == 0 {
				continue
			}
			d.trailNL = true
			lead, trail := "\n", "\n"
			switch d.rng.IntN(3) {
			case 0:
				lead = ""
			case 1:
				trail = ""
			}
			d.pad = func(o, n string) (string, string) { return lead + o + trail, lead + n + trail }
			d.note("blank lines around Old and New")
		case 2:
			if len(d.after) == 0 || isBlank(d.after[0]) {
				continue
			}
			d.trailNL = true
			d.pad = func(o, n string) (string, string) { return o + "\n", n }
			d.note("a blank line after Old only")
		case 3:
			if len(d.before) > 0 && isBlank(d.before[len(d.before)-1]) {
				continue
			}
			d.pad = func(o, n string) (string, string) { return "\n\n" + o, n }
			d.note("blank lines before Old only")
		case 4:
			if nextIndent == "" {
				continue
			}
			d.trailNL = true
			d.pad = func(o, n string) (string, string) { return o + nextIndent, n + nextIndent }
			d.note("Old and New end with the next line's indentation")
		}
		return nil
	}
	return errSkip
}

// whitespaceDamage applies one of the whitespace mistakes, whichever the
// draft allows.
func (d *draft) whitespaceDamage() error {
	ways := []mistake{(*draft).indentShift, (*draft).tabsToSpaces, (*draft).trailingWS, (*draft).innerWS}
	for _, i := range d.rng.Perm(len(ways)) {
		err := ways[i](d)
		if !errors.Is(err, errSkip) {
			return err
		}
	}
	return errSkip
}

// crlf stores the file with CRLF line endings; the model writes LF.
func (d *draft) crlf() error {
	d.form.crlf = true
	d.modelCRLF = false
	return nil
}
