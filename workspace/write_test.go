package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// readTree returns the regular files under dir, path → content.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestWriteFile(t *testing.T) {
	tests := []struct {
		name     string
		mode     fs.FileMode // of the existing file; 0 for none
		text     string
		wantMode fs.FileMode
	}{
		{name: "a.go", mode: 0o644, text: "new\n", wantMode: 0o644},
		{name: "run.sh", mode: 0o755, text: "#!/bin/sh\nexit 0\n", wantMode: 0o755},
		{name: "private.txt", mode: 0o600, text: "x", wantMode: 0o600},
		{name: "fresh.go", text: "package fresh\n", wantMode: 0o644},
		{name: "deep/new/dirs/c.go", text: "package dirs\n", wantMode: 0o644},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := newTree(t, nil, nil)
			path := filepath.Join(dir, filepath.FromSlash(tt.name))
			if tt.mode != 0 {
				if err := os.WriteFile(path, []byte("old\n"), tt.mode); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(path, tt.mode); err != nil {
					t.Fatal(err)
				}
			}
			root, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if err := root.WriteFile(tt.name, tt.text); err != nil {
				t.Fatal(err)
			}
			if got := readTree(t, dir); len(got) != 1 || got[tt.name] != tt.text {
				t.Errorf("after WriteFile the tree is %q, want only %s = %q", got, tt.name, tt.text)
			}
			if got := mode(t, path); got != tt.wantMode {
				t.Errorf("mode = %v, want %v", got, tt.wantMode)
			}
		})
	}
}

func TestWriteFileThroughSymlinkKeepsTheLink(t *testing.T) {
	dir := newTree(t, map[string]string{"real.go": "old\n"}, map[string]string{"link.go": "real.go"})
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := root.WriteFile("link.go", "new\n"); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "link.go")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("link.go is no longer a symbolic link (%v)", err)
	}
	if got := readTree(t, dir); got["real.go"] != "new\n" {
		t.Errorf("real.go = %q, want the new text", got["real.go"])
	}
}

func TestWriteFileFailureLeavesNoTrace(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := newTree(t, map[string]string{"ro/a.go": "old\n"}, nil)
	if err := os.Chmod(filepath.Join(dir, "ro"), 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "ro"), 0o755) })
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := root.WriteFile("ro/a.go", "new\n"); err == nil {
		t.Fatal("WriteFile into a read-only directory succeeded")
	}
	if got := readTree(t, dir); len(got) != 1 || got["ro/a.go"] != "old\n" {
		t.Errorf("after a failed write the tree is %q, want ro/a.go untouched and nothing else", got)
	}
}

func TestWriteFileRefusesOutsideAndDirectories(t *testing.T) {
	dir := newTree(t, map[string]string{"ws/sub/": "/"}, map[string]string{"ws/out": ".."})
	root, err := Open(filepath.Join(dir, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		want error
	}{
		{"../escape.txt", ErrOutsideRoot},
		{"out/escape.txt", ErrOutsideRoot},
		{"sub", ErrIsDir},
	} {
		if err := root.WriteFile(tt.name, "x"); !errors.Is(err, tt.want) {
			t.Errorf("WriteFile(%q) error = %v, want %v", tt.name, err, tt.want)
		}
	}
	if got := readTree(t, dir); len(got) != 0 {
		t.Errorf("refused writes left files: %q", got)
	}
}

func TestRemove(t *testing.T) {
	dir := newTree(t, map[string]string{"a.go": "x", "keep.go": "y", "sub/": "/"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := root.Remove("a.go"); err != nil {
		t.Fatal(err)
	}
	if err := root.Remove("sub"); !errors.Is(err, ErrIsDir) {
		t.Errorf("Remove(sub) error = %v, want %v", err, ErrIsDir)
	}
	if err := root.Remove("missing.go"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Remove(missing.go) error = %v, want %v", err, fs.ErrNotExist)
	}
	if got := readTree(t, dir); len(got) != 1 || got["keep.go"] != "y" {
		t.Errorf("after Remove the tree is %q, want only keep.go", got)
	}
}

func TestRename(t *testing.T) {
	dir := newTree(t, map[string]string{"a.go": "a", "b.go": "b"}, nil)
	if err := os.Chmod(filepath.Join(dir, "a.go"), 0o700); err != nil {
		t.Fatal(err)
	}
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := root.Rename("a.go", "b.go"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Rename onto an existing file: error = %v, want %v", err, fs.ErrExist)
	}
	if err := root.Rename("a.go", "../a.go"); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("Rename out of the root: error = %v, want %v", err, ErrOutsideRoot)
	}
	if err := root.Rename("a.go", "new/dir/a.go"); err != nil {
		t.Fatal(err)
	}
	if got := readTree(t, dir); len(got) != 2 || got["new/dir/a.go"] != "a" || got["b.go"] != "b" {
		t.Errorf("after Rename the tree is %q", got)
	}
	if got := mode(t, filepath.Join(dir, "new/dir/a.go")); got != 0o700 {
		t.Errorf("mode after Rename = %v, want 0700", got)
	}
}

func TestCommitFailureRemovesTheTemporaryFile(t *testing.T) {
	dir := newTree(t, map[string]string{"a.go": "old\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	f := &FileChange{Path: "a.go", abs: filepath.Join(dir, "a.go"), Before: "old\n", After: "new\n", Existed: true, Exists: true}
	c, err := root.stage(f, false)
	if err != nil {
		t.Fatal(err)
	}
	// The file turns into a directory between staging and the rename.
	if err := os.Remove(filepath.Join(dir, "a.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "a.go", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.commit(); err == nil {
		t.Fatal("commit over a directory succeeded")
	}
	c.cleanup()
	if got := readTree(t, dir); len(got) != 0 {
		t.Errorf("after a failed commit the tree holds files %q, want none", got)
	}
}
