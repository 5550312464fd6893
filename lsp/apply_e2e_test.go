package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/workspace"
)

// applyReply is the reply to graft.apply.
type applyReply struct {
	Applied       bool          `json:"applied"`
	FailureReason string        `json:"failureReason"`
	Blocks        []blockReport `json:"blocks"`
}

// blockReport is one block's entry in a reply: the report of graft
// apply --json, with the document and the range.
type blockReport struct {
	workspace.BlockReport
	URI   string          `json:"uri"`
	Range *protocol.Range `json:"range"`
}

// previewReply is the reply to graft.preview.
type previewReply struct {
	Edit   fakeeditor.WorkspaceEdit `json:"edit"`
	Diff   string                   `json:"diff"`
	Blocks []blockReport            `json:"blocks"`
}

// execute runs a graft command with params as its one argument.
func execute(t testing.TB, e *fakeeditor.Editor, command string, params, result any) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return e.Call(ctx, "workspace/executeCommand", map[string]any{
		"command": command, "arguments": []any{params},
	}, result)
}

// writeFiles writes files (slash-separated paths relative to dir) and
// returns dir.
func writeFiles(t testing.TB, dir string, files map[string]string) string {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// openFiles writes files as writeFiles does and opens each in e, as the
// same text in a Go buffer.
func openFiles(t testing.TB, e *fakeeditor.Editor, dir string, files map[string]string) {
	t.Helper()
	writeFiles(t, dir, files)
	for name, text := range files {
		if err := e.Open(filepath.Join(dir, filepath.FromSlash(name)), "go", text); err != nil {
			t.Fatal(err)
		}
	}
}

// readFile returns the content of dir/name, or "<absent>".
func readFile(t testing.TB, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if errors.Is(err, os.ErrNotExist) {
		return "<absent>"
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// waitText waits until the editor's buffer of path holds want.
func waitText(t testing.TB, e *fakeeditor.Editor, path, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for e.Text(path) != want {
		if time.Now().After(deadline) {
			t.Fatalf("buffer %s:\n%s\nwant:\n%s", path, e.Text(path), want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func statuses(blocks []blockReport) string {
	var s []string
	for _, b := range blocks {
		s = append(s, b.Status)
	}
	return strings.Join(s, ",")
}

// The open buffer wins over the file on disk: the block resolves against
// the unsaved text, the editor's buffer changes, and the disk is never
// written.
func TestApplyBufferWinsOverDisk(t *testing.T) {
	for _, opt := range []fakeeditor.Options{fakeeditor.VSCode(), fakeeditor.Neovim072()} {
		t.Run(opt.Flavor.String(), func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), map[string]string{
				"a.go": "package a\n\nfunc f() int {\n\treturn 1\n}\n",
			})
			opt.Folders = []string{dir}
			e, _ := fakeeditor.StartReady(t, opt)
			path := filepath.Join(dir, "a.go")
			buffer := "package a\n\n// unsaved\nfunc f() int {\n\treturn 2\n}\n"
			if err := e.Open(path, "go", buffer); err != nil {
				t.Fatal(err)
			}
			answer := "a.go\n```go\n<<<<<<< SEARCH\n\treturn 2\n=======\n\treturn 3\n>>>>>>> REPLACE\n```\n"
			var r applyReply
			if err := execute(t, e, "graft.apply", map[string]any{"text": answer}, &r); err != nil {
				t.Fatal(err)
			}
			if !r.Applied || statuses(r.Blocks) != "applied" {
				t.Fatalf("reply %+v", r)
			}
			waitText(t, e, path, "package a\n\n// unsaved\nfunc f() int {\n\treturn 3\n}\n")
			if got := readFile(t, dir, "a.go"); got != "package a\n\nfunc f() int {\n\treturn 1\n}\n" {
				t.Errorf("disk written: %q", got)
			}
			b := r.Blocks[0]
			if b.URI != string(fakeeditor.URI(path)) || b.Range == nil || b.Range.Start.Line != 4 {
				t.Errorf("block uri %s range %+v, want %s line 4", b.URI, b.Range, fakeeditor.URI(path))
			}

			// The disk's text is not the buffer's: a search for it fails.
			answer = "a.go\n```go\n<<<<<<< SEARCH\n\treturn 1\n=======\n\treturn 4\n>>>>>>> REPLACE\n```\n"
			if err := execute(t, e, "graft.apply", map[string]any{"text": answer}, &r); err != nil {
				t.Fatal(err)
			}
			if statuses(r.Blocks) != "failed" {
				t.Fatalf("a search of the disk's text: %+v", r.Blocks)
			}
		})
	}
}

// Positions are right around text that UTF-16 and UTF-8 count
// differently: emoji (two UTF-16 units, four bytes) and CJK (one unit,
// three bytes) before the edit point on the same line, and CRLF lines.
func TestApplyPositionsAroundNonASCII(t *testing.T) {
	const before = "x := \"😀中文\"; y := 1 // 🎉\r\nz := \"𝄞\"; w := 2\r\n"
	const after = "x := \"😀中文\"; y := 10 // 🎉\r\nz := \"𝄞\"; w := 2\r\n"
	cases := []struct {
		name      string
		encodings []string
		want      string
	}{
		{"utf-16 by default", nil, "utf-16"},
		{"utf-16 offered", []string{"utf-16"}, "utf-16"},
		{"utf-8 offered", []string{"utf-8", "utf-16"}, "utf-8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), map[string]string{"m.go": before})
			opt := fakeeditor.VSCode(dir)
			opt.PositionEncodings = c.encodings
			e, init := fakeeditor.StartReady(t, opt)
			if enc := init.PositionEncoding; enc != c.want {
				t.Fatalf("positionEncoding %q, want %q", enc, c.want)
			}
			path := filepath.Join(dir, "m.go")
			if err := e.Open(path, "go", before); err != nil {
				t.Fatal(err)
			}
			edits := []map[string]any{{"filePath": "m.go", "oldString": "y := 1 //", "newString": "y := 10 //"}}
			var r applyReply
			if err := execute(t, e, "graft.apply", map[string]any{"edits": edits}, &r); err != nil {
				t.Fatal(err)
			}
			waitText(t, e, path, after)
			// Typing after the emoji, then applying after it again.
			if err := e.Edit(path, &protocol.Range{
				Start: protocol.Position{Line: 1, Character: charAfter(t, "z := \"𝄞\"", c.want)},
				End:   protocol.Position{Line: 1, Character: charAfter(t, "z := \"𝄞\"", c.want)},
			}, "!"); err != nil {
				t.Fatal(err)
			}
			edits = []map[string]any{{"filePath": "m.go", "oldString": "w := 2", "newString": "w := 20"}}
			if err := execute(t, e, "graft.apply", map[string]any{"edits": edits}, &r); err != nil {
				t.Fatal(err)
			}
			waitText(t, e, path, "x := \"😀中文\"; y := 10 // 🎉\r\nz := \"𝄞\"!; w := 20\r\n")
			if got := readFile(t, dir, "m.go"); got != before {
				t.Errorf("disk written: %q", got)
			}
		})
	}
}

// charAfter returns the character offset just after prefix, in enc.
func charAfter(t testing.TB, prefix, enc string) uint32 {
	t.Helper()
	n := 0
	for _, r := range prefix {
		switch {
		case enc == "utf-8":
			n += len(string(r))
		case r >= 0x10000:
			n += 2
		default:
			n++
		}
	}
	return uint32(n)
}

// The text edits cover only the lines that change, so that what the
// editor keeps on other lines (cursors, marks, folds) stays: also when
// the model's copy is off and the block is found by similarity, where the
// engine rewrites its region as a whole.
func TestApplyTouchesOnlyChangedLines(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 100; i++ {
		fmt.Fprintf(&b, "line %d of the file\n", i)
	}
	text := b.String()
	for _, tc := range []struct{ name, search string }{
		{"exact", "line 48 of the file\nline 49 of the file\nline 50 of the file\nline 51 of the file\nline 52 of the file\n"},
		{"similar", "line 48 of teh file\n  line 49 of the file\nline 50 of the file\nline 51 of the file  \nline 52 of the flie\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), map[string]string{"big.txt": text})
			e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
			path := filepath.Join(dir, "big.txt")
			if err := e.Open(path, "plaintext", text); err != nil {
				t.Fatal(err)
			}
			replace := strings.Replace(tc.search, "line 50 of the file", "line fifty", 1)
			answer := "big.txt\n```\n<<<<<<< SEARCH\n" + tc.search + "=======\n" + replace + ">>>>>>> REPLACE\n```\n"
			var r applyReply
			if err := execute(t, e, "graft.apply", map[string]any{"text": answer}, &r); err != nil {
				t.Fatal(err)
			}
			edits := e.AppliedEdits()
			if len(edits) != 1 {
				t.Fatalf("%d applyEdit requests, want 1 (%+v)", len(edits), r)
			}
			dc := edits[0].Decoded.Edit.DocumentChanges
			if len(dc) != 1 || dc[0].TextDocumentEdit == nil {
				t.Fatalf("documentChanges %s", edits[0].Params)
			}
			te := dc[0].TextDocumentEdit
			if te.TextDocument.Version == nil || *te.TextDocument.Version != 1 {
				t.Errorf("version %v, want the open buffer's 1", te.TextDocument.Version)
			}
			want := protocol.TextEdit{
				Range:   protocol.Range{Start: protocol.Position{Line: 49}, End: protocol.Position{Line: 50}},
				NewText: "line fifty\n",
			}
			if len(te.Edits) != 1 || te.Edits[0] != want {
				t.Fatalf("edits %+v, want only %+v", te.Edits, want)
			}
			waitText(t, e, path, strings.Replace(text, "line 50 of the file", "line fifty", 1))
		})
	}
}

// Files that are not open are read from disk, edited with a null version
// and created, renamed and deleted by the editor's resource operations;
// the server writes nothing itself.
func TestApplyResourceOperations(t *testing.T) {
	patch := `*** Begin Patch
*** Add File: sub/new.txt
+fresh
*** Update File: old.txt
*** Move to: moved.txt
@@
 one
-two
+TWO
*** Delete File: gone.txt
*** Update File: closed.txt
@@
-green
+blue
*** End Patch
`
	for _, opt := range []fakeeditor.Options{fakeeditor.VSCode(), fakeeditor.Neovim072()} {
		t.Run(opt.Flavor.String(), func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), map[string]string{"old.txt": "one\ntwo\n", "gone.txt": "bye\n", "closed.txt": "red\ngreen\n"})
			opt.Folders = []string{dir}
			e, _ := fakeeditor.StartReady(t, opt)
			var r applyReply
			if err := execute(t, e, "graft.apply", map[string]any{"text": patch}, &r); err != nil {
				t.Fatal(err)
			}
			if !r.Applied || statuses(r.Blocks) != "applied,applied,applied,applied,applied" {
				t.Fatalf("reply %+v", r)
			}
			// One patch is one block to the person, whose editor may
			// show the edit's label (VS Code's undo menu does).
			if got := e.AppliedEdits(); len(got) != 1 || got[0].Decoded.Label != "Graft: 1 edit block" {
				t.Errorf("applied edits %+v, want one labelled as one block", got)
			}
			// The editor created, renamed and deleted; it edits buffers
			// and saves nothing, so the disk keeps the old contents.
			if got := readFile(t, dir, "gone.txt"); got != "<absent>" {
				t.Errorf("gone.txt: %q", got)
			}
			if got := readFile(t, dir, "old.txt"); got != "<absent>" {
				t.Errorf("old.txt: %q", got)
			}
			if got := readFile(t, dir, "moved.txt"); got != "one\ntwo\n" {
				t.Errorf("moved.txt on disk: %q", got)
			}
			if got := readFile(t, dir, "closed.txt"); got != "red\ngreen\n" {
				t.Errorf("closed.txt on disk: %q (the server must not write)", got)
			}
			waitText(t, e, filepath.Join(dir, "moved.txt"), "one\nTWO\n")
			waitText(t, e, filepath.Join(dir, "closed.txt"), "red\nblue\n")
			waitText(t, e, filepath.Join(dir, "sub", "new.txt"), "fresh\n")
		})
	}
}

