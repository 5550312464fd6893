package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
)

// sr is a SEARCH/REPLACE block.
func sr(path, old, new string) dialect.Block {
	return dialect.Block{Edit: engine.Edit{Path: path, Old: old, New: new, Dialect: dialect.SearchReplace}}
}

func TestAtomicCommitRestoresWhatItWroteWhenALaterFileFails(t *testing.T) {
	dir := newTree(t, map[string]string{"a.txt": "alpha\n", "d.txt": "delta\n", "z/b.txt": "beta\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	blocks := []dialect.Block{
		sr("a.txt", "alpha\n", "ALPHA\n"),
		{Edit: engine.Edit{Path: "c/new.txt", Op: engine.OpCreate, New: "new\n", Dialect: dialect.SearchReplace}},
		{Edit: engine.Edit{Path: "d.txt", Op: engine.OpDelete, Dialect: dialect.ApplyPatch}, Unchecked: true},
		sr("z/b.txt", "beta\n", "BETA\n"),
	}
	res, err := Plan(context.Background(), root.Links(), blocks, PlanOptions{Atomic: true})
	if err != nil || !res.OK() {
		t.Fatalf("Plan: %v, %+v", err, res.Blocks)
	}
	// The last file changes after the plan: its rename is refused after
	// the first three are made, which must then be undone.
	if err := os.WriteFile(filepath.Join(dir, "z", "b.txt"), []byte("changed meanwhile\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = CommitWith(context.Background(), root, res, CommitOptions{Atomic: true})
	if !errors.Is(err, ErrChangedOnDisk) {
		t.Errorf("CommitWith error = %v, want %v", err, ErrChangedOnDisk)
	}
	want := map[string]string{"a.txt": "alpha\n", "d.txt": "delta\n", "z/b.txt": "changed meanwhile\n"}
	if got := readTree(t, dir); !equalTrees(got, want) {
		t.Errorf("after the failed transaction the tree is %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "c")); err == nil {
		t.Error("the folder created for c/new.txt is left")
	}
	for i, b := range res.Blocks {
		if b.Status != engine.StatusFailed || !strings.Contains(b.Message, "not written") {
			t.Errorf("block %d: %s %q, want failed, not written", i+1, b.Status, b.Message)
		}
	}
	for _, f := range res.Files {
		if f.Changed {
			t.Errorf("%s still counts as changed", f.Path)
		}
	}
}

func TestCommitEachFileOnItsOwnSaysWhichWereWritten(t *testing.T) {
	dir := newTree(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Plan(context.Background(), root.Links(), []dialect.Block{sr("a.txt", "alpha\n", "ALPHA\n"), sr("b.txt", "beta\n", "BETA\n")}, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.txt"), []byte("changed meanwhile\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Commit(context.Background(), root, res); !errors.Is(err, ErrChangedOnDisk) {
		t.Errorf("Commit error = %v, want %v", err, ErrChangedOnDisk)
	}
	if !res.Files[0].Changed || res.Files[1].Changed {
		t.Errorf("changed = %v, %v; want a.txt written, b.txt not", res.Files[0].Changed, res.Files[1].Changed)
	}
	if b := res.Blocks[1]; b.Status != engine.StatusFailed || !strings.HasPrefix(b.Message, "b.txt not written: changed on disk") {
		t.Errorf("block 2: %s %q", b.Status, b.Message)
	}
	want := map[string]string{"a.txt": "ALPHA\n", "b.txt": "changed meanwhile\n"}
	if got := readTree(t, dir); !equalTrees(got, want) {
		t.Errorf("tree %q, want %q", got, want)
	}
}

// TestApplyReplansAfterAnotherWriter: a process that planned while another
// held the lock and changed the file plans again against what is on disk,
// so that both edits are kept.
func TestApplyReplansAfterAnotherWriter(t *testing.T) {
	dir := newTree(t, map[string]string{"f.txt": "one\ntwo\nthree\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := root.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	planned := make(chan struct{})
	var once sync.Once
	opt := ApplyOptions{Plan: PlanOptions{Progress: func(done, total int) { once.Do(func() { close(planned) }) }}}
	type outcome struct {
		res *Result
		err error
	}
	done := make(chan outcome)
	go func() {
		res, err := Apply(context.Background(), root, []dialect.Block{sr("f.txt", "three\n", "THREE\n")}, opt)
		done <- outcome{res, err}
	}()
	<-planned
	// The other writer, holding the lock.
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("ONE\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unlock()
	o := <-done
	if o.err != nil || !o.res.OK() {
		t.Fatalf("Apply: %v, %+v", o.err, o.res)
	}
	if got := readTree(t, dir)["f.txt"]; got != "ONE\ntwo\nTHREE\n" {
		t.Errorf("f.txt = %q, want both edits", got)
	}
}

func TestLockWaitsAndGivesUpWithTheContext(t *testing.T) {
	root, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// A second Root on the same directory is another open file: flock
	// excludes it as it would another process.
	other, err := Open(root.Dir())
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := root.Lock(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := other.Lock(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Lock while held: error %v, want %v", err, context.DeadlineExceeded)
	}
	unlock()
	unlock2, err := other.Lock(t.Context())
	if err != nil {
		t.Fatalf("Lock after release: %v", err)
	}
	unlock2()
}
