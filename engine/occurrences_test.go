package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestOccurrences checks the search by anchor against the plain one, on
// texts made of a few repeated lines, where a search's anchor occurs far
// more often than the search and occurrences overlap.
func TestOccurrences(t *testing.T) {
	naive := func(s, sub string, limit int) []int {
		var at []int
		for i := 0; i+len(sub) <= len(s) && len(at) < limit; i++ {
			if s[i:i+len(sub)] == sub {
				at = append(at, i)
			}
		}
		return at
	}
	lines := []string{"\t}", "\t\treturn fmt.Errorf(\"load user %q: %w\", key, err)", "", "\tif err != nil {", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "a"}
	rng := rand.New(rand.NewPCG(7, 8))
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(lines[rng.IntN(len(lines))])
			b.WriteByte('\n')
		}
		return b.String()
	}
	for range 3000 {
		s := text(rng.IntN(40))
		var sub string
		if len(s) > 0 && rng.IntN(2) == 0 {
			i := rng.IntN(len(s))
			sub = s[i : i+rng.IntN(len(s)-i+1)]
		} else {
			sub = text(1 + rng.IntN(4))
		}
		if sub == "" {
			continue
		}
		limit := 1 + rng.IntN(70)
		if got, want := occurrences(s, sub, limit), naive(s, sub, limit); !slices.Equal(got, want) {
			t.Fatalf("occurrences(%q, %q, %d) = %v, want %v", s, sub, limit, got, want)
		}
	}
}