// A client that advertises neither documentChanges nor resource
// operations gets plain changes; what needs a resource operation fails
// with a reason, and the rest applies.
func TestApplyChangesFallback(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "alpha\nbeta\n"})
	opt := fakeeditor.Options{Flavor: fakeeditor.FlavorVSCode, Folders: []string{dir}}
	e, _ := fakeeditor.StartReady(t, opt)
	path := filepath.Join(dir, "a.txt")
	if err := e.Open(path, "plaintext", "alpha\nbeta\n"); err != nil {
		t.Fatal(err)
	}
	edits := []map[string]any{
		{"filePath": "a.txt", "oldString": "beta", "newString": "gamma"},
		{"command": "create", "path": "b.txt", "file_text": "new\n"},
	}
	var r applyReply
	if err := execute(t, e, "graft.apply", map[string]any{"edits": edits}, &r); err != nil {
		t.Fatal(err)
	}
	if statuses(r.Blocks) != "applied,failed" || !strings.Contains(r.Blocks[1].Message, "cannot create") {
		t.Fatalf("blocks %+v", r.Blocks)
	}
	ae := e.AppliedEdits()
	if len(ae) != 1 || len(ae[0].Decoded.Edit.Changes) != 1 || len(ae[0].Decoded.Edit.DocumentChanges) != 0 {
		t.Fatalf("edit %s", ae[0].Params)
	}
	waitText(t, e, path, "alpha\ngamma\n")
	if got := readFile(t, dir, "b.txt"); got != "<absent>" {
		t.Errorf("b.txt: %q", got)
	}
}

