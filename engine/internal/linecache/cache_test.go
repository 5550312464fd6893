package linecache

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine/internal/loose"
	"github.com/graft-editor/graft/engine/internal/textscan"
	"github.com/graft-editor/graft/engine/internal/texttest"
)

// newCache returns the cache of the lines of text.
func newCache(text string) *Cache {
	start, end, _ := textscan.Lines(text, 0, len(text), nil, nil)
	return New(text, start, end)
}

// plainEnds is what Ends holds for line s, worked out a byte at a time:
// EndsBlank for white space only, EndsUnknown for a line with a byte
// beyond ASCII or a loose view of 0xffff bytes or more, and otherwise the
// first and last bytes of its loose view and its length.
func plainEnds(s string) uint32 {
	t := strings.Trim(s, " \t\r\v\f\n")
	if t == "" {
		return EndsBlank
	}
	n := 0
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= 0x80:
			return EndsUnknown
		case !textscan.IsSpace(c):
			n++
		}
	}
	if n >= 0xffff {
		return EndsUnknown
	}
	return uint32(t[0])<<24 | uint32(t[len(t)-1])<<16 | uint32(n)
}

// TestEndsAll checks the ends worked out for all the lines of a text at
// once against plainEnds, on random texts, some of whose lines have their
// ends known before, as the lines an edit leaves alone do.
func TestEndsAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for k := range 1000 {
		text := texttest.Random(rng)
		c := newCache(text)
		if k%2 == 1 {
			for i := range c.Lines() {
				if rng.IntN(4) == 0 {
					c.ends[i] = plainEnds(c.Line(i))
					c.endsSome = true
				}
			}
		}
		ends := c.Ends()
		for i := range c.Lines() {
			if got, want := ends[i], plainEnds(c.Line(i)); got != want {
				t.Fatalf("text %d %.200q: line %d %.100q has ends %#x, want %#x", k, text, i, c.Line(i), got, want)
			}
			if got := c.KnownEnds(i); got != ends[i] {
				t.Fatalf("text %d: line %d has known ends %#x, want %#x", k, i, got, ends[i])
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
					i := strings.Count(lead, "\n")
					if got, want := newCache(text).Ends()[i], plainEnds(l); got != want {
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
				line += texttest.Pieces(rng, pieces, 1)
			}
			line = line[:n]
			text := strings.Repeat("b", at) + "\n" + line + "\n" + strings.Repeat("c", 70)
			if got, want := newCache(text).Ends()[1], plainEnds(line); got != want {
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
		cold := newCache(text)
		warm := newCache(text)
		if e := warm.Ends()[1]; e == EndsBlank || e == EndsUnknown || e == EndsNotYet {
			t.Errorf("%q: the ends %#x are a sentinel", line, e)
		}
		if cold.Blank(1) || warm.Blank(1) || cold.ViewLen(1) != warm.ViewLen(1) {
			t.Errorf("%q: blank %v and %v, of length %d and %d; want not blank, of one length", line, cold.Blank(1), warm.Blank(1), cold.ViewLen(1), warm.ViewLen(1))
		}
	}
}

// TestNewKnowsNothing checks that a new cache knows nothing of any line:
// none measured (-1), hashed or with its ends looked at (EndsNotYet), as
// Edited leaves the lines an edit wrote.
func TestNewKnowsNothing(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 7, 64, 1000, 4097} {
		text := strings.Repeat("a\n", n)
		got := newCache(text)
		want := &Cache{text: text, start: got.start, end: got.end, key: make([]uint64, n), keyed: make([]bool, n), ends: make([]uint32, n), n: make([]int32, n), sig: make([]uint64, n)}
		for i := range n {
			want.n[i], want.ends[i] = -1, EndsNotYet
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d lines: the new cache is\n%+v\nwant\n%+v", n, got, want)
		}
	}
}

// TestLinesAsLooseSays checks what a cache says of each line against
// package loose, on random texts, whatever is asked first: a line's key,
// its measure, its view, whether it is blank, with the ends of every line
// worked out before or not.
func TestLinesAsLooseSays(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for k := range 300 {
		text := texttest.Random(rng)
		c := newCache(text)
		if k%2 == 1 {
			c.Ends()
		}
		for i := range c.Lines() {
			line := c.Line(i)
			key, n, sig := loose.Key(line)
			var gotKey uint64
			var gotN int
			var gotSig uint64
			switch rng.IntN(4) {
			case 0:
				gotKey = c.Key(i)
				gotN, gotSig = c.Measure(i)
			case 1:
				gotN, gotSig = c.Measure(i)
				gotKey = c.Key(i)
			case 2:
				gotN = c.PeekViewLen(i)
				gotKey = c.Key(i)
				_, gotSig = c.Measure(i)
			default:
				if b := c.Blank(i); b != (n == 0) {
					t.Fatalf("text %d line %d %.100q: blank %v, want %v", k, i, line, b, n == 0)
				}
				var blank bool
				if gotKey, blank = c.KeyOrBlank(i); blank {
					gotKey = key
				}
				gotN, gotSig = c.ViewLen(i), sig
				if gotN > 0 {
					_, gotSig = c.Measure(i)
				}
			}
			if gotKey != key || gotN != n || gotSig != sig {
				t.Fatalf("text %d line %d %.100q: key, length, signature %x %d %x, want %x %d %x", k, i, line, gotKey, gotN, gotSig, key, n, sig)
			}
			if v := c.View(i); v != loose.View(line) {
				t.Fatalf("text %d line %d %.100q: view %q, want %q", k, i, line, v, loose.View(line))
			}
		}
		if keys := c.AllKeys(); len(keys) != c.Lines() {
			t.Fatalf("text %d: %d keys for %d lines", k, len(keys), c.Lines())
		}
	}
}

// TestEditedCarriesOver checks the cache of an edited text against a new
// cache of that text, after lines of the old one were hashed, measured,
// viewed and their ends worked out: every line, carried over or not, is
// what a new cache says it is.
func TestEditedCarriesOver(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	join := func(lines []string) (string, []int, []int) {
		text := strings.Join(lines, "\n") + "\n"
		start, end, _ := textscan.Lines(text, 0, len(text), nil, nil)
		return text, start, end
	}
	for k := range 500 {
		old := strings.Split(strings.ReplaceAll(texttest.Random(rng), "\r\n", "\n"), "\n")
		text, start, end := join(old)
		c := New(text, start, end)
		for i := range c.Lines() {
			switch rng.IntN(5) {
			case 0:
				c.Key(i)
			case 1:
				c.Measure(i)
			case 2:
				c.View(i)
			}
		}
		if rng.IntN(2) == 0 {
			c.Ends()
		}
		// Lines [a, b) of the old text replaced by new ones.
		a := rng.IntN(len(old) + 1)
		b := a + rng.IntN(len(old)-a+1)
		mid := make([]string, rng.IntN(4))
		for j := range mid {
			mid[j] = texttest.Pieces(rng, []string{"a", " ", "\t", "é", "}", "x := f(a)"}, rng.IntN(6))
		}
		lines := append(append(append([]string{}, old[:a]...), mid...), old[b:]...)
		text, start, end = join(lines)
		got := c.Edited(text, start, end, a, b, len(mid))
		want := New(text, start, end)
		if rng.IntN(2) == 0 {
			got.Ends()
		}
		for i := range want.Lines() {
			if got.Key(i) != want.Key(i) || got.ViewLen(i) != want.ViewLen(i) || got.View(i) != want.View(i) || got.Blank(i) != want.Blank(i) {
				t.Fatalf("case %d: line %d %q of the edited text reads %x %d %q, want %x %d %q", k, i, want.Line(i), got.Key(i), got.ViewLen(i), got.View(i), want.Key(i), want.ViewLen(i), want.View(i))
			}
		}
		if !reflect.DeepEqual(got.Ends(), want.Ends()) {
			t.Fatalf("case %d: the ends of the edited text differ from a new cache's", k)
		}
	}
}

// BenchmarkEndsAll works out the ends of every line of a file of 3,000
// lines of code, as the first tally of a search against it does.
func BenchmarkEndsAll(b *testing.B) {
	text := texttest.Code(3000)
	start, end, _ := textscan.Lines(text, 0, len(text), nil, nil)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		New(text, start, end).Ends()
	}
}
