package textscan

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine/internal/texttest"
)

// checkLines holds Lines of text[from:to] to texttest.PlainSplit, appended to
// lines already there.
func checkLines(t *testing.T, text string, from, to int) {
	t.Helper()
	for _, before := range [][]int{nil, {7, 8}} {
		start, end, crlf := Lines(text, from, to, slices.Clone(before), slices.Clone(before))
		wantStart, wantEnd, wantCRLF := texttest.PlainSplit(text, from, to)
		wantStart, wantEnd = append(slices.Clone(before), wantStart...), append(slices.Clone(before), wantEnd...)
		if !slices.Equal(start, wantStart) || !slices.Equal(end, wantEnd) || crlf != wantCRLF {
			t.Fatalf("%.200q [%d:%d] after %v: lines\n%v\n%v\n%d\nwant\n%v\n%v\n%d", text, from, to, before, start, end, crlf, wantStart, wantEnd, wantCRLF)
		}
	}
}

// TestLines checks that Lines finds the lines texttest.PlainSplit finds, on random
// texts and on whole and partial ranges of them.
func TestLines(t *testing.T) {
	texts := []string{"", "\n", "\r\n", "\r", "a", "a\n", "a\r\n", "\n\n\n", "\r\n\r\n", "a\rb\n",
		strings.Repeat("a", 63) + "\n", strings.Repeat("a", 64) + "\n", strings.Repeat("a", 65) + "\r\nb",
		strings.Repeat("\n", 17), strings.Repeat("ab\r\n", 9), "\ufeffa\nb", strings.Repeat("x", 200),
		// More lines than the room first made for them (a line every 32
		// bytes), so that it grows as it fills.
		strings.Repeat("\n", 5000), strings.Repeat("a\n", 3000) + strings.Repeat("b", 999)}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		texts = append(texts, texttest.Random(rng))
	}
	for _, text := range texts {
		checkLines(t, text, 0, len(text))
		// A range that starts and ends a line, as a document that is
		// edited splits.
		if starts, _, _ := texttest.PlainSplit(text, 0, len(text)); len(starts) > 2 {
			a := rng.IntN(len(starts))
			b := a + rng.IntN(len(starts)-a)
			checkLines(t, text, starts[a], starts[b])
		}
	}
}

// FuzzLines holds Lines to texttest.PlainSplit on any text, whole and from the
// start of its second line on.
func FuzzLines(f *testing.F) {
	f.Add("a\r\nb\n\n" + strings.Repeat("x", 70) + "\nc")
	f.Fuzz(func(t *testing.T, text string) {
		from := 0
		if i := strings.IndexByte(text, '\n'); i >= 0 && i+1 < len(text) {
			from = i + 1
		}
		checkLines(t, text, 0, len(text))
		checkLines(t, text, from, len(text))
	})
}
