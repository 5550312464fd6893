//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
)

// nonblocking reports whether the open file description of f is in
// non-blocking mode.
func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	var flags int
	raw, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var ferr error
	if err := raw.Control(func(fd uintptr) {
		r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		flags = int(r)
		if errno != 0 {
			ferr = errno
		}
	}); err != nil {
		t.Fatal(err)
	}
	if ferr != nil {
		t.Fatal(ferr)
	}
	return flags&syscall.O_NONBLOCK != 0
}

// graft serve reads its messages from a pipe through Go's poller, in
// non-blocking mode, and leaves the pipe blocking again when it ends: the
// process it shares the pipe with would otherwise find its reads failing
// with EAGAIN.
func TestServeReadsAPipeWithoutBlockingAndRestoresIt(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command(testenv.Build(t), "serve", "--editor-link=false")
	cmd.Dir = t.TempDir()
	cmd.Stdin = r // the server's descriptor 0 shares r's description
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if nonblocking(t, r) {
		t.Fatal("the pipe is non-blocking before the server runs")
	}
	conn := fakeeditor.NewConn(stdout, w, func(*fakeeditor.Request) (any, error) { return nil, nil })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var init map[string]any
	if err := conn.Call(ctx, "initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, &init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if !nonblocking(t, r) {
		t.Error("the server reads its pipe in blocking mode")
	}
	var out any
	if err := conn.Call(ctx, "shutdown", nil, &out); err != nil {
		t.Fatal(err)
	}
	if err := conn.Notify("exit", nil); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("graft serve: %v", err)
	}
	if nonblocking(t, r) {
		t.Error("the server left its pipe non-blocking")
	}
}
