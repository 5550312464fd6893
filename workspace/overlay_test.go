package workspace

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
)

// tree writes files (slash-separated path to content) under a new
// temporary directory and returns its real path.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func openRoot(t *testing.T, dir string) *Root {
	t.Helper()
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// wantRead checks that src reads text at name, existing or not.
func wantRead(t *testing.T, src Source, name, text string, exists bool) Document {
	t.Helper()
	doc, err := src.Read(context.Background(), name)
	if err != nil {
		t.Fatalf("Read(%q): %v", name, err)
	}
	if doc.Text != text || doc.Exists != exists {
		t.Fatalf("Read(%q) = %q (exists %v), want %q (exists %v)", name, doc.Text, doc.Exists, text, exists)
	}
	return doc
}

func wantRefusal(t *testing.T, src Source, name string, reason error) {
	t.Helper()
	if abs, err := src.Path(name); !errors.Is(err, reason) {
		t.Errorf("Path(%q) = %q, %v; want %v", name, abs, err, reason)
	}
	if doc, err := src.Read(context.Background(), name); !errors.Is(err, reason) {
		t.Errorf("Read(%q) = %q, %v; want %v", name, doc.Text, err, reason)
	}
}

func TestOverlayBufferWinsOverDisk(t *testing.T) {
	dir := tree(t, map[string]string{"a.go": "disk\n", "b.go": "other\n"})
	o := NewOverlay(openRoot(t, dir))
	b := o.Open(filepath.Join(dir, "a.go"), "buffer\n", 3)
	doc := wantRead(t, o, "a.go", "buffer\n", true)
	if doc.Mode != 0o600 {
		t.Errorf("an open buffer's mode = %v, want the file's 0600", doc.Mode)
	}
	wantRead(t, o, filepath.Join(dir, "a.go"), "buffer\n", true)
	wantRead(t, o, "b.go", "other\n", true)
	wantRead(t, o, "missing.go", "", false)

	if err := b.Change(4, []Change{span(0, 0, "new ")}); err != nil {
		t.Fatal(err)
	}
	wantRead(t, o, "a.go", "new buffer\n", true)
	if data, _ := os.ReadFile(filepath.Join(dir, "a.go")); string(data) != "disk\n" {
		t.Errorf("the disk changed to %q", data)
	}

	o.Close(filepath.Join(dir, "a.go"))
	wantRead(t, o, "a.go", "disk\n", true)
	if o.Buffer(filepath.Join(dir, "a.go")) != nil {
		t.Error("a closed buffer is still found")
	}
}

func TestOverlayBufferOfANewFile(t *testing.T) {
	dir := tree(t, map[string]string{"sub/x.go": "x\n"})
	o := NewOverlay(openRoot(t, dir))
	o.Open(filepath.Join(dir, "new", "file.go"), "unsaved\n", 1)
	doc := wantRead(t, o, "new/file.go", "unsaved\n", true)
	if doc.Mode != defaultMode {
		t.Errorf("mode of a buffer not on disk = %v, want %v", doc.Mode, defaultMode)
	}
}

func TestOverlayRefusesWhatReadFileRefuses(t *testing.T) {
	dir := tree(t, map[string]string{"bin": "a\x00b", "latin1": "caf\xe9"})
	o := NewOverlay(openRoot(t, dir))
	o.Open(filepath.Join(dir, "nul.txt"), "text\x00with a NUL", 1)
	o.Open(filepath.Join(dir, "bad.txt"), "caf\xe9", 1)
	o.Open(filepath.Join(dir, "latin1"), "café", 1)
	for name, reason := range map[string]error{"bin": ErrBinary, "nul.txt": ErrBinary, "bad.txt": ErrNotUTF8} {
		if _, err := o.Read(context.Background(), name); !errors.Is(err, reason) {
			t.Errorf("Read(%q) = %v, want %v", name, err, reason)
		}
	}
	wantRead(t, o, "latin1", "café", true) // the buffer wins over a file ReadFile refuses
}

func TestOverlayRefusesBuffersTooLarge(t *testing.T) {
	dir := tree(t, nil)
	o := NewOverlay(openRoot(t, dir))
	o.Open(filepath.Join(dir, "at.txt"), strings.Repeat("x", MaxFileSize), 1)
	o.Open(filepath.Join(dir, "over.txt"), strings.Repeat("x", MaxFileSize+1), 1)
	for _, src := range []Source{o, o.View()} {
		if doc, err := src.Read(context.Background(), "at.txt"); err != nil || len(doc.Text) != MaxFileSize {
			t.Errorf("%T.Read of a buffer at the limit: %d bytes, %v", src, len(doc.Text), err)
		}
		if _, err := src.Read(context.Background(), "over.txt"); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "over.txt") {
			t.Errorf("%T.Read of a buffer over the limit: %v, want %v naming it", src, err, ErrTooLarge)
		}
	}
}

