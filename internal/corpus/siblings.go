package corpus

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// The kinds of this file are made the way two independent corpora caught
// the engine out: a block written for a sibling of the region (HandlerV1,
// loadV1 and "v1" where the file has HandlerV2, loadV2 and "v2", or a
// Float32 function quoted where the file has its Float64 twin), which
// differs from the region on every line by the same part of a name; and
// an edit that renames a name on the lines it changes while the model's
// copy of a line it keeps already has the new name. Each comes with its
// companion that must apply: the digit slipped on one line only, and an
// unrelated slip in a kept line beside a rename.

// digitFamilies are the runs of digits sibling names differ by: versions,
// and the widths of numbers.
var digitFamilies = [...][]string{{"1", "2", "3"}, {"8", "16", "32", "64"}}

// buildTrapSiblingDigit quotes the region as a sibling variant of it
// stands elsewhere: every name that carries a version or width in the
// file carries another in the search, the same other one in every name.
// The block is about code that is not in the file, and must be refused.
func buildTrapSiblingDigit(g *Generator, rng *rand.Rand) (Case, error) {
	return g.siblingDigit(rng, true)
}

// buildDigitSlip quotes a region whose names carry a version or width
// with one such name, on one kept line, carrying another: a slip of one
// line, which the merge keeps as the file has it.
func buildDigitSlip(g *Generator, rng *rand.Rand) (Case, error) {
	return g.siblingDigit(rng, false)
}

// A variant is a region and the same region as a sibling has it: the
// file's lines and the search's, line for line, and what tells them apart.
type variant struct {
	s      *source  // the file, with the region's names as the file has them
	start  int      // the region's first line in s
	file   []string // the region in the file
	search []string // the region as the sibling has it
	words  []string // the names that differ, as the file has them
	what   string
}

func (g *Generator) siblingDigit(rng *rand.Rand, trap bool) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	var v variant
	var ok bool
	// Real names with a width or version in them where the file has some
	// (Float64, uint64, Len64), names given one otherwise.
	if rng.IntN(2) == 0 {
		v, ok = realSibling(rng, s)
	}
	if !ok {
		v, ok = madeSibling(rng, s)
	}
	if !ok {
		return Case{}, errSkip
	}
	n := len(v.file)
	if !trap {
		return v.slip(rng)
	}
	c, ok := pickChange(rng, v.s, v.search, true)
	if !ok {
		return Case{}, errSkip
	}
	d := newDraft(rng, v.s, v.s.lines, v.start, n, change{})
	d.model = c.entries(v.search)
	d.trap = true
	d.what = []string{c.what, v.what}
	if rng.IntN(2) == 0 {
		if err := d.whitespaceDamage(); err != nil {
			return Case{}, err
		}
	}
	return d.build(), nil
}

// slip makes the companion of a sibling variant: the search is the file's
// region but for one line of the sibling's, that differs from the file's
// line by one name, and the edit changes another line.
func (v variant) slip(rng *rand.Rand) (Case, error) {
	l := v.s.lang
	n := len(v.file)
	for _, x := range rng.Perm(n) {
		if v.search[x] == v.file[x] {
			continue
		}
		// One name of the line slips, not all of them.
		line := v.file[x]
		var words []string
		for _, w := range v.words {
			if countWord(line, w) > 0 {
				words = append(words, w)
			}
		}
		if len(words) == 0 {
			// Only the line's string tells the variants apart.
			continue
		}
		w := words[rng.IntN(len(words))]
		to, ok := siblingWord(v.file[x], v.search[x], w)
		if !ok {
			continue
		}
		slipped := renameIn(l, line, w, to)
		if slipped == line {
			continue
		}
		c, ok := pickChange(rng, v.s, v.file, true)
		// The change leaves the slipped line, and does not rename its name.
		if !ok || x >= c.at && x < c.at+c.del || c.what == "rename "+w {
			continue
		}
		d := newDraft(rng, v.s, v.s.lines, v.start, n, c)
		i := slices.IndexFunc(d.model, func(e entry) bool { return e.op == '=' && e.src == x })
		if i < 0 {
			continue
		}
		d.model[i].old, d.model[i].new, d.model[i].touched = slipped, slipped, true
		if !d.recognizable() {
			return Case{}, errSkip
		}
		d.note("%s; the copy of line %d says %s where the file says %s", v.what, d.startLine()+x, to, w)
		return d.build(), nil
	}
	return Case{}, errSkip
}

