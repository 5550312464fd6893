package workspace

import (
	"context"
	"fmt"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
)

// TestPlanPriorFindsWhatAFullPlanFinds plans each answer after a plan of
// its first blocks, as an answer's diagnostics do after each block that
// closes in an answer streaming in: what Plan finds taking the earlier
// plan's results is what a plan of the whole answer finds, whatever the
// number of blocks taken, with or without the cache, skipping or keeping
// going after a failed block, and atomic; and with the cache, no block is
// resolved twice. The earlier plan may also be of a longer answer, which
// went on with other blocks (a block still being written, one changed
// since): its results for the first blocks, and its files, serve.
func TestPlanPriorFindsWhatAFullPlanFinds(t *testing.T) {
	const a = "one\ntwo\nthree\nfour\nfive\n"
	const b = "alpha\nbeta\nalpha\ngamma\n"
	answers := []struct {
		name   string
		blocks []dialect.Block
	}{
		{"blocks of two files, interleaved and chained", []dialect.Block{
			replace("a.go", "one\n", "1\n"), replace("b.go", "beta\n", "BETA\n"),
			replace("a.go", "1\ntwo\n", "1\n2\n"), replace("b.go", "gamma\n", "G\n"),
			insert("a.go", 2, "ins\n"),
		}},
		{"failed, ambiguous and malformed blocks", []dialect.Block{
			replace("a.go", missing, "x\n"), malformed("a.go", "unfinished"),
			replace("b.go", "alpha\n", "A\n"), replace("a.go", "three\n", "3\n"),
			replace("../out.go", "x\n", "y\n"), {Edit: engine.Edit{Old: "one\n", New: "1\n"}},
			replace("b.go", "beta\n", "B\n"),
		}},
		{"a file created and edited, another deleted", []dialect.Block{
			replace("a.go", "two\n", "2\n"), create("c.go", "new\n"), remove("b.go"),
			replace("c.go", "new\n", "newer\n"), replace("b.go", "beta\n", "B\n"),
			replace("a.go", "four\n", "4\n"),
		}},
	}
	options := []struct {
		name  string
		opt   PlanOptions
		cache bool
	}{
		{"keep going, with the cache", PlanOptions{KeepGoing: true}, true},
		{"keep going", PlanOptions{KeepGoing: true}, false},
		{"skip after a failure", PlanOptions{}, false},
		{"atomic", PlanOptions{Atomic: true}, false},
	}
	dir := newTree(t, map[string]string{"a.go": a, "b.go": b}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	view := NewOverlay(root).View()
	ctx := context.Background()
	plan := func(t *testing.T, blocks []dialect.Block, opt PlanOptions) (*Result, int) {
		t.Helper()
		res, err := Plan(ctx, view, blocks, opt)
		if err != nil {
			t.Fatal(err)
		}
		if opt.Cache == nil {
			return res, 0
		}
		_, resolved := opt.Cache.Last()
		return res, resolved
	}
	for _, ans := range answers {
		for _, o := range options {
			t.Run(ans.name+"/"+o.name, func(t *testing.T) {
				blocks := ans.blocks
				opt := o.opt
				if o.cache {
					opt.Cache = &PlanCache{}
				}
				full, resolvedAll := plan(t, blocks, opt)
				for k := 0; k <= len(blocks); k++ {
					others := [][]dialect.Block{
						blocks[:k],
						append(blocks[:k:k], malformed("b.go", "unfinished"), replace("a.go", "five\n", "5\n")),
						append(blocks[:k:k], create("d.go", "d\n")),
					}
					for j, other := range others {
						name := fmt.Sprintf("%d blocks taken from a plan of %d", k, len(other))
						opt := o.opt
						if o.cache {
							opt.Cache = &PlanCache{}
						}
						earlier, _ := plan(t, other, opt)
						var resolvedBefore int
						if j == 0 {
							_, resolvedBefore = plan(t, blocks[:k], PlanOptions{KeepGoing: true, Cache: &PlanCache{}})
						}
						opt.Prior = &Result{Blocks: earlier.Blocks[:k], Files: earlier.Files}
						got, resolved := plan(t, blocks, opt)
						checkSamePlan(t, got, full, name, "a full plan")
						if o.cache && j == 0 && resolved != resolvedAll-resolvedBefore {
							t.Errorf("%s: %d blocks resolved, want %d: %d in all, less the %d resolved before", name, resolved, resolvedAll-resolvedBefore, resolvedAll, resolvedBefore)
						}
					}
				}
			})
		}
	}
}

// TestPlanPriorIgnoredWithAMove: a move carries the blocks after it that
// name its destination along, whatever file they were grouped with
// before; Plan plans every block again.
func TestPlanPriorIgnoredWithAMove(t *testing.T) {
	dir := newTree(t, map[string]string{"a.go": "one\n", "b.go": "two\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	view := NewOverlay(root).View()
	ctx := context.Background()
	first := []dialect.Block{replace("c.go", "x\n", "y\n")}
	prior, err := Plan(ctx, view, first, PlanOptions{KeepGoing: true})
	if err != nil {
		t.Fatal(err)
	}
	blocks := append(first, move("a.go", "c.go"), replace("c.go", "one\n", "1\n"))
	full, err := Plan(ctx, view, blocks, PlanOptions{KeepGoing: true})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Plan(ctx, view, blocks, PlanOptions{KeepGoing: true, Prior: prior})
	if err != nil {
		t.Fatal(err)
	}
	checkSamePlan(t, got, full, "after a plan of the first block", "a full plan")
}
