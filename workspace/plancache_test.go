package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/internal/test/benchtext"
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
		// resolved is how many blocks the cached plan resolves.
		resolved int
		// version, when set, is recorded in the history as an earlier
		// version of a.go before the step.
		version string
	}
	first := replace("a.go", "one\n", "1\n")
	second := replace("a.go", "1\ntwo\n", "1\n2\n") // rewrites what first wrote
	third := replace("b.go", "beta\n", "BETA\n")
	stale := replace("a.go", "three\n", "3\n")
	notThere := replace("a.go", missing, "x\n")
	steps := []step{
		{name: "the first block", texts: map[string]string{"a.go": a, "b.go": b}, blocks: []dialect.Block{first}, resolved: 1},
		{name: "the second, unfinished", blocks: []dialect.Block{first, malformed("a.go", "unfinished")}},
		{name: "the second, chained on the first", blocks: []dialect.Block{first, second}, resolved: 1},
		{name: "a block of another file", blocks: []dialect.Block{first, second, third}, resolved: 1},
		{name: "nothing new", blocks: []dialect.Block{first, second, third}},
		{name: "an ambiguous block, then one after it", blocks: []dialect.Block{first, second, third, replace("b.go", "alpha\n", "A\n"), replace("b.go", "gamma\n", "G\n")}, resolved: 2},
		// Blocks of b.go dropped: what is kept of it no longer leads
		// to its blocks.
		{name: "the first block changed", blocks: []dialect.Block{replace("a.go", "one\n", "uno\n"), second, third}, resolved: 3},
		{name: "a target changed", texts: map[string]string{"a.go": "zero\n" + a, "b.go": b}, blocks: []dialect.Block{first, second, third}, resolved: 2},
		{name: "a block that is not in the file, then a good one", blocks: []dialect.Block{first, second, third, notThere, stale}, resolved: 2},
		{name: "the same again", blocks: []dialect.Block{first, second, third, notThere, stale}},
		// A version that is the text as it is (the one the editor
		// opened) has nothing to say: all is kept again.
		{name: "the history holds a.go as it is", blocks: []dialect.Block{first, second, third, notThere, stale}, resolved: 4, version: "zero\n" + a},
		{name: "the same again, with that version", blocks: []dialect.Block{first, second, third, notThere, stale}},
		// Once the history holds a version of a.go, the block not in
		// it asks the history, and what follows it is resolved again
		// each time.
		{name: "the history holds a version of a.go", blocks: []dialect.Block{first, second, third, notThere, stale}, resolved: 4, version: "zero\none\ntwo\n3\n"},
		{name: "the same again, with that history", blocks: []dialect.Block{first, second, third, notThere, stale}, resolved: 2},
		{name: "an insertion and a line hint", blocks: []dialect.Block{first, second, third, insert("a.go", 2, "ins\n")}, resolved: 1},
		// A plan of the block still being written, alone, as a refresh
		// makes each time one begins, runs none of a.go's blocks: what
		// is kept of a.go stays.
		{name: "a block still being written, alone", blocks: []dialect.Block{malformed("a.go", "unfinished")}},
		{name: "the blocks before it again", blocks: []dialect.Block{first, second, third, insert("a.go", 2, "ins\n")}},
	}
	dir := newTree(t, map[string]string{"a.go": a, "b.go": b}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	o := NewOverlay(root)
	cache := &PlanCache{}
	hist := &memHistory{}
	version := int32(0)
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			for name, text := range s.texts {
				version++
				o.Open(filepath.Join(dir, name), text, version)
			}
			if s.version != "" {
				hist.Record(filepath.Join(dir, "a.go"), s.version, "")
			}
			view := o.View()
			opt := PlanOptions{KeepGoing: true, History: hist}
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
			checkSamePlan(t, got, full, "with the cache", "a full plan")
			reused, resolved := cache.Last()
			if resolved != s.resolved || reused+resolved > len(s.blocks) {
				t.Errorf("%d blocks resolved anew (%d kept), want %d", resolved, reused, s.resolved)
			}
		})
	}
}

