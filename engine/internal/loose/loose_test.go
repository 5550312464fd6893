package loose

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine/internal/texttest"
)

func TestKeyIgnoresWhiteSpaceAndFoldsPunctuation(t *testing.T) {
	same := [][2]string{
		{"\tx := f(a, b)", "x:=f(a,b)"},
		{`print(“hi”)`, `print("hi")`},
		{"a – b", "a-b"},
		{"a\u00a0b", "ab"},
		{"x…", "x..."},
	}
	for _, p := range same {
		k1, n1, s1 := Key(p[0])
		k2, n2, s2 := Key(p[1])
		if k1 != k2 || n1 != n2 || s1 != s2 {
			t.Errorf("Key(%q) != Key(%q)", p[0], p[1])
		}
		if View(p[0]) != View(p[1]) {
			t.Errorf("View(%q) = %q, View(%q) = %q", p[0], View(p[0]), p[1], View(p[1]))
		}
	}
	if k1, _, _ := Key("return a"); k1 == func() uint64 { k, _, _ := Key("return b"); return k }() {
		t.Error("different code has the same key")
	}
}

// TestViewsAgree checks that every way to the loose view of a line says
// the same as View, on lines of ASCII and beyond it (white space and
// punctuation that fold, after ASCII or before it, and bytes that are not
// UTF-8): the view AppendView writes after another, Map's view, the key
// of ViewKey, and the length of Len.
func TestViewsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{" ", "\t", "a", "{", "\u00a0", "\u201c", "é", "\u2026", "\u3000", "x y", "\xff", "\xe2\x80", "abcdefgh", "\r\n"}
	for range 5000 {
		s := texttest.Pieces(r, pieces, r.IntN(12))
		v := View(s)
		if got := string(AppendView([]byte("ab"), s)); got != "ab"+v {
			t.Fatalf("AppendView(\"ab\", %q) = %q, want %q", s, got, "ab"+v)
		}
		if got, src := Map(s); got != v || len(src) != len(v) {
			t.Fatalf("Map(%q) = %q with %d offsets, want %q", s, got, len(src), v)
		}
		k, n, sig := Key(s)
		if vk, vsig := ViewKey(v); vk != k || vsig != sig || n != len(v) {
			t.Fatalf("%q: ViewKey of %q is %x %x, length %d; want Key's %x %x %d", s, v, vk, vsig, len(v), k, sig, n)
		}
		if got := Len(s); got != n {
			t.Fatalf("Len(%q) = %d, want %d", s, got, n)
		}
	}
}

// TestMapOffsets checks that Map gives each byte of the view the offset
// of the rune it came from.
func TestMapOffsets(t *testing.T) {
	v, src := Map(" a\u201cb\u2026 c")
	want := []int32{1, 2, 5, 6, 6, 6, 10}
	if v != `a"b...c` || len(src) != len(want) {
		t.Fatalf("Map = %q, %v", v, src)
	}
	for i := range want {
		if src[i] != want[i] {
			t.Fatalf("Map offsets %v, want %v", src, want)
		}
	}
}

// TestViewASCIIMatchesRunes checks the ASCII path of View against the
// rune by rune one on lines with every kind of ASCII white space.
func TestViewASCIIMatchesRunes(t *testing.T) {
	for _, s := range []string{
		"", " ", "\t\t", "x", "a b", "  if err != nil {", "\tx :=\vy\f\r", "a  b\t\tc ", "no-space",
		"trailing \t", " leading", "\x00\x7f ~",
	} {
		if got, want := View(s), viewRunes(s); got != want {
			t.Errorf("View(%q) = %q, want %q", s, got, want)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := strings.Split(" \t\v\f\r\nab{}", "")
	for range 2000 {
		// Up to five words of eight bytes: View reads ASCII a word at a
		// time.
		s := texttest.Pieces(r, alphabet, r.IntN(40))
		if got, want := View(s), viewRunes(s); got != want {
			t.Fatalf("View(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestASCIILen checks the length of the loose view counted eight bytes at
// a time, and the signature of a line of ASCII, against Key's, on every
// ASCII byte in every position of a word, and that a byte beyond ASCII is
// told.
func TestASCIILen(t *testing.T) {
	check := func(s string) {
		t.Helper()
		n, ok := ASCIILen(s)
		_, want, sig := Key(s)
		if !ok || n != want {
			t.Fatalf("ASCIILen(%q) = %d, %v, want %d", s, n, ok, want)
		}
		if got := ASCIISig(s); got != sig {
			t.Fatalf("ASCIISig(%q) = %#x, want %#x", s, got, sig)
		}
	}
	for c := range 256 {
		for pos := range 20 {
			s := []byte(strings.Repeat("a", 19))
			s = append(s[:pos], append([]byte{byte(c)}, s[pos:]...)...)
			if c >= 0x80 {
				if _, ok := ASCIILen(string(s)); ok {
					t.Fatalf("ASCIILen(%q) is ok: it has a byte beyond ASCII", s)
				}
				continue
			}
			check(string(s))
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := strings.Split("a \t\r\v\f\x01\x1f!~", "")
	for range 5000 {
		check(texttest.Pieces(rng, alphabet, rng.IntN(41)))
	}
}

// TestASCIIEquals checks ASCIIEquals, which compares a line of ASCII with
// a loose view without hashing the line, against comparing the line's
// loose view.
func TestASCIIEquals(t *testing.T) {
	tests := []struct {
		s, v string
		want bool
	}{
		{"\tx := f(a)", "x:=f(a)", true},
		{"x:=f(a) \t", "x:=f(a)", true},
		{"x := f(a)", "x:=f(b)", false},
		{"x := f(a)", "x:=f(a)b", false},
		{"x := f(a) b", "x:=f(a)", false},
		{" \t ", "", true},
		{"", "x", false},
	}
	for _, tc := range tests {
		if got := ASCIIEquals(tc.s, tc.v); got != tc.want {
			t.Errorf("ASCIIEquals(%q, %q) = %v, want %v", tc.s, tc.v, got, tc.want)
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	pieces := []string{"a", "b", " ", "\t", "\v", "(", ")", "\r"}
	for k := range 5000 {
		// Half the views are of s with white space moved about, so that
		// about half the pairs are equal.
		s, v := texttest.Pieces(rng, pieces, rng.IntN(8)), View(texttest.Pieces(rng, pieces, rng.IntN(6)))
		if k%2 == 0 {
			v = View(s + texttest.Pieces(rng, []string{" ", "\t", "", "a"}, 1))
		}
		if got, want := ASCIIEquals(s, v), View(s) == v; got != want {
			t.Fatalf("ASCIIEquals(%q, %q) = %v, want %v", s, v, got, want)
		}
	}
}
