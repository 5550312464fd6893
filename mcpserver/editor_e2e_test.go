package mcpserver_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/mcpserver"
)

// The editor route end to end: the built graft serve, driven by fakeeditor's
// editor with a buffer that differs from the disk, and the built graft mcp
// sending an edit to it over the editor link.

const (
	editorDisk   = "package main\n\nfunc answer() int {\n\treturn 41\n}\n"
	editorBuffer = "package main\n\n// unsaved\nfunc answer() int {\n\treturn 41\n}\n"
)

// editorWorkspace returns a root holding main.go as editorDisk, and a
// private, short socket directory (a socket's path must fit in 108 bytes).
func editorWorkspace(t *testing.T) (root, sockets string) {
	t.Helper()
	root = writeFiles(t, t.TempDir(), map[string]string{"main.go": editorDisk})
	short, err := os.MkdirTemp("", "gm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	return root, filepath.Join(short, "graft")
}

// startEditor starts graft serve for root with main.go open as
// editorBuffer, and waits until it listens on its socket.
func startEditor(t *testing.T, root, sockets string) *fakeeditor.Editor {
	t.Helper()
	opt := fakeeditor.VSCode(root)
	opt.Env = append(os.Environ(), editorlink.DirEnv+"="+sockets)
	e, _ := fakeeditor.StartReady(t, opt)
	if err := e.Open(filepath.Join(root, "main.go"), "go", editorBuffer); err != nil {
		t.Fatal(err)
	}
	waitListening(t, sockets, root)
	return e
}

// waitListening waits until a graft serve listens on root's socket in
// sockets.
func waitListening(t *testing.T, sockets, root string) {
	t.Helper()
	path, err := editorlink.SocketPath(sockets, root)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("unix", path); err == nil {
			c.Close()
			return
		}
	}
	t.Fatalf("graft serve does not listen on %s", path)
}

func TestEditorRoute(t *testing.T) {
	edit := map[string]any{"path": "main.go", "old_string": "\treturn 41\n", "new_string": "\treturn 42\n"}
	tests := []struct {
		name      string
		mode      string
		editor    bool // a graft serve serves the root
		wantErr   bool
		buffer    string // the buffer after, when an editor runs
		disk      string
		via       string
		wantInErr string
		// linkMode, when set, is the mode the socket directory is given
		// (after the editor's graft serve listens there): 0755 makes it
		// unsafe to use.
		linkMode os.FileMode
	}{
		{name: "auto: the buffer changes, the disk does not", mode: "auto", editor: true,
			buffer: strings.Replace(editorBuffer, "41", "42", 1), disk: editorDisk, via: "editor"},
		{name: "always: the buffer changes", mode: "always", editor: true,
			buffer: strings.Replace(editorBuffer, "41", "42", 1), disk: editorDisk, via: "editor"},
		{name: "never: the disk changes behind the editor", mode: "never", editor: true,
			buffer: editorBuffer, disk: strings.Replace(editorDisk, "41", "42", 1), via: "disk"},
		{name: "auto without an editor: the disk changes", mode: "auto",
			disk: strings.Replace(editorDisk, "41", "42", 1), via: "disk"},
		{name: "always without an editor: refused, nothing changes", mode: "always",
			wantErr: true, disk: editorDisk, wantInErr: "no graft serve is serving this workspace"},
		{name: "auto with an unsafe link: refused, neither the buffer nor the disk changes", mode: "auto", editor: true, linkMode: 0o755,
			wantErr: true, buffer: editorBuffer, disk: editorDisk, wantInErr: "has mode 0755"},
		{name: "auto with an unsafe link and no editor: refused, the disk does not change", mode: "auto", linkMode: 0o755,
			wantErr: true, disk: editorDisk, wantInErr: "has mode 0755"},
		{name: "always with an unsafe link: refused", mode: "always", editor: true, linkMode: 0o755,
			wantErr: true, buffer: editorBuffer, disk: editorDisk, wantInErr: "has mode 0755"},
		{name: "never with an unsafe link: the disk changes, as told", mode: "never", editor: true, linkMode: 0o755,
			buffer: editorBuffer, disk: strings.Replace(editorDisk, "41", "42", 1), via: "disk"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, sockets := editorWorkspace(t)
			var e *fakeeditor.Editor
			if tt.editor {
				e = startEditor(t, root, sockets)
			}
			if tt.linkMode != 0 {
				if err := os.MkdirAll(sockets, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(sockets, tt.linkMode); err != nil {
					t.Fatal(err)
				}
			}
			s := start(t, startOptions{
				args: []string{"--root", root, "--editor", tt.mode},
				env:  append(os.Environ(), editorlink.DirEnv+"="+sockets),
			})
			res := s.call("edit", edit)
			if res.IsError != tt.wantErr {
				t.Fatalf("isError %v, want %v:\n%s", res.IsError, tt.wantErr, text(res))
			}
			main := filepath.Join(root, "main.go")
			if got := readFile(t, root, "main.go"); got != tt.disk {
				t.Errorf("disk:\n%s\nwant:\n%s", got, tt.disk)
			}
			if e != nil && e.Text(main) != tt.buffer {
				t.Errorf("buffer:\n%s\nwant:\n%s", e.Text(main), tt.buffer)
			}
			if tt.wantErr {
				if !strings.Contains(text(res), tt.wantInErr) {
					t.Errorf("error does not say %q:\n%s", tt.wantInErr, text(res))
				}
				if tt.linkMode != 0 {
					// It says why, and what the user can do.
					for _, w := range []string{sockets, "may have this workspace open", "Nothing was written", "chmod 700 " + sockets, "--editor never"} {
						if !strings.Contains(text(res), w) {
							t.Errorf("error does not say %q:\n%s", w, text(res))
						}
					}
				}
				return
			}
			r := report(t, res)
			if r.Via != tt.via || r.Applied != 1 {
				t.Errorf("via %q applied %d, want %q 1:\n%s", r.Via, r.Applied, tt.via, text(res))
			}
			if tt.via == "editor" {
				// The block landed on line 5 of the buffer, line 4 on disk.
				if b := r.Blocks[0]; b.StartLine != 5 || !strings.Contains(text(res), "editor's open buffers") {
					t.Errorf("block %+v; text:\n%s", b, text(res))
				}
				if n := len(e.AppliedEdits()); n != 1 {
					t.Errorf("%d workspace/applyEdit requests, want 1", n)
				}
			}
		})
	}
}