func TestOverlayOutOfSyncBufferIsNoDiskRead(t *testing.T) {
	dir := tree(t, map[string]string{"a.go": "disk\n"})
	o := NewOverlay(openRoot(t, dir))
	b := o.Open(filepath.Join(dir, "a.go"), "buffer\n", 1)
	if err := b.Change(2, []Change{span(90, 90, "x")}); err == nil {
		t.Fatal("a change past the end applied")
	}
	for _, src := range []Source{o, o.View()} {
		if doc, err := src.Read(context.Background(), "a.go"); !errors.Is(err, ErrOutOfSync) {
			t.Errorf("%T.Read of a buffer out of sync = %q, %v; want ErrOutOfSync", src, doc.Text, err)
		}
	}
}

func TestOverlayConfines(t *testing.T) {
	outside := tree(t, map[string]string{"secret.go": "secret\n"})
	dir := tree(t, map[string]string{"a.go": "a\n"})
	symlink(t, filepath.Join(outside, "secret.go"), filepath.Join(dir, "escape.go"))
	symlink(t, outside, filepath.Join(dir, "escapedir"))
	o := NewOverlay(openRoot(t, dir))
	// Opening a buffer for the target does not make it reachable.
	o.Open(filepath.Join(outside, "secret.go"), "open secret\n", 1)
	for _, name := range []string{
		"escape.go",
		"escapedir/secret.go",
		"escapedir/new.go",
		"../" + filepath.Base(outside) + "/secret.go",
		"sub/../../x.go",
		filepath.Join(outside, "secret.go"),
		"/etc/passwd",
	} {
		wantRefusal(t, o, name, ErrOutsideRoot)
	}
	// The buffer outside every root is still open, as an answer buffer is.
	if o.Buffer(filepath.Join(outside, "secret.go")) == nil {
		t.Error("a buffer outside every root was dropped")
	}
	if _, err := o.Path(""); err == nil {
		t.Error("Path accepted an empty name")
	}
}

func TestOverlayNoRoots(t *testing.T) {
	dir := tree(t, map[string]string{"a.go": "a\n"})
	o := NewOverlay()
	o.Open(filepath.Join(dir, "a.go"), "buffer\n", 1)
	for _, name := range []string{"a.go", filepath.Join(dir, "a.go")} {
		wantRefusal(t, o, name, ErrNoRoot)
		wantRefusal(t, o.View(), name, ErrNoRoot)
	}
	o.SetRoots([]*Root{openRoot(t, dir)})
	wantRead(t, o, "a.go", "buffer\n", true)
	if roots := o.Roots(); len(roots) != 1 || roots[0].Dir() != dir {
		t.Errorf("Roots() = %v after SetRoots", roots)
	}
}

func TestOverlaySymlinkedBuffer(t *testing.T) {
	for _, openedAs := range []string{"real.go", "link.go"} {
		t.Run("opened as "+openedAs, func(t *testing.T) {
			dir := tree(t, map[string]string{"real.go": "disk\n", "d/x.go": "x\n"})
			symlink(t, "real.go", filepath.Join(dir, "link.go"))
			symlink(t, "d", filepath.Join(dir, "dlink"))
			o := NewOverlay(openRoot(t, dir))
			b := o.Open(filepath.Join(dir, openedAs), "buffer\n", 7)
			o.Open(filepath.Join(dir, "dlink", "x.go"), "x buffer\n", 1)
			for _, name := range []string{"real.go", "link.go", filepath.Join(dir, "link.go")} {
				wantRead(t, o, name, "buffer\n", true)
				wantRead(t, o.View(), name, "buffer\n", true)
				if got := o.Buffer(filepath.Join(dir, name)); got != b && !filepath.IsAbs(name) {
					t.Errorf("Buffer(%s) = %v, want the buffer opened as %s", name, got, openedAs)
				}
			}
			if abs, _ := o.Path("link.go"); abs != filepath.Join(dir, "real.go") {
				t.Errorf("Path(link.go) = %s, want the real path", abs)
			}
			if s, ok := o.View().Snapshot(filepath.Join(dir, "real.go")); !ok || s.Version != 7 || s.Text != "buffer\n" {
				t.Errorf("View().Snapshot(real.go) = %+v, %v", s, ok)
			}
			wantRead(t, o, "d/x.go", "x buffer\n", true)
			wantRead(t, o, "dlink/x.go", "x buffer\n", true)
		})
	}
}

