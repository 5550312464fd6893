package engine

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine/internal/textscan"
)

// The per-line passes over a file (splitting it into lines, the ends of
// its lines) are written for speed, a word at a time. These tests hold
// them to the plain versions below, one byte or one line at a time, on
// random texts with every feature that changes where a line is or what
// its ends are.

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

// plainEnds is what index.ends holds for line s, worked out a byte at a
// time: endsBlank for white space only, endsUnknown for a line with a
// byte beyond ASCII or a loose view of 0xffff bytes or more, and
// otherwise the first and last bytes of its loose view and its length.
func plainEnds(s string) uint32 {
	t := strings.Trim(s, " \t\r\v\f\n")
	if t == "" {
		return endsBlank
	}
	n := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= 0x80:
			return endsUnknown
		case !textscan.IsSpace(c):
			n++
		}
	}
	if n >= 0xffff {
		return endsUnknown
	}
	return uint32(t[0])<<24 | uint32(t[len(t)-1])<<16 | uint32(n)
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

// TestEndsAll checks the ends worked out for all the lines of a text at
// once against plainEnds, on random texts, some of whose lines have their
// ends known before, as the lines a change leaves alone do.
func TestEndsAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for k := range 1000 {
		text := randomText(rng)
		d := newDocument(text)
		ix := newIndex(d)
		if k%2 == 1 {
			for i := range ix.lineCount() {
				if rng.IntN(4) == 0 {
					ix.ends[i] = plainEnds(d.line(i))
					ix.endsSome = true
				}
			}
		}
		ix.endsAll()
		for i := range ix.lineCount() {
			if got, want := ix.ends[i], plainEnds(d.line(i)); got != want {
				t.Fatalf("text %d %.200q: line %d %.100q has ends %#x, want %#x", k, text, i, d.line(i), got, want)
			}
		}
	}
}

// TestEndsEveryByte checks the ends of a line with each byte value at
// each place of the words of the map: first, last or inside, the line
// starting anywhere in a word.
func TestEndsEveryByte(t *testing.T) {
	for c := range 256 {
		if c == '\n' {
			continue // it ends the line
		}
		for pos := range 70 {
			for _, lead := range []string{"", "\t", "   ", "\n\n\n\n\n"} {
				line := strings.Repeat("a", pos) + string(rune(0)) + strings.Repeat(" a", 3)
				line = line[:pos] + string([]byte{byte(c)}) + line[pos+1:]
				for _, l := range []string{line, line[pos:pos+1] + " ", " " + line[:pos+1]} {
					text := lead + l + "\nnext"
					ix := newIndex(newDocument(text))
					ix.endsAll()
					i := strings.Count(lead, "\n")
					if got, want := ix.ends[i], plainEnds(l); got != want {
						t.Fatalf("%q: line %q has ends %#x, want %#x", text, l, got, want)
					}
				}
			}
		}
	}
}

// TestEndsEveryLengthAndPlace checks the ends of lines of every length
// around the sizes the passes read a line's bits in (8 bytes, and a word
// of 64), starting at every place of a word of the map.
func TestEndsEveryLengthAndPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	pieces := []string{"a", "}", " ", "\t", "x := f(a)", "  "}
	for n := range 140 {
		for at := range 64 {
			line := ""
			for len(line) < n {
				line += randomPieces(rng, pieces, 1)
			}
			line = line[:n]
			text := strings.Repeat("b", at) + "\n" + line + "\n" + strings.Repeat("c", 70)
			ix := newIndex(newDocument(text))
			ix.endsAll()
			if got, want := ix.ends[1], plainEnds(line); got != want {
				t.Fatalf("line %q after %d bytes has ends %#x, want %#x", line, at+1, got, want)
			}
		}
	}
}

// TestEndsAreNotSentinels checks that lines whose ends, packed, are
// small numbers (NUL bytes first and last, one or two bytes long) are
// told from a blank line and a line to hash: blank or not, and as long,
// whether their ends are known or not.
func TestEndsAreNotSentinels(t *testing.T) {
	for _, line := range []string{"\x00", "\x00\x00", " \x00\x00\t", "\x00\x01\x00", "\x01"} {
		text := "a\n" + line + "\nb\n"
		cold := newIndex(newDocument(text))
		warm := newIndex(newDocument(text))
		warm.endsAll()
		if e := warm.ends[1]; e == endsBlank || e == endsUnknown || e == endsNotYet {
			t.Errorf("%q: the ends %#x are a sentinel", line, e)
		}
		if cold.blank(1) || warm.blank(1) || cold.lenOf(1) != warm.lenOf(1) {
			t.Errorf("%q: blank %v and %v, of length %d and %d; want not blank, of one length", line, cold.blank(1), warm.blank(1), cold.lenOf(1), warm.lenOf(1))
		}
	}
}

// TestNewIndexForgets checks that a new index knows nothing of any line,
// as forget leaves a line.
func TestNewIndexForgets(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 64, 1000, 4097} {
		d := newDocument(strings.Repeat("a\n", n))
		got := newIndex(d)
		want := &index{d: d, key: make([]uint64, n), keyed: make([]bool, n), ends: make([]uint32, n), n: make([]int32, n), sig: make([]uint64, n)}
		want.forget(0, n)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d lines: the new index is\n%+v\nwant\n%+v", n, got, want)
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

// BenchmarkEndsAll works out the ends of every line of a file of 3,000
// lines of code, as the first tally of a search against it does.
func BenchmarkEndsAll(b *testing.B) {
	d := newDocument(codeText(3000))
	b.SetBytes(int64(len(d.text)))
	for b.Loop() {
		ix := newIndex(d)
		ix.endsAll()
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
