package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestPostingsListEachKeysLines checks postings against a map of slices:
// every key, present or not, lists exactly its lines in order, for key
// sets with many repeats, all distinct keys, colliding home slots and
// none at all.
func TestPostingsListEachKeysLines(t *testing.T) {
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
		p := newPostings(keys)
		for k, lines := range want {
			if got := p.of(k); !slices.Equal(got, lines) {
				t.Errorf("%s: lines of %x = %v, want %v", tc.name, k, got, lines)
			}
		}
		for range 100 {
			if k := r.Uint64() | 1; want[k] == nil && p.of(k) != nil {
				t.Errorf("%s: lines of absent key %x = %v", tc.name, k, p.of(k))
			}
		}
	}
}

// TestIndexOccurrences checks the search of a Document that lists its
// lines against the search of its text, for searches cut anywhere from
// texts of a few repeated lines (so that places overlap and the rarest
// line is still common), with CRLF line endings, a byte order mark, blank
// lines and white space that only the loose keys ignore.
func TestIndexOccurrences(t *testing.T) {
	lines := []string{"\t}", "\tif err != nil {", "", "  ", "\t\treturn err", "x := 1", "x  :=  1", "a"}
	rng := rand.New(rand.NewPCG(3, 9))
	text := func(n int, eol string) string {
		var b strings.Builder
		for range n {
			b.WriteString(lines[rng.IntN(len(lines))])
			b.WriteString(eol)
		}
		return b.String()
	}
	listed := 0
	for range 4000 {
		eol := "\n"
		if rng.IntN(3) == 0 {
			eol = "\r\n"
		}
		s := text(rng.IntN(60), eol)
		if rng.IntN(5) == 0 {
			s = bom + s
		}
		doc := NewDocument(s)
		doc.index().buildPostings()
		lf := doc.d.lf
		var sub string
		if len(lf) > 0 && rng.IntN(3) > 0 {
			i := rng.IntN(len(lf))
			sub = lf[i : i+rng.IntN(len(lf)-i+1)]
		} else {
			sub = text(1+rng.IntN(5), "\n")
		}
		if sub == "" {
			continue
		}
		limit := 1 + rng.IntN(8) // often fewer than the places
		got, ok := doc.ix.occurrences(sub, limit)
		if !ok {
			continue
		}
		listed++
		if want := occurrences(lf, sub, limit); !slices.Equal(got, want) {
			t.Fatalf("in %q, occurrences of %q (limit %d) = %v, want %v", lf, sub, limit, got, want)
		}
	}
	if listed < 1000 {
		t.Errorf("only %d of 4000 searches were answered from the postings", listed)
	}
}