func TestOverlayOneFileOpenUnderTwoNames(t *testing.T) {
	dir := tree(t, map[string]string{"real.go": "disk\n"})
	symlink(t, "real.go", filepath.Join(dir, "link.go"))
	o := NewOverlay(openRoot(t, dir))
	byReal := o.Open(filepath.Join(dir, "real.go"), "as real\n", 1)
	byLink := o.Open(filepath.Join(dir, "link.go"), "as link\n", 1)
	if o.Buffer(filepath.Join(dir, "real.go")) != byReal || o.Buffer(filepath.Join(dir, "link.go")) != byLink {
		t.Error("a buffer is not found first under the path it was opened under")
	}
	// An edit lands on the real path: the buffer opened under it.
	wantRead(t, o, "link.go", "as real\n", true)
	o.Close(filepath.Join(dir, "real.go"))
	wantRead(t, o, "real.go", "as link\n", true)
}

func TestOverlayTwoRoots(t *testing.T) {
	a := tree(t, map[string]string{"both.go": "a both\n", "only_a.go": "a\n"})
	b := tree(t, map[string]string{"both.go": "b both\n", "only_b.go": "b\n", "sub/deep.go": "deep\n"})
	ra, rb := openRoot(t, a), openRoot(t, b)
	o := NewOverlay(ra, rb)
	o.Open(filepath.Join(b, "unsaved.go"), "unsaved in b\n", 1)
	tests := []struct {
		name, wantPath, wantText string
		exists                   bool
	}{
		{"both.go", filepath.Join(a, "both.go"), "a both\n", true},
		{"only_a.go", filepath.Join(a, "only_a.go"), "a\n", true},
		{"only_b.go", filepath.Join(b, "only_b.go"), "b\n", true},
		{"sub/deep.go", filepath.Join(b, "sub", "deep.go"), "deep\n", true},
		{"unsaved.go", filepath.Join(b, "unsaved.go"), "unsaved in b\n", true},
		{"nowhere.go", filepath.Join(a, "nowhere.go"), "", false},
		{filepath.Join(b, "both.go"), filepath.Join(b, "both.go"), "b both\n", true},
		{filepath.Join(b, "new.go"), filepath.Join(b, "new.go"), "", false},
	}
	for _, tt := range tests {
		for _, src := range []Source{o, o.View()} {
			abs, err := src.Path(tt.name)
			if err != nil || abs != tt.wantPath {
				t.Errorf("%T.Path(%q) = %q, %v; want %q", src, tt.name, abs, err, tt.wantPath)
			}
			wantRead(t, src, tt.name, tt.wantText, tt.exists)
		}
	}
	if got := o.Rel(filepath.Join(b, "sub", "deep.go")); got != "sub/deep.go" {
		t.Errorf("Rel in the second root = %q, want sub/deep.go", got)
	}
	if got := o.Rel("/elsewhere/x.go"); got != "/elsewhere/x.go" {
		t.Errorf("Rel outside every root = %q, want the whole path", got)
	}
	// ".." does not walk from one root into the other.
	wantRefusal(t, o, "../"+filepath.Base(b)+"/only_b.go", ErrOutsideRoot)
	// Without the second root, its files are outside.
	o.SetRoots([]*Root{ra})
	wantRefusal(t, o, filepath.Join(b, "both.go"), ErrOutsideRoot)
}

// A view within one root resolves names there alone: a name both roots
// have is that root's, the other root's files are outside, and its
// buffers are still read.
func TestViewWithin(t *testing.T) {
	a := tree(t, map[string]string{"both.go": "a both\n", "only_a.go": "a\n"})
	b := tree(t, map[string]string{"both.go": "b both\n", "only_b.go": "b\n", "inner/x.go": "x\n"})
	ra, rb, rinner := openRoot(t, a), openRoot(t, b), openRoot(t, filepath.Join(b, "inner"))
	o := NewOverlay(ra, rb, rinner)
	o.Open(filepath.Join(b, "both.go"), "b buffer\n", 1)
	inB := o.View().Within(rb)
	wantRead(t, inB, "both.go", "b buffer\n", true)
	wantRead(t, inB, "only_b.go", "b\n", true)
	wantRead(t, inB, "inner/x.go", "x\n", true)
	wantRead(t, inB, "only_a.go", "", false) // B's, which has none
	if got := inB.Rel(filepath.Join(b, "inner", "x.go")); got != "inner/x.go" {
		t.Errorf("Rel = %q, want inner/x.go, relative to the root it is within", got)
	}
	for _, name := range []string{filepath.Join(a, "both.go"), "../" + filepath.Base(a) + "/both.go"} {
		wantRefusal(t, inB, name, ErrOutsideRoot)
	}
	if inB.Exists(filepath.Join(a, "only_a.go")) {
		t.Error("Exists sees a file of the other root")
	}
	inA := o.View().Within(ra)
	wantRead(t, inA, "both.go", "a both\n", true)
	wantRefusal(t, inA, filepath.Join(b, "both.go"), ErrOutsideRoot)
}

