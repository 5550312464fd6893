package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// TestDiffAsLCS checks that diff answers as lcs.DiffLines does, on pairs
// of short sequences over a few items (so that items repeat and stretches
// could slide), most of them one stretch apart as a model's edits are,
// and that it answers most of them without it.
func TestDiffAsLCS(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	items := []string{"A", "B", "C", "}"}
	seq := func(n int) []string { return randomItems(rng, items, n) }
	quick := 0
	for range 20000 {
		a := seq(rng.IntN(8))
		b := slices.Clone(a)
		switch rng.IntN(4) {
		case 0:
			b = seq(rng.IntN(8))
		default:
			// One stretch of up to two items replaced with up to two.
			i := rng.IntN(len(a) + 1)
			j := min(len(a), i+rng.IntN(3))
			b = slices.Concat(a[:i], seq(rng.IntN(3)), a[j:])
		}
		got, want := diff(a, b), lcs.DiffLines(a, b)
		if len(want) == 0 {
			want = nil
		}
		if !slices.Equal(got, want) {
			t.Fatalf("diff(%q, %q) = %v, want %v", a, b, got, want)
		}
		if _, ok := stretch(a, b); ok {
			quick++
		}
	}
	if quick < 10000 {
		t.Errorf("only %d of 20000 pairs were answered without lcs.DiffLines", quick)
	}
}
