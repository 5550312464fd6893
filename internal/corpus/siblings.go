package corpus

import (
	"fmt"
	"math/rand/v2"
	"path"
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

// siblingDigit makes a region and its sibling, and quotes the sibling
// with a change (a trap), or the region with one of the sibling's lines
// slipped into it.
func (g *Generator) siblingDigit(rng *rand.Rand, trap bool) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	var v variant
	var ok bool
	// A region of a file that a sibling file holds with other widths or
	// versions (syscall_linux_386.go and syscall_linux_amd64.go); real
	// names with a width or version in them where the file has some
	// (Float64, uint64, Len64); names given one otherwise.
	switch rng.IntN(4) {
	case 0:
		v, ok = fileSibling(rng, g.cat)
	case 1:
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
	// A long block that differs from the region in two lines at its end
	// reads as the region quoted a little too far: the sibling's names
	// must tell on a fifth of the lines at least.
	code, differ := 0, 0
	for i := range v.file {
		code += boolInt(!isBlank(v.file[i]))
		differ += boolInt(v.file[i] != v.search[i])
	}
	if 5*differ < code {
		return Case{}, errSkip
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
// stand in the region already (Int32 becoming Int64 beside an Int64),
// nor the sibling in the file, nor any of its changed lines resemble one
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
			// A name with the run twice (S32X32) differs by more.
			clash = clash || countWord(block, sw) > 0 || differingPart(w, sw) != [2]string{from, to}
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

// archWords are the parts of a file name that say which architecture,
// or which width, the file is written for.
var archWords = map[string]bool{
	"386": true, "amd64": true, "arm": true, "arm64": true, "loong64": true, "mips": true, "mipsle": true,
	"mipsx": true, "mips64": true, "mips64le": true, "mips64x": true, "ppc64": true, "ppc64le": true,
	"ppc64x": true, "riscv64": true, "s390x": true, "wasm": true, "32bit": true, "64bit": true, "be64": true,
}

// siblingKey returns what a file's path says but for the architecture or
// width it is for (syscall/syscall_linux_*.go for syscall_linux_386.go,
// strconv/float#.go for float64.go), or "" when it says neither.
func siblingKey(p string) string {
	dir, base := path.Split(p)
	ext := path.Ext(base)
	parts := strings.Split(strings.TrimSuffix(base, ext), "_")
	varies := false
	for i, part := range parts {
		if archWords[part] {
			parts[i], varies = "*", true
			continue
		}
		if swapped := swapFamilies(part); swapped != part {
			parts[i], varies = swapped, true
		}
	}
	if !varies {
		return ""
	}
	return dir + strings.Join(parts, "_") + ext
}

// swapFamilies writes every run of digits of a family after a letter in a
// word as "#".
func swapFamilies(word string) string {
	var b strings.Builder
	for i := 0; i < len(word); {
		j := i
		for j < len(word) && isDigit(word[j]) {
			j++
		}
		if j == i {
			b.WriteByte(word[i])
			i++
			continue
		}
		if i > 0 && familyOf(word[i:j]) != nil {
			b.WriteByte('#')
		} else {
			b.WriteString(word[i:j])
		}
		i = j
	}
	return b.String()
}

// siblingFiles returns the files of the catalog, in languages whose names
// a sibling can vary, that have siblings: groups of two paths or more of
// one language that differ only by the architecture or width they are for.
func (c *catalog) siblingFiles() [][]string {
	var groups [][]string
	for i := range c.langs {
		if c.langs[i].capsOnly {
			continue
		}
		byKey := map[string][]string{}
		var keys []string
		for _, p := range c.byLang[i] {
			if k := siblingKey(p); k != "" {
				if byKey[k] == nil {
					keys = append(keys, k)
				}
				byKey[k] = append(byKey[k], p)
			}
		}
		for _, k := range keys {
			if len(byKey[k]) >= 2 {
				groups = append(groups, byKey[k])
			}
		}
	}
	return groups
}

// fileSibling draws two sibling files (syscall_freebsd_386.go and
// syscall_freebsd_amd64.go) and a region of the first that the second
// holds as its sibling: line for line the same but for names that carry
// another width or version, the same other one on two lines or more. The
// search is the second file's lines.
func fileSibling(rng *rand.Rand, c *catalog) (variant, bool) {
	s, o, blocks := siblingPair(rng, c)
	for _, k := range rng.Perm(len(blocks)) {
		b := blocks[k]
		n := max(4, b.n-rng.IntN(b.n))
		if n > b.n {
			continue
		}
		off := rng.IntN(b.n - n + 1)
		start, from := b.at+off, b.from+off
		region, search := s.lines[start:start+n], o.lines[from:from+n]
		var words []string
		differ := 0
		var part [2]string
		for i := range region {
			pairs, _ := siblingPairs(region[i], search[i])
			differ += boolInt(len(pairs) > 0)
			for _, pr := range pairs {
				part = differingPart(pr[0], pr[1])
				if !slices.Contains(words, pr[0]) {
					words = append(words, pr[0])
				}
			}
		}
		if differ < 2 || !s.quotable(start, n) || !s.absent(start, n, search) {
			continue
		}
		return variant{
			s: s, start: start, file: region, search: search, words: words,
			what: fmt.Sprintf("the search is lines %d-%d of %s, the region's sibling with %s where the file has %s", from+1, from+n, o.path, part[1], part[0]),
		}, true
	}
	return variant{}, false
}

// siblingPair draws two sibling files that share blocks (most do not),
// and returns them with their blocks; no blocks when a few draws find
// none.
func siblingPair(rng *rand.Rand, c *catalog) (s, o *source, blocks []siblingBlock) {
	groups := c.siblingFiles()
	for range 40 {
		if len(groups) == 0 {
			break
		}
		group := groups[rng.IntN(len(groups))]
		p := rng.Perm(len(group))
		lang := c.langOf(group[0])
		s, err := c.load(group[p[0]], lang)
		if err != nil || s == nil {
			continue
		}
		o, err := c.load(group[p[1]], lang)
		if err != nil || o == nil {
			continue
		}
		if blocks := siblingBlocks(s.lines, o.lines); len(blocks) > 0 {
			return s, o, blocks
		}
	}
	return nil, nil, nil
}

// langOf returns the language of a path of the catalog.
func (c *catalog) langOf(p string) *lang {
	for i := range c.langs {
		if slices.Contains(c.langs[i].exts, path.Ext(p)) {
			return &c.langs[i]
		}
	}
	return nil
}

// A siblingBlock is a run of lines of a file, [at, at+n), that a sibling
// file holds at [from, from+n) line for line, the same but for names that
// differ by one run of digits for another.
type siblingBlock struct{ at, from, n int }

// siblingBlocks returns the blocks of four lines or more that lines and a
// sibling's share that way, with at least two lines that differ.
func siblingBlocks(lines, sibling []string) []siblingBlock {
	at := map[string][]int{}
	for i, line := range sibling {
		if len(strings.TrimSpace(line)) >= 4 {
			k := digitless(line)
			at[k] = append(at[k], i)
		}
	}
	var blocks []siblingBlock
	seen := map[[2]int]bool{} // the starts of the blocks found
	for j0, line := range lines {
		if len(strings.TrimSpace(line)) < 4 {
			continue
		}
		for _, i0 := range at[digitless(line)] {
			// The block starts where the lines before stop being siblings.
			j, i := j0, i0
			for i > 0 && j > 0 {
				if _, ok := siblingPairs(lines[j-1], sibling[i-1]); !ok {
					break
				}
				i, j = i-1, j-1
			}
			if seen[[2]int{j, i}] {
				continue
			}
			seen[[2]int{j, i}] = true
			var part [2]string
			n, differ := 0, 0
			for ; i+n < len(sibling) && j+n < len(lines); n++ {
				pairs, ok := siblingPairs(lines[j+n], sibling[i+n])
				if !ok {
					break
				}
				if len(pairs) == 0 {
					continue
				}
				p := differingPart(pairs[0][0], pairs[0][1])
				if differ > 0 && p != part {
					break
				}
				part = p
				differ++
			}
			if n >= 4 && differ >= 2 {
				blocks = append(blocks, siblingBlock{j, i, n})
			}
		}
	}
	return blocks
}

// digitless writes every run of digits of a line as "#".
func digitless(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		if isDigit(line[i]) {
			if i == 0 || !isDigit(line[i-1]) {
				b.WriteByte('#')
			}
			continue
		}
		b.WriteByte(line[i])
	}
	return b.String()
}

// skeleton writes every word of a line (see words) as "w", keeping the
// rest: numbers, operators, blanks.
func skeleton(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		c := line[i]
		if !isIdentByte(c) {
			b.WriteByte(c)
			i++
			continue
		}
		j := i + 1
		for j < len(line) && isIdentByte(line[j]) {
			j++
		}
		if isIdentStart(c) {
			b.WriteByte('w')
		} else {
			b.WriteString(line[i:j])
		}
		i = j
	}
	return b.String()
}

// siblingPairs returns the pairs of words (the line's, the sibling's) in
// which a line and its sibling's differ, when they differ only in words
// and every pair by the same run of digits of a family for another; false
// otherwise.
func siblingPairs(line, sibling string) ([][2]string, bool) {
	if line == sibling {
		return nil, true
	}
	if skeleton(line) != skeleton(sibling) {
		return nil, false
	}
	wl, ws := words(line), words(sibling)
	if len(wl) != len(ws) {
		return nil, false
	}
	var pairs [][2]string
	var part [2]string
	for i := range wl {
		if wl[i] == ws[i] {
			continue
		}
		p := differingPart(wl[i], ws[i])
		if len(pairs) > 0 && p != part {
			return nil, false
		}
		f := familyOf(p[0])
		if f == nil || !slices.Contains(f, p[1]) {
			return nil, false
		}
		part = p
		pairs = append(pairs, [2]string{wl[i], ws[i]})
	}
	return pairs, true
}

// differingPart returns what is left of two words without the start and
// the end they share: "32" and "64" for uint32 and uint64.
func differingPart(a, b string) [2]string {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	q := 0
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	return [2]string{a[p : len(a)-q], b[p : len(b)-q]}
}
