package corpus

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/graft-editor/graft/engine"
)

// errSkip says a draft cannot take the mistake asked of it (no tab to turn
// into spaces, no blank line to forget, ...): the generator draws another.
var errSkip = errors.New("corpus: the draft does not fit the kind")

// A draft is a case being made: a file, the region an edit changes, and
// the model's copy of the region and of its edit, which the mistakes
// damage.
type draft struct {
	rng    *rand.Rand
	src    *source
	before []string // file lines above the region
	after  []string // file lines below the region
	region []string // the region as the file held it when the draft began
	truth  []entry  // the region in File (old side) and in Want (new side)
	model  []entry  // the model's copy of both
	form   form
	what   []string // the change and the mistakes, for the case's Variant

	modelCRLF bool // the model copied the file's CRLF line endings
	trailNL   bool // Old and New end with a newline
	numbers   int  // line-number style of the model's lines plus one; 0 for none
	escaped   bool // Old and New are over-escaped onto one line
	pad       func(old, new string) (string, string)
	line      int  // the line hint
	trap      bool // the edit must be refused
	pinned    bool // the file must not change behind the model's back (the region stands twice, or later edits build on it)
}

// draft draws a file of a language accept allows (any when nil), a
// quotable region of minN to maxN lines in it, and an edit of the region.
func (g *Generator) draft(rng *rand.Rand, minN, maxN int, accept func(*lang) bool) (*draft, error) {
	s, err := g.cat.pick(rng, accept)
	if err != nil {
		return nil, err
	}
	n := regionLength(rng, minN, maxN)
	start, ok := s.region(rng, n)
	if !ok {
		return nil, errSkip
	}
	c, ok := pickChange(rng, s, s.lines[start:start+n], true)
	if !ok {
		return nil, errSkip
	}
	return newDraft(rng, s, s.lines, start, n, c), nil
}

// newDraft makes the draft that applies c to lines [start, start+n) of a
// file with the given lines, in a form drawn at random.
func newDraft(rng *rand.Rand, s *source, lines []string, start, n int, c change) *draft {
	region := lines[start : start+n : start+n]
	d := &draft{
		rng:     rng,
		src:     s,
		before:  lines[:start:start],
		after:   lines[start+n:],
		region:  region,
		truth:   c.entries(region),
		form:    randomForm(rng),
		trailNL: rng.IntN(3) != 0,
		what:    []string{c.what},
	}
	d.model = slices.Clone(d.truth)
	return d
}

// regionLength draws a length in [minN, maxN], short ones more often, as
// models quote.
func regionLength(rng *rand.Rand, minN, maxN int) int {
	u := rng.Float64()
	return minN + int(float64(maxN-minN+1)*u*u)
}

// randomForm draws how a file is stored: now and then with CRLF line
// endings, a byte order mark, or no final newline.
func randomForm(rng *rand.Rand) form {
	return form{
		crlf:      rng.IntN(100) < 12,
		bom:       rng.IntN(100) < 5,
		noFinalNL: rng.IntN(100) < 6,
	}
}

// startLine is the 1-based line of the region in File.
func (d *draft) startLine() int { return len(d.before) + 1 }

// fileLines returns the lines of File.
func (d *draft) fileLines() []string {
	old, _ := sides(d.truth)
	return slices.Concat(d.before, old, d.after)
}

// wantLines returns the lines of Want.
func (d *draft) wantLines() []string {
	_, new := sides(d.truth)
	return slices.Concat(d.before, new, d.after)
}

// modelTexts renders the model's Old and New as it wrote them.
func (d *draft) modelTexts() (string, string) {
	old, new := sides(d.model)
	if d.numbers > 0 {
		old = numberLines(old, d.startLine(), d.numbers-1)
		new = numberLines(new, d.startLine(), d.numbers-1)
	}
	eol := "\n"
	if d.modelCRLF {
		eol = "\r\n"
	}
	o, n := strings.Join(old, eol), strings.Join(new, eol)
	// A region that ends a file without a final newline has none to copy.
	if d.trailNL && !(len(d.after) == 0 && d.form.noFinalNL) {
		if len(old) > 0 {
			o += eol
		}
		if len(new) > 0 {
			n += eol
		}
	}
	if d.escaped {
		o, n = overEscape(o), overEscape(n)
	}
	if d.pad != nil {
		o, n = d.pad(o, n)
	}
	return o, n
}

