package lsp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/graft-editor/graft/workspace"
)

// TestLineEditsBetweenEnds checks the edits of graft.apply's workspace
// edit on random changes: they turn before into after, each replaces
// whole lines of before, and they change no more lines than udiff.Lines'
// edits over the whole texts.
func TestLineEditsBetweenEnds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"a\n", "b\n", "c\n", "\n", "a", "x y\n"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[r.IntN(len(words))])
		}
		return b.String()
	}
	lines := func(text string) int {
		return strings.Count(text, "\n") + min(1, len(text)-strings.LastIndexByte(text, '\n')-1)
	}
	changed := func(before string, edits []udiff.Edit) (n int) {
		for _, e := range edits {
			n += lines(before[e.Start:e.End]) + lines(e.New)
		}
		return n
	}
	for i := range 3000 {
		before := text(r.IntN(30))
		after := before
		for range r.IntN(4) {
			at := r.IntN(len(after) + 1)
			end := min(at+r.IntN(6), len(after))
			after = after[:at] + text(r.IntN(3)) + after[end:]
		}
		edits := linesBetweenEnds(before, after, math.MaxInt)
		got, err := udiff.Apply(before, edits)
		if err != nil || got != after {
			t.Fatalf("case %d: %q to %q: edits %+v give %q, %v", i, before, after, edits, got, err)
		}
		for _, e := range edits {
			if (e.Start > 0 && before[e.Start-1] != '\n') || (e.End < len(before) && e.End > 0 && before[e.End-1] != '\n') {
				t.Fatalf("case %d: %q to %q: edit %+v is not whole lines", i, before, after, e)
			}
		}
		if n, whole := changed(before, edits), changed(before, udiff.Lines(before, after)); n > whole {
			t.Errorf("case %d: %q to %q: %d lines deleted and inserted, udiff.Lines %d", i, before, after, n, whole)
		}
	}
}

// BenchmarkLineEditsAtLimit computes the edits of one line changed in a
// file of workspace.MaxFileSize bytes, as graft.apply does on the
// handler's queue, and with udiff.Lines over the whole texts.
func BenchmarkLineEditsAtLimit(b *testing.B) {
	var s strings.Builder
	for i := 0; s.Len() < workspace.MaxFileSize-64; i++ {
		fmt.Fprintf(&s, "\tsum += weight(%d) * value[%d] // line %d\n", i%97, i, i)
	}
	before := s.String()
	after := strings.Replace(before, " value[400000] ", " VALUE[400000] ", 1)
	b.Run("between-ends", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			linesBetweenEnds(before, after, math.MaxInt)
		}
	})
	b.Run("udiff.Lines", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			udiff.Lines(before, after)
		}
	})
}