// Every dialect goes through graft.apply, and blocks that name no file
// go to the uri given.
func TestApplyEveryDialect(t *testing.T) {
	const file = "def greet(name):\n    print('hello', name)\n    return name\n"
	const want = "def greet(name):\n    print('hi', name)\n    return name\n"
	cases := []struct {
		dialect string
		params  map[string]any
	}{
		{"search-replace", map[string]any{"text": "g.py\n```python\n<<<<<<< SEARCH\n    print('hello', name)\n=======\n    print('hi', name)\n>>>>>>> REPLACE\n```\n"}},
		{"str-replace", map[string]any{"edits": []map[string]any{{"file_path": "g.py", "old_string": "print('hello', name)", "new_string": "print('hi', name)"}}}},
		{"edit-v3", map[string]any{"text": "g.py\n««« EDIT\ndef greet(name):\n    print('hello', name)\n═══════ REPL\ndef greet(name):\n    print('hi', name)\n»»» EDIT END\n"}},
		{"unified-diff", map[string]any{"text": "--- a/g.py\n+++ b/g.py\n@@ -1,3 +1,3 @@\n def greet(name):\n-    print('hello', name)\n+    print('hi', name)\n     return name\n"}},
		{"apply-patch", map[string]any{"text": "*** Begin Patch\n*** Update File: g.py\n@@ def greet(name):\n-    print('hello', name)\n+    print('hi', name)\n*** End Patch\n"}},
		{"search-replace", map[string]any{"text": "<<<<<<< SEARCH\n    print('hello', name)\n=======\n    print('hi', name)\n>>>>>>> REPLACE\n", "uri": "TARGET"}},
	}
	for _, c := range cases {
		name := c.dialect
		if c.params["uri"] != nil {
			name += " to the uri"
		}
		t.Run(name, func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), map[string]string{"g.py": file})
			e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
			path := filepath.Join(dir, "g.py")
			if err := e.Open(path, "python", file); err != nil {
				t.Fatal(err)
			}
			if c.params["uri"] != nil {
				c.params["uri"] = string(fakeeditor.URI(path))
			}
			var r applyReply
			if err := execute(t, e, "graft.apply", c.params, &r); err != nil {
				t.Fatal(err)
			}
			if !r.Applied || len(r.Blocks) != 1 || r.Blocks[0].Dialect != c.dialect || r.Blocks[0].Status != "applied" {
				t.Fatalf("reply %+v", r)
			}
			waitText(t, e, path, want)
		})
	}
}