// siblingWord returns the word the sibling's line has where the file's
// line has w: the words of both lines stand in the same order.
func siblingWord(file, sibling, w string) (string, bool) {
	fw, sw := words(file), words(sibling)
	if len(fw) != len(sw) {
		return "", false
	}
	for i := range fw {
		if fw[i] == w && sw[i] != w {
			return sw[i], true
		}
	}
	return "", false
}

// words returns the words of a line, code, strings and comments alike: the
// runs of letters, digits and underscores that start with a letter or an
// underscore.
func words(line string) []string {
	var ws []string
	for i := 0; i < len(line); {
		c := line[i]
		if !isIdentByte(c) {
			i++
			continue
		}
		j := i + 1
		for j < len(line) && isIdentByte(line[j]) {
			j++
		}
		if isIdentStart(c) {
			ws = append(ws, line[i:j])
		}
		i = j
	}
	return ws
}

// realSibling finds, around a line of s whose names carry a run of digits
// of a family (Float64, uint64, Len64), a region whose names carry it on
// two lines or more, and makes its sibling: every such name of the
// region's code given another run of the family, the same for all, and
// changed wherever it stands in the region, comments and strings too, as
// the region's Float32 twin would have it. The sibling's names must not
// stand in the region already (r1 becoming r2 beside an r2), nor the
// sibling in the file, nor any of its changed lines resemble one
// elsewhere in it: then the file holds the twin, and the block might be
// meant for it.
func realSibling(rng *rand.Rand, s *source) (variant, bool) {
	l := s.lang
	if l.capsOnly {
		// Registers (R8, X16) are no names.
		return variant{}, false
	}
	var withRuns []int
	for i, line := range s.lines {
		if len(digitNames(l, line)) > 0 {
			withRuns = append(withRuns, i)
		}
	}
	if len(withRuns) < 2 {
		return variant{}, false
	}
	for range 6 {
		at := withRuns[rng.IntN(len(withRuns))]
		n := regionLength(rng, 4, 25)
		start := at - rng.IntN(n)
		if !s.quotable(start, n) {
			continue
		}
		region := s.lines[start : start+n]
		// The runs the region's names carry, and on how many lines.
		lines := map[string]int{}
		names := map[string][]string{}
		for _, line := range region {
			seen := map[string]bool{}
			for _, dn := range digitNames(l, line) {
				if !slices.Contains(names[dn.run], dn.word) {
					names[dn.run] = append(names[dn.run], dn.word)
				}
				if !seen[dn.run] {
					seen[dn.run] = true
					lines[dn.run]++
				}
			}
		}
		var runs []string
		for r, k := range lines {
			if k >= 2 && len(names[r]) >= 2 {
				runs = append(runs, r)
			}
		}
		if len(runs) == 0 {
			continue
		}
		slices.Sort(runs)
		from := runs[rng.IntN(len(runs))]
		to := otherInFamily(rng, from)
		ws := slices.Sorted(slices.Values(names[from]))
		block := strings.Join(region, "\n")
		search := slices.Clone(region)
		clash := false
		for _, w := range ws {
			sw := swapRun(w, from, to)
			clash = clash || countWord(block, sw) > 0
			for i, line := range search {
				search[i] = replaceWord(line, w, sw)
			}
		}
		if clash || !s.absent(start, n, search) {
			continue
		}
		return variant{
			s: s, start: start, file: region, search: search, words: ws,
			what: fmt.Sprintf("the search is the region's sibling with %s where the file has %s (%s)", to, from, strings.Join(ws, ", ")),
		}, true
	}
	return variant{}, false
}

