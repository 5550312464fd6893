package main

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/lsp/lsptest"
)

// A heldEditor is an lsptest editor running graft serve for a workspace
// (see editorWorkspace), with main.go open as editorBuffer, that holds
// its answer to the first workspace/applyEdit until the test releases
// it.
type heldEditor struct {
	*lsptest.Editor
	arrived chan struct{} // closed when the first workspace/applyEdit arrives
	release func()        // lets the editor answer it
}

// startHeldEditor starts a heldEditor for root, its sockets in sockets,
// and waits for its socket. Its graft serve logs at the debug level.
func startHeldEditor(t *testing.T, root, sockets string) *heldEditor {
	t.Helper()
	h := &heldEditor{arrived: make(chan struct{})}
	released := make(chan struct{})
	var arrive, release sync.Once
	h.release = func() { release.Do(func() { close(released) }) }
	opt := lsptest.VSCode(root)
	opt.Env = editorEnv(sockets)
	opt.Args = []string{"--log-level", "debug"}
	opt.BeforeApplyEdit = func(e *lsptest.Editor, params json.RawMessage) {
		first := false
		arrive.Do(func() { first = true; close(h.arrived) })
		if first {
			<-released
		}
	}
	h.Editor, _ = lsptest.StartReady(t, opt)
	t.Cleanup(h.release) // before the editor shuts down
	if err := h.Open(filepath.Join(root, "main.go"), "go", editorBuffer); err != nil {
		t.Fatal(err)
	}
	waitSocket(t, sockets, root, true)
	return h
}

// waitArrived waits for the first workspace/applyEdit to reach the
// editor.
func (h *heldEditor) waitArrived(t *testing.T) {
	t.Helper()
	select {
	case <-h.arrived:
	case <-time.After(20 * time.Second):
		t.Fatal("no workspace/applyEdit reached the editor within 20 s")
	}
}

// waitLog waits until graft serve's log holds s n times, and reports
// whether it did within timeout. The tests only wait on it, so that the
// server has done what they check next; their verdict is on what the
// editor and graft apply see.
func (h *heldEditor) waitLog(t *testing.T, s string, n int, timeout time.Duration) bool {
	t.Helper()
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if strings.Count(h.Stderr(), s) >= n {
			return true
		}
	}
	t.Logf("graft serve's log does not say %q %d times within %v", s, n, timeout)
	return false
}

// TestEditorRouteCancelledRequest cancels a routed request (its client
// hangs up) while it waits in the queue behind an edit the editor has not
// answered yet, and after its own edit was sent: the first is never
// applied, the second is applied whole.
func TestEditorRouteCancelledRequest(t *testing.T) {
	// The held edit changes "return 41"; the queued one "// unsaved".
	const queuedAnswer = "main.go\n<<<<<<< SEARCH\n// unsaved\n=======\n// queued\n>>>>>>> REPLACE\n"
	tests := []struct {
		name   string
		queued bool // cancel a request queued behind the held one, else the held one
		buffer string
	}{
		{name: "queued: dropped", queued: true, buffer: strings.Replace(editorBuffer, "41", "42", 1)},
		{name: "sent: applied whole", buffer: strings.Replace(editorBuffer, "41", "42", 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, sockets := editorWorkspace(t)
			e := startHeldEditor(t, root, sockets)
			main := filepath.Join(root, "main.go")
			t.Setenv(editorlink.DirEnv, sockets)

			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			heldCtx, cancelHeld := context.WithCancel(ctx)
			defer cancelHeld()
			type sent struct {
				rep *editorlink.Reply
				err error
			}
			held := make(chan sent, 1)
			go func() {
				rep, err := editorlink.Send(heldCtx, root, &editorlink.Request{Text: editorAnswer})
				held <- sent{rep, err}
			}()
			e.waitArrived(t)

			var cancelled <-chan sent
			if tt.queued {
				queuedCtx, cancelQueued := context.WithCancel(ctx)
				ch := make(chan sent, 1)
				go func() {
					rep, err := editorlink.Send(queuedCtx, root, &editorlink.Request{Text: queuedAnswer})
					ch <- sent{rep, err}
				}()
				e.waitLog(t, "routed request queued", 2, 10*time.Second)
				cancelQueued()
				cancelled = ch
			} else {
				cancelHeld()
				cancelled = held
			}
			r := <-cancelled
			if !errors.Is(r.err, context.Canceled) {
				t.Errorf("the cancelled Send: %v, want context.Canceled", r.err)
			}
			e.waitLog(t, "the client hung up", 1, 10*time.Second)
			e.release()

			if tt.queued {
				r := <-held
				if r.err != nil || !r.rep.Applied {
					t.Fatalf("the held request: %+v, %v", r.rep, r.err)
				}
				// A command from the editor queued after the dropped
				// request: when it is answered, that one had its turn.
				var list []json.RawMessage
				if err := e.Command(ctx, "graft.suggestions", map[string]any{}, &list); err != nil {
					t.Fatal(err)
				}
				e.waitLog(t, "routed request dropped", 1, 5*time.Second)
			} else if _, err := e.WaitMessage(func(m lsptest.ShowMessage) bool { return strings.HasPrefix(m.Message, "Graft: 1 applied") }, 10*time.Second); err != nil {
				t.Errorf("the server did not finish the edit it sent: %v\n%s", err, e.Stderr())
			}
			if got := e.Text(main); got != tt.buffer {
				t.Errorf("buffer:\n%s\nwant:\n%s", got, tt.buffer)
			}
			if got := len(e.AppliedEdits()); got != 1 {
				t.Errorf("%d workspace/applyEdit requests, want 1", got)
			}
		})
	}
}
