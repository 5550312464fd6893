package corpus

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// buildTrapDuplicate makes a region that stands twice, quoted exactly or
// with whitespace damage, with no hint to tell the two apart.
func buildTrapDuplicate(g *Generator, rng *rand.Rand) (Case, error) {
	d, err := g.draft(rng, 3, 25, nil)
	if err != nil {
		return Case{}, err
	}
	if err := d.duplicate(); err != nil {
		return Case{}, err
	}
	d.note("the region stands twice")
	if rng.IntN(2) == 0 {
		if err := d.whitespaceDamage(); err != nil {
			return Case{}, err
		}
	}
	d.trap = true
	return d.build(), nil
}

// buildTrapOtherFile quotes a region of another file of the same language,
// one with almost nothing in common with the target.
func buildTrapOtherFile(g *Generator, rng *rand.Rand) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	o, err := g.cat.sibling(rng, s, rng.IntN(10) < 7)
	if err != nil {
		return Case{}, err
	}
	n := regionLength(rng, 3, 20)
	start, ok := o.region(rng, n)
	if !ok {
		return Case{}, errSkip
	}
	region := o.lines[start : start+n]
	if !s.alien(region) {
		return Case{}, errSkip
	}
	c, ok := pickChange(rng, o, region, true)
	if !ok {
		return Case{}, errSkip
	}
	d := newDraft(rng, s, s.lines, len(s.lines), 0, change{})
	d.model = c.entries(region)
	d.trap = true
	d.what = []string{c.what, "Old from " + o.path}
	cs := d.build()
	cs.Line = 0
	return cs, nil
}

// buildTrapForeignMiddle keeps a region's first and last lines around a
// middle from elsewhere: two or three lines of the same file, or a few
// lines of another file.
func buildTrapForeignMiddle(g *Generator, rng *rand.Rand) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	sameFile := rng.IntN(2) == 0
	m := 3 + rng.IntN(10)
	if sameFile {
		// A longer middle from the same file would make its own place the
		// better match.
		m = 2 + rng.IntN(2)
	}
	n := m + 2
	start, ok := s.region(rng, n)
	if !ok || !s.distinctive(s.lines[start]) || !s.distinctive(s.lines[start+n-1]) {
		return Case{}, errSkip
	}
	middle := s.lines[start+1 : start+n-1]
	var chunk []string
	from := "elsewhere in the file"
	if sameFile {
		q := rng.IntN(len(s.lines) - m + 1)
		if q+m > start-2 && q < start+n+2 {
			return Case{}, errSkip
		}
		chunk = s.lines[q : q+m]
		// Nor may the chunk's own neighbours pass for the region's first
		// and last lines, or its place would be the better match.
		if q > 0 && !unlike(s.lines[q-1:q], s.lines[start:start+1]) || q+m < len(s.lines) && !unlike(s.lines[q+m:q+m+1], s.lines[start+n-1:start+n]) {
			return Case{}, errSkip
		}
	} else {
		o, err := g.cat.sibling(rng, s, true)
		if err != nil {
			return Case{}, err
		}
		mm := max(2, m-1+rng.IntN(3))
		q := rng.IntN(len(o.lines) - mm + 1)
		chunk = o.lines[q : q+mm]
		if !s.alien(chunk) {
			return Case{}, errSkip
		}
		from = o.path
	}
	if !usableChunk(chunk) || !unlike(chunk, middle) || !outweighs(chunk, s.lines[start], s.lines[start+n-1], sameFile) {
		return Case{}, errSkip
	}
	composed := slices.Concat(s.lines[start:start+1], reindent(chunk, middle), s.lines[start+n-1:start+n])
	c, ok := pickChange(rng, s, composed, true)
	if !ok || !c.within(1, 1+len(chunk)) {
		// An edit of the true first or last line could pass for right.
		return Case{}, errSkip
	}
	d := newDraft(rng, s, s.lines, start, n, change{})
	d.model = c.entries(composed)
	d.trap = true
	d.what = []string{c.what, strconv.Itoa(len(chunk)) + " middle lines from " + from}
	return d.build(), nil
}

