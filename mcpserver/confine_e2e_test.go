package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// graft mcp --root A keeps to A on the editor route too: an editor that
// has A and B open serves both, but an edit of B's file, by absolute path
// or by "..", is refused, and neither B's buffer nor its file changes.
func TestEditorRouteKeepsToTheRoot(t *testing.T) {
	a, sockets := editorWorkspace(t)
	b := writeFiles(t, t.TempDir(), map[string]string{"c.txt": "a sea of text\n"})
	secret := filepath.Join(b, "c.txt")
	opt := fakeeditor.VSCode(a, b)
	opt.Env = append(os.Environ(), editorlink.DirEnv+"="+sockets)
	e, _ := fakeeditor.StartReady(t, opt)
	if err := e.Open(secret, "plaintext", "a sea of text\n"); err != nil {
		t.Fatal(err)
	}
	waitListening(t, sockets, a)
	rel, err := filepath.Rel(a, secret)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"auto", "always"} {
		s := start(t, startOptions{
			args: []string{"--root", a, "--editor", mode},
			env:  append(os.Environ(), editorlink.DirEnv+"="+sockets),
		})
		for _, path := range []string{secret, filepath.ToSlash(rel)} {
			t.Run(mode+"/"+path, func(t *testing.T) {
				res := s.call("edit", map[string]any{"path": path, "old_string": "sea", "new_string": "ESCAPED"})
				if !res.IsError || !strings.Contains(text(res), "outside the workspace root") {
					t.Errorf("isError %v:\n%s", res.IsError, text(res))
				}
				if got := e.Text(secret); got != "a sea of text\n" {
					t.Errorf("B's buffer changed:\n%s", got)
				}
				if got := readFile(t, b, "c.txt"); got != "a sea of text\n" {
					t.Errorf("B's file changed:\n%s", got)
				}
			})
		}
	}
}
