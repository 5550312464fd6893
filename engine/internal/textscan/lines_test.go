package textscan

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// plainSplit is Lines with one strings.IndexByte call per line.
func plainSplit(text string, from, to int) (start, end []int, crlf int) {
	for at := from; at < to; {
		i := strings.IndexByte(text[at:to], '\n')
		if i < 0 {
			start = append(start, at)
			end = append(end, to)
			break
		}
		e := at + i
		if e > at && text[e-1] == '\r' {
			e--
			crlf++
		}
		start = append(start, at)
		end = append(end, e)
		at += i + 1
	}
	return start, end, crlf
}

// randomText returns a text of up to about 200 lines made of the pieces
// that matter to where a line is: line feeds, "\r\n" and lone "\r", a
// byte order mark, control bytes, white space of every kind, bytes beyond
// ASCII (valid or not), lines empty, short, longer than a word of bits.
func randomText(rng *rand.Rand) string {
	pieces := []string{"a", "}", "x := f(a)", "\t", " ", "  ", "\v", "\f", "\r", "\x00", "\x08", "\x0e", "\x1f", "\x7f", "!", "~",
		"\u00a0", "\u3000", "é", "\xff", "\x80", "\t\treturn err", "// ...", "\u201cq\u201d"}
	var b strings.Builder
	if rng.IntN(8) == 0 {
		b.WriteString("\ufeff")
	}
	eol := []string{"\n", "\r\n"}[rng.IntN(2)]
	lines := rng.IntN(200)
	if rng.IntN(16) == 0 {
		lines = 0
	}
	for range lines {
		switch r := rng.IntN(40); {
		case r < 5:
			b.WriteString(randomPieces(rng, pieces, 10+rng.IntN(300)))
		case r < 8:
			for range rng.IntN(20) {
				b.WriteByte(" \t\v\f\r"[rng.IntN(5)])
			}
		default:
			b.WriteString(randomPieces(rng, pieces, rng.IntN(12)))
		}
		switch rng.IntN(10) {
		case 0:
			b.WriteString([]string{"\n", "\r\n"}[rng.IntN(2)]) // mixed endings
		default:
			b.WriteString(eol)
		}
	}
	s := b.String()
	if rng.IntN(3) == 0 {
		s = strings.TrimRight(s, "\r\n") // no final newline
	}
	return s
}

// checkLines holds Lines of text[from:to] to plainSplit, appended to
// lines already there.
func checkLines(t *testing.T, text string, from, to int) {
	t.Helper()
	for _, before := range [][]int{nil, {7, 8}} {
		start, end, crlf := Lines(text, from, to, slices.Clone(before), slices.Clone(before))
		wantStart, wantEnd, wantCRLF := plainSplit(text, from, to)
		wantStart, wantEnd = append(slices.Clone(before), wantStart...), append(slices.Clone(before), wantEnd...)
		if !slices.Equal(start, wantStart) || !slices.Equal(end, wantEnd) || crlf != wantCRLF {
			t.Fatalf("%.200q [%d:%d] after %v: lines\n%v\n%v\n%d\nwant\n%v\n%v\n%d", text, from, to, before, start, end, crlf, wantStart, wantEnd, wantCRLF)
		}
	}
}

// TestLines checks that Lines finds the lines plainSplit finds, on random
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
		texts = append(texts, randomText(rng))
	}
	for _, text := range texts {
		checkLines(t, text, 0, len(text))
		// A range that starts and ends a line, as a document that is
		// edited splits.
		if starts, _, _ := plainSplit(text, 0, len(text)); len(starts) > 2 {
			a := rng.IntN(len(starts))
			b := a + rng.IntN(len(starts)-a)
			checkLines(t, text, starts[a], starts[b])
		}
	}
}

// FuzzLines holds Lines to plainSplit on any text, whole and from the
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
