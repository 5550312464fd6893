package workspace

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
)

// TestTextEditsCompose checks that the edits recorded for a sequence of
// changes, each made to the text the ones before it left, make of the
// text as it was what the changes made, and stay in order and apart:
// changes that replace, insert and delete, apart, touching and
// overlapping what earlier ones wrote.
func TestTextEditsCompose(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		changes [][]engine.Change // each step's changes, of the text then
		want    []engine.Change
	}{
		{"one replacement", "abcdef", [][]engine.Change{{{Start: 1, End: 3, Text: "XY"}}},
			[]engine.Change{{Start: 1, End: 3, Text: "XY"}}},
		{"two apart, the later first", "abcdef", [][]engine.Change{{{Start: 4, End: 5, Text: "E"}}, {{Start: 0, End: 1, Text: "AA"}}},
			[]engine.Change{{Start: 0, End: 1, Text: "AA"}, {Start: 4, End: 5, Text: "E"}}},
		{"a change inside what an earlier one wrote", "abcdef", [][]engine.Change{{{Start: 1, End: 3, Text: "XYZ"}}, {{Start: 2, End: 3, Text: "-"}}},
			[]engine.Change{{Start: 1, End: 3, Text: "X-Z"}}},
		{"a change across an earlier one's end", "abcdef", [][]engine.Change{{{Start: 1, End: 2, Text: "XX"}}, {{Start: 2, End: 5, Text: "."}}},
			[]engine.Change{{Start: 1, End: 4, Text: "X."}}},
		{"an insertion before a replacement at its start", "abcdef", [][]engine.Change{{{Start: 2, End: 4, Text: "Q"}}, {{Start: 2, End: 2, Text: "+"}}},
			[]engine.Change{{Start: 2, End: 2, Text: "+"}, {Start: 2, End: 4, Text: "Q"}}},
		{"an insertion right after a replacement", "abcdef", [][]engine.Change{{{Start: 2, End: 4, Text: "Q"}}, {{Start: 3, End: 3, Text: "+"}}},
			[]engine.Change{{Start: 2, End: 4, Text: "Q"}, {Start: 4, End: 4, Text: "+"}}},
		{"a deletion, then an insertion where it was", "abcdef", [][]engine.Change{{{Start: 2, End: 4, Text: ""}}, {{Start: 2, End: 2, Text: "new"}}},
			[]engine.Change{{Start: 2, End: 4, Text: "new"}}},
		{"a change undone", "abcdef", [][]engine.Change{{{Start: 2, End: 3, Text: "Z"}}, {{Start: 2, End: 3, Text: "c"}}},
			[]engine.Change{{Start: 2, End: 3, Text: "c"}}},
		{"several changes of one match", "line1\nline2\nline3\n", [][]engine.Change{{{Start: 0, End: 5, Text: "L1"}, {Start: 12, End: 17, Text: "L3"}}},
			[]engine.Change{{Start: 0, End: 5, Text: "L1"}, {Start: 12, End: 17, Text: "L3"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var es textEdits
			cur := tt.text
			for _, cs := range tt.changes {
				es.add(cur, cs)
				cur = (&engine.Match{Changes: cs}).Apply(cur)
			}
			if got := engine.ApplyChanges(tt.text, es); got != cur {
				t.Errorf("the edits make %q, want %q", got, cur)
			}
			if len(es) != len(tt.want) {
				t.Fatalf("edits %+v, want %+v", es, tt.want)
			}
			for k := range es {
				if es[k] != tt.want[k] {
					t.Fatalf("edits %+v, want %+v", es, tt.want)
				}
			}
		})
	}
}

// TestTextEditsRandom makes random sequences of changes, of one or two
// changes a step, anywhere in the text, and holds the recorded edits to
// the text the changes made, in order and apart.
func TestTextEditsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 3000 {
		text := strings.Repeat("abcdefghij", 1+rng.IntN(4))
		cur := text
		var es textEdits
		for range 1 + rng.IntN(6) {
			var cs []engine.Change
			at := 0
			for range 1 + rng.IntN(2) {
				if at > len(cur) {
					break
				}
				s := at + rng.IntN(len(cur)-at+1)
				e := s + rng.IntN(min(4, len(cur)-s)+1)
				cs = append(cs, engine.Change{Start: s, End: e, Text: "XYZ"[:rng.IntN(4)]})
				at = e + 1
			}
			es.add(cur, cs)
			cur = (&engine.Match{Changes: cs}).Apply(cur)
			if got := engine.ApplyChanges(text, es); got != cur {
				t.Fatalf("round %d: the edits %+v make %q of %q, want %q", round, es, got, text, cur)
			}
			for k := 1; k < len(es); k++ {
				if es[k].Start < es[k-1].End || es[k].End < es[k].Start {
					t.Fatalf("round %d: edits out of order or overlapping: %+v", round, es)
				}
			}
		}
	}
}
