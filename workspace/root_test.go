package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newTree makes a directory holding the given files (path → content; a
// content ending in "/" makes a directory) and symbolic links (path →
// target), and returns its path with symbolic links evaluated.
func newTree(t *testing.T, files, links map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if content == "/" {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range links {
		target = os.Expand(target, func(v string) string { return map[string]string{"ROOT": dir}[v] })
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
			t.Skipf("symbolic links unavailable: %v", err)
		}
	}
	return dir
}

func TestPath(t *testing.T) {
	// The workspace is ROOT/ws; ROOT/outside.txt and ROOT/secret/ lie
	// beside it, outside.
	top := newTree(t, map[string]string{
		"ws/pkg/a.go":    "package pkg\n",
		"ws/real/b.go":   "package real\n",
		"outside.txt":    "secret\n",
		"secret/key.txt": "secret\n",
		"ws/dir/":        "/",
	}, map[string]string{
		"ws/link-in":      "real",
		"ws/link-in.go":   "real/b.go",
		"ws/link-out":     "../secret",
		"ws/link-out.txt": "../outside.txt",
		"ws/link-abs":     "${ROOT}/secret",
		"ws/dangling-in":  "real/new.go",
		"ws/dangling-out": "../secret/new.txt",
		"ws/pkg/up":       "..",
	})
	root, err := Open(filepath.Join(top, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(top, "ws")
	tests := []struct {
		name    string
		want    string // relative to ws; "" when Path must fail
		outside bool   // the failure wraps ErrOutsideRoot
	}{
		{name: "pkg/a.go", want: "pkg/a.go"},
		{name: "./pkg/a.go", want: "pkg/a.go"},
		{name: "pkg/../pkg/a.go", want: "pkg/a.go"},
		{name: "new/dir/c.go", want: "new/dir/c.go"},
		{name: ws + "/pkg/a.go", want: "pkg/a.go"},
		{name: ".", want: "."},
		{name: "link-in/b.go", want: "real/b.go"},
		{name: "link-in.go", want: "real/b.go"},
		{name: "link-in/new/c.go", want: "real/new/c.go"},
		{name: "pkg/up/pkg/a.go", want: "pkg/a.go"},
		{name: "dangling-in", want: "real/new.go"},
		{name: "../outside.txt", outside: true},
		{name: "pkg/../../outside.txt", outside: true},
		{name: "../ws2/x.go", outside: true},
		{name: top + "/outside.txt", outside: true},
		{name: "/etc/passwd", outside: true},
		{name: "link-out/key.txt", outside: true},
		{name: "link-out/new.txt", outside: true},
		{name: "link-out.txt", outside: true},
		{name: "link-abs/key.txt", outside: true},
		{name: "dangling-out", outside: true},
		{name: "pkg/a.go/x", outside: false},
		{name: "", outside: false},
	}
	for _, tt := range tests {
		got, err := root.Path(tt.name)
		if tt.want == "" {
			if err == nil {
				t.Errorf("Path(%q) = %q, want an error", tt.name, got)
				continue
			}
			if errors.Is(err, ErrOutsideRoot) != tt.outside {
				t.Errorf("Path(%q) error %q: wraps ErrOutsideRoot = %v, want %v", tt.name, err, !tt.outside, tt.outside)
			}
			continue
		}
		if err != nil {
			t.Errorf("Path(%q) error: %v", tt.name, err)
			continue
		}
		if want := filepath.Join(ws, filepath.FromSlash(tt.want)); got != want {
			t.Errorf("Path(%q) = %q, want %q", tt.name, got, want)
		}
		if rel := root.Rel(got); rel != tt.want {
			t.Errorf("Rel(Path(%q)) = %q, want %q", tt.name, rel, tt.want)
		}
	}
}

func TestPathErrorNamesThePath(t *testing.T) {
	dir := newTree(t, map[string]string{"ws/": "/", "secret/key.txt": "x"}, map[string]string{"ws/link": "../secret"})
	root, err := Open(filepath.Join(dir, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, want string }{
		{"../x.go", "resolve ../x.go: outside the workspace root"},
		{"link/key.txt", "resolve link/key.txt: outside the workspace root: a symbolic link leads to " + filepath.Join(dir, "secret", "key.txt")},
	} {
		_, err := root.Path(tt.name)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Path(%q) error = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestOpen(t *testing.T) {
	dir := newTree(t, map[string]string{"real/a.go": "x", "file": "x"}, map[string]string{"link": "real"})
	root, err := Open(filepath.Join(dir, "link"))
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "real"); root.Dir() != want {
		t.Errorf("Open(link).Dir() = %q, want the evaluated %q", root.Dir(), want)
	}
	// An absolute path spelled through the link is still inside.
	if got, err := root.Path(filepath.Join(dir, "link", "a.go")); err != nil || got != filepath.Join(dir, "real", "a.go") {
		t.Errorf("Path(link/a.go) = %q, %v; want %q", got, err, filepath.Join(dir, "real", "a.go"))
	}
	for _, bad := range []string{"file", "missing"} {
		if _, err := Open(filepath.Join(dir, bad)); err == nil {
			t.Errorf("Open(%s) succeeded, want an error", bad)
		}
	}
}

func TestPathRefusesControlCharacters(t *testing.T) {
	root, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a\nb.txt", "nul\x00.txt", "esc\x1b[31m.txt", "tab\t.txt", "del\x7f.txt", "c1\u0085.txt"} {
		_, err := root.Path(name)
		if !errors.Is(err, ErrBadName) {
			t.Errorf("Path(%q) error = %v, want %v", name, err, ErrBadName)
			continue
		}
		if strings.ContainsAny(err.Error(), "\n\x00\x1b\t\x7f\u0085") {
			t.Errorf("Path(%q) error %q holds the raw control character", name, err)
		}
	}
	for _, name := range []string{"é.txt", "日本.go", "with space.txt"} {
		if _, err := root.Path(name); err != nil {
			t.Errorf("Path(%q) error = %v, want none", name, err)
		}
	}
}

// A name written with backslashes, as a model on Windows writes them,
// reads as slash-separated where no file has the name as written; a
// file that does keeps it; a drive path names no file here; a backslash
// does not lead out of the root any more than a slash does.
func TestPathReadsBackslashesAsFolders(t *testing.T) {
	if filepath.Separator == '\\' {
		t.Skip("backslashes separate folders here")
	}
	dir := newTree(t, map[string]string{"src/services/client.py": "x\n", `odd\name.txt`: "y\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, want string }{
		{`src\services\client.py`, "src/services/client.py"},
		{`src\new\file.py`, "src/new/file.py"},
		{`src/services\client.py`, "src/services/client.py"},
		{`odd\name.txt`, `odd\name.txt`},
	} {
		got, err := root.Path(c.name)
		if err != nil || got != filepath.Join(dir, filepath.FromSlash(c.want)) {
			t.Errorf("Path(%q) = %q, %v; want %s", c.name, got, err, c.want)
		}
	}
	if _, err := root.Path(`C:\Users\me\proj\a.py`); !errors.Is(err, ErrBadName) || !strings.Contains(err.Error(), "drive path") {
		t.Errorf("a drive path: %v, want ErrBadName saying it is one", err)
	}
	if _, err := root.Path(`..\outside.txt`); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf(`..\outside.txt: %v, want ErrOutsideRoot`, err)
	}
}

func TestLinksKeepsALastLinkComponent(t *testing.T) {
	top := newTree(t, map[string]string{"ws/real/b.go": "b\n", "outside.txt": "x\n"}, map[string]string{
		"ws/link.go":   "real/b.go",
		"ws/dir":       "real",
		"ws/dangling":  "real/new.go",
		"ws/out.txt":   "../outside.txt",
		"ws/real/up":   "..",
		"ws/real/self": "b.go",
	})
	ws := filepath.Join(top, "ws")
	root, err := Open(ws)
	if err != nil {
		t.Fatal(err)
	}
	links := root.Links()
	for _, tt := range []struct{ name, want string }{
		{"link.go", "link.go"},
		{"dir", "dir"},
		{"dir/b.go", "real/b.go"},
		{"dir/self", "real/self"},
		{"dangling", "dangling"},
		{"real/up/link.go", "link.go"},
		{"real/b.go", "real/b.go"},
		{"out.txt", ""},
	} {
		got, err := links.Path(tt.name)
		switch {
		case tt.want == "" && !errors.Is(err, ErrOutsideRoot):
			t.Errorf("Links().Path(%q) = %q, %v; want outside the root", tt.name, got, err)
		case tt.want != "" && (err != nil || got != filepath.Join(ws, tt.want)):
			t.Errorf("Links().Path(%q) = %q, %v; want %s", tt.name, got, err, tt.want)
		}
	}
}

// TestRootSub opens folders inside a root as roots of their own, as the
// server confines a request from graft apply run in one: a folder inside
// is one, named by its real path; the root itself too; a folder outside,
// or one a link inside leads out to, is refused.
func TestRootSub(t *testing.T) {
	outside := t.TempDir()
	dir := newTree(t, map[string]string{"a/b/x.go": "package b\n"}, nil)
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, tc := range []struct {
		dir string
		ok  bool
	}{
		{filepath.Join(root.Dir(), "a", "b"), true},
		{root.Dir(), true},
		{outside, false},
		{filepath.Join(root.Dir(), "out"), false},
		{filepath.Join(root.Dir(), "none"), false},
	} {
		sub, err := root.Sub(tc.dir)
		if (err == nil) != tc.ok {
			t.Errorf("Sub(%s): %v, want ok %v", tc.dir, err, tc.ok)
			continue
		}
		if err != nil {
			continue
		}
		if _, err := sub.Path("../../../x"); !errors.Is(err, ErrOutsideRoot) {
			t.Errorf("Sub(%s): a name above it: %v, want ErrOutsideRoot", tc.dir, err)
		}
		sub.Close()
	}
	sub, err := root.Sub(filepath.Join(root.Dir(), "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if p, err := sub.Path("x.go"); err != nil || p != filepath.Join(root.Dir(), "a", "b", "x.go") {
		t.Errorf("x.go in a/b: %s, %v", p, err)
	}
}