// usableChunk reports whether lines can stand in a model's copy: no
// overlong lines or control bytes, and at least two lines of substance.
func usableChunk(lines []string) bool {
	n := 0
	for _, line := range lines {
		if len(line) > maxLineBytes || hasControl(line) || line != strings.TrimRight(line, " \t") {
			return false
		}
		if substantial(squeeze(line)) {
			n++
		}
	}
	return n >= 2
}

// outweighs reports whether a foreign middle weighs enough against the
// first and last lines around it, in bytes of code, that neither a
// line-weighted nor a byte-weighted similarity can find the region in the
// anchors alone: at least half as much for a middle from the same file
// (whose own place must not win either: at most as much), one and a half
// times as much for a middle from another file.
func outweighs(chunk []string, first, last string, sameFile bool) bool {
	var mid int
	for _, l := range chunk {
		mid += len(squeeze(l))
	}
	anchors := len(squeeze(first)) + len(squeeze(last))
	if sameFile {
		return 2*mid >= anchors && mid <= anchors
	}
	return 2*mid >= 3*anchors
}

// unlike reports whether no line of substance of chunk resembles a line of
// middle (half similar or more): a foreign middle must really be foreign.
func unlike(chunk, middle []string) bool {
	for _, c := range chunk {
		sc := squeeze(c)
		if !substantial(sc) {
			continue
		}
		for _, m := range middle {
			if similarity(sc, squeeze(m)) >= 0.5 {
				return false
			}
		}
	}
	return true
}

// reindent moves lines to the indentation of the first non-blank line of
// like, as a model splicing code in would.
func reindent(lines, like []string) []string {
	var base string
	for _, l := range like {
		if !isBlank(l) {
			base = indentOf(l)
			break
		}
	}
	var filled []string
	for _, l := range lines {
		if !isBlank(l) {
			filled = append(filled, l)
		}
	}
	common := commonIndent(filled)
	out := make([]string, len(lines))
	for i, l := range lines {
		if !isBlank(l) {
			l = base + strings.TrimPrefix(l, common)
		}
		out[i] = l
	}
	return out
}

// buildTrapRewritten quotes a region as a model that misremembers it
// writes it: the shape kept, but nearly every name and literal different.
func buildTrapRewritten(g *Generator, rng *rand.Rand) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	n := regionLength(rng, 5, 25)
	start, ok := s.region(rng, n)
	if !ok {
		return Case{}, errSkip
	}
	region := s.lines[start : start+n]
	names := map[string]string{}
	rewritten := make([]string, 0, n+1)
	filled, withNames, changed := 0, 0, 0
	rewrote := make([]bool, 0, n) // which lines of the copy were rewritten
	keepFirst := rng.IntN(2) == 0
	for i, line := range region {
		if !isBlank(line) {
			filled++
		}
		if !hasWords(s.lang, line) || i == 0 && keepFirst || rng.IntN(100) < 15 {
			withNames += boolInt(hasWords(s.lang, line))
			rewritten = append(rewritten, line)
			rewrote = append(rewrote, false)
			continue
		}
		withNames++
		rewritten = append(rewritten, hallucinate(rng, s.lang, line, names))
		rewrote = append(rewrote, true)
		changed++
	}
	// Most lines, not only most lines with names, must be rewritten: the
	// lines a rewrite leaves alone (braces, blank comment lines) would
	// otherwise carry a fuzzy match.
	if withNames < 4 || 10*changed < 7*filled || !s.alien(rewritten) || likeness(rewritten, region) > 0.6 {
		return Case{}, errSkip
	}
	c, ok := pickChange(rng, s, rewritten, true)
	if !ok || !c.touchesAny(rewrote) {
		return Case{}, errSkip
	}
	d := newDraft(rng, s, s.lines, start, n, change{})
	d.model = c.entries(rewritten)
	d.trap = true
	d.what = []string{c.what, strconv.Itoa(changed) + " of " + strconv.Itoa(n) + " lines rewritten"}
	return d.build(), nil
}