// edit is the edit the model wrote.
func (d *draft) edit() engine.Edit {
	old, new := d.modelTexts()
	return engine.Edit{Path: d.src.path, Old: old, New: new, Line: d.line}
}

// build finishes the case.
func (d *draft) build() Case {
	file := d.form.render(d.fileLines())
	want := file
	if !d.trap {
		want = d.form.render(d.wantLines())
	}
	return Case{
		Path:    d.src.path,
		Line:    d.startLine(),
		Variant: d.variant(),
		File:    file,
		Edits:   []engine.Edit{d.edit()},
		Want:    want,
		Trap:    d.trap,
	}
}

// variant describes the draft for the case's Variant.
func (d *draft) variant() string {
	v := strings.Join(d.what, "; ")
	if f := d.form.String(); f != "" {
		v += " [" + f + "]"
	}
	return v
}

// note records what was done to the draft.
func (d *draft) note(format string, args ...any) {
	d.what = append(d.what, fmt.Sprintf(format, args...))
}

// recognizable reports whether the model's Old still holds at least two
// of the region's distinctive lines intact (but for whitespace), lines no
// other line of the file comes close to, so that a reader could tell
// where a damaged copy belongs even in code written twice.
func (d *draft) recognizable() bool {
	n := 0
	for _, e := range d.model {
		if !e.inOld() || e.touched || e.src < 0 {
			continue
		}
		if line := d.region[e.src]; d.src.distinctive(line) && !d.src.rivalled(line) {
			if n++; n == 2 {
				return true
			}
		}
	}
	return false
}

// anchored reports whether es hold a line of the model's Old that is
// intact and tells its place: distinctive and without rival.
func (d *draft) anchored(es []entry) bool {
	for _, e := range es {
		if e.inOld() && !e.touched && e.src >= 0 {
			if line := d.region[e.src]; d.src.distinctive(line) && !d.src.rivalled(line) {
				return true
			}
		}
	}
	return false
}

// truthOf returns the index in d.truth of the kept line the model entry i
// copies, or -1.
func (d *draft) truthOf(i int) int {
	src := d.model[i].src
	if d.model[i].op != '=' || src < 0 {
		return -1
	}
	for j, e := range d.truth {
		if e.op == '=' && e.src == src {
			return j
		}
	}
	return -1
}

// kept returns the indexes of the model's kept lines for which ok holds.
// With middle, the first and last lines are left out; with apart, so are
// the lines next to a changed one.
func (d *draft) kept(middle, apart bool, ok func(string) bool) []int {
	var idx []int
	es := d.model
	for i, e := range es {
		if e.op != '=' || e.touched || !ok(e.old) {
			continue
		}
		if middle && (i == 0 || i == len(es)-1) {
			continue
		}
		if apart && (i > 0 && es[i-1].op != '=' || i < len(es)-1 && es[i+1].op != '=') {
			continue
		}
		idx = append(idx, i)
	}
	return idx
}

// some draws between 1 and most of idx, in order.
func some(rng *rand.Rand, idx []int, most int) []int {
	n := 1 + rng.IntN(min(most, len(idx)))
	picked := rng.Perm(len(idx))[:n]
	slices.Sort(picked)
	out := make([]int, n)
	for i, p := range picked {
		out[i] = idx[p]
	}
	return out
}

// numberLines prefixes lines with line numbers from first, in one of the
// styles tools print them: "  42 | ", cat -n's "    42\t", and "42: ".
func numberLines(lines []string, first, style int) []string {
	out := make([]string, len(lines))
	for i, line := range lines {
		n := first + i
		switch style {
		case 0:
			out[i] = fmt.Sprintf("%4d | %s", n, line)
		case 1:
			out[i] = fmt.Sprintf("%6d\t%s", n, line)
		default:
			out[i] = fmt.Sprintf("%d: %s", n, line)
		}
		if line == "" && style != 1 {
			out[i] = strings.TrimRight(out[i], " ")
		}
	}
	return out
}

// overEscape writes text as a model that escaped it once too often does:
// on one line, with \n, \t and \" spelled out and backslashes doubled.
func overEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\t", `\t`, `"`, `\"`).Replace(s)
}
