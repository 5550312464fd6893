package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine/internal/linecache"
)

// TestMayAlignWithoutNeverSkipsAWinner checks the bound that spares align
// the whole-window alignment by similarity: whenever that alignment has
// no mismatch, mayAlignWithout says one may exist. Lines come from a small
// vocabulary with near copies, blank lines and an elision, so that equal,
// similar and absent lines all occur.
func TestMayAlignWithoutNeverSkipsAWinner(t *testing.T) {
	vocab := []string{"}", "", "\treturn err", "\treturn errs", "if x {", "if y {", "\tcall(a, b)", "\tcall(a, c)", "  count += 1", "count+=1", "..."}
	r := rand.New(rand.NewPCG(3, 9))
	pick := func(n int) []string { return randomItems(r, vocab, n) }
	wins := 0
	for range 20000 {
		file := pick(2 + r.IntN(10))
		var search []string
		if r.IntN(2) == 0 {
			// A copy of some of the file's lines, a line dropped or changed.
			a := r.IntN(len(file))
			b := a + 1 + r.IntN(len(file)-a)
			search = append(search, file[a:b]...)
			if k := r.IntN(len(search)); r.IntN(2) == 0 {
				search[k] = vocab[r.IntN(len(vocab))]
			}
		} else {
			search = pick(1 + r.IntN(5))
		}
		ix := newIndex(newDocument(strings.Join(file, "\n")))
		s := newSlines(search)
		all := make([]int, len(s))
		for j := range all {
			all[j] = j
		}
		n := ix.Lines()
		ix.Keys(0, n)
		alt, ok := score(ix, s, gap(ix, s, all, 0, n, true, true))
		if !ok || alt.mismatches() > 0 {
			continue
		}
		wins++
		if !mayAlignWithout(ix, s, 1, 0, n) {
			t.Fatalf("file %q, search %q: an alignment without mismatches exists, mayAlignWithout says none can", file, search)
		}
	}
	if wins < 100 {
		t.Fatalf("only %d cases had an alignment without mismatches: the test says little", wins)
	}
}

// TestFindSeqByEnds checks that findSeq, which takes a file line for the
// first of the search's lines only when its ends are the first line's,
// finds what a look at every line's key finds: lines spaced otherwise,
// lines beyond ASCII that fold to the search's, blank lines between.
func TestFindSeqByEnds(t *testing.T) {
	vocab := []string{"}", "\t}", "", "  ", "\treturn err", "return  err", "say(“hi”)", "say(\"hi\")", "\tif err != nil {", "if err!=nil{", "x := 1", "é"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		file := randomItems(r, vocab, r.IntN(40))
		var lines []*sline
		for _, l := range newSlines(randomItems(r, vocab, 3)) {
			if !l.blank {
				lines = append(lines, &l)
			}
		}
		ix := newIndex(newDocument(strings.Join(file, "\n")))
		got := ix.findSeq(lines, 5)
		keys := make([]uint64, len(lines))
		for k, l := range lines {
			keys[k] = l.key
		}
		plain := newIndex(newDocument(strings.Join(file, "\n")))
		want := plain.seq(keys, linecache.EndsNotYet, 0, plain.Lines(), 5)
		if !slices.Equal(got, want) {
			t.Fatalf("file %q: findSeq found %v, want %v", file, got, want)
		}
	}
}
