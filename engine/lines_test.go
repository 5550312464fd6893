package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// A document's lines are split a word at a time (see package textscan,
// which holds Lines to plainSplit itself). These tests hold a document's
// lines, and what it says of their endings, to the plain version below,
// one line at a time, on random texts with every feature that changes
// where a line is.

// plainSplit is textscan.Lines with one strings.IndexByte call per line.
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
// that matter to the line passes: line feeds, "\r\n" and lone "\r", a
// byte order mark, control bytes, white space of every kind, bytes beyond
// ASCII (valid or not), lines empty, short, longer than a word scan
// goes, and now and then one of more than 0xffff bytes.
func randomText(rng *rand.Rand) string {
	pieces := []string{"a", "}", "x := f(a)", "\t", " ", "  ", "\v", "\f", "\r", "\x00", "\x08", "\x0e", "\x1f", "\x7f", "!", "~",
		"\u00a0", "\u3000", "é", "\xff", "\x80", "\t\treturn err", "// ...", "\u201cq\u201d"}
	var b strings.Builder
	if rng.IntN(8) == 0 {
		b.WriteString(bom)
	}
	eol := []string{"\n", "\r\n"}[rng.IntN(2)]
	lines := rng.IntN(200)
	if rng.IntN(16) == 0 {
		lines = 0
	}
	huge := rng.IntN(8) == 0 // one line of about 0xffff bytes not white space
	for range lines {
		switch r := rng.IntN(40); {
		case huge && r < 2:
			huge = false
			if r == 0 {
				b.WriteString(strings.Repeat("x ", 0x8000+rng.IntN(4)-2))
			} else {
				b.WriteString(strings.Repeat("y", 0xfffd+rng.IntN(4)))
			}
		case r < 5:
			b.WriteString(randomPieces(rng, pieces, 10+rng.IntN(300)))
		case r < 8:
			// white space only
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

// TestNewDocumentLines checks a document's lines and what it says of
// their endings against plainSplit's lines of the text after its byte
// order mark.
func TestNewDocumentLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for k := range 2000 {
		text := randomText(rng)
		d := newDocument(text)
		body := strings.TrimPrefix(text, bom)
		start, end, crlf := plainSplit(text, len(text)-len(body), len(text))
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
	text := codeText(3000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		newDocument(text)
	}
}

// randomPieces returns n of pieces, picked at random by rng, one after
// another.
func randomPieces(rng *rand.Rand, pieces []string, n int) string {
	return strings.Join(randomItems(rng, pieces, n), "")
}

// randomItems returns n of items, picked at random by rng.
func randomItems(rng *rand.Rand, items []string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = items[rng.IntN(len(items))]
	}
	return out
}

// codeText returns n lines that look like Go code: indented, of varied
// length, some blank.
func codeText(n int) string {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"if", "err", "!=", "nil", "{", "}", "return", "x", ":=", "f(a,", "b)", "fmt.Errorf(\"load %q: %w\",", "key,", "err)", "for", "range", "v.Name"}
	var b strings.Builder
	for range n {
		if rng.IntN(8) == 0 {
			b.WriteString("\n")
			continue
		}
		b.WriteString(strings.Repeat("\t", rng.IntN(4)))
		for k := range 1 + rng.IntN(6) {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		b.WriteString("\n")
	}
	return b.String()
}