// A view under a folder that holds the roots reads names relative to that
// folder, as graft apply run there wrote them, and confines them to the
// roots inside it: the editor has web/ open, the agent works at the top.
func TestViewUnder(t *testing.T) {
	top := tree(t, map[string]string{"web/a.ts": "disk a\n", "web/lib/b.ts": "b\n", "api/x.go": "x\n", "top.md": "top\n"})
	web := openRoot(t, filepath.Join(top, "web"))
	o := NewOverlay(web)
	o.Open(filepath.Join(top, "web", "a.ts"), "buffer a\n", 1)
	v, ok := o.View().Under(top)
	if !ok {
		t.Fatal("Under(top) found no root inside it")
	}
	wantRead(t, v, "web/a.ts", "buffer a\n", true)
	wantRead(t, v, "web/lib/b.ts", "b\n", true)
	wantRead(t, v, "web/new.ts", "", false) // a file to create, inside web/
	for _, name := range []string{"api/x.go", "top.md", "web/../api/x.go", "../outside.go", filepath.Join(top, "api", "x.go")} {
		wantRefusal(t, v, name, ErrOutsideRoot)
	}
	if _, err := v.Path("api/x.go"); err == nil || !strings.Contains(err.Error(), "api/x.go") || strings.Contains(err.Error(), top) {
		t.Errorf("the refusal should name the file as the edit wrote it: %v", err)
	}
	if got := v.Rel(filepath.Join(top, "web", "lib", "b.ts")); got != "web/lib/b.ts" {
		t.Errorf("Rel = %q, want web/lib/b.ts, relative to the folder the request was made in", got)
	}
	if !v.Exists("web/lib/b.ts") || v.Exists("api/x.go") {
		t.Error("Exists: want web/lib/b.ts, not api/x.go outside the roots")
	}
	if _, ok := o.View().Under(filepath.Join(top, "api")); ok {
		t.Error("Under(api) found a root inside a folder that holds none")
	}
	if _, ok := o.View().Under(filepath.Join(top, "web", "lib")); ok {
		t.Error("Under(web/lib): a folder inside a root is Within's, not Under's")
	}
}

func TestOverlayNestedRoots(t *testing.T) {
	outer := tree(t, map[string]string{"inner/x.go": "x\n"})
	o := NewOverlay(openRoot(t, outer), openRoot(t, filepath.Join(outer, "inner")))
	if got := o.Rel(filepath.Join(outer, "inner", "x.go")); got != "x.go" {
		t.Errorf("Rel = %q, want x.go, relative to the innermost root", got)
	}
	wantRead(t, o, "inner/x.go", "x\n", true)
	wantRead(t, o, "x.go", "x\n", true)
}

func TestViewIsFrozen(t *testing.T) {
	dir := tree(t, map[string]string{"a.go": "disk a\n", "b.go": "disk b\n", "c.go": "disk c\n"})
	o := NewOverlay(openRoot(t, dir))
	a := o.Open(filepath.Join(dir, "a.go"), "buffer a\n", 1)
	o.Open(filepath.Join(dir, "b.go"), "buffer b\n", 1)
	v := o.View()

	if err := a.Change(2, []Change{whole("changed a\n")}); err != nil {
		t.Fatal(err)
	}
	o.Close(filepath.Join(dir, "b.go"))
	o.Open(filepath.Join(dir, "c.go"), "buffer c\n", 1)
	o.SetRoots(nil)

	wantRead(t, v, "a.go", "buffer a\n", true)
	wantRead(t, v, "b.go", "buffer b\n", true)
	wantRead(t, v, "c.go", "disk c\n", true)
	if s, ok := v.Snapshot(filepath.Join(dir, "a.go")); !ok || s.Version != 1 || s.Text != "buffer a\n" {
		t.Errorf("v.Snapshot(a.go) = %+v, %v; want version 1", s, ok)
	}
	if _, ok := v.Snapshot(filepath.Join(dir, "c.go")); ok {
		t.Error("v.Snapshot(c.go) found a buffer opened after the view")
	}
	if got := v.Rel(filepath.Join(dir, "a.go")); got != "a.go" {
		t.Errorf("v.Rel = %q", got)
	}

	o.SetRoots([]*Root{openRoot(t, dir)})
	w := o.View()
	wantRead(t, w, "a.go", "changed a\n", true)
	wantRead(t, w, "b.go", "disk b\n", true)
	wantRead(t, w, "c.go", "buffer c\n", true)
}