func TestParseEditorMode(t *testing.T) {
	for in, want := range map[string]mcpserver.EditorMode{"": "auto", "auto": "auto", "always": "always", "never": "never"} {
		if got, err := mcpserver.ParseEditorMode(in); err != nil || got != want {
			t.Errorf("ParseEditorMode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := mcpserver.ParseEditorMode("sometimes"); err == nil {
		t.Error("ParseEditorMode(\"sometimes\") did not fail")
	}
}

func TestEditorRouteRefusals(t *testing.T) {
	root, sockets := editorWorkspace(t)
	e := startEditor(t, root, sockets)
	s := start(t, startOptions{
		args: []string{"--root", root},
		env:  append(os.Environ(), editorlink.DirEnv+"="+sockets),
	})
	tests := []struct {
		name     string
		args     map[string]any
		wantText []string
	}{
		{name: "a search unlike the buffer shows the candidate",
			args:     map[string]any{"path": "main.go", "old_string": "func question() string {\n\treturn \"why\"\n}\n", "new_string": "x\n"},
			wantText: []string{"Refused (main.go):", "candidate at lines", "Nothing changed, in the editor's buffers or on disk."}},
		{name: "a path outside the root",
			args:     map[string]any{"path": "../outside.go", "old_string": "", "new_string": "package outside\n"},
			wantText: []string{"Refused (", "outside"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := s.call("edit", tt.args)
			t.Logf("text for the model:\n%s", text(res))
			if !res.IsError {
				t.Fatalf("not a tool error:\n%s", text(res))
			}
			for _, w := range tt.wantText {
				if !strings.Contains(text(res), w) {
					t.Errorf("text does not say %q:\n%s", w, text(res))
				}
			}
			if r := report(t, res); r.Via != "editor" || r.Failed != 1 {
				t.Errorf("via %q failed %d, want editor 1", r.Via, r.Failed)
			}
			if got := readFile(t, root, "main.go"); got != editorDisk {
				t.Errorf("disk changed:\n%s", got)
			}
			if got := e.Text(filepath.Join(root, "main.go")); got != editorBuffer {
				t.Errorf("buffer changed:\n%s", got)
			}
			if got := readFile(t, filepath.Dir(root), "outside.go"); got != "<missing>" {
				t.Errorf("a file was written outside the root")
			}
		})
	}
}

// TestEditorRouteFromAFolder runs graft mcp rooted in a folder of the
// workspace an editor has open: its edit goes to that editor, confined to
// the folder, and the disk behind the editor is not written.
func TestEditorRouteFromAFolder(t *testing.T) {
	root, sockets := editorWorkspace(t)
	sub := filepath.Join(root, "cmd")
	util := writeFiles(t, sub, map[string]string{"util.go": "package main\n\nfunc half(x int) int { return x / 2 }\n"})
	e := startEditor(t, root, sockets)
	s := start(t, startOptions{
		args: []string{"--root", util, "--editor", "auto"},
		env:  append(os.Environ(), editorlink.DirEnv+"="+sockets),
	})
	res := s.call("edit", map[string]any{"path": "util.go", "old_string": "x / 2", "new_string": "x >> 1"})
	if res.IsError {
		t.Fatalf("edit: %s", text(res))
	}
	if r := report(t, res); r.Via != "editor" || r.Applied != 1 || r.Blocks[0].Path != "util.go" {
		t.Errorf("via %q, applied %d, blocks %+v; want util.go applied via the editor:\n%s", r.Via, r.Applied, r.Blocks, text(res))
	}
	if got := e.Text(filepath.Join(sub, "util.go")); !strings.Contains(got, "x >> 1") {
		t.Errorf("util.go's buffer:\n%s", got)
	}
	if got := readFile(t, sub, "util.go"); strings.Contains(got, "x >> 1") {
		t.Errorf("the disk changed behind the editor:\n%s", got)
	}
}

// TestEditorRouteFromTheFolderAbove runs graft mcp at the top of a
// repository whose folder web/ an editor has open, as an agent does: an
// edit of a file in web/ lands in the editor's buffer; edits of web/ and
// of a file outside it in one call are refused whole, nothing written,
// and the model is told to send each folder's in a call of their own; an
// edit outside web/ is written to the disk.
func TestEditorRouteFromTheFolderAbove(t *testing.T) {
	top, sockets := editorWorkspace(t)
	const appBuffer = "package web\n\n// unsaved\nfunc port() int { return 80 }\n"
	web := writeFiles(t, filepath.Join(top, "web"), map[string]string{"app.go": "package web\n\nfunc port() int { return 80 }\n"})
	opt := fakeeditor.VSCode(web)
	opt.Env = append(os.Environ(), editorlink.DirEnv+"="+sockets)
	e, _ := fakeeditor.StartReady(t, opt)
	app := filepath.Join(web, "app.go")
	if err := e.Open(app, "go", appBuffer); err != nil {
		t.Fatal(err)
	}
	waitListening(t, sockets, web)
	s := start(t, startOptions{
		args: []string{"--root", top, "--editor", "auto"},
		env:  append(os.Environ(), editorlink.DirEnv+"="+sockets),
	})

	res := s.call("edit", map[string]any{"path": "web/app.go", "old_string": "return 80", "new_string": "return 8080"})
	if res.IsError {
		t.Fatalf("edit: %s", text(res))
	}
	if r := report(t, res); r.Via != "editor" || r.Applied != 1 || r.Blocks[0].Path != "web/app.go" {
		t.Errorf("via %q, applied %d, blocks %+v; want web/app.go applied via the editor:\n%s", r.Via, r.Applied, r.Blocks, text(res))
	}
	if got := e.Text(app); got != strings.Replace(appBuffer, "return 80", "return 8080", 1) {
		t.Errorf("app.go's buffer:\n%s", got)
	}
	if got := readFile(t, web, "app.go"); strings.Contains(got, "8080") {
		t.Errorf("the disk changed behind the editor:\n%s", got)
	}

	both := "web/app.go\n<<<<<<< SEARCH\nreturn 8080\n=======\nreturn 8081\n>>>>>>> REPLACE\n\nmain.go\n<<<<<<< SEARCH\n\treturn 41\n=======\n\treturn 42\n>>>>>>> REPLACE\n"
	res = s.call("apply_edits", map[string]any{"text": both})
	if !res.IsError || !strings.Contains(text(res), "in a call of their own") || !strings.Contains(text(res), "main.go (which no editor serves)") {
		t.Errorf("edits of web/ and main.go in one call: want a tool error telling to split them:\n%s", text(res))
	}
	if got := e.Text(app); strings.Contains(got, "8081") {
		t.Errorf("app.go's buffer changed:\n%s", got)
	}
	if got := readFile(t, top, "main.go"); got != editorDisk {
		t.Errorf("main.go changed on disk:\n%s", got)
	}

	res = s.call("edit", map[string]any{"path": "main.go", "old_string": "return 41", "new_string": "return 42"})
	if res.IsError {
		t.Fatalf("edit main.go: %s", text(res))
	}
	if r := report(t, res); r.Via != "disk" {
		t.Errorf("main.go: via %q, want the disk, which no editor holds there", r.Via)
	}
	if got := readFile(t, top, "main.go"); !strings.Contains(got, "return 42") {
		t.Errorf("main.go on disk:\n%s", got)
	}
}
