package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
)

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestEditorRouteCancelledCall cancels a tools/call (the client sends
// notifications/cancelled) while the editor holds its answer to the
// workspace/applyEdit the call's edit became: graft mcp's error says the
// edit may have been applied, and the edit lands once, whole.
func TestEditorRouteCancelledCall(t *testing.T) {
	root, sockets := editorWorkspace(t)
	main := filepath.Join(root, "main.go")
	arrived, released := make(chan struct{}), make(chan struct{})
	var arrive, release sync.Once
	opt := fakeeditor.VSCode(root)
	opt.Env = append(os.Environ(), editorlink.DirEnv+"="+sockets)
	opt.BeforeApplyEdit = func(e *fakeeditor.Editor, params json.RawMessage) {
		arrive.Do(func() { close(arrived) })
		<-released
	}
	e, _ := fakeeditor.StartReady(t, opt)
	t.Cleanup(func() { release.Do(func() { close(released) }) })
	if err := e.Open(main, "go", editorBuffer); err != nil {
		t.Fatal(err)
	}
	// startEditor's wait for the socket, with this editor.
	path, err := editorlink.SocketPath(sockets, root)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("graft serve does not listen on %s", path)
		}
	}

	cmd := exec.Command(testenv.Build(t), "mcp", "--root", root, "--editor", "always")
	cmd.Dir = t.TempDir()
	cmd.Env = opt.Env
	var stderr syncBuffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "graft-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { session.Close() })

	callCtx, cancelCall := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := session.CallTool(callCtx, &mcp.CallToolParams{Name: "edit",
			Arguments: map[string]any{"path": "main.go", "old_string": "\treturn 41\n", "new_string": "\treturn 42\n"}})
		done <- err
	}()
	select {
	case <-arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("no workspace/applyEdit reached the editor within 20 s")
	}
	cancelCall()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the cancelled call: %v, want context.Canceled", err)
	}
	// graft mcp learns of the cancellation, and says what it means.
	const want = "tool call cancelled after its edits were sent to the editor; it may have applied them"
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(stderr.String(), want); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("graft mcp's log does not say %q:\n%s", want, stderr.String())
		}
	}
	if !strings.Contains(stderr.String(), "read the file before you send them again") {
		t.Errorf("the error does not tell the model to read the file first:\n%s", stderr.String())
	}
	release.Do(func() { close(released) })

	if _, err := e.WaitMessage(func(m fakeeditor.ShowMessage) bool {
		return strings.HasPrefix(m.Message, "Graft: an agent's answer: 1 applied")
	}, 10*time.Second); err != nil {
		t.Errorf("the server did not finish the edit it sent: %v", err)
	}
	if want := strings.Replace(editorBuffer, "41", "42", 1); e.Text(main) != want {
		t.Errorf("buffer:\n%s\nwant:\n%s", e.Text(main), want)
	}
	if got := readFile(t, root, "main.go"); got != editorDisk {
		t.Errorf("the disk changed:\n%s", got)
	}
	// The session goes on: the next edit applies to the buffer as the
	// cancelled one left it.
	res := (&server{tb: t, client: client, session: session}).call("edit",
		map[string]any{"path": "main.go", "old_string": "\treturn 42\n", "new_string": "\treturn 43\n"})
	if want := strings.Replace(editorBuffer, "41", "43", 1); res.IsError || e.Text(main) != want {
		t.Errorf("the edit after: %s\nbuffer:\n%s\nwant:\n%s", text(res), e.Text(main), want)
	}
}
