package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/lsp/lsptest"
)

// An edit sent for review becomes hunks in the editor, and the tool waits
// for the person: the result says which hunks were accepted and which
// rejected, the accepted ones are in the buffer, the disk is never
// written; an editor that goes away ends the wait with a clear error.
func TestReview(t *testing.T) {
	for _, tc := range []struct {
		name     string
		decide   string // the command the person runs on the hunk, or "close" for an editor that goes away
		buffer   string
		inResult []string
		isError  bool
	}{
		{name: "accepted", decide: "graft.accept", buffer: strings.Replace(editorBuffer, "41", "42", 1),
			inResult: []string{"accepted s1.1", "rejected none", "in the editor's buffer"}},
		{name: "rejected", decide: "graft.reject", buffer: editorBuffer,
			inResult: []string{"accepted none", "rejected s1.1", "Nothing was applied"}},
		{name: "editor gone", decide: "close", isError: true,
			inResult: []string{"the editor closed, or its graft serve stopped, before the person decided", "no hunk was accepted; nothing changed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, sockets := editorWorkspace(t)
			e := startEditor(t, root, sockets)
			s := start(t, startOptions{
				args: []string{"--root", root},
				env:  append(os.Environ(), editorlink.DirEnv+"="+sockets),
			})
			done := make(chan *mcp.CallToolResult, 1)
			go func() {
				res, err := s.callErr("edit", map[string]any{"path": "main.go", "old_string": "\treturn 41\n", "new_string": "\treturn 42\n", "review": true})
				if err != nil {
					t.Error(err)
				}
				done <- res
			}()
			// The person sees the hunk, and decides.
			main := filepath.Join(root, "main.go")
			id := waitHunk(t, e, main)
			select {
			case res := <-done:
				t.Fatalf("the tool returned before the person decided:\n%s", text(res))
			default:
			}
			if e.Text(main) != editorBuffer {
				t.Fatalf("the buffer changed before the person decided:\n%s", e.Text(main))
			}
			if tc.decide == "close" {
				if err := e.CloseStdin(); err != nil {
					t.Fatal(err)
				}
			} else {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				if err := e.Execute(ctx, &protocol.Command{Command: tc.decide, Arguments: []any{map[string]any{"id": id}}}, nil); err != nil {
					t.Fatal(err)
				}
			}
			var res *mcp.CallToolResult
			select {
			case res = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("the tool did not return after the person decided")
			}
			if res == nil {
				t.Fatal("no result")
			}
			if res.IsError != tc.isError {
				t.Errorf("isError %v, want %v:\n%s", res.IsError, tc.isError, text(res))
			}
			for _, w := range tc.inResult {
				if !strings.Contains(text(res), w) {
					t.Errorf("the result does not say %q:\n%s", w, text(res))
				}
			}
			if tc.buffer != "" && e.Text(main) != tc.buffer {
				t.Errorf("buffer:\n%s\nwant:\n%s", e.Text(main), tc.buffer)
			}
			if got := readFile(t, root, "main.go"); got != editorDisk {
				t.Errorf("the disk was written behind the editor:\n%s", got)
			}
		})
	}
}

// waitHunk waits until the editor's graft serve lists a pending hunk in
// path, and returns its id.
func waitHunk(t *testing.T, e *lsptest.Editor, path string) string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var hunks []struct {
			ID string `json:"id"`
		}
		err := e.Execute(ctx, &protocol.Command{Command: "graft.suggestions", Arguments: []any{map[string]any{"uri": lsptest.URI(path)}}}, &hunks)
		cancel()
		if err == nil && len(hunks) > 0 {
			return hunks[0].ID
		}
	}
	t.Fatalf("no hunk pending in %s", path)
	return ""
}
