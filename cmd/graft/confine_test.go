package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// refused fails t unless the editor link's reply refuses its one block as
// outside the workspace root, as graft apply --editor never refuses it.
func refused(t *testing.T, rep *editorlink.Reply, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("the request failed: %v", err)
	}
	if len(rep.Blocks) > 0 && rep.Blocks[0].Status == "failed" && strings.Contains(rep.Blocks[0].Message, "outside the workspace root") {
		return
	}
	t.Errorf("reply %+v; want the block refused as outside the workspace root", rep)
}

// An editor that has two folders open serves both, but a request routed
// from one folder stays in it: graft apply --root A, and a raw editor
// link request for root A, cannot edit B's files, by absolute path, by
// "..", by a target uri or through a symbolic link; nothing changes, in
// the buffers or on disk.
func TestEditorRouteKeepsToItsRoot(t *testing.T) {
	a, sockets := editorWorkspace(t)
	b, _ := editorWorkspace(t)
	secret := filepath.Join(b, "c.txt")
	const secretText = "a sea of text\n"
	if err := os.WriteFile(secret, []byte(secretText), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(a, "link.txt")); err != nil {
		t.Fatal(err)
	}
	opt := fakeeditor.VSCode(a, b)
	opt.Env = editorEnv(sockets)
	e, _ := fakeeditor.StartReady(t, opt)
	if err := e.Open(secret, "plaintext", secretText); err != nil {
		t.Fatal(err)
	}
	waitSocket(t, sockets, a, true)
	waitSocket(t, sockets, b, true)

	rel, err := filepath.Rel(a, secret)
	if err != nil {
		t.Fatal(err)
	}
	escapes := []struct{ name, answer string }{
		{"absolute path in the other folder", `{"path":"` + secret + `","old_string":"sea","new_string":"ESCAPED"}`},
		{"dot-dot", `{"path":"` + filepath.ToSlash(rel) + `","old_string":"sea","new_string":"ESCAPED"}`},
		{"symbolic link", `{"path":"link.txt","old_string":"sea","new_string":"ESCAPED"}`},
		{"unified diff", "--- " + secret + "\n+++ " + secret + "\n@@ -1 +1 @@\n-a sea of text\n+ESCAPED\n"},
		{"move into the other folder", "*** Begin Patch\n*** Update File: main.go\n*** Move to: " + filepath.Join(b, "moved.go") + "\n@@\n-\treturn 41\n+\treturn 42\n*** End Patch\n"},
	}
	unchanged := func(t *testing.T) {
		t.Helper()
		if got := e.Text(secret); got != secretText {
			t.Errorf("B's buffer changed:\n%s", got)
		}
		if got := readFile(t, secret); got != secretText {
			t.Errorf("B's file changed:\n%s", got)
		}
		if _, err := os.Lstat(filepath.Join(b, "moved.go")); err == nil {
			t.Error("a file was moved into B")
		}
	}
	for _, tc := range escapes {
		for _, mode := range []string{"auto", "always"} {
			t.Run("graft apply/"+tc.name+"/"+mode, func(t *testing.T) {
				out, stderr, code := runGraft(t, sockets, a, tc.answer, "apply", "--root", a, "--editor", mode, "-")
				if code != exitFailed || !strings.Contains(stderr, "outside the workspace root") {
					t.Errorf("status %d, want %d and a refusal\nstdout:\n%s\nstderr:\n%s", code, exitFailed, out, stderr)
				}
				unchanged(t)
			})
		}
		t.Run("link request/"+tc.name, func(t *testing.T) {
			// A client that skips graft apply's own check: the server
			// refuses it.
			t.Setenv(editorlink.DirEnv, sockets)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			rep, err := editorlink.Send(ctx, a, nil, &editorlink.Request{Text: tc.answer})
			refused(t, rep, err)
			unchanged(t)
		})
	}
	t.Run("link request/target uri in the other folder", func(t *testing.T) {
		t.Setenv(editorlink.DirEnv, sockets)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		answer := "<<<<<<< SEARCH\nsea\n=======\nESCAPED\n>>>>>>> REPLACE\n"
		rep, err := editorlink.Send(ctx, a, nil, &editorlink.Request{Text: answer, URI: string(fakeeditor.URI(secret))})
		refused(t, rep, err)
		unchanged(t)
	})
	t.Run("the same edit from B's own root goes through", func(t *testing.T) {
		out, stderr, code := runGraft(t, sockets, b, escapes[0].answer, "apply", "--editor", "always", "-")
		if code != 0 {
			t.Fatalf("status %d\n%s\n%s", code, out, stderr)
		}
		if got := e.Text(secret); got != "a ESCAPED of text\n" {
			t.Errorf("B's buffer:\n%s", got)
		}
	})
}
