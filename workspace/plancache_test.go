package workspace

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/graft-editor/graft/engine/dialect"
)

// TestPlanCacheFindsWhatAFullPlanFinds plans an answer as it changes, the
// way an answer buffer is resolved again after each change, once with a
// PlanCache kept from one plan to the next and once without: every plan
// finds the same, and the cache resolves only what is new or changed.
func TestPlanCacheFindsWhatAFullPlanFinds(t *testing.T) {
	const a = "one\ntwo\nthree\nfour\nfive\n"
	const b = "alpha\nbeta\nalpha\ngamma\n"
	type step struct {
		name string
		// texts are the open buffers' texts at this step, by name.
		texts  map[string]string
		blocks []dialect.Block
		// resolved is how many blocks the cached plan may resolve.
		resolved int
	}
	first := replace("a.go", "one\n", "1\n")
	second := replace("a.go", "1\ntwo\n", "1\n2\n") // rewrites what first wrote
	third := replace("b.go", "beta\n", "BETA\n")
	stale := replace("a.go", "three\n", "3\n")
	steps := []step{
		{"the first block", map[string]string{"a.go": a, "b.go": b}, []dialect.Block{first}, 1},
		{"the second, unfinished", nil, []dialect.Block{first, malformed("a.go", "unfinished")}, 0},
		{"the second, chained on the first", nil, []dialect.Block{first, second}, 1},
		{"a block of another file", nil, []dialect.Block{first, second, third}, 1},
		{"nothing new", nil, []dialect.Block{first, second, third}, 0},
		{"an ambiguous block, then one after it", nil, []dialect.Block{first, second, third, replace("b.go", "alpha\n", "A\n"), replace("b.go", "gamma\n", "G\n")}, 2},
		{"the first block changed", nil, []dialect.Block{replace("a.go", "one\n", "uno\n"), second, third}, 2},
		{"a target changed", map[string]string{"a.go": "zero\n" + a, "b.go": b}, []dialect.Block{first, second, third}, 2},
		{"a block that is not in the file, then a good one", nil, []dialect.Block{first, second, third, replace("a.go", missing, "x\n"), stale}, 2},
		{"an insertion and a line hint", nil, []dialect.Block{first, second, third, insert("a.go", 2, "ins\n")}, 1},
	}
	dir := newTree(t, map[string]string{"a.go": a, "b.go": b}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	o := NewOverlay(root)
	cache := &PlanCache{}
	version := int32(0)
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			for name, text := range s.texts {
				version++
				o.Open(filepath.Join(dir, name), text, version)
			}
			view := o.View()
			opt := PlanOptions{KeepGoing: true, History: &memHistory{}}
			full, err := Plan(context.Background(), view, s.blocks, opt)
			if err != nil {
				t.Fatal(err)
			}
			opt.Cache = cache
			opt.Progress = nil
			got, err := Plan(context.Background(), view, s.blocks, opt)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got.Blocks {
				g, w := got.Blocks[i], full.Blocks[i]
				g.Elapsed, w.Elapsed = 0, 0
				if fmt.Sprint(g.Err) != fmt.Sprint(w.Err) {
					t.Errorf("block %d: error %v, a full plan finds %v", i+1, g.Err, w.Err)
				}
				g.Err, w.Err = nil, nil
				if !reflect.DeepEqual(g, w) {
					t.Errorf("block %d with the cache:\n%+v\na full plan:\n%+v", i+1, g, w)
				}
			}
			if !reflect.DeepEqual(got.Files, full.Files) {
				t.Errorf("files with the cache:\n%+v\na full plan:\n%+v", got.Files, full.Files)
			}
			reused, resolved := cache.Last()
			if resolved > s.resolved || reused+resolved > len(s.blocks) {
				t.Errorf("%d blocks resolved anew (%d kept), want at most %d", resolved, reused, s.resolved)
			}
		})
	}
}