// An edit computed against a version the buffer has left is not applied:
// VS Code refuses it and the reply says so; Neovim 0.7.2 skips it and
// says applied, and the server sees that the text is not what it sent and
// warns.
func TestApplyStaleVersion(t *testing.T) {
	for _, opt := range []fakeeditor.Options{fakeeditor.VSCode(), fakeeditor.Neovim072()} {
		t.Run(opt.Flavor.String(), func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "alpha\nbeta\n"})
			path := filepath.Join(dir, "a.txt")
			opt.Folders = []string{dir}
			typed := false
			opt.BeforeApplyEdit = func(e *fakeeditor.Editor, params json.RawMessage) {
				if !typed {
					typed = true
					e.Edit(path, &protocol.Range{}, "// typed\n")
				}
			}
			e, _ := fakeeditor.StartReady(t, opt)
			if err := e.Open(path, "plaintext", "alpha\nbeta\n"); err != nil {
				t.Fatal(err)
			}
			edits := []map[string]any{{"filePath": "a.txt", "oldString": "beta", "newString": "gamma"}}
			var r applyReply
			if err := execute(t, e, "graft.apply", map[string]any{"edits": edits}, &r); err != nil {
				t.Fatal(err)
			}
			if e.Text(path) != "// typed\nalpha\nbeta\n" {
				t.Fatalf("buffer %q: a stale edit was applied", e.Text(path))
			}
			if opt.Flavor == fakeeditor.FlavorVSCode {
				if r.Applied || r.FailureReason == "" || statuses(r.Blocks) != "failed" || r.Blocks[0].Reason != "not-applied" {
					t.Fatalf("reply %+v; want the block failed, reason not-applied", r)
				}
				return
			}
			if _, err := e.WaitMessage(func(m fakeeditor.ShowMessage) bool {
				return m.Type == protocol.MessageTypeWarning && strings.Contains(m.Message, "does not hold the result")
			}, 10*time.Second); err != nil {
				t.Fatalf("no warning: %v; messages %+v", err, e.Messages())
			}
		})
	}
}

