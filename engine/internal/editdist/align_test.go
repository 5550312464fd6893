package editdist

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestAlign(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		want []int
	}{
		{"both empty", "", "", []int{0}},
		{"first empty", "", "abc", []int{3}},
		{"second empty", "abc", "", []int{0, 0, 0, 0}},
		{"equal", "abc", "abc", []int{0, 1, 2, 3}},
		{"swapped bytes", "retrun x", "return x", []int{0, 1, 2, 3, 4, 5, 6, 7, 8}},
		{"one replaced", "a(x)", "a(y)", []int{0, 1, 2, 3, 4}},
		// Bytes inserted before a byte of a go with it: "foo(" still ends at 4.
		{"inserted inside", "foo(x)", "foo( x)", []int{0, 1, 2, 3, 4, 6, 7}},
		{"inserted at the start", "x)", "(x)", []int{0, 2, 3}},
		{"inserted at the end", "(x", "(x)", []int{0, 1, 3}},
		{"deleted inside", "foo(x)", "foox)", []int{0, 1, 2, 3, 3, 4, 5}},
		{"deleted at the start", "(x)", "x)", []int{0, 0, 1, 2}},
		{"deleted at the end", "(x)", "(x", []int{0, 1, 2, 2}},
		{"changed word", "return err", "return nil", []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
		{"longer word", "x := f(a)", "x := foo(a)", []int{0, 1, 2, 3, 4, 5, 6, 9, 10, 11}},
		{"shorter word", "x := foo(a)", "x := f(a)", []int{0, 1, 2, 3, 4, 5, 6, 6, 6, 7, 8, 9}},
		{"too large", strings.Repeat("a", 1025), strings.Repeat("b", 1024), nil},
		{"long against empty", strings.Repeat("a", 1024), "", make([]int, 1025)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Align(tt.a, tt.b); !slices.Equal(got, tt.want) {
				t.Errorf("Align(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

// TestAlignSizeLimit checks that Align works up to 1<<20 cells and refuses
// beyond.
func TestAlignSizeLimit(t *testing.T) {
	a, b := sized(1024), "x"+sized(1030)[7:1030]
	if len(a)*len(b) != 1<<20 {
		t.Fatalf("the test is wrong: %d·%d cells", len(a), len(b))
	}
	if m := Align(a, b); m == nil {
		t.Errorf("Align of %d·%d bytes = nil, want a mapping", len(a), len(b))
	}
	if m := Align(a+"y", b); m != nil {
		t.Errorf("Align of %d·%d bytes = %d offsets, want nil", len(a)+1, len(b), len(m))
	}
}

// TestAlignProperties checks on random pairs that the mapping is monotone,
// takes the ends to the ends, is one of an optimal alignment, and keeps
// common ends in place.
func TestAlignProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, maxLen := range []int{8, 70, 300} {
		for range 4000 * 8 / maxLen {
			a, b := randomPair(r, maxLen)
			if r.IntN(2) == 0 {
				// Common ends, which Align keeps in place.
				pre, suf := randomWord(r, "abcd", r.IntN(10)), randomWord(r, "abcd", r.IntN(10))
				a, b = pre+a+suf, pre+b+suf
			}
			checkAlign(t, a, b)
		}
	}
}

// TestAlignKeepsEqualStretches checks that a stretch common to a and b,
// which every optimal alignment keeps whole, maps onto itself: each offset
// inside it goes to the equal byte of b.
func TestAlignKeepsEqualStretches(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for range 1000 {
		// Distinct bytes that the ends around them lack, more than all
		// the ends' bytes together: keeping the stretch costs nothing,
		// and breaking it more than replacing the ends.
		perm := make([]byte, 128)
		for i := range perm {
			perm[i] = byte(128 + i)
		}
		r.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		x, x2 := randomPair(r, 6)
		y, y2 := randomPair(r, 6)
		s := string(perm[:len(x)+len(x2)+len(y)+len(y2)+1])
		a, b := x+s+y, x2+s+y2
		m := Align(a, b)
		for k := 1; k < len(s); k++ {
			i, want := len(x)+k, len(x2)+k
			if m[i] != want || b[m[i]] != a[i] {
				t.Fatalf("Align(%q, %q) = %v: offset %d maps to %d, want %d", a, b, m, i, m[i], want)
			}
		}
	}
}

func checkAlign(t *testing.T, a, b string) {
	t.Helper()
	m := Align(a, b)
	if len(m) != len(a)+1 {
		t.Fatalf("Align(%q, %q) = %v: %d offsets, want %d", a, b, m, len(m), len(a)+1)
	}
	if m[len(a)] != len(b) || len(a) > 0 && m[0] != 0 {
		t.Fatalf("Align(%q, %q) = %v: the ends are not 0 and %d", a, b, m, len(b))
	}
	// Bytes of b outside the parts of a's bytes, which only an empty a
	// leaves, are insertions.
	cost := m[0] + len(b) - m[len(a)]
	for i := range len(a) {
		if m[i] > m[i+1] {
			t.Fatalf("Align(%q, %q) = %v: not monotone at %d", a, b, m, i)
		}
		// A part of b that holds a[i] costs its other bytes; one that does
		// not costs a replacement and the other bytes, or a deletion.
		cost += Distance(a[i:i+1], b[m[i]:m[i+1]])
	}
	if d := Distance(a, b); cost != d {
		t.Fatalf("Align(%q, %q) = %v: the alignment costs %d, but the distance is %d", a, b, m, cost, d)
	}
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	for i := 1; i <= pre && i < len(a); i++ {
		if m[i] != i {
			t.Fatalf("Align(%q, %q) = %v: offset %d of the common prefix maps to %d", a, b, m, i, m[i])
		}
	}
	for k := range suf {
		if i, j := len(a)-k, len(b)-k; m[i] != j {
			t.Fatalf("Align(%q, %q) = %v: offset %d of the common suffix maps to %d, want %d", a, b, m, i, m[i], j)
		}
	}
}

func FuzzAlign(f *testing.F) {
	f.Add("retrun x", "return x")
	f.Add("", "abc")
	f.Add("foo(x)", "foo( x)")
	f.Fuzz(func(t *testing.T, a, b string) {
		if len(a)*len(b) > 1<<16 {
			t.Skip("Distance over each byte makes the check slow")
		}
		checkAlign(t, a, b)
	})
}

func BenchmarkAlign(b *testing.B) {
	x, y := benchPair(200)
	for b.Loop() {
		Align(x, y)
	}
}
