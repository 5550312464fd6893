package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/graft-editor/graft/workspace"
)

// TestDemo runs the README's first command, on the demo workspace: a dry
// run that must write nothing, show every imperfect block applying, and
// refuse the one block that matches two places.
func TestDemo(t *testing.T) {
	demo := filepath.Join("..", "..", "testdata", "demo")
	before := snapshot(t, demo)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(),
		[]string{"apply", "--root", demo, "--dry-run", "--json", filepath.Join(demo, "answer.md")},
		nil, &stdout, &stderr)
	if after := snapshot(t, demo); !maps.Equal(before, after) {
		t.Errorf("the dry run changed the demo workspace")
	}
	if code != exitFailed {
		t.Errorf("exit status %d, want %d (one block is refused); stderr:\n%s", code, exitFailed, &stderr)
	}
	var report workspace.Report
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("the report is not JSON: %v\n%s", err, &stdout)
	}
	const refused = 7 // the error handling that occurs twice in handlers.go
	for i, b := range report.Blocks {
		want := "applied"
		if i == refused {
			want = "failed"
		}
		if b.Status != want {
			t.Errorf("block %d (%s) %s, want %s: %s", i+1, b.Path, b.Status, want, b.Message)
		}
	}
	if len(report.Blocks) != refused+1 {
		t.Errorf("%d blocks, want %d", len(report.Blocks), refused+1)
	}
}

// snapshot returns the content of every file under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		files[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
