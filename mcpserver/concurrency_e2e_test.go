package mcpserver_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentEdits sends edits of one file at the same time: each is
// planned against what is on disk, written under the root's lock, and
// planned again when another wrote the file meanwhile, so that none is
// lost.
func TestConcurrentEdits(t *testing.T) {
	const n = 12
	var file strings.Builder
	for i := range n {
		fmt.Fprintf(&file, "line %d: old\n", i)
	}
	dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": file.String()})
	s := startIn(t, dir)
	var wg sync.WaitGroup
	errs := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.callErr("edit", map[string]any{"path": "a.txt",
				"old_string": fmt.Sprintf("line %d: old\n", i), "new_string": fmt.Sprintf("line %d: new\n", i)})
			switch {
			case err != nil:
				errs[i] = err.Error()
			case res.IsError:
				errs[i] = text(res)
			}
		}()
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			t.Errorf("edit %d: %s", i, e)
		}
	}
	if got, want := readFile(t, dir, "a.txt"), strings.ReplaceAll(file.String(), ": old", ": new"); got != want {
		t.Errorf("a.txt:\n%s\nwant:\n%s", got, want)
	}
}
