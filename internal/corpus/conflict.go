package corpus

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// The kinds of this file put the model's change on a line that changed in
// the file since the model read it: the model's Old holds the line as it
// was, its New the model's version, and the file a third. Where the two
// changes touch parts of the line apart from each other, a merge keeps
// both (stale-merge); where they touch the same characters, as when both
// change the same literal or rename the same name, none can, and the edit
// must be refused (trap-conflict).

// A lineChanges is one line changed twice: by the model, in its edit, and
// in the file behind its back.
type lineChanges struct {
	model, file string // the line as the model changes it, and as the file holds it now
	// merged is the line with both changes, when they touch parts of the
	// line apart; "" when they touch the same characters.
	merged              string
	modelWhat, fileWhat string // for the case's Variant
}

// A twoChanges changes a line twice, or reports that it cannot.
type twoChanges func(rng *rand.Rand, s *source, line string) (lineChanges, bool)

// buildTrapConflict changes a line of the region that the file changed
// too, in the same characters: the same literal or the same name.
func buildTrapConflict(g *Generator, rng *rand.Rand) (Case, error) {
	return g.staleChange(rng, conflicting)
}

// buildStaleMerge changes a line of the region that the file changed too,
// in another part of the line: Want has both changes.
func buildStaleMerge(g *Generator, rng *rand.Rand) (Case, error) {
	return g.staleChange(rng, mergeable)
}

// staleChange draws a region of 5 to 30 lines and a middle line of it
// that two can change twice, and makes the case whose edit makes the
// model's change of the line while the file holds the other: a trap when
// the changes touch the same characters.
func (g *Generator) staleChange(rng *rand.Rand, two twoChanges) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	n := regionLength(rng, 5, 30)
	start, ok := s.region(rng, n)
	if !ok {
		return Case{}, errSkip
	}
	region := s.lines[start : start+n]
	for _, x := range rng.Perm(n - 2) {
		x++ // neither the first line nor the last: the model quotes context around its change
		lc, ok := two(rng, s, region[x])
		if !ok {
			continue
		}
		d := newDraft(rng, s, s.lines, start, n, change{at: x, del: 1, ins: []string{lc.model}, what: lc.modelWhat})
		// The region's entries are its lines up to x kept, line x removed
		// (d.truth[x]) and its new version added (d.truth[x+1]), the rest
		// kept.
		d.truth[x].old = lc.file
		d.model[x].touched = true
		if lc.merged == "" {
			d.trap = true
		} else {
			d.truth[x+1].new = lc.merged
		}
		if !d.recognizable() {
			return Case{}, errSkip
		}
		d.note("line %d changed in the file since the model read it: %s", d.startLine()+x, lc.fileWhat)
		return d.build(), nil
	}
	return Case{}, errSkip
}

// conflicting changes one token of line in two different ways, as the
// model and as the file: a number, a word of a string, or a name wherever
// it stands in the line's code. Both must replace a character of the line
// that neither keeps: the changes overlap.
func conflicting(rng *rand.Rand, s *source, line string) (lineChanges, bool) {
	l := s.lang
	toks := scan(l, line)
	for _, k := range rng.Perm(len(toks)) {
		t := toks[k]
		w := line[t.start:t.end]
		var redo func() (string, string) // one change of the token: the line and what changed
		switch {
		case t.kind == tokNumber && isDecimal(w):
			n, _ := strconv.Atoi(w)
			redo = func() (string, string) {
				v := strconv.Itoa(otherNumber(rng, n))
				return line[:t.start] + v + line[t.end:], "change literal " + w + " to " + v
			}
		case t.kind == tokString && len(typoWords(w)) > 0:
			words := typoWords(w)
			ws := words[rng.IntN(len(words))]
			word := w[ws.start:ws.end]
			redo = func() (string, string) {
				v := otherWord(rng, word)
				at, end := t.start+ws.start, t.start+ws.end
				return line[:at] + v + line[end:], "change " + strconv.Quote(word) + " to " + strconv.Quote(v) + " in a string"
			}
		case t.kind == tokIdent && renamable(l, line, t):
			redo = func() (string, string) {
				v := newName(rng, l, w)
				if rng.IntN(2) == 0 {
					v = otherName(rng, w)
				}
				if countWord(s.text, v) > 0 {
					// A name the file already uses: no rename, draw again.
					return line, ""
				}
				return renameIn(l, line, w, v), "rename " + w + " to " + v
			}
		default:
			continue
		}
		for range 8 {
			model, modelWhat := redo()
			file, fileWhat := redo()
			if model != line && file != line && model != file && clash(line, model, file) {
				return lineChanges{model: model, file: file, modelWhat: modelWhat, fileWhat: fileWhat}, true
			}
		}
	}
	return lineChanges{}, false
}

