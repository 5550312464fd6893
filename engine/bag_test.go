package engine

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine/internal/editdist"
	"github.com/graft-editor/graft/engine/internal/loose"
)

// referenceBag is the bag distance of a and b counted plainly.
func referenceBag(a, b string) int {
	var ca, cb [256]int
	for i := 0; i < len(a); i++ {
		ca[a[i]]++
	}
	for i := 0; i < len(b); i++ {
		cb[b[i]]++
	}
	lacksA, lacksB := 0, 0 // bytes of a that b lacks, of b that a lacks
	for c := range ca {
		lacksA += max(0, ca[c]-cb[c])
		lacksB += max(0, cb[c]-ca[c])
	}
	return max(lacksA, lacksB)
}

// TestBagDistance checks the bag distance of a search line and a file line
// against referenceBag over their loose views, and that it never exceeds
// their edit distance: on random code-like lines and their mutations, on
// anagrams (bag distance 0 whatever the edit distance), and on lines of
// one repeated byte.
func TestBagDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	pairs := [][2]string{
		{"abc", "cba"},
		{"related=obj", "obj=related"},
		{"eeee", strings.Repeat("e", 255)},
		{"x := f(a)", "\t\tx  :=  f( a )  "},
		{"return nil", "}"},
	}
	for range 5000 {
		a := randomCodeLine(r)
		switch r.IntN(3) {
		case 0:
			pairs = append(pairs, [2]string{a, mutateLine(r, a, 1+r.IntN(20))})
		case 1:
			b := []byte(a)
			r.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
			pairs = append(pairs, [2]string{a, string(b)})
		default:
			pairs = append(pairs, [2]string{a, randomCodeLine(r)})
		}
	}
	var b lineBag
	for _, p := range pairs {
		l := &newSlines([]string{p[0]})[0]
		if l.n == 0 {
			continue
		}
		if !b.fill(p[1]) {
			if len(p[1]) <= maxBagLine && isASCII(p[1]) {
				t.Fatalf("fill(%q) = false for a line of ASCII of %d bytes", p[1], len(p[1]))
			}
			continue
		}
		fileLoose := loose.View(p[1])
		got := b.bagDistance(l, len(fileLoose))
		if want := referenceBag(l.loose, fileLoose); got != want {
			t.Fatalf("bag distance of %q and %q = %d, want %d", l.loose, fileLoose, got, want)
		}
		if d := editdist.Distance(l.loose, fileLoose); got > d {
			t.Fatalf("bag distance of %q and %q = %d, more than their edit distance %d", l.loose, fileLoose, got, d)
		}
	}
}

// TestLineBagFill checks which lines a lineBag can count: lines of ASCII
// up to maxBagLine bytes, whose counts cannot wrap.
func TestLineBagFill(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		{"", true},
		{"\tx := f(a)", true},
		{strings.Repeat("e", maxBagLine), true},
		{strings.Repeat("e", maxBagLine+1), false},
		{"x := “a”", false},
		{"café", false},
		{"a\u00a0= b", false},
	}
	var b lineBag
	for _, tt := range tests {
		if got := b.fill(tt.line); got != tt.want {
			t.Errorf("fill(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
