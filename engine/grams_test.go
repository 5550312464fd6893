package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// linesWithGrams returns the document of text with its pair sets built.
func linesWithGrams(text string) *document {
	d := newDocument(text)
	d.buildGrams()
	return d
}

// checkByLine fails t when the search by lines finds other places than
// the search of the whole text does.
func checkByLine(t *testing.T, d *document, sub string, limit int) {
	t.Helper()
	want := occurrences(d.lf, sub, limit)
	got, ok := d.occurrencesByLine(sub, limit)
	if !ok {
		return // too short a piece: the text is searched instead
	}
	if !slices.Equal(got, want) {
		t.Fatalf("text %q, search %q, limit %d: by lines %v, by the text %v", d.text, sub, limit, got, want)
	}
}

// TestLineGramsFindWhatAScanFinds checks the search by lines against the
// search of the whole text on texts of a few repeated lines, with line
// feeds and "\r\n", a byte order mark, searches within a line and across
// lines, found once, many times, overlapping, or not at all.
func TestLineGramsFindWhatAScanFinds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	words := []string{"value := 1", "\tif err != nil {", "return err", "}", "", "aaaa", "aaaaaa", "x.y(z)"}
	for n := 0; n < 2000; n++ {
		var b strings.Builder
		if n%17 == 0 {
			b.WriteString(bom)
		}
		eol := "\n"
		if n%5 == 0 {
			eol = "\r\n"
		}
		lines := 1 + rng.IntN(12)
		for i := 0; i < lines; i++ {
			b.WriteString(words[rng.IntN(len(words))])
			if i < lines-1 || rng.IntN(2) == 0 {
				b.WriteString(eol)
			}
		}
		d := linesWithGrams(b.String())
		lf := d.lf
		for k := 0; k < 20; k++ {
			var sub string
			if k%4 == 0 || len(lf) == 0 { // something perhaps nowhere
				sub = words[rng.IntN(len(words))] + "\n" + words[rng.IntN(len(words))]
			} else {
				i := rng.IntN(len(lf))
				sub = lf[i : i+rng.IntN(len(lf)-i)+1]
			}
			checkByLine(t, d, sub, 1+rng.IntN(4))
			checkByLine(t, d, sub, maxOccurrences)
		}
	}
}

// TestLineGramsFollowEdits checks that the pair sets carried through
// Apply are those of the lines as they are: a chain of Documents that
// searches often finds, at every step, what a search of the whole text
// finds.
func TestLineGramsFollowEdits(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		b.WriteString("\tvalue")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(" := compute()\n")
	}
	doc := NewDocument(b.String())
	rng := rand.New(rand.NewPCG(3, 5))
	for step := 0; step < 60; step++ {
		line := rng.IntN(doc.d.lineCount())
		old := doc.d.line(line)
		m, err := doc.Resolve(Edit{Old: old + "\n", New: old + "\n\tadded" + strings.Repeat("y", step) + " := compute()\n", Line: line + 1}, Options{})
		if err != nil {
			continue // a line that occurs more than once, without a usable hint
		}
		doc = doc.Apply(m)
		if step > gramsAfter && doc.d.grams == nil {
			t.Fatalf("step %d: no pair sets after %d searches", step, doc.searches)
		}
		if doc.d.grams != nil {
			fresh := linesWithGrams(doc.d.text)
			if !slices.Equal(doc.d.grams, fresh.grams) {
				t.Fatalf("step %d: the pair sets carried differ from those of the text", step)
			}
			checkByLine(t, doc.d, "\tadded"+strings.Repeat("y", step), maxOccurrences)
		}
	}
}

// FuzzLineGrams holds the search by lines to the search of the whole text.
func FuzzLineGrams(f *testing.F) {
	f.Add("a\nbcde\r\nbcdef\nbcde", "bcde")
	f.Add("xxxx\nxxxxx\n", "xx\nxxx")
	f.Add(bom+"abcd\nabcd", "cd\nabcd")
	f.Fuzz(func(t *testing.T, text, sub string) {
		if sub == "" {
			return
		}
		checkByLine(t, linesWithGrams(text), sub, maxOccurrences)
		checkByLine(t, linesWithGrams(text), sub, 1)
	})
}
