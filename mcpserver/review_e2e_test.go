package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
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
			decide(t, e, tc.decide, id)
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

// decide does what the person decides of hunk id in e: the command
// graft.accept or graft.reject, or "close", the editor closed.
func decide(t *testing.T, e *fakeeditor.Editor, decision, id string) {
	t.Helper()
	if decision == "close" {
		if err := e.CloseStdin(); err != nil {
			t.Fatal(err)
		}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.Execute(ctx, &protocol.Command{Command: decision, Arguments: []any{map[string]any{"id": id}}}, nil); err != nil {
		t.Fatal(err)
	}
}

// path, and returns its id.
func waitHunk(t *testing.T, e *fakeeditor.Editor, path string) string {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var hunks []struct {
			ID string `json:"id"`
		}
		err := e.Execute(ctx, &protocol.Command{Command: "graft.suggestions", Arguments: []any{map[string]any{"uri": fakeeditor.URI(path)}}}, &hunks)
		cancel()
		if err == nil && len(hunks) > 0 {
			return hunks[0].ID
		}
	}
	t.Fatalf("no hunk pending in %s", path)
	return ""
}

// TestNodeClientReview sends an edit for review from the official
// TypeScript SDK's client (testdata/node/review.mjs), as a Node-based
// agent does, while the person decides in the test editor: accepted, the
// result says so and the buffer holds the change; rejected, it says so
// and the buffer does not; the editor gone, the result is an error that
// says so. The disk is never written.
func TestNodeClientReview(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the TypeScript SDK test needs Node.js 18 or later")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the TypeScript SDK test needs it to install @modelcontextprotocol/sdk")
	}
	bin := testenv.Build(t)
	work := testenv.NPMInstall(t, npm, nodeDir)
	script := filepath.Join(work, "review.mjs")
	copyFile(t, filepath.Join(nodeDir, "review.mjs"), script)
	for _, tc := range []struct {
		decide   string // the command the person runs, or "close"
		decision string // what the result says of the hunk; "" for an error
		inText   string
		buffer   string
	}{
		{"graft.accept", "accepted", "accepted ", strings.Replace(editorBuffer, "41", "42", 1)},
		{"graft.reject", "rejected", "rejected ", editorBuffer},
		{"close", "", "the editor closed, or its graft serve stopped", ""},
	} {
		t.Run(tc.decide, func(t *testing.T) {
			root, sockets := editorWorkspace(t)
			e := startEditor(t, root, sockets)
			cmd := exec.Command(node, script)
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "GRAFT_BIN="+bin, "GRAFT_ROOT="+root, editorlink.DirEnv+"="+sockets)
			var out strings.Builder
			cmd.Stdout = &out
			cmd.Stderr = &testWriter{t}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			main := filepath.Join(root, "main.go")
			id := waitHunk(t, e, main)
			decide(t, e, tc.decide, id)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("node: %v", err)
			}
			var res struct {
				IsError           bool `json:"isError"`
				StructuredContent struct {
					Decisions map[string]string `json:"decisions"`
				} `json:"structuredContent"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			}
			if err := json.Unmarshal([]byte(out.String()), &res); err != nil {
				t.Fatalf("the result %q: %v", out.String(), err)
			}
			text := ""
			if len(res.Content) > 0 {
				text = res.Content[0].Text
			}
			if res.IsError != (tc.decision == "") || !strings.Contains(text, tc.inText) {
				t.Errorf("result %s; want isError %v and a text that says %q", out.String(), tc.decision == "", tc.inText)
			}
			if tc.decision != "" && res.StructuredContent.Decisions[id] != tc.decision {
				t.Errorf("decisions %v; want %s %s", res.StructuredContent.Decisions, id, tc.decision)
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