// mergeable changes a literal of line in the file and renames a name
// elsewhere in it as the model, or now and then the other way round, the
// two changes at least a character apart.
func mergeable(rng *rand.Rand, s *source, line string) (lineChanges, bool) {
	for range 4 {
		lit, litWhat, ok := changeLiteral(rng, s.lang, line)
		if !ok {
			return lineChanges{}, false
		}
		ren, renWhat, ok := rename(rng, s.lang, line)
		if !ok {
			return lineChanges{}, false
		}
		lc := lineChanges{model: ren, file: lit, modelWhat: renWhat, fileWhat: litWhat}
		if rng.IntN(3) == 0 {
			lc = lineChanges{model: lit, file: ren, modelWhat: litWhat, fileWhat: renWhat}
		}
		if merged, ok := mergeApart(line, lc.model, lc.file); ok {
			lc.merged = merged
			return lc, true
		}
	}
	return lineChanges{}, false
}

// renamable reports whether the identifier t of line is a name a model
// would rename: not a keyword, not a package or receiver qualifying what
// follows it, two bytes or more.
func renamable(l *lang, line string, t token) bool {
	w := line[t.start:t.end]
	qualifier := t.end < len(line) && line[t.end] == '.'
	return t.kind == tokIdent && len(w) >= 2 && !qualifier && !l.isKeyword(w)
}

// renameIn renames the identifier name wherever it stands in the code of
// line (not in its strings or comment).
func renameIn(l *lang, line, name, to string) string {
	var b strings.Builder
	at := 0
	for _, t := range scan(l, line) {
		if t.kind == tokIdent && line[t.start:t.end] == name {
			b.WriteString(line[at:t.start])
			b.WriteString(to)
			at = t.end
		}
	}
	b.WriteString(line[at:])
	return b.String()
}

// otherNumber returns another value a person might give the constant n:
// one more or less, two more, double, triple, ten times or half.
func otherNumber(rng *rand.Rand, n int) int {
	vs := []int{n + 1, n + 2, 2 * n, 3 * n, 10 * n}
	if n > 0 {
		vs = append(vs, n-1)
	}
	if n > 2 {
		vs = append(vs, n/2)
	}
	for {
		if v := vs[rng.IntN(len(vs))]; v != n {
			return v
		}
	}
}

// otherWord returns another word for a word of a message.
func otherWord(rng *rand.Rand, word string) string {
	words := [...]string{"failed", "missing", "invalid", "unknown", "expected", "timeout", "closed", "empty", "pending", "stale"}
	for {
		if w := words[rng.IntN(len(words))]; !strings.EqualFold(w, word) {
			return matchCase(w, word)
		}
	}
}

// otherName returns a new name for name, a word of its own rather than
// the name with a prefix or suffix, in the name's case.
func otherName(rng *rand.Rand, name string) string {
	names := [...]string{"total", "limit", "width", "result", "offset", "cursor", "target", "payload", "record", "budget", "extent", "quota"}
	for {
		if w := names[rng.IntN(len(names))]; !strings.EqualFold(w, name) {
			return matchCase(w, name)
		}
	}
}

// matchCase writes the lower-case word w in the case of like: all capitals,
// capitalized, or as it is.
func matchCase(w, like string) string {
	switch {
	case len(like) > 1 && strings.ToUpper(like) == like && strings.ToLower(like) != like:
		return strings.ToUpper(w)
	case like[0] >= 'A' && like[0] <= 'Z':
		return strings.ToUpper(w[:1]) + w[1:]
	}
	return w
}

// changed returns the bytes [start, end) of read that a changes, once the
// ends they have in common are set aside, and the text a has in their
// place.
func changed(read, a string) (start, end int, with string) {
	p := 0
	for p < len(read) && p < len(a) && read[p] == a[p] {
		p++
	}
	q := 0
	for q < len(read)-p && q < len(a)-p && read[len(read)-1-q] == a[len(a)-1-q] {
		q++
	}
	return p, len(read) - q, a[p : len(a)-q]
}

// clash reports whether changing read into a and into b both replace a
// character of read that neither puts back: any diff that keeps the
// lines' common ends deletes it on both sides, so the changes overlap, and
// a merge that kept both could only splice one's new text into the
// other's.
func clash(read, a, b string) bool {
	sa, ea, wa := changed(read, a)
	sb, eb, wb := changed(read, b)
	for i := max(sa, sb); i < min(ea, eb); i++ {
		if strings.IndexByte(wa, read[i]) < 0 && strings.IndexByte(wb, read[i]) < 0 {
			return true
		}
	}
	return false
}

// mergeApart returns read with the changes that make a and b both made,
// when they touch parts of read at least a character apart (so that no
// diff can run them together); false otherwise.
func mergeApart(read, a, b string) (string, bool) {
	sa, ea, wa := changed(read, a)
	sb, eb, wb := changed(read, b)
	if sb < sa {
		sa, ea, wa, sb, eb, wb = sb, eb, wb, sa, ea, wa
	}
	if ea >= sb {
		return "", false
	}
	return read[:sa] + wa + read[ea:sb] + wb + read[eb:], true
}
