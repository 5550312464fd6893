package postings

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTableListsEachKeysLines checks a Table against a map of slices:
// every key, present or not, lists exactly its lines in order, for key
// sets with many repeats, all distinct keys, colliding home slots and
// none at all.
func TestTableListsEachKeysLines(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for _, tc := range []struct {
		name     string
		n, vocab int
	}{
		{"empty", 0, 1},
		{"one", 1, 1},
		{"repeats", 500, 7},
		{"distinct", 300, 1 << 30},
		{"mixed", 2000, 400},
	} {
		keys := make([]uint64, tc.n)
		for i := range keys {
			keys[i] = uint64(r.IntN(tc.vocab)) * 0x100000001
		}
		want := map[uint64][]int32{}
		for i, k := range keys {
			want[k] = append(want[k], int32(i))
		}
		p := New(keys)
		for k, lines := range want {
			if got := p.Of(k); !slices.Equal(got, lines) {
				t.Errorf("%s: lines of %x = %v, want %v", tc.name, k, got, lines)
			}
		}
		for range 100 {
			if k := r.Uint64() | 1; want[k] == nil && p.Of(k) != nil {
				t.Errorf("%s: lines of absent key %x = %v", tc.name, k, p.Of(k))
			}
		}
	}
}
