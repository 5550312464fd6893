package main

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
	"syscall"
	"testing"
	"time"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
)

// A heldEditor is a fake editor running graft serve for a workspace
// (see editorWorkspace), with main.go open as editorBuffer, that holds
// its answer to the first workspace/applyEdit until the test releases
// it.
type heldEditor struct {
	*fakeeditor.Editor
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
	opt := fakeeditor.VSCode(root)
	opt.Env = editorEnv(sockets)
	opt.Args = []string{"--log-level", "debug"}
	opt.BeforeApplyEdit = func(e *fakeeditor.Editor, params json.RawMessage) {
		first := false
		arrive.Do(func() { first = true; close(h.arrived) })
		if first {
			<-released
		}
	}
	h.Editor, _ = fakeeditor.StartReady(t, opt)
	t.Cleanup(h.release) // before the editor shuts down
	if err := h.Open(filepath.Join(root, "main.go"), "go", editorBuffer); err != nil {
		t.Fatal(err)
	}
	served(t, h.Editor)
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

// startGraft starts the built graft with args in dir, its editor link
// sockets in sockets, stdin as given.
func startGraft(t *testing.T, sockets, dir string, stdin any, args ...string) (cmd *exec.Cmd, stdout, stderr *bytes.Buffer) {
	t.Helper()
	cmd = exec.Command(testenv.Build(t), args...)
	cmd.Dir = dir
	cmd.Env = editorEnv(sockets)
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	switch in := stdin.(type) {
	case string:
		cmd.Stdin = strings.NewReader(in)
	case nil:
	default:
		t.Fatalf("stdin %T", stdin)
	}
	return cmd, stdout, stderr
}

// checkJSONError checks that out is graft apply --json's error object
// with exit status code, saying want.
func checkJSONError(t *testing.T, out string, code int, want string) {
	t.Helper()
	var je struct {
		Error      string `json:"error"`
		ExitStatus int    `json:"exitStatus"`
	}
	if err := json.Unmarshal([]byte(out), &je); err != nil {
		t.Fatalf("stdout is not a JSON error: %v\n%s", err, out)
	}
	if je.ExitStatus != code || !strings.Contains(je.Error, want) {
		t.Errorf("JSON error %+v, want exit status %d saying %q", je, code, want)
	}
}

// TestEditorRouteInterrupt sends SIGINT to graft apply --editor always
// before and after its answer reached the editor: the message says what
// is known (nothing sent, nothing changed; or sent, and the editor may
// have applied it), in text and in JSON, with status 130; and an answer
// that was sent is applied whole, once.
func TestEditorRouteInterrupt(t *testing.T) {
	const (
		notSent = "interrupted before the answer was sent to the editor: nothing changed"
		maySent = "interrupted after the answer was sent to the editor, before it answered: it may have applied it; check the editor's buffers before running graft apply again"
	)
	tests := []struct {
		name string
		json bool
		sent bool // interrupted while the editor holds its answer, else while graft apply reads the answer
	}{
		{name: "before sending", sent: false},
		{name: "before sending, --json", sent: false, json: true},
		{name: "while the editor answers", sent: true},
		{name: "while the editor answers, --json", sent: true, json: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, sockets := editorWorkspace(t)
			e := startHeldEditor(t, root, sockets)
			main := filepath.Join(root, "main.go")
			args := []string{"apply", "--editor", "always"}
			if tt.json {
				args = append(args, "--json")
			}
			var (
				cmd            *exec.Cmd
				stdout, stderr *bytes.Buffer
				code           int
				want           = notSent
			)
			if tt.sent {
				want = maySent
				cmd, stdout, stderr = startGraft(t, sockets, root, editorAnswer, args...)
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				e.waitArrived(t)
				code = interruptStarted(t, cmd)
				// The editor answers once graft serve has seen graft apply
				// go: the edit must land all the same, once.
				e.waitLog(t, "the client hung up", 1, 10*time.Second)
				e.release()
			} else {
				cmd, stdout, stderr = startGraft(t, sockets, root, nil, args...)
				// The answer comes on a pipe that never ends.
				in, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				defer in.Close()
				go in.Write([]byte(editorAnswer))
				code, _ = interruptAfter(t, cmd, 500*time.Millisecond)
			}
			if code != exitInterrupted {
				t.Errorf("exit status %d, want %d", code, exitInterrupted)
			}
			if !strings.Contains(stderr.String(), "graft apply: "+want) {
				t.Errorf("stderr does not say %q:\n%s", want, stderr)
			}
			if tt.json {
				checkJSONError(t, stdout.String(), exitInterrupted, want)
			} else if stdout.Len() > 0 {
				t.Errorf("stdout:\n%s", stdout)
			}

			wantBuffer, edits := editorBuffer, 0
			if tt.sent {
				wantBuffer, edits = strings.Replace(editorBuffer, "41", "42", 1), 1
				// The server went on as for any edit the editor applied:
				// it told the person.
				if _, err := e.WaitMessage(func(m fakeeditor.ShowMessage) bool {
					return strings.HasPrefix(m.Message, "Graft: an agent's answer: 1 applied")
				}, 10*time.Second); err != nil {
					t.Errorf("the server did not finish the edit it sent: %v\n%s", err, e.Stderr())
				}
			}
			if got := e.Text(main); got != wantBuffer {
				t.Errorf("buffer:\n%s\nwant:\n%s", got, wantBuffer)
			}
			if got := len(e.AppliedEdits()); got != edits {
				t.Errorf("%d workspace/applyEdit requests, want %d", got, edits)
			}
			if got := readFile(t, main); got != editorDisk {
				t.Errorf("the disk changed:\n%s", got)
			}
		})
	}
}

