package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
)

// These tests load the editor link of the built graft serve as agents do:
// many graft apply --editor processes at once, and connections that send
// nothing. Every edit must land in the editor's buffer; none may be turned
// away because others came first.

// loadLines is the number of lines of load.go, and of concurrent edits.
const loadLines = 20

// loadText returns load.go with line i reading "var vi = value(i)".
func loadText(value func(i int) int) string {
	var b strings.Builder
	b.WriteString("package main\n\n// unsaved\n")
	for i := range loadLines {
		fmt.Fprintf(&b, "var v%d = %d\n", i, value(i))
	}
	return b.String()
}

// loadEdit is the answer that changes line i of load.go from 0 to i+100.
func loadEdit(i int) string {
	return fmt.Sprintf("load.go\n<<<<<<< SEARCH\nvar v%d = 0\n=======\nvar v%d = %d\n>>>>>>> REPLACE\n", i, i, i+100)
}

// loadEditor starts graft serve over a new workspace holding load.go, with
// load.go open in the editor as a buffer the disk does not have (its
// "// unsaved" line), and returns the editor, the path of load.go, the
// socket directory and the socket. apply, when not nil, runs when the
// editor gets a workspace/applyEdit.
func loadEditor(t *testing.T, apply func()) (e *fakeeditor.Editor, file, sockets, socket string) {
	t.Helper()
	root := t.TempDir()
	file = filepath.Join(root, "load.go")
	disk := strings.Replace(loadText(func(int) int { return 0 }), "// unsaved\n", "", 1)
	if err := os.WriteFile(file, []byte(disk), 0o644); err != nil {
		t.Fatal(err)
	}
	short, err := os.MkdirTemp("", "gq") // a socket's path is bounded
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	sockets = filepath.Join(short, "graft")
	opt := fakeeditor.VSCode(root)
	opt.Env = append(os.Environ(), editorlink.DirEnv+"="+sockets)
	if apply != nil {
		opt.BeforeApplyEdit = func(*fakeeditor.Editor, json.RawMessage) { apply() }
	}
	e, _ = fakeeditor.StartReady(t, opt)
	if err := e.Open(file, "go", loadText(func(int) int { return 0 })); err != nil {
		t.Fatal(err)
	}
	socket, err = editorlink.SocketPath(sockets, root)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("unix", socket); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no editor link socket at %s after 10s", socket)
		}
	}
	return e, file, sockets, socket
}

// loadApply runs the built graft apply --editor always in the directory
// of file with answer on stdin, and returns an error saying how it failed,
// or nil.
func loadApply(t *testing.T, sockets, file, answer string) error {
	cmd := exec.Command(testenv.Build(t), "apply", "--editor", "always")
	cmd.Dir = filepath.Dir(file)
	cmd.Env = append(os.Environ(), editorlink.DirEnv+"="+sockets)
	cmd.Stdin = strings.NewReader(answer)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("graft apply: %w\n%s", err, out)
	}
	return nil
}

func TestEditorLinkAppliesManyConcurrentEditsInTurn(t *testing.T) {
	// An editor that takes a while to apply an edit, as real ones do, so
	// that the requests pile up behind one another.
	e, file, sockets, _ := loadEditor(t, func() { time.Sleep(50 * time.Millisecond) })

	errs := make([]error, loadLines)
	var wg sync.WaitGroup
	for i := range loadLines {
		wg.Go(func() { errs[i] = loadApply(t, sockets, file, loadEdit(i)) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("edit %d: %v", i, err)
		}
	}
	want := loadText(func(i int) int { return i + 100 })
	if got := e.Text(file); got != want {
		t.Errorf("buffer after %d concurrent edits:\n%s\nwant:\n%s", loadLines, got, want)
	}
}

func TestEditorLinkIdleConnectionsDoNotHoldUpAnEdit(t *testing.T) {
	e, file, sockets, socket := loadEditor(t, nil)

	// More connections than graft serve once handled at once, each
	// connected and sending nothing.
	const idle = 24
	start := time.Now()
	conns := make([]net.Conn, idle)
	for i := range conns {
		c, err := net.Dial("unix", socket)
		if err != nil {
			t.Fatalf("idle connection %d: %v", i, err)
		}
		defer c.Close()
		conns[i] = c
	}
	time.Sleep(200 * time.Millisecond) // all accepted

	if err := loadApply(t, sockets, file, loadEdit(7)); err != nil {
		t.Fatalf("the edit behind %d idle connections: %v", idle, err)
	}
	took := time.Since(start)
	want := strings.Replace(loadText(func(int) int { return 0 }), "var v7 = 0", "var v7 = 107", 1)
	if got := e.Text(file); got != want {
		t.Fatalf("buffer:\n%s\nwant:\n%s", got, want)
	}
	t.Logf("the edit behind %d idle connections landed after %v", idle, took.Round(time.Millisecond))
	if took > 4*time.Second {
		t.Errorf("the edit behind %d idle connections took %v: it waited for them", idle, took)
	}

	// The idle connections are dropped within seconds, with a word of why
	// or without.
	for i, c := range conns {
		c.SetReadDeadline(start.Add(15 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("idle connection %d still open after %v", i, time.Since(start).Round(time.Millisecond))
		}
		if line != "" && !strings.Contains(line, "nothing received") {
			t.Errorf("idle connection %d: reply %q", i, line)
		}
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("idle connections dropped after %v", took)
	}
}
