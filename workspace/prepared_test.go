package workspace

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
)

// TestPreparedFindsWhatAPlanWithoutFinds applies answers one after another
// to an open buffer, as an editor does, each planned with the documents
// the plan before left and without them: the results are the same, line
// numbers, candidates and the history's say included.
func TestPreparedFindsWhatAPlanWithoutFinds(t *testing.T) {
	var text strings.Builder
	for i := range 30 {
		fmt.Fprintf(&text, "line %d\n", i)
	}
	answers := [][]dialect.Block{
		{replace("a.go", "line 2\n", "two\nlines\n"), replace("a.go", "line 20\n", "")},
		// Lines the first answer moved, one of them ambiguous.
		{replace("a.go", "line 25\n", "25\n"), replace("a.go", "line 1\n", "x\n")},
		// A block quoting what the first answer replaced: stale.
		{replace("a.go", "line 19\nline 20\n", "y\n"), replace("a.go", "line 28\n", "28\n")},
		// The file's first bytes.
		{replace("a.go", "line 0\n", "start\n"), insert("a.go", 3, "after three\n")},
	}
	dir := newTree(t, map[string]string{"a.go": text.String()}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(dir, "a.go")
	o := NewOverlay(root)
	o.Open(abs, text.String(), 1)
	hist := &memHistory{}
	prepared := &Prepared{}
	for k, blocks := range answers {
		t.Run(fmt.Sprint("answer ", k+1), func(t *testing.T) {
			view := o.View()
			without, err := Plan(context.Background(), view, blocks, PlanOptions{History: hist, KeepGoing: true})
			if err != nil {
				t.Fatal(err)
			}
			before := without.Files[0].Before
			if k > 0 && prepared.docs[0].doc.Text() != before {
				t.Fatalf("the plan before kept no document of the text it left")
			}
			got, err := Plan(context.Background(), view, blocks, PlanOptions{History: hist, KeepGoing: true, Prepared: prepared})
			if err != nil {
				t.Fatal(err)
			}
			checkSamePlan(t, got, without, "with the document kept", "without")
			after := got.Files[0].After
			if doc := prepared.take(abs, after); doc == nil {
				t.Fatalf("no document kept of the text the plan left")
			} else {
				prepared.keep(abs, doc)
			}
			hist.Record(abs, before, after)
			o.Open(abs, strings.Clone(after), int32(k+2)) // the editor's own copy
		})
	}
	if prepared.take(abs, "line 0\n") != nil {
		t.Errorf("a document kept for another text")
	}
}

// TestPreparedTakesTurns runs plans of one file at once, with -race: a
// document is used by one plan at a time.
func TestPreparedTakesTurns(t *testing.T) {
	var text strings.Builder
	for i := range 200 {
		fmt.Fprintf(&text, "line %d\n", i)
	}
	dir := newTree(t, map[string]string{"a.go": text.String()}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	prepared := &Prepared{}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				// A plan that fails leaves the text as it is, and its
				// document for the next one to take.
				blocks, want := []dialect.Block{replace("a.go", fmt.Sprintf("line %d\n", i*g), "x\n"), replace("a.go", "line 199\n", "y\n")}, engine.StatusApplied
				if i%2 == 1 {
					blocks, want = []dialect.Block{replace("a.go", missing, "x\n")}, engine.StatusFailed
				}
				res, err := Plan(context.Background(), root, blocks, PlanOptions{Prepared: prepared})
				if err != nil || res.Blocks[len(blocks)-1].Status != want {
					t.Errorf("plan: %v, %+v", err, res)
					return
				}
			}
		}()
	}
	wg.Wait()
	if _, err := Plan(context.Background(), root, []dialect.Block{replace("a.go", missing, "x\n")}, PlanOptions{Prepared: prepared}); err != nil {
		t.Fatal(err)
	}
	if prepared.take(filepath.Join(dir, "a.go"), text.String()) == nil {
		t.Errorf("no document kept of the text as it is")
	}
}