// With atomic, nothing applies unless every block does.
func TestApplyAtomic(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	edits := []map[string]any{
		{"filePath": "a.txt", "oldString": "alpha", "newString": "ALPHA"},
		{"filePath": "b.txt", "oldString": "not there", "newString": "x"},
	}
	var r applyReply
	if err := execute(t, e, "graft.apply", map[string]any{"edits": edits, "atomic": true}, &r); err != nil {
		t.Fatal(err)
	}
	if statuses(r.Blocks) != "skipped,failed" {
		t.Fatalf("blocks %+v", r.Blocks)
	}
	if n := len(e.AppliedEdits()); n != 0 {
		t.Errorf("%d edits sent", n)
	}
}

// Bad commands fail clearly and change nothing: an unknown command,
// missing params, a path outside the root, an answer without blocks.
func TestApplyBadInput(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "alpha\n"})
	outside := writeFiles(t, t.TempDir(), map[string]string{"secret.txt": "s\n"})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	var r applyReply
	err := execute(t, e, "graft.nope", map[string]any{}, &r)
	var rerr *fakeeditor.ResponseError
	if !errors.As(err, &rerr) || rerr.Code != -32602 {
		t.Errorf("unknown command: %v", err)
	}
	if err := execute(t, e, "graft.apply", map[string]any{"text": "just prose\n"}, &r); !errors.As(err, &rerr) {
		t.Errorf("no blocks: %v", err)
	}
	rel, _ := filepath.Rel(dir, filepath.Join(outside, "secret.txt"))
	edits := []map[string]any{
		{"filePath": filepath.ToSlash(rel), "oldString": "s", "newString": "x"},
		{"filePath": filepath.Join(outside, "secret.txt"), "oldString": "s", "newString": "x"},
	}
	if err := execute(t, e, "graft.apply", map[string]any{"edits": edits}, &r); err != nil {
		t.Fatal(err)
	}
	if statuses(r.Blocks) != "failed,failed" || !strings.Contains(r.Blocks[0].Message, "outside") {
		t.Fatalf("blocks %+v", r.Blocks)
	}
	if got := readFile(t, outside, "secret.txt"); got != "s\n" {
		t.Errorf("outside file: %q", got)
	}
	if n := len(e.AppliedEdits()); n != 0 {
		t.Errorf("%d edits sent", n)
	}
}

// graft.preview returns the edit and the diff, and sends nothing.
func TestPreview(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "alpha\nbeta\n"})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	edits := []map[string]any{{"filePath": "a.txt", "oldString": "beta", "newString": "gamma"}}
	var r previewReply
	if err := execute(t, e, "graft.preview", map[string]any{"edits": edits}, &r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Diff, "-beta\n+gamma\n") || statuses(r.Blocks) != "applied" {
		t.Fatalf("preview %+v", r)
	}
	if len(r.Edit.DocumentChanges) != 1 || r.Edit.DocumentChanges[0].TextDocumentEdit.TextDocument.Version != nil {
		t.Errorf("edit %+v: want one edit of the unopened file, version null", r.Edit)
	}
	if n := len(e.AppliedEdits()); n != 0 {
		t.Errorf("%d edits sent by a preview", n)
	}
}

