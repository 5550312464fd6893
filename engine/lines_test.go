package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine/internal/texttest"
)

// A document's lines are split a word at a time (see package textscan,
// which holds Lines to texttest.PlainSplit itself). These tests hold a
// document's lines, and what it says of their endings, to that plain
// split, one line at a time, on random texts with every feature that
// changes where a line is.

// TestNewDocumentLines checks a document's lines and what it says of
// their endings against texttest.PlainSplit's lines of the text after its byte
// order mark.
func TestNewDocumentLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for k := range 2000 {
		text := texttest.Random(rng)
		d := newDocument(text)
		body := strings.TrimPrefix(text, bom)
		start, end, crlf := texttest.PlainSplit(text, len(text)-len(body), len(text))
		crlfMost := crlf > 0 && 2*crlf >= len(start)
		mixed := crlf > 0 && crlf < strings.Count(body, "\n")
		if !slices.Equal(d.start, start) || !slices.Equal(d.end, end) || d.crlf != crlfMost || d.mixed != mixed {
			t.Fatalf("text %d %.200q: lines %v %v, crlf %v, mixed %v; want %v %v, %v, %v", k, text, d.start, d.end, d.crlf, d.mixed, start, end, crlfMost, mixed)
		}
		// The text with "\r\n" turned into "\n", and where each line
		// starts in it, built a line at a time.
		var lf strings.Builder
		var lfStart []int
		for i := range start {
			lfStart = append(lfStart, lf.Len())
			lf.WriteString(text[start[i]:end[i]])
			if i+1 < len(start) || strings.HasSuffix(text, "\n") {
				lf.WriteByte('\n')
			}
		}
		if crlf == 0 {
			lfStart = nil // the body is its own view
		}
		if d.lf != lf.String() || !slices.Equal(d.lfStart, lfStart) || (d.lfStart == nil) != (crlf == 0) {
			t.Fatalf("text %d %.200q: the text with line feeds is %.200q, its lines start at %v; want %.200q, %v", k, text, d.lf, d.lfStart, lf.String(), lfStart)
		}
	}
}

// BenchmarkNewDocument splits a file of 3,000 lines of code.
func BenchmarkNewDocument(b *testing.B) {
	text := texttest.Code(3000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		newDocument(text)
	}
}

// randomItems returns n of items, picked at random by rng.
func randomItems(rng *rand.Rand, items []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = items[rng.IntN(len(items))]
	}
	return out
}
