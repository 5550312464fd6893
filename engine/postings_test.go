package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

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
