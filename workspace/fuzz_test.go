package workspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzNames are the paths the file-operation fuzzer names: plain files,
// folders, links that stay inside and links that lead outside, and paths
// that climb out.
var fuzzNames = []string{
	"a.txt", "b.txt", "d", "d/x.txt", "d/e/y.txt", "in", "in/z.txt",
	"out", "out/z.txt", "outfile", "dang", "../escape.txt", "d/../a.txt",
}

// fuzzStates are what a name can be made before an operation: nothing, a
// file, a folder, or a symbolic link to a file or a folder inside or
// outside, or to nothing outside.
var fuzzStates = []func(t *testing.T, root, outside, p string){
	func(t *testing.T, root, outside, p string) { os.RemoveAll(p) },
	func(t *testing.T, root, outside, p string) {
		os.RemoveAll(p)
		os.WriteFile(p, []byte("inside\n"), 0o644)
	},
	func(t *testing.T, root, outside, p string) { os.RemoveAll(p); os.Mkdir(p, 0o755) },
	func(t *testing.T, root, outside, p string) {
		os.RemoveAll(p)
		os.Symlink(filepath.Join(root, "a.txt"), p)
	},
	func(t *testing.T, root, outside, p string) { os.RemoveAll(p); os.Symlink(filepath.Join(root, "d"), p) },
	func(t *testing.T, root, outside, p string) { os.RemoveAll(p); os.Symlink(outside, p) },
	func(t *testing.T, root, outside, p string) {
		os.RemoveAll(p)
		os.Symlink(filepath.Join(outside, "secret.txt"), p)
	},
	func(t *testing.T, root, outside, p string) { os.RemoveAll(p); os.Symlink("../outside/new.txt", p) },
	func(t *testing.T, root, outside, p string) { os.RemoveAll(p); os.Symlink("..", p) },
}

// FuzzFileOps runs creates, deletions, moves and edits through a Root on
// a tree whose files, folders and links the input puts in random states
// between the operations, and checks that nothing outside the root is
// ever touched and no temporary file is left anywhere.
func FuzzFileOps(f *testing.F) {
	f.Add([]byte{0, 1, 0, 3, 1, 5, 2, 7, 8, 3})
	f.Add([]byte{1, 7, 5, 0, 3, 3, 2, 2, 9, 4, 1, 1})
	f.Add([]byte{2, 2, 4, 0, 7, 1, 8, 3, 3, 0, 6, 9})
	f.Add([]byte{3, 8, 8, 1, 0, 4, 10, 6, 0, 5, 11, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 64 {
			ops = ops[:64]
		}
		top := t.TempDir()
		rootDir, outside := filepath.Join(top, "root"), filepath.Join(top, "outside")
		for _, d := range []string{rootDir, filepath.Join(outside, "sub")} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(rootDir, "a.txt"), []byte("inside\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want := snapshotTree(t, outside)
		root, err := Open(rootDir)
		if err != nil {
			t.Fatal(err)
		}
		defer root.Close()
		name := func(b byte) string { return fuzzNames[int(b)%len(fuzzNames)] }
		setState := func(x, y byte) { // put a name in a state
			p := filepath.Join(rootDir, filepath.FromSlash(name(x)))
			if strings.HasPrefix(name(x), "..") || !strings.HasPrefix(p, rootDir) {
				return
			}
			if parent, err := filepath.EvalSymlinks(filepath.Dir(p)); err != nil || !strings.HasPrefix(parent, rootDir+string(filepath.Separator)) && parent != rootDir {
				return // never let the fuzzer itself write outside
			}
			fuzzStates[int(y)%len(fuzzStates)](t, rootDir, outside, p)
		}
		for len(ops) >= 3 {
			op, x, y := ops[0], ops[1], ops[2]
			ops = ops[3:]
			switch op % 6 {
			case 0:
				setState(x, y)
			case 5: // plan a change, let the tree change, then commit it
				abs, err := root.Links().Path(name(x))
				if err != nil || len(ops) < 2 {
					continue
				}
				doc, _ := root.ReadFile(abs)
				fc := &FileChange{Path: root.Rel(abs), abs: abs, Before: doc.Text, Existed: doc.Exists,
					After: doc.Text + "planned\n", Exists: y%4 != 0}
				if y%4 == 1 && doc.Exists {
					if dst, err := root.Links().Path(name(y / 4)); err == nil {
						fc.newAbs, fc.NewPath = dst, root.Rel(dst)
					}
				}
				setState(ops[0], ops[1])
				ops = ops[2:]
				if c, err := root.stage(fc, y%2 == 0); err == nil {
					setState(y, x) // between staging and the rename too
					c.commit()
					c.cleanup()
				}
			case 1:
				root.WriteFile(name(x), "edited\n")
			case 2:
				root.Remove(name(x))
			case 3:
				root.Rename(name(x), name(y))
			case 4:
				if doc, err := root.ReadFile(name(x)); err == nil && doc.Exists {
					root.WriteFile(name(x), doc.Text+"more\n")
				}
			}
		}
		if got := snapshotTree(t, outside); !equalTrees(got, want) {
			t.Fatalf("the tree outside the root changed:\ngot  %q\nwant %q", got, want)
		}
		filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.Contains(d.Name(), tempMark) {
				t.Errorf("temporary file left: %s", p)
			}
			return nil
		})
	})
}

// snapshotTree returns every entry under dir, by path, described by its
// type, mode and content or link target.
func snapshotTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		desc := fi.Mode().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			desc += " -> " + target
		case fi.Mode().IsRegular():
			data, _ := os.ReadFile(p)
			desc += " " + string(data)
		}
		tree[p] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func equalTrees(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