// TestPlanCacheKeepsWhatACutPlanFinished cuts a plan short in the middle
// of its second file, as a change to an answer streaming in cancels the
// refresh under way: what the cache keeps of the file planned before
// stays, and only the file cut short is resolved again.
func TestPlanCacheKeepsWhatACutPlanFinished(t *testing.T) {
	dir := newTree(t, map[string]string{"a.go": "one\ntwo\n", "b.go": "alpha\nbeta\ngamma\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	view := NewOverlay(root).View()
	blocks := []dialect.Block{
		replace("a.go", "one\n", "1\n"), replace("a.go", "two\n", "2\n"),
		replace("b.go", "alpha\n", "A\n"), replace("b.go", "beta\n", "B\n"),
	}
	cache := &PlanCache{}
	if _, err := Plan(context.Background(), view, blocks, PlanOptions{KeepGoing: true, Cache: cache}); err != nil {
		t.Fatal(err)
	}
	more := append(blocks[:len(blocks):len(blocks)], replace("b.go", "gamma\n", "G\n"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cut := PlanOptions{KeepGoing: true, Cache: cache, Progress: func(done, total int) {
		if done == 3 { // a.go's two blocks, and one of b.go's
			cancel()
		}
	}}
	if _, err := Plan(ctx, view, more, cut); err == nil {
		t.Fatal("the plan was not cut short")
	}
	if _, err := Plan(context.Background(), view, more, PlanOptions{KeepGoing: true, Cache: cache}); err != nil {
		t.Fatal(err)
	}
	if reused, resolved := cache.Last(); reused != 2 || resolved != 3 {
		t.Errorf("after a plan cut short in b.go: %d blocks kept, %d resolved; want a.go's 2 kept and b.go's 3 resolved", reused, resolved)
	}
	// The first plan resolved 4 blocks; the one cut short none, as it took
	// a.go's two and b.go's first from the cache; the last b.go's 3.
	if total := cache.Resolved(); total != 7 {
		t.Errorf("the three plans resolved %d blocks in all, want 4+0+3", total)
	}
}

// TestPlanCacheKeepsAFileACutPlanDidNotUse cuts short the plan of a block
// still being written, alone, as the refresh of an answer streaming in
// makes one each time a block begins: the plan used nothing the cache
// keeps of the block's file, and the cache keeps it all.
func TestPlanCacheKeepsAFileACutPlanDidNotUse(t *testing.T) {
	dir := newTree(t, map[string]string{"a.go": "one\ntwo\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	view := NewOverlay(root).View()
	blocks := []dialect.Block{replace("a.go", "one\n", "1\n"), replace("a.go", "two\n", "2\n")}
	cache := &PlanCache{}
	if _, err := Plan(context.Background(), view, blocks, PlanOptions{KeepGoing: true, Cache: cache}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cut := PlanOptions{KeepGoing: true, Cache: cache, Progress: func(done, total int) { cancel() }}
	if _, err := Plan(ctx, view, []dialect.Block{malformed("a.go", "unfinished")}, cut); err == nil {
		t.Fatal("the plan was not cut short")
	}
	if _, err := Plan(context.Background(), view, blocks, PlanOptions{KeepGoing: true, Cache: cache}); err != nil {
		t.Fatal(err)
	}
	if reused, resolved := cache.Last(); reused != 2 || resolved != 0 {
		t.Errorf("after a cut plan of a block being written: %d blocks kept, %d resolved; want 2 kept", reused, resolved)
	}
}

// TestPlanCacheReadsAFileOnDiskOnce plans the blocks of a file that no
// buffer holds, again and again: the cache reads it from the disk again
// only when its size or time of change is not what it was. A file
// rewritten to the same size at the same time is taken as it was, which
// the test shows by setting the time back; a plan without the cache reads
// the new text. Each time the cache reads the file again and finds
// another text, it tells PlanCache.Changed the text it read before.
func TestPlanCacheReadsAFileOnDiskOnce(t *testing.T) {
	dir := newTree(t, map[string]string{"a.go": "one\ntwo\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	o := NewOverlay(root)
	path := filepath.Join(dir, "a.go")
	// changed holds what the cache told of files changed on the disk.
	var changed []string
	cache := &PlanCache{Changed: func(abs, before string) {
		if abs != path {
			t.Errorf("Changed(%q, %q): another file", abs, before)
		}
		changed = append(changed, before)
	}}
	told := func(want ...string) {
		t.Helper()
		if !slices.Equal(changed, want) {
			t.Errorf("Changed was told of %q, want %q", changed, want)
		}
		changed = nil
	}
	plan := func(opt PlanOptions) string {
		t.Helper()
		opt.KeepGoing = true
		res, err := Plan(context.Background(), o.View(), []dialect.Block{replace("a.go", "one\n", "1\n")}, opt)
		if err != nil {
			t.Fatal(err)
		}
		return res.Files[0].Before
	}
	rewrite := func(text string, mod time.Time) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	then := time.Now().Add(-time.Hour).Truncate(time.Second)
	rewrite("one\ntwo\n", then)
	if got := plan(PlanOptions{Cache: cache}); got != "one\ntwo\n" {
		t.Fatalf("the first plan read %q", got)
	}
	rewrite("one\nTWO\n", then) // same size, same time
	if got := plan(PlanOptions{Cache: cache}); got != "one\ntwo\n" {
		t.Errorf("with the file's size and time unchanged, the cache read %q again; want the text it read before", got)
	}
	if got := plan(PlanOptions{}); got != "one\nTWO\n" {
		t.Errorf("without the cache, the plan read %q", got)
	}
	rewrite("one\nTWO\n", then.Add(time.Second))
	if got := plan(PlanOptions{Cache: cache}); got != "one\nTWO\n" {
		t.Errorf("after the file's time changed, the cache gave %q", got)
	}
	told("one\ntwo\n") // the text read before another hand wrote the file
	rewrite("one\nTWO!\n", then.Add(time.Second))
	if got := plan(PlanOptions{Cache: cache}); got != "one\nTWO!\n" {
		t.Errorf("after the file's size changed, the cache gave %q", got)
	}
	told("one\nTWO\n")
	rewrite("one\nTWO!\n", then.Add(2*time.Second)) // touched, the text the same
	plan(PlanOptions{Cache: cache})
	told()
	// A buffer in front of the file is read from the buffer, each time.
	o.Open(path, "one\nbuffer\n", 1)
	if got := plan(PlanOptions{Cache: cache}); got != "one\nbuffer\n" {
		t.Errorf("with a buffer open, the cache gave %q", got)
	}
	o.Open(path, "one\nbuffer 2\n", 2)
	if got := plan(PlanOptions{Cache: cache}); got != "one\nbuffer 2\n" {
		t.Errorf("after the buffer changed, the cache gave %q", got)
	}
	told() // a buffer's past is the editor's to tell
}

// checkSamePlan checks that the plans got and want, found as the two
// names say, give every block the same fate and every file the same
// change; only the time taken may differ.
func checkSamePlan(t *testing.T, got, want *Result, gotName, wantName string) {
	t.Helper()
	for i := range got.Blocks {
		g, w := got.Blocks[i], want.Blocks[i]
		g.Elapsed, w.Elapsed = 0, 0
		if fmt.Sprint(g.Err) != fmt.Sprint(w.Err) {
			t.Errorf("block %d: error %v %s, %v %s", i+1, g.Err, gotName, w.Err, wantName)
		}
		g.Err, w.Err = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Errorf("block %d %s:\n%+v\n%s:\n%+v", i+1, gotName, g, wantName, w)
		}
	}
	if !reflect.DeepEqual(got.Files, want.Files) {
		t.Errorf("files %s:\n%+v\n%s:\n%+v", gotName, got.Files, wantName, want.Files)
	}
}

// BenchmarkPlanCacheAllKept plans an answer of 50 blocks over ten open
// 5,000-line buffers again with every block kept in the cache, in a new
// view each time: what an answer's diagnostics cost after a change that
// changed no block, around the blocks' resolutions.
func BenchmarkPlanCacheAllKept(b *testing.B) {
	files := map[string]string{}
	for f := 0; f < 10; f++ {
		files[fmt.Sprintf("f%d.go", f)] = benchtext.GoFuncs(f, 1000)
	}
	dir := b.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	root, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	o := NewOverlay(root)
	for name, text := range files {
		o.Open(filepath.Join(dir, name), text, 1)
	}
	var blocks []dialect.Block
	for f := 0; f < 10; f++ {
		for j := 0; j < 5; j++ {
			k := (2*j + 1) * 1000 / 10
			blocks = append(blocks, dialect.Block{Edit: engine.Edit{Path: fmt.Sprintf("f%d.go", f), Dialect: "search-replace",
				Old: fmt.Sprintf("\ty := x * %d\n\treturn y + %d\n", k, f), New: fmt.Sprintf("\ty := x * %d\n\treturn y - %d\n", k, f)}, Number: len(blocks) + 1})
		}
	}
	cache := &PlanCache{}
	opt := PlanOptions{KeepGoing: true, Cache: cache}
	if _, err := Plan(context.Background(), o.View(), blocks, opt); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := o.View()
		if _, err := Plan(context.Background(), v, blocks, opt); err != nil {
			b.Fatal(err)
		}
	}
}
