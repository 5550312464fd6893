package editdist

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// reference is the textbook O(len(a)·len(b)) dynamic program, against
// which the bit-parallel code is checked.
func reference(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// sized returns a string of n bytes cycling through "abcdefg", with
// different first and last bytes than other strings built by sized, so
// that trimming common ends does not hide the length.
func sized(n int) string {
	var s strings.Builder
	for i := range n {
		s.WriteByte("abcdefg"[i%7])
	}
	return s.String()
}

// mutate returns s with its byte at i replaced by c.
func mutate(s string, i int, c byte) string {
	return s[:i] + string(c) + s[i+1:]
}

func TestDistance(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want int
	}{
		{"both empty", "", "", 0},
		{"first empty", "", "abc", 3},
		{"second empty", "abc", "", 3},
		{"equal", "func main() {", "func main() {", 0},
		{"one substitution", "kitten", "sitten", 1},
		{"one insertion", "kitten", "kittens", 1},
		{"one deletion", "kitten", "itten", 1},
		{"classic", "kitten", "sitting", 3},
		{"transposition counts twice", "ab", "ba", 2},
		{"transposition inside", "return x+y", "return y+x", 2},
		{"disjoint", "abc", "xyz", 3},
		{"two-byte rune against one byte", "héllo", "hello", 2},
		{"added three-byte rune", "日本", "日本語", 3},
		{"runes sharing a lead byte", "é", "è", 1},
		{"invalid UTF-8", "\xff\xfe", "\xfe\xff", 2},
		{"whitespace matters", "a  b", "a b", 1},
		{"63 against empty", sized(63), "", 63},
		{"64 against empty", sized(64), "", 64},
		{"65 against empty", sized(65), "", 65},
		{"63 changed at both ends", sized(63), mutate(mutate(sized(63), 0, 'x'), 62, 'y'), 2},
		{"64 changed at both ends", sized(64), mutate(mutate(sized(64), 0, 'x'), 63, 'y'), 2},
		{"65 changed at both ends", sized(65), mutate(mutate(sized(65), 0, 'x'), 64, 'y'), 2},
		{"127 changed at both ends", sized(127), mutate(mutate(sized(127), 0, 'x'), 126, 'y'), 2},
		{"128 changed at both ends", sized(128), mutate(mutate(sized(128), 0, 'x'), 127, 'y'), 2},
		{"129 changed at both ends", sized(129), mutate(mutate(sized(129), 0, 'x'), 128, 'y'), 2},
		{"64 against 65", mutate(sized(64), 0, 'x'), sized(64) + "y", 2},
		{"128 against 129", mutate(sized(128), 0, 'x'), sized(128) + "y", 2},
		{"129 rotated by one", sized(129), sized(130)[1:], 2},
		{"129 against 129 unlike", strings.Repeat("a", 129), strings.Repeat("b", 129), 129},
		{"64 against 64 unlike", strings.Repeat("a", 64), strings.Repeat("b", 64), 64},
		{"65 against 129 unlike", strings.Repeat("a", 65), strings.Repeat("b", 129), 129},
		{"128 against 1", strings.Repeat("a", 128), "b", 128},
		{"128 against 1 inside", strings.Repeat("a", 128), "a", 127},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Distance(tt.a, tt.b); got != tt.want {
				t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
			if got := Distance(tt.b, tt.a); got != tt.want {
				t.Errorf("Distance(%q, %q) = %d, want %d", tt.b, tt.a, got, tt.want)
			}
			if got := reference(tt.a, tt.b); got != tt.want {
				t.Fatalf("the table is wrong: reference(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

// randomPair returns two strings over a small alphabet, so that they share
// many bytes: either independent, or the second an edited copy of the first
// (with small distances, as between a model's line and a file's).
func randomPair(r *rand.Rand, maxLen int) (a, b string) {
	const alphabet = "abcd"
	word := func(n int) []byte {
		s := make([]byte, n)
		for i := range s {
			s[i] = alphabet[r.IntN(len(alphabet))]
		}
		return s
	}
	x := word(r.IntN(maxLen + 1))
	if r.IntN(3) == 0 {
		return string(x), string(word(r.IntN(maxLen + 1)))
	}
	y := append([]byte(nil), x...)
	for range r.IntN(len(x)/8 + 3) {
		i := r.IntN(len(y) + 1)
		switch c := alphabet[r.IntN(len(alphabet))]; r.IntN(3) {
		case 0:
			y = append(y[:i], append([]byte{c}, y[i:]...)...)
		case 1:
			if i < len(y) {
				y = append(y[:i], y[i+1:]...)
			}
		default:
			if i < len(y) {
				y[i] = c
			}
		}
	}
	return string(x), string(y)
}

func TestCommonEnds(t *testing.T) {
	for _, tt := range []struct {
		a, b     string
		pre, suf int
	}{
		{"", "", 0, 0},
		{"abc", "abc", 3, 0},
		{"abXcd", "abYcd", 2, 2},
		{"abcd", "xyz", 0, 0},
		// The suffix is taken from what follows the prefix: the ends do
		// not overlap.
		{"aa", "aaa", 2, 0},
		{"abca", "abcbca", 3, 1},
	} {
		if pre, suf := CommonEnds(tt.a, tt.b); pre != tt.pre || suf != tt.suf {
			t.Errorf("CommonEnds(%q, %q) = %d, %d; want %d, %d", tt.a, tt.b, pre, suf, tt.pre, tt.suf)
		}
	}
}

func TestDistanceMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, maxLen := range []int{8, 70, 140, 300, 1500} {
		for range 3000 * 8 / maxLen {
			a, b := randomPair(r, maxLen)
			want := reference(a, b)
			if got := Distance(a, b); got != want {
				t.Fatalf("Distance(%q, %q) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// TestCoreMatchesReference checks the bit-parallel code on strings whose
// common ends have not been trimmed, with bounds narrow and wide.
func TestCoreMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, maxLen := range []int{8, 70, 140, 300, 1500} {
		for range 3000 * 8 / maxLen {
			p, s := randomPair(r, maxLen)
			if len(p) > len(s) {
				p, s = s, p
			}
			want := reference(p, s)
			for _, limit := range []int{len(s) - len(p), want - 1, want, want + 1, want + 64, len(s)} {
				if limit < len(s)-len(p) {
					continue
				}
				got := bounded(p, s, limit)
				if want <= limit && got != want || want > limit && got <= limit {
					t.Fatalf("bounded(%q, %q, %d) = %d, but the distance is %d", p, s, limit, got, want)
				}
			}
		}
	}
}

func TestBounded(t *testing.T) {
	tests := []struct {
		a, b string
		max  int
		want int // -1: any value greater than max
	}{
		{"", "", 0, 0},
		{"abc", "abc", 0, 0},
		{"abc", "abd", 0, -1},
		{"abc", "abd", 1, 1},
		{"kitten", "sitting", 2, -1},
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 100, 3},
		{"a", "abcdef", 4, -1},
		{"a", "abcdef", 5, 5},
		{"abc", "abd", -1, -1},
		{"kitten", "sitting", math.MaxInt, 3},
		{sized(200), mutate(sized(200), 100, 'x'), math.MaxInt, 1},
		{sized(200), mutate(mutate(sized(200), 0, 'x'), 199, 'y'), 1, -1},
		{sized(200), mutate(mutate(sized(200), 0, 'x'), 199, 'y'), 2, 2},
		{mutate(sized(200), 0, 'x'), sized(200) + "y", 1, -1},
		{mutate(sized(200), 0, 'x'), sized(200) + "y", 2, 2},
		{strings.Repeat("a", 500), strings.Repeat("b", 500), 3, -1},
	}
	for _, tt := range tests {
		got := Bounded(tt.a, tt.b, tt.max)
		if tt.want < 0 && got <= tt.max || tt.want >= 0 && got != tt.want {
			want := fmt.Sprint(tt.want)
			if tt.want < 0 {
				want = fmt.Sprintf("> %d", tt.max)
			}
			t.Errorf("Bounded(%q, %q, %d) = %d, want %s", tt.a, tt.b, tt.max, got, want)
		}
	}
}

func TestBoundedContract(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, maxLen := range []int{8, 70, 140, 300, 1500} {
		for range 3000 * 8 / maxLen {
			a, b := randomPair(r, maxLen)
			d := reference(a, b)
			for _, max := range []int{0, 1, 2, d - 2, d - 1, d, d + 1, r.IntN(maxLen + 1)} {
				if miss := boundMiss(Bounded(a, b, max), d, max); miss != "" {
					t.Fatalf("Bounded(%q, %q, %d) %s", a, b, max, miss)
				}
			}
		}
	}
}

// boundMiss says how got, what a function returned for a value want
// under the bound max, breaks the contract of Bounded (want itself when it
// is at most max, and otherwise some value greater than max), or "" when
// it keeps it.
func boundMiss(got, want, max int) string {
	switch {
	case want <= max && got != want:
		return fmt.Sprintf("= %d, want %d", got, want)
	case want > max && got <= max:
		return fmt.Sprintf("= %d, want more than %d (exactly %d)", got, max, want)
	}
	return ""
}

func TestSimilarity(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"", "", 1},
		{"abc", "abc", 1},
		{"", "abcd", 0},
		{"abcd", "xyzw", 0},
		{"abcd", "abce", 0.75},
		{"abcd", "abcdefgh", 0.5},
		{"abcdefgh", "abcdefgX", 0.875},
	}
	for _, tt := range tests {
		if got := Similarity(tt.a, tt.b); got != tt.want {
			t.Errorf("Similarity(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestAtLeast(t *testing.T) {
	tests := []struct {
		a, b   string
		min    float64
		want   float64
		wantOK bool
	}{
		{"", "", 1, 1, true},
		{"abcd", "abce", 0.75, 0.75, true},
		{"abcd", "abce", 0.76, 0, false},
		{"abcd", "abce", 1, 0, false},
		{"abcd", "abcd", 1, 1, true},
		{"abcd", "xyzw", 0, 0, true},
		{"abcd", "xyzw", -1, 0, true},
		{"abcd", "abcd", 1.5, 0, false},
		{"abcdefgh", "Xbcdefgh", 0.875, 0.875, true},
		{"abcdefgh", "Xbcdefgh", 0.876, 0, false},
		{"ab", "ba", 0.1, 0, false},
		// 0.7 and 0.3 are not exact in binary: 1-0.3 and 0.7 differ.
		{"abcdefghij", "abcdefgXYZ", 0.7, 0.7, true},
		{"abcdefghij", "abcdefgXYZ", 1 - 0.3, 0.7, true},
	}
	for _, tt := range tests {
		got, ok := AtLeast(tt.a, tt.b, tt.min)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("AtLeast(%q, %q, %v) = %v, %v, want %v, %v", tt.a, tt.b, tt.min, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestAtLeastAgreesWithSimilarity(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		a, b := randomPair(r, 150)
		s := Similarity(a, b)
		for _, min := range []float64{0, 0.5, 0.8, 0.9, s, s + 1e-12, s - 1e-12, r.Float64()} {
			got, ok := AtLeast(a, b, min)
			if wantOK := s >= min; ok != wantOK || ok && got != s {
				t.Fatalf("AtLeast(%q, %q, %v) = %v, %v, but the similarity is %v", a, b, min, got, ok, s)
			}
		}
	}
}

func FuzzDistance(f *testing.F) {
	f.Add("kitten", "sitting", 2)
	f.Add("", "abc", 0)
	f.Add(sized(65), "x"+sized(66), 3)
	f.Add(sized(129), sized(200)[3:], 70)
	f.Fuzz(func(t *testing.T, a, b string, max int) {
		if len(a) > 4096 || len(b) > 4096 {
			t.Skip("the reference is quadratic")
		}
		want := reference(a, b)
		if got := Distance(a, b); got != want {
			t.Fatalf("Distance(%q, %q) = %d, want %d", a, b, got, want)
		}
		got := Bounded(a, b, max)
		if want <= max && got != want || want > max && got <= max {
			t.Fatalf("Bounded(%q, %q, %d) = %d, but the distance is %d", a, b, max, got, want)
		}
		got = NewPattern(a).Bounded(b, max)
		if want <= max && got != want || want > max && got <= max {
			t.Fatalf("NewPattern(%q).Bounded(%q, %d) = %d, but the distance is %d", a, b, max, got, want)
		}
	})
}

// benchPair returns a line of n bytes of code-like text and a copy with
// about one edit per 20 bytes, the first and last bytes among them, so that
// trimming common ends does not shorten the work.
func benchPair(n int) (a, b string) {
	r := rand.New(rand.NewPCG(9, 10))
	const alphabet = "abcdefghijklmnopqrstuvwxyz_(){}.,:= \t0123456789"
	x := make([]byte, n)
	for i := range x {
		x[i] = alphabet[r.IntN(len(alphabet))]
	}
	y := append([]byte(nil), x...)
	for i := 0; i < len(y); i += 1 + r.IntN(40) {
		y[i] = alphabet[r.IntN(len(alphabet))]
	}
	y[0], y[len(y)-1] = '#', '#'
	return string(x), string(y)
}

func BenchmarkDistance(b *testing.B) {
	for _, n := range []int{40, 200, 20000} {
		x, y := benchPair(n)
		b.Run(fmt.Sprintf("%dB", n), func(b *testing.B) {
			for b.Loop() {
				Distance(x, y)
			}
		})
	}
}

func BenchmarkBounded(b *testing.B) {
	for _, tt := range []struct{ n, max int }{{40, 4}, {200, 20}, {20000, 2000}, {20000, 100}} {
		x, y := benchPair(tt.n)
		b.Run(fmt.Sprintf("%dB/max%d", tt.n, tt.max), func(b *testing.B) {
			for b.Loop() {
				Bounded(x, y, tt.max)
			}
		})
	}
}

func BenchmarkAtLeast(b *testing.B) {
	x, y := benchPair(40)
	for b.Loop() {
		AtLeast(x, y, 0.8)
	}
}

// TestPatternBounded checks that a prepared pattern answers as Bounded
// does: the distance when it is within the bound, more than the bound
// otherwise, with the pattern the shorter string or the longer, whether
// it is new or a pattern of another string Reset for this one.
func TestPatternBounded(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var reused Pattern
	for range 20000 {
		a, b := randomPair(r, 80)
		if r.IntN(2) == 0 {
			a, b = b, a
		}
		max := r.IntN(len(a)+len(b)+2) - 1
		want := reference(a, b)
		pt := NewPattern(a)
		if r.IntN(2) == 0 {
			reused.Reset(a)
			pt = &reused
		}
		if miss := boundMiss(pt.Bounded(b, max), want, max); miss != "" {
			t.Fatalf("NewPattern(%q).Bounded(%q, %d) %s", a, b, max, miss)
		}
	}
}

// withSpaces returns s with spaces and tabs scattered in it, by r.
func withSpaces(r *rand.Rand, s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		for r.IntN(4) == 0 {
			b.WriteByte(" \t"[r.IntN(2)])
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// TestPatternBoundedSkipping checks BoundedSkipping against Bounded on
// the text with its skipped bytes taken out, for texts with skipped bytes
// scattered in them, and that it gives up on a byte of class Abort.
func TestPatternBoundedSkipping(t *testing.T) {
	var class [256]byte
	class[' '], class['\t'] = Skip, Skip
	class['!'] = Abort
	r := rand.New(rand.NewPCG(13, 14))
	for range 20000 {
		a, b := randomPair(r, 70)
		if len(a) == 0 || len(a) > 64 {
			continue
		}
		spaced := withSpaces(r, b)
		max := r.IntN(len(a)+len(b)+2) - 1
		want := reference(a, b)
		got, ok := NewPattern(a).BoundedSkipping(spaced, len(b), &class, max)
		switch {
		case len(b) == 0 && ok:
			t.Fatalf("BoundedSkipping(%q) of an empty text is ok; want a fallback", spaced)
		case len(b) == 0:
		case !ok:
			t.Fatalf("NewPattern(%q).BoundedSkipping(%q, %d) gave up", a, spaced, max)
		default:
			if miss := boundMiss(got, want, max); miss != "" {
				t.Fatalf("NewPattern(%q).BoundedSkipping(%q, %d) %s", a, spaced, max, miss)
			}
		}
		if _, ok := NewPattern(a).BoundedSkipping(spaced+"!", len(b), &class, len(a)+len(b)); ok && len(b) > 0 {
			t.Fatalf("BoundedSkipping(%q) did not give up on the Abort byte", spaced+"!")
		}
	}
}

// TestPatternBoundedSkippingCutOff checks BoundedSkipping at every bound
// from 0 to past the distance, for pairs of code-like lines that are
// mostly unlike each other, where it stops early: below the distance it
// must say more than the bound, from the distance on the distance itself.
func TestPatternBoundedSkippingCutOff(t *testing.T) {
	var class [256]byte
	class[' '], class['\t'] = Skip, Skip
	r := rand.New(rand.NewPCG(19, 20))
	const alphabet = "abcdefghijklmnoprstu_(){}.,:=\"0123456789"
	for range 3000 {
		a := randomWord(r, alphabet, 1+r.IntN(64))
		b := randomWord(r, alphabet+" \t", 1+r.IntN(80))
		if r.IntN(2) == 0 {
			// Half of b from a: a distance nearer the bounds tried.
			cut := r.IntN(len(a) + 1)
			b = a[:cut] + b[min(cut, len(b)):]
		}
		kept := strings.NewReplacer(" ", "", "\t", "").Replace(b)
		if kept == "" {
			continue
		}
		want := reference(a, kept)
		pt := NewPattern(a)
		for max := 0; max <= want+2; max++ {
			got, ok := pt.BoundedSkipping(b, len(kept), &class, max)
			if !ok {
				t.Fatalf("NewPattern(%q).BoundedSkipping(%q, %d) gave up", a, b, max)
			}
			if miss := boundMiss(got, want, max); miss != "" {
				t.Fatalf("NewPattern(%q).BoundedSkipping(%q, %d) %s", a, b, max, miss)
			}
		}
	}
}

// lcsReference is the length of the longest common subsequence of a and
// b, by the textbook table.
func lcsReference(a, b string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			default:
				cur[j] = max(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// TestLCSBound checks LCSBound against the longest common subsequence of
// the pattern and the text with its skipped bytes taken out: the bound
// itself when it is at most max, and otherwise some value greater; and
// that it never exceeds the distance.
func TestLCSBound(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	const alphabet = "abcdefghijklmnoprstu_(){}.,:=\"0123456789"
	var peq [256]uint64
	for k := range 30000 {
		var a, b string
		if k%2 == 0 {
			a, b = randomPair(r, 70)
		} else {
			// Code-like lines, mostly unlike each other, where the bound
			// stops early.
			a = randomWord(r, alphabet, 1+r.IntN(64))
			b = randomWord(r, alphabet, r.IntN(80))
		}
		if !NewPattern(a).Masks(&peq) {
			if len(a) > 0 && len(a) <= 64 {
				t.Fatalf("NewPattern(%q).Masks failed", a)
			}
			continue
		}
		// White space, which a does not have, in b but not counted.
		spaced := withSpaces(r, b)
		want := max(len(a), len(b)) - lcsReference(a, b)
		if dist := reference(a, b); want > dist {
			t.Fatalf("the bound of %q and %q is %d, above their distance %d", a, b, want, dist)
		}
		bound := r.IntN(len(a)+len(b)+2) - 1
		if miss := boundMiss(LCSBound(&peq, len(a), spaced, len(b), bound), want, bound); miss != "" {
			t.Fatalf("LCSBound(%q, %q, %d) %s", a, spaced, bound, miss)
		}
	}
}