// An answer of more than 20 blocks reports its progress.
func TestApplyProgress(t *testing.T) {
	files := map[string]string{}
	var edits []map[string]any
	for i := range 25 {
		name := fmt.Sprintf("f%02d.txt", i)
		files[name] = fmt.Sprintf("value %d\n", i)
		edits = append(edits, map[string]any{"filePath": name, "oldString": fmt.Sprintf("value %d", i), "newString": fmt.Sprintf("value %d!", i)})
	}
	dir := writeFiles(t, t.TempDir(), files)
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	var r applyReply
	if err := execute(t, e, "graft.apply", map[string]any{"edits": edits}, &r); err != nil {
		t.Fatal(err)
	}
	if !r.Applied || r.Blocks[24].Status != "applied" {
		t.Fatalf("reply %+v", r)
	}
	prog, err := e.WaitProgress(func(p []fakeeditor.Progress) bool {
		return len(p) > 0 && p[len(p)-1].Value.Kind == "end"
	}, 5*time.Second)
	if err != nil {
		t.Fatalf("progress %+v: %v", prog, err)
	}
	if len(e.ProgressCreated()) != 1 || prog[0].Value.Kind != "begin" {
		t.Errorf("progress %+v, created %d", prog, len(e.ProgressCreated()))
	}
}

// A request waiting its turn can be cancelled with its numeric id.
func TestCancelQueuedRequest(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "alpha\n"})
	opt := fakeeditor.VSCode(dir)
	var queued <-chan fakeeditor.Response
	opt.BeforeApplyEdit = func(e *fakeeditor.Editor, params json.RawMessage) {
		// graft.apply waits for this reply; a preview sent now waits
		// behind it, and is cancelled before its turn.
		var id int64
		id, queued = e.Go("workspace/executeCommand", map[string]any{
			"command": "graft.preview", "arguments": []any{map[string]any{"text": "a.txt\n<<<<<<< SEARCH\nalpha\n=======\nbeta\n>>>>>>> REPLACE\n"}},
		})
		e.Cancel(id)
		time.Sleep(100 * time.Millisecond)
	}
	e, _ := fakeeditor.StartReady(t, opt)
	edits := []map[string]any{{"filePath": "a.txt", "oldString": "alpha", "newString": "ALPHA"}}
	var r applyReply
	if err := execute(t, e, "graft.apply", map[string]any{"edits": edits}, &r); err != nil {
		t.Fatal(err)
	}
	select {
	case resp := <-queued:
		if resp.Error == nil || resp.Error.Code != -32800 {
			t.Fatalf("cancelled preview answered %+v", resp)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no reply to the cancelled request")
	}
}

// A panic in a handler is an error reply, and the server lives on.
func TestPanicInHandler(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "alpha\n"})
	opt := fakeeditor.VSCode(dir)
	opt.Args = []string{"--inject-panic", "workspace/executeCommand"}
	e, _ := fakeeditor.StartReady(t, opt)
	var r applyReply
	err := execute(t, e, "graft.apply", map[string]any{"text": "x"}, &r)
	var rerr *fakeeditor.ResponseError
	if !errors.As(err, &rerr) || rerr.Code != -32603 {
		t.Fatalf("panicking handler: %v", err)
	}
	if err := e.Open(filepath.Join(dir, "a.txt"), "plaintext", "alpha\n"); err != nil {
		t.Fatal(err)
	}
	var actions []json.RawMessage
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.Call(ctx, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": fakeeditor.URI(filepath.Join(dir, "a.txt"))},
		"range":        protocol.Range{},
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions); err != nil {
		t.Fatalf("server dead after a panic: %v", err)
	}
}

// A block that fails gives, as its range, its best candidate: where a
// client shows the refusal.
func TestFailedBlockRangeIsTheBestCandidate(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{
		"a.go": "package a\n\nfunc f() {\n\tx := compute(1, 2, 3)\n\ty := x * 2\n}\n",
	})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	answer := "a.go\n<<<<<<< SEARCH\n\tx := compute(9, 8, 7, 6)\n\ty := x * 3 + 1\n=======\n\tx := 0\n>>>>>>> REPLACE\n"
	var r previewReply
	if err := execute(t, e, "graft.preview", map[string]any{"text": answer}, &r); err != nil {
		t.Fatal(err)
	}
	if statuses(r.Blocks) != "failed" {
		t.Fatalf("blocks %+v", r.Blocks)
	}
	if rg := r.Blocks[0].Range; rg == nil || rg.Start.Line != 3 {
		t.Errorf("range %+v, want the candidate at line 4 (0-based 3)\n%s", rg, r.Blocks[0].Message)
	}
}
