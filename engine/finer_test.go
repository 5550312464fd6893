package engine

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestFiner checks that a match's changes are cut to the lines and runs
// of lines they change, and make the same text.
func TestFiner(t *testing.T) {
	const text = "a\nb\nc\nd\ne\n"
	tests := []struct {
		name string
		c    Change
		want []Change
	}{
		{"the same text: no change", Change{Start: 2, End: 6, Text: "b\nc\n"}, []Change{}},
		{"kept lines at the ends left out", Change{Start: 0, End: 10, Text: "a\nb\nC\nd\ne\n"},
			[]Change{{Start: 4, End: 6, Text: "C\n"}}},
		{"two runs, a kept line between", Change{Start: 0, End: 10, Text: "a\nB\nc\nD\ne\n"},
			[]Change{{Start: 2, End: 4, Text: "B\n"}, {Start: 6, End: 8, Text: "D\n"}}},
		{"a line inserted", Change{Start: 2, End: 6, Text: "b\nnew\nc\n"},
			[]Change{{Start: 4, End: 4, Text: "new\n"}}},
		{"lines deleted", Change{Start: 0, End: 10, Text: "a\ne\n"},
			[]Change{{Start: 2, End: 8, Text: ""}}},
		{"a part of a line, as it is", Change{Start: 4, End: 5, Text: "C"},
			[]Change{{Start: 4, End: 5, Text: "C"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := finer(text, []Change{tt.c})
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("finer = %+v, want %+v", got, tt.want)
			}
			m1, m2 := &Match{Changes: []Change{tt.c}}, &Match{Changes: got}
			if m1.Apply(text) != m2.Apply(text) {
				t.Errorf("the finer changes make %q, want %q", m2.Apply(text), m1.Apply(text))
			}
		})
	}
}

// TestFinerRandom holds finer to making the same text as the change it
// cuts, on random texts and changes of whole lines and parts of lines.
func TestFinerRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	words := []string{"a\n", "b\n", "c\n", "\n", "x", "yy\n", "a"}
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[rng.IntN(len(words))])
		}
		return b.String()
	}
	for round := range 20000 {
		text := gen(rng.IntN(12))
		s := rng.IntN(len(text) + 1)
		e := s + rng.IntN(len(text)-s+1)
		if rng.IntN(2) == 0 { // whole lines, as most matches change
			s = strings.LastIndexByte(text[:s], '\n') + 1
			if i := strings.IndexByte(text[e:], '\n'); i >= 0 {
				e += i + 1
			} else {
				e = len(text)
			}
		}
		c := Change{Start: s, End: e, Text: gen(rng.IntN(8))}
		got := finer(text, []Change{c})
		want := (&Match{Changes: []Change{c}}).Apply(text)
		if res := (&Match{Changes: got}).Apply(text); res != want {
			t.Fatalf("round %d: %q with %+v: finer %+v makes %q, want %q", round, text, c, got, res, want)
		}
		for k := 1; k < len(got); k++ {
			if got[k].Start < got[k-1].End {
				t.Fatalf("round %d: changes out of order: %+v", round, got)
			}
		}
	}
}