func TestViewHonoursCancellation(t *testing.T) {
	dir := tree(t, map[string]string{"a.go": "a\n"})
	o := NewOverlay(openRoot(t, dir))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, src := range []Source{o, o.View()} {
		if _, err := src.Read(ctx, "a.go"); !errors.Is(err, context.Canceled) {
			t.Errorf("%T.Read with a done context = %v", src, err)
		}
	}
}

// TestPlanReadsBuffers checks the Overlay where it serves: a plan resolves
// its blocks against the open buffer, not the disk.
func TestPlanReadsBuffers(t *testing.T) {
	dir := tree(t, map[string]string{"a.go": "one\ntwo\nthree\n"})
	o := NewOverlay(openRoot(t, dir))
	o.Open(filepath.Join(dir, "a.go"), "one\nTWO\nthree\n", 5)
	block := dialect.Block{Edit: engine.Edit{Path: "a.go", Old: "TWO\n", New: "2\n", Dialect: dialect.SearchReplace}}
	res, err := Plan(context.Background(), o.View(), []dialect.Block{block}, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() || len(res.Files) != 1 || res.Files[0].Before != "one\nTWO\nthree\n" || res.Files[0].After != "one\n2\nthree\n" {
		t.Fatalf("plan over the buffer: %+v", res)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "a.go")); string(data) != "one\ntwo\nthree\n" {
		t.Errorf("planning changed the disk: %q", data)
	}
}

func TestOverlayReadErrorsNameThePath(t *testing.T) {
	dir := tree(t, map[string]string{"d/f": "x"})
	o := NewOverlay(openRoot(t, dir))
	_, err := o.Read(context.Background(), "d")
	var pe *fs.PathError
	if !errors.As(err, &pe) || !errors.Is(err, ErrIsDir) || pe.Path != "d" {
		t.Errorf("Read(d) = %v, want a PathError for d wrapping ErrIsDir", err)
	}
}

// Put puts back a buffer the overlay replaced: the buffer of one file
// under another name of the editor's, with its own version.
func TestOverlayPut(t *testing.T) {
	dir := tree(t, map[string]string{"a.go": "disk\n"})
	o := NewOverlay(openRoot(t, dir))
	first := o.Open(filepath.Join(dir, "a.go"), "first\n", 7)
	o.Open(filepath.Join(dir, ".", "a.go"), "second\n", 1)
	wantRead(t, o, "a.go", "second\n", true)
	o.Put(first)
	wantRead(t, o, "a.go", "first\n", true)
	if s, ok := o.View().Snapshot(filepath.Join(dir, "a.go")); !ok || s.Version != 7 {
		t.Errorf("Snapshot = %+v, %v; want version 7", s, ok)
	}
	if o.Buffer(filepath.Join(dir, "a.go")) != first {
		t.Error("Buffer is not the buffer put back")
	}
	o.Close(filepath.Join(dir, "a.go"))
	wantRead(t, o, "a.go", "disk\n", true)
}

// TestViewMapsEachNameOnce checks that a view maps a name as it did the
// first time it was asked, as the moment it is, while the disk still
// guards every read: a folder turned into a link out of the root after
// the view mapped a name through it is seen by the next view, and read
// through neither.
func TestViewMapsEachNameOnce(t *testing.T) {
	dir := newTree(t, map[string]string{"a/f.go": "package a\n"}, nil)
	outside := newTree(t, map[string]string{"f.go": "secret\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	o := NewOverlay(root)
	view := o.View()
	abs, err := view.Path("a/f.go")
	if err != nil {
		t.Fatal(err)
	}
	if again, err := view.Path(abs); again != abs || err != nil {
		t.Errorf("the path a name maps to maps to %q, %v; want itself", again, err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "a")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "a")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if again, err := view.Path("a/f.go"); again != abs || err != nil {
		t.Errorf("the view maps a/f.go to %q, %v the second time; want %q as the first", again, err, abs)
	}
	if _, err := o.View().Path("a/f.go"); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("a new view maps a/f.go through a link out of the root: %v, want ErrOutsideRoot", err)
	}
	for _, v := range []*View{view, o.View()} {
		if doc, err := v.Read(context.Background(), "a/f.go"); err == nil && doc.Text != "" {
			t.Errorf("read %q through a link out of the root", doc.Text)
		}
	}
}
