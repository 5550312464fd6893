package lsp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// TestRouteRefusedEveryTime has the person type in the buffer each time
// an edit routed over the editor link reaches the editor, which refuses
// each as made for a version it no longer has: the server resolves the
// request again, three times in all, then replies that the editor did not
// apply it, each block saying so. The buffer keeps what the person typed.
func TestRouteRefusedEveryTime(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "x = 0\n"})
	short, err := os.MkdirTemp("", "gl") // a socket path fits in 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	sockets := filepath.Join(short, "graft")
	t.Setenv(editorlink.DirEnv, sockets) // for the server and for Send
	path := filepath.Join(dir, "a.txt")
	opt := fakeeditor.VSCode(dir)
	opt.Env = os.Environ()
	var typed atomic.Int32
	opt.BeforeApplyEdit = func(e *fakeeditor.Editor, _ json.RawMessage) {
		typed.Add(1)
		e.Edit(path, &protocol.Range{}, "// typed\n")
	}
	e, _ := fakeeditor.StartReady(t, opt)
	if err := e.Open(path, "plaintext", "x = 0\n"); err != nil {
		t.Fatal(err)
	}
	// The edit comes over the editor link, not behind the didOpen in the
	// pipe: a request answered first says the server has the buffer, and
	// makes the edit for its version, not for the file on disk.
	var list any
	if err := e.Call(context.Background(), "workspace/executeCommand", map[string]any{"command": "graft.suggestions", "arguments": []any{}}, &list); err != nil {
		t.Fatal(err)
	}
	edit, _ := json.Marshal(map[string]any{"filePath": "a.txt", "oldString": "x = 0", "newString": "x = 1"})
	var rep *editorlink.Reply
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		rep, err = editorlink.Send(context.Background(), dir, nil, &editorlink.Request{Edits: []json.RawMessage{edit}})
		if err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("routed edit: %v", err)
	}
	if n := len(e.AppliedEdits()); n != 3 || typed.Load() != 3 {
		t.Errorf("%d edits sent to the editor (%d typed over), want 3: the request resolved three times in all", n, typed.Load())
	}
	const refused = "not applied by the editor: bad state - version mismatch for "
	if rep.Applied || !strings.HasPrefix(rep.FailureReason, "bad state - version mismatch") ||
		len(rep.Blocks) != 1 || rep.Blocks[0].Status != "failed" || !strings.HasPrefix(rep.Blocks[0].Message, refused) {
		t.Errorf("reply %+v; want the edit not applied, its block failed with a message starting %q", rep, refused)
	}
	if want := strings.Repeat("// typed\n", 3) + "x = 0\n"; e.Text(path) != want {
		t.Errorf("buffer %q, want %q", e.Text(path), want)
	}
}

// TestRoutedMethodFromTheClient sends the method the server puts the
// routed requests in its queue as: from the client, which has no routed
// request to give, it is a method the server does not have.
func TestRoutedMethodFromTheClient(t *testing.T) {
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(t.TempDir()))
	err := e.Call(ctxT(t), "graft/routed", map[string]any{"command": "graft.apply"}, nil)
	wantCode(t, "graft/routed from the client", err, fakeeditor.CodeMethodNotFound)
	wantAlive(t, e)
	shutdownExit(t, e)
}
