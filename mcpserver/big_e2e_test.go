package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPreviewRefusesAHugeFile names a file of a GiB in preview_edits and
// apply_edits: both refuse it as a tool error that says it is too large,
// without reading it, and the file is left as it is.
func TestPreviewRefusesAHugeFile(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.log")
	// A line of text, then a hole that reads as NUL bytes: binary, but
	// a reader that does not check the size first reads a GiB to learn it.
	if err := os.WriteFile(huge, []byte("line one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<30); err != nil {
		t.Fatal(err)
	}
	s := startIn(t, dir)
	answer := "huge.log\n<<<<<<< SEARCH\nline one\n=======\nline 1\n>>>>>>> REPLACE\n"
	want := "huge.log: too large, not edited: 1 GiB (1073741824 bytes), over the 32 MiB limit"
	for _, tool := range []string{"preview_edits", "apply_edits"} {
		res := s.call(tool, map[string]any{"text": answer})
		if !res.IsError {
			t.Errorf("%s: not a tool error:\n%s", tool, text(res))
		}
		if !strings.Contains(text(res), want) {
			t.Errorf("%s does not say %q:\n%s", tool, want, text(res))
		}
		if r := report(t, res); r.Failed != 1 || r.Applied != 0 {
			t.Errorf("%s: report %+v, want the block failed", tool, r)
		}
	}
	if fi, err := os.Stat(huge); err != nil || fi.Size() != 1<<30 {
		t.Errorf("huge.log after: %v, %v", fi, err)
	}
}