// A digitName is a name with a run of digits of a family in it.
type digitName struct{ word, run string }

// digitNames returns the names of a line's code that carry a run of
// digits of a family after a letter or an underscore: Float64, uint32,
// LoadV2, crc_16; a version only after a v.
func digitNames(l *lang, line string) []digitName {
	var out []digitName
	for _, t := range scan(l, line) {
		if t.kind != tokIdent {
			continue
		}
		w := line[t.start:t.end]
		for i := 1; i < len(w); {
			if !isDigit(w[i]) {
				i++
				continue
			}
			j := i
			for j < len(w) && isDigit(w[j]) {
				j++
			}
			// A small number is a version only after a v (jsonv2, LoadV1):
			// elsewhere it numbers names side by side (sb0, sb1), which a
			// sibling would number alike.
			run := w[i:j]
			if f := familyOf(run); f != nil && (f[0] != "1" || w[i-1] == 'v' || w[i-1] == 'V') {
				out = append(out, digitName{w, run})
			}
			i = j
		}
	}
	return out
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// familyOf returns the family run belongs to, or nil.
func familyOf(run string) []string {
	for _, f := range digitFamilies {
		if slices.Contains(f, run) {
			return f
		}
	}
	return nil
}

// otherInFamily draws another run of the family of run.
func otherInFamily(rng *rand.Rand, run string) string {
	f := familyOf(run)
	for {
		if o := f[rng.IntN(len(f))]; o != run {
			return o
		}
	}
}

// swapRun replaces every whole run of digits from in a name by to.
func swapRun(name, from, to string) string {
	var b strings.Builder
	for i := 0; i < len(name); {
		if !isDigit(name[i]) {
			b.WriteByte(name[i])
			i++
			continue
		}
		j := i
		for j < len(name) && isDigit(name[j]) {
			j++
		}
		if name[i:j] == from {
			b.WriteString(to)
		} else {
			b.WriteString(name[i:j])
		}
		i = j
	}
	return b.String()
}

// absent reports whether a sibling of lines [start, start+n) of s is
// nowhere in s: the sibling does not stand in it, and none of the lines
// it changes stands in it or resembles a line outside the region.
func (s *source) absent(start, n int, sibling []string) bool {
	if s.occurrences(sibling) > 0 {
		return false
	}
	s.index()
	var elsewhere *doc
	for i, line := range sibling {
		if line == s.lines[start+i] {
			continue
		}
		if s.squeezed[squeeze(line)] {
			return false
		}
		if elsewhere == nil {
			elsewhere = newDoc(slices.Concat(s.lines[:start], s.lines[start+n:]))
		}
		if len(squeeze(line)) >= rivalKey && elsewhere.rivalled(line) {
			return false
		}
	}
	return true
}

// madeSibling gives two to four names of a region a version or a width
// throughout s (load becomes loadV2 in every line of code of the file),
// and makes the region's sibling, whose names carry another (loadV1); a
// string of the region carries the version too, now and then ("v2: ...").
// It returns the variant with a new source for the file so renamed.
func madeSibling(rng *rand.Rand, s *source) (variant, bool) {
	l := s.lang
	n := regionLength(rng, 5, 25)
	start, ok := s.region(rng, n)
	if !ok {
		return variant{}, false
	}
	region := s.lines[start : start+n]
	fam := digitFamilies[rng.IntN(len(digitFamilies))]
	p := rng.Perm(len(fam))
	sib, own := fam[p[0]], fam[p[1]]
	version := len(fam) == 3
	// Names of two lines or more between them, that do not end in a digit
	// already, whose suffixed forms the file does not hold.
	var names []string
	lines := map[int]bool{}
	for _, x := range rng.Perm(n) {
		line := region[x]
		for _, t := range scan(l, line) {
			w := line[t.start:t.end]
			if !ownName(l, line, t) || len(w) < 3 || isDigit(w[len(w)-1]) || slices.Contains(names, w) {
				continue
			}
			if countWord(s.text, suffixed(l, w, sib, version)) > 0 || countWord(s.text, suffixed(l, w, own, version)) > 0 || selected(s.text, w) {
				continue
			}
			names = append(names, w)
			for y, other := range region {
				if countWord(other, w) > 0 {
					lines[y] = true
				}
			}
			break
		}
		if len(names) == 4 || len(names) >= 2 && len(lines) >= 3 && rng.IntN(2) == 0 {
			break
		}
	}
	if len(names) < 2 || len(lines) < 2 {
		return variant{}, false
	}
	file := slices.Clone(s.lines)
	search := slices.Clone(region)
	tagged := -1
	if version && rng.IntN(2) == 0 {
		if x, at, ok := stringToTag(rng, l, region); ok {
			tag := func(v string) string { return region[x][:at] + "v" + v + ": " + region[x][at:] }
			file[start+x], search[x], tagged = tag(own), tag(sib), x
		}
	}
	for _, w := range names {
		for i, line := range file {
			file[i] = renameIn(l, line, w, suffixed(l, w, own, version))
		}
		for i, line := range search {
			search[i] = renameIn(l, line, w, suffixed(l, w, sib, version))
		}
	}
	differ := 0
	for i, line := range search {
		differ += boolInt(line != file[start+i])
	}
	ns := &source{path: s.path, lang: l, unit: s.unit, doc: newDoc(file)}
	if differ < 2 || !ns.quotable(start, n) {
		return variant{}, false
	}
	var ws []string
	for _, w := range names {
		ws = append(ws, suffixed(l, w, own, version))
	}
	what := fmt.Sprintf("the file's names %s, the search's with %s for %s", strings.Join(ws, ", "), sib, own)
	if tagged >= 0 {
		what += fmt.Sprintf(`, and "v%s" for "v%s" in a string`, sib, own)
	}
	return variant{s: ns, start: start, file: file[start : start+n], search: search, words: ws, what: what}, true
}

// ownName reports whether token t of line is a name the file's own code
// could give a version: one renamable, that is no member of another
// package's or value's (after a dot) nor an assembly symbol's package
// (before a middle dot).
func ownName(l *lang, line string, t token) bool {
	if !renamable(l, line, t) || t.start > 0 && line[t.start-1] == '.' {
		return false
	}
	return !strings.HasPrefix(line[t.end:], "·")
}

// selected reports whether name stands after a dot somewhere in text: a
// member, perhaps of another package's (time.Time), whose uses the file
// does not all show.
func selected(text, name string) bool {
	for at := 0; ; {
		i := indexWord(text[at:], name)
		if i < 0 {
			return false
		}
		if i += at; i > 0 && text[i-1] == '.' {
			return true
		}
		at = i + len(name)
	}
}

// suffixed gives a name a version (V2, _v2, _V2) or a width (64, _64) in
// the style of the name.
func suffixed(l *lang, name, digits string, version bool) string {
	upper := strings.ToUpper(name) == name
	snake := strings.Contains(name, "_") || l.name == "python" || l.name == "c" || l.name == "shell" || l.name == "perl" || l.name == "yaml"
	switch {
	case version && upper:
		return name + "_V" + digits
	case version && snake:
		return name + "_v" + digits
	case version:
		return name + "V" + digits
	case upper:
		return name + "_" + digits
	}
	return name + digits
}

// stringToTag finds a double-quoted string of a region with a word in it,
// and returns its line and the offset of its first byte after the quote.
func stringToTag(rng *rand.Rand, l *lang, region []string) (int, int, bool) {
	type spot struct{ x, at int }
	var spots []spot
	for x, line := range region {
		for _, t := range scan(l, line) {
			if w := line[t.start:t.end]; t.kind == tokString && w[0] == '"' && len(typoWords(w)) > 0 {
				spots = append(spots, spot{x, t.start + 1})
			}
		}
	}
	if len(spots) == 0 {
		return 0, 0, false
	}
	sp := spots[rng.IntN(len(spots))]
	return sp.x, sp.at, true
}