// TestEditorRouteCancelledRequest cancels a routed request (its client
// hangs up) while it waits in the link's queue behind an edit the editor
// has not answered yet, and after its own edit was sent: the first is
// never applied, the second is applied whole.
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
				rep, err := editorlink.Send(heldCtx, root, nil, &editorlink.Request{Text: editorAnswer})
				held <- sent{rep, err}
			}()
			e.waitArrived(t)

			var cancelled <-chan sent
			if tt.queued {
				queuedCtx, cancelQueued := context.WithCancel(ctx)
				ch := make(chan sent, 1)
				go func() {
					rep, err := editorlink.Send(queuedCtx, root, nil, &editorlink.Request{Text: queuedAnswer})
					ch <- sent{rep, err}
				}()
				// The link takes one request at a time: the second waits
				// in its queue behind the held one.
				if !e.waitLog(t, "waiting for its turn", 2, 10*time.Second) {
					t.Fatal("the second request did not reach the link's queue")
				}
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
				if !e.waitLog(t, "request not handled", 1, 5*time.Second) {
					t.Error("the link did not drop the cancelled request")
				}
			} else if _, err := e.WaitMessage(func(m fakeeditor.ShowMessage) bool {
				return strings.HasPrefix(m.Message, "Graft: an agent's answer: 1 applied")
			}, 10*time.Second); err != nil {
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

// TestEditorRouteRefusesAnUnsafeLink makes the editor link unsafe to use
// (its directory open to others, or another user's) while an editor
// holds main.go open: graft apply neither sends the answer through it nor
// writes the disk behind the editor, and says why and what to do, with
// status 2, unless it is told --editor never.
func TestEditorRouteRefusesAnUnsafeLink(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		editor bool // an editor serves the root, and has main.go open
		// unsafe makes the socket directory unsafe.
		unsafe func(t *testing.T, dir string)
		want   []string // in the error; "{dir}" is the socket directory
		json   bool
	}{
		{name: "auto, a directory open to others", editor: true, unsafe: chmod(0o755),
			want: []string{"{dir} has mode 0755", "an editor may have these files open", "Nothing was written", "chmod 700 {dir}", "GRAFT_EDITOR_DIR", "--editor never"}},
		{name: "auto, a directory open to others, --json", editor: true, unsafe: chmod(0o755), json: true,
			want: []string{"{dir} has mode 0755", "chmod 700 {dir}", "--editor never"}},
		{name: "auto, a directory open to others, no editor", unsafe: chmod(0o755),
			want: []string{"{dir} has mode 0755", "chmod 700 {dir}"}},
		{name: "always, a directory open to others", args: []string{"--editor", "always"}, editor: true, unsafe: chmod(0o750),
			want: []string{"{dir} has mode 0750", "chmod 700 {dir}"}},
		{name: "suggest, a directory open to others", args: []string{"--suggest"}, editor: true, unsafe: chmod(0o755),
			want: []string{"{dir} has mode 0755", "chmod 700 {dir}"}},
		{name: "auto, a directory another user made first", unsafe: chown(65534),
			want: []string{"{dir} is owned by uid 65534", "remove {dir}", "GRAFT_EDITOR_DIR"}},
		{name: "never, a directory open to others", args: []string{"--editor", "never"}, editor: true, unsafe: chmod(0o755)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, sockets := editorWorkspace(t)
			main := filepath.Join(root, "main.go")
			var e *fakeeditor.Editor
			if tt.editor {
				e = startEditor(t, root, sockets)
			} else if err := os.Mkdir(sockets, 0o700); err != nil {
				t.Fatal(err)
			}
			tt.unsafe(t, sockets)
			args := append([]string{"apply"}, tt.args...)
			if tt.json {
				args = append(args, "--json")
			}
			out, stderr, code := runGraft(t, sockets, root, editorAnswer, args...)
			disk := editorDisk
			if tt.want == nil {
				// --editor never writes the disk, as told.
				if code != 0 {
					t.Fatalf("status %d, want 0\n%s\n%s", code, out, stderr)
				}
				disk = strings.Replace(editorDisk, "41", "42", 1)
			} else {
				if code != exitUsage {
					t.Errorf("status %d, want %d\n%s\n%s", code, exitUsage, out, stderr)
				}
				for _, w := range tt.want {
					w = strings.ReplaceAll(w, "{dir}", sockets)
					if !strings.Contains(stderr, w) {
						t.Errorf("stderr does not say %q:\n%s", w, stderr)
					}
					if tt.json {
						checkJSONError(t, out, exitUsage, w)
					}
				}
			}
			if got := readFile(t, main); got != disk {
				t.Errorf("disk:\n%s\nwant:\n%s", got, disk)
			}
			if e != nil && e.Text(main) != editorBuffer {
				t.Errorf("the buffer changed:\n%s", e.Text(main))
			}
		})
	}
}

// chmod makes the socket directory mode perm.
func chmod(perm os.FileMode) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		if err := os.Chmod(dir, perm); err != nil {
			t.Fatal(err)
		}
	}
}

// chown gives the socket directory to the user uid, as when another user
// made $TMPDIR/graft-<uid> first.
func chown(uid int) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		if os.Getuid() != 0 {
			t.Skip("giving a directory to another user needs root")
		}
		if err := os.Chown(dir, uid, uid); err != nil {
			t.Fatal(err)
		}
	}
}

// interruptStarted sends SIGINT to cmd, which was started, and returns
// its exit status; the test fails when it has not exited 10 s after.
func interruptStarted(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		var exit *exec.ExitError
		if err != nil && !errors.As(err, &exit) {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode()
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("graft did not exit within 10 s of SIGINT")
	}
	return 0
}
