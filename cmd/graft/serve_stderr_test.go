package main

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
)

// An editor that closes graft serve's standard error does not end it:
// the server logs at initialize, and at every request it answers, and Go
// ends a program that writes to a broken pipe on descriptor 2 unless it
// handles SIGPIPE.
func TestServeWithStderrClosed(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // nobody reads graft serve's log
	cmd := exec.Command(testenv.Build(t), "serve", "--editor-link=false")
	cmd.Dir = t.TempDir()
	cmd.Stderr = w
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	conn := fakeeditor.NewConn(stdout, stdin, func(*fakeeditor.Request) (any, error) { return nil, nil })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var init map[string]any
	if err := conn.Call(ctx, "initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}, &init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if err := conn.Notify("initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	// A request that fails logs a line too.
	for i := range 3 {
		var out any
		err := conn.Call(ctx, "workspace/executeCommand", map[string]any{"command": "graft.nope", "arguments": []any{}}, &out)
		if err == nil {
			t.Fatalf("request %d: an unknown command answered without an error", i+1)
		}
		if conn.Err() != nil {
			t.Fatalf("request %d: graft serve went away: %v", i+1, conn.Err())
		}
	}
	if err := conn.Call(ctx, "shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
}