// hasWords reports whether a line has a name or a word of comment that a
// model could misremember.
func hasWords(l *lang, line string) bool {
	toks, comment := scanLine(l, line)
	for _, t := range toks {
		if t.kind == tokIdent && !l.isKeyword(line[t.start:t.end]) {
			return true
		}
	}
	return len(typoWords(line[comment:])) > 0
}

// hallucinate rewrites a line of code keeping its shape: every name
// replaced by another (the same through the block, via names), every
// literal changed, every word of its comment replaced.
func hallucinate(rng *rand.Rand, l *lang, line string, names map[string]string) string {
	vocab := [...]string{"handler", "result", "config", "buffer", "index", "value", "entry", "node",
		"count", "offset", "state", "request", "payload", "cursor", "token", "limit", "target",
		"record", "worker", "session", "queue", "signal", "metric", "options"}
	word := func(w string) string {
		to := names[w]
		for to == "" || to == w {
			to = vocab[rng.IntN(len(vocab))]
			if w[0] >= 'A' && w[0] <= 'Z' {
				to = strings.ToUpper(to[:1]) + to[1:]
			}
		}
		names[w] = to
		return to
	}
	var b strings.Builder
	at := 0
	toks, comment := scanLine(l, line)
	for _, t := range toks {
		w := line[t.start:t.end]
		var to string
		switch t.kind {
		case tokIdent:
			if l.isKeyword(w) {
				continue
			}
			to = word(w)
		case tokNumber:
			to = strconv.Itoa(rng.IntN(1000))
		case tokString:
			to = w[:1] + vocab[rng.IntN(len(vocab))] + " " + vocab[rng.IntN(len(vocab))] + w[len(w)-1:]
		}
		b.WriteString(line[at:t.start])
		b.WriteString(to)
		at = t.end
	}
	b.WriteString(line[at:comment])
	at = comment
	for _, w := range typoWords(line[comment:]) {
		b.WriteString(line[at : comment+w.start])
		b.WriteString(word(line[comment+w.start : comment+w.end]))
		at = comment + w.end
	}
	b.WriteString(line[at:])
	return b.String()
}

// alien reports whether block has almost nothing in common with s: at
// least three lines of substance, at most a third of which s holds but for
// blanks, and at most half of its long names known to s.
func (s *source) alien(block []string) bool {
	s.index()
	lines, present := 0, 0
	for _, line := range block {
		k := squeeze(line)
		if !substantial(k) {
			continue
		}
		lines++
		if s.squeezed[k] {
			present++
		}
	}
	if lines < 3 || 3*present > lines {
		return false
	}
	long, known := map[string]bool{}, 0
	for _, line := range block {
		for _, t := range scan(s.lang, line) {
			if w := line[t.start:t.end]; t.kind == tokIdent && len(w) >= 5 && !long[w] {
				long[w] = true
				if s.names[w] {
					known++
				}
			}
		}
	}
	return 2*known <= len(long)
}

// index fills the source's sets of lines without blanks and of names, once.
func (s *source) index() {
	if s.squeezed != nil {
		return
	}
	s.squeezed = make(map[string]bool, len(s.lines))
	s.names = map[string]bool{}
	for _, line := range s.lines {
		s.squeezed[squeeze(line)] = true
		for _, t := range scan(s.lang, line) {
			if t.kind == tokIdent {
				s.names[line[t.start:t.end]] = true
			}
		}
	}
}

// squeezedText returns the text of s without any blank, newlines
// included.
func (s *source) squeezedText() string {
	if s.squeezedAll == "" {
		s.squeezedAll = squeeze(s.text)
	}
	return s.squeezedAll
}

// squeeze removes every blank of a line.
func squeeze(line string) string {
	return strings.Join(strings.Fields(line), "")
}

// substantial reports whether a squeezed line says something: six bytes or
// more, with a letter.
func substantial(k string) bool {
	return len(k) >= 6 && strings.IndexFunc(k, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) >= 0
}
