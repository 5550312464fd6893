package editorlink

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/graft-editor/graft/workspace"
)

// These tests run real servers on real sockets in temporary directories,
// with a handler that reports what it was asked.

// echo is a handler that applies nothing and reports one block per
// request, naming the request's text, and counts its calls.
type echo struct{ calls atomic.Int64 }

func (h *echo) handle(ctx context.Context, root string, req *Request) (*Reply, error) {
	h.calls.Add(1)
	if req.Text == "fail" {
		return nil, errors.New("the editor's server refused it")
	}
	return &Reply{Applied: true, Blocks: []Block{{BlockReport: workspace.BlockReport{Path: root + ":" + req.Text, Status: "applied"}, ID: fmt.Sprint(req.Suggest)}}}, nil
}

// socketDir returns a new directory for sockets, short enough for
// sun_path, and removed at the end of the test.
func socketDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "el")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return filepath.Join(d, "graft")
}

// startServer starts a server for root with sockets in dir, and waits
// until it holds root's socket.
func startServer(t *testing.T, dir, root string, opt ServerOptions, h Handler) *Server {
	t.Helper()
	opt.Dir = dir
	if opt.Retry == 0 {
		opt.Retry = 50 * time.Millisecond
	}
	s := NewServer(h, opt)
	t.Cleanup(func() { s.Close() })
	if err := s.SetRoots([]string{root}); err != nil {
		t.Fatal(err)
	}
	waitHeld(t, s, root, true)
	return s
}

// waitHeld waits until s holds root's socket, or does not.
func waitHeld(t *testing.T, s *Server, root string, held bool) {
	t.Helper()
	real, _ := realPath(root)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, ok := s.Sockets()[real]; ok == held {
			return
		}
	}
	t.Fatalf("server holds %s: %v after 5s", root, !held)
}

func sendCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestSendAndReply(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	h := &echo{}
	startServer(t, dir, root, ServerOptions{}, h.handle)
	real, _ := realPath(root)

	rep, err := send(sendCtx(t), dir, root, nil, &Request{Text: "hello", Suggest: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Applied || len(rep.Blocks) != 1 || rep.Blocks[0].Path != real+":hello" || rep.Blocks[0].ID != "true" {
		t.Errorf("reply %+v", rep)
	}
	_, err = send(sendCtx(t), dir, root, nil, &Request{Text: "fail"})
	var se *ServerError
	if !errors.As(err, &se) || !strings.Contains(se.Message, "refused it") {
		t.Errorf("a handler's error: %v, want a ServerError", err)
	}
	if _, err := send(sendCtx(t), dir, t.TempDir(), nil, &Request{Text: "x"}); !errors.Is(err, ErrNoServer) {
		t.Errorf("another root: %v, want ErrNoServer", err)
	}
	if _, err := send(sendCtx(t), filepath.Join(dir, "none"), root, nil, &Request{}); !errors.Is(err, ErrNoServer) {
		t.Errorf("no directory: %v, want ErrNoServer", err)
	}
}

func TestTheSocketGoesWithTheServer(t *testing.T) {
	dir, root, other := socketDir(t), t.TempDir(), t.TempDir()
	s := startServer(t, dir, root, ServerOptions{}, (&echo{}).handle)
	path, _ := SocketPath(dir, root)
	if fi, err := os.Lstat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket: %v, %v; want mode 0600", fi, err)
	}
	// A root the editor drops is released; one it adds is served.
	if err := s.SetRoots([]string{other}); err != nil {
		t.Fatal(err)
	}
	waitHeld(t, s, other, true)
	waitGone(t, path)
	s.Close()
	otherPath, _ := SocketPath(dir, other)
	if _, err := os.Lstat(otherPath); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left after Close: %v", err)
	}
}

func waitGone(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			return
		}
	}
	t.Fatalf("%s still there after 5s", path)
}

func TestAStaleSocketIsReplaced(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	if err := ensureDir(dir); err != nil {
		t.Fatal(err)
	}
	path := staleSocket(t, dir, root)
	if _, err := send(sendCtx(t), dir, root, nil, &Request{}); !errors.Is(err, ErrNoServer) {
		t.Fatalf("a stale socket: %v, want ErrNoServer", err)
	}
	// Another root's stale socket goes too; a live one stays.
	gone := staleSocket(t, dir, t.TempDir())
	liveRoot := t.TempDir()
	startServer(t, dir, liveRoot, ServerOptions{}, (&echo{}).handle)

	startServer(t, dir, root, ServerOptions{}, (&echo{}).handle)
	if _, err := send(sendCtx(t), dir, root, nil, &Request{Text: "x"}); err != nil {
		t.Fatalf("after the stale socket %s was replaced: %v", path, err)
	}
	if _, err := os.Lstat(gone); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("another root's stale socket is left: %v", err)
	}
	if _, err := send(sendCtx(t), dir, liveRoot, nil, &Request{Text: "x"}); err != nil {
		t.Errorf("another root's live server: %v", err)
	}
}

// staleSocket leaves at root's socket in dir a socket nobody listens on,
// as a killed server does, and returns its path.
func staleSocket(t *testing.T, dir, root string) string {
	t.Helper()
	path, _ := SocketPath(dir, root)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	return path
}

func TestTheFirstServerKeepsTheRootAndTheNextTakesOver(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	first := startServer(t, dir, root, ServerOptions{}, func(ctx context.Context, root string, req *Request) (*Reply, error) {
		return &Reply{FailureReason: "first"}, nil
	})
	second := NewServer(func(ctx context.Context, root string, req *Request) (*Reply, error) {
		return &Reply{FailureReason: "second"}, nil
	}, ServerOptions{Dir: dir, Retry: 50 * time.Millisecond})
	t.Cleanup(func() { second.Close() })
	if err := second.SetRoots([]string{root}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // a few of its retries
	if rep, err := send(sendCtx(t), dir, root, nil, &Request{}); err != nil || rep.FailureReason != "first" {
		t.Fatalf("while both run: %+v, %v; want the first server", rep, err)
	}
	first.Close()
	waitHeld(t, second, root, true)
	if rep, err := send(sendCtx(t), dir, root, nil, &Request{}); err != nil || rep.FailureReason != "second" {
		t.Fatalf("after the first exited: %+v, %v; want the second server", rep, err)
	}
}

func TestAnInsecureDirectoryIsRefused(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	mkdir(t, dir, 0o755)
	s := NewServer((&echo{}).handle, ServerOptions{Dir: dir})
	defer s.Close()
	if err := s.SetRoots([]string{root}); !errors.Is(err, ErrInsecureDir) {
		t.Fatalf("SetRoots in a 0755 directory: %v, want ErrInsecureDir", err)
	}
	if len(s.Sockets()) != 0 {
		t.Fatal("a socket in an insecure directory")
	}
	if _, err := send(sendCtx(t), dir, root, nil, &Request{}); !errors.Is(err, ErrInsecureDir) {
		t.Fatalf("Send through a 0755 directory: %v, want ErrInsecureDir", err)
	}
}

func TestAnOversizedRequestIsRefusedAndTheServerGoesOn(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	h := &echo{}
	startServer(t, dir, root, ServerOptions{MaxRequest: 4 << 10}, h.handle)
	_, err := send(sendCtx(t), dir, root, nil, &Request{Text: strings.Repeat("x", 1<<20)})
	if err == nil || !(strings.Contains(err.Error(), "too large") || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)) {
		t.Fatalf("a 1 MiB request to a 4 KiB server: %v, want a refusal", err)
	}
	t.Logf("refusal: %v", err)
	if h.calls.Load() != 0 {
		t.Fatal("the handler saw the oversized request")
	}
	if _, err := send(sendCtx(t), dir, root, nil, &Request{Text: "small"}); err != nil {
		t.Fatalf("the next request: %v", err)
	}
}

func TestASilentClientIsCutOff(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	h := &echo{}
	startServer(t, dir, root, ServerOptions{ReadTimeout: 100 * time.Millisecond}, h.handle)
	path, _ := SocketPath(dir, root)
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, `{"root": "`) // and nothing more
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.Contains(line, "timeout") {
		t.Fatalf("reply %q, %v; want a refusal for the timeout", line, err)
	}
	if h.calls.Load() != 0 {
		t.Fatal("the handler ran")
	}
}

func TestARequestForAnotherRootIsRefused(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	h := &echo{}
	startServer(t, dir, root, ServerOptions{}, h.handle)
	path, _ := SocketPath(dir, root)
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := writeMessage(c, &Request{Root: t.TempDir(), Text: "x"}); err != nil {
		t.Fatal(err)
	}
	var rep Reply
	if err := readMessage(c, maxReply, &rep); err != nil || !strings.Contains(rep.Error, "refused") {
		t.Fatalf("reply %+v, %v; want a refusal", rep, err)
	}
	if h.calls.Load() != 0 {
		t.Fatal("the handler ran")
	}
}

// TestSendFromAFolderInsideTheRoot sends from a folder inside the root a
// server serves, where no server serves the folder itself: the request
// goes to the server of the root above, for the folder, which the handler
// is given to confine it to. A folder beside the root finds no server,
// and a request naming a root beside the socket's is refused.
func TestSendFromAFolderInsideTheRoot(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	h := &echo{}
	startServer(t, dir, root, ServerOptions{}, h.handle)
	realSub, _ := realPath(sub)
	rep, err := send(sendCtx(t), dir, sub, nil, &Request{Text: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Blocks) != 1 || rep.Blocks[0].Path != realSub+":hello" {
		t.Errorf("reply %+v, want the handler given %s", rep, realSub)
	}
	rootSocket, _ := SocketPath(dir, root)
	if c, path, err := dial(sendCtx(t), dir, sub, nil); err != nil {
		t.Errorf("dial from the folder: %v", err)
	} else {
		c.Close()
		if path != rootSocket {
			t.Errorf("dial from the folder: %s, want the root's socket %s", path, rootSocket)
		}
	}
	if _, err := send(sendCtx(t), dir, filepath.Dir(root), nil, &Request{Text: "x"}); !errors.Is(err, ErrNoServer) {
		t.Errorf("the folder above the root: %v, want ErrNoServer", err)
	}

	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: rootSocket, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	beside := filepath.Join(filepath.Dir(root), "beside")
	if err := os.Mkdir(beside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeMessage(c, &Request{Root: beside, Text: "x"}); err != nil {
		t.Fatal(err)
	}
	var r Reply
	if err := readMessage(c, maxReply, &r); err != nil || !strings.Contains(r.Error, "refused") {
		t.Fatalf("a request for a folder beside: reply %+v, %v; want a refusal", r, err)
	}
}

// TestSendFromAFolderAboveTheRoot sends from the top of a repository whose
// folder web/ a server serves (the editor has web/ open, the agent runs
// at the top): a request whose files all lie in web/ goes to that server,
// for the top, which the handler is given; one with files in web/ and
// outside it is refused whole with a SplitError naming both; one with no
// file in web/, or whose files are not known, finds no server, and goes
// to the disk. The server's root file, which tells the client about web/,
// goes with the server; one a killed server left sends nothing anywhere.
func TestSendFromAFolderAboveTheRoot(t *testing.T) {
	dir, top := socketDir(t), t.TempDir()
	top, _ = realPath(top)
	web := filepath.Join(top, "web")
	if err := os.Mkdir(web, 0o755); err != nil {
		t.Fatal(err)
	}
	inWeb, inTop := filepath.Join(web, "a.ts"), filepath.Join(top, "b.go")
	h := &echo{}
	s := startServer(t, dir, web, ServerOptions{}, h.handle)
	webSocket, _ := SocketPath(dir, web)

	rep, err := send(sendCtx(t), dir, top, []string{inWeb, filepath.Join(web, "lib", "new.ts")}, &Request{Text: "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Blocks) != 1 || rep.Blocks[0].Path != top+":hello" {
		t.Errorf("reply %+v, want the handler given %s", rep, top)
	}
	t.Setenv(DirEnv, dir)
	if got, err := Lookup(sendCtx(t), top, []string{inWeb}); err != nil || got != webSocket {
		t.Errorf("Lookup from the top: %s, %v; want web's socket %s", got, err, webSocket)
	}
	if got, err := Inside(top); err != nil || len(got) != 1 || got[0] != web {
		t.Errorf("Inside(top) = %v, %v; want [%s]", got, err, web)
	}
	if got, err := Inside(web); err != nil || len(got) != 0 {
		t.Errorf("Inside(web) = %v, %v; want none: a root is not inside itself", got, err)
	}

	_, err = send(sendCtx(t), dir, top, []string{inWeb, inTop}, &Request{Text: "x"})
	var split *SplitError
	if !errors.As(err, &split) || len(split.Served[web]) != 1 || len(split.Unserved) != 1 {
		t.Fatalf("files in web/ and outside it: %v, want a SplitError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "web/a.ts (in web/") || !strings.Contains(msg, "b.go (which no editor serves)") {
		t.Errorf("the SplitError says: %s", msg)
	}
	for _, files := range [][]string{{inTop}, nil} {
		if _, err := send(sendCtx(t), dir, top, files, &Request{Text: "x"}); !errors.Is(err, ErrNoServer) {
			t.Errorf("files %v: %v, want ErrNoServer", files, err)
		}
	}
	if h.calls.Load() != 1 {
		t.Errorf("the handler ran %d times, want once", h.calls.Load())
	}

	// The root file goes with the server; a stale one leads nowhere.
	s.Close()
	if _, err := os.Stat(rootFile(webSocket)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the root file outlived its server: %v", err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: webSocket, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close() // a socket nobody listens on, as a killed server leaves
	if err := writeRootFile(webSocket, web, "killed"); err != nil {
		t.Fatal(err)
	}
	if _, err := send(sendCtx(t), dir, top, []string{inWeb}, &Request{Text: "x"}); !errors.Is(err, ErrNoServer) {
		t.Errorf("a killed server's root file: %v, want ErrNoServer", err)
	}
	// A root file that names another root than its socket's is not read.
	other := filepath.Join(top, "other")
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeRootFile(webSocket, other, "killed"); err != nil {
		t.Fatal(err)
	}
	if got, _ := below(dir, top); len(got) != 0 {
		t.Errorf("below read a root file that does not match its socket: %v", got)
	}
}

// TestSendFromAboveToTheServerOfTheFiles sends from the top of a
// repository whose folders web/ and api/ are served: by one server (an
// editor with both open), a request with files in both goes to it; by
// two, it is refused whole, naming each folder's files.
func TestSendFromAboveToTheServerOfTheFiles(t *testing.T) {
	top, _ := realPath(t.TempDir())
	web, api := filepath.Join(top, "web"), filepath.Join(top, "api")
	for _, d := range []string{web, api} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := []string{filepath.Join(web, "a.ts"), filepath.Join(api, "b.go")}

	t.Run("one server", func(t *testing.T) {
		dir := socketDir(t)
		h := &echo{}
		s := startServer(t, dir, web, ServerOptions{}, h.handle)
		if err := s.SetRoots([]string{web, api}); err != nil {
			t.Fatal(err)
		}
		waitHeld(t, s, api, true)
		rep, err := send(sendCtx(t), dir, top, files, &Request{Text: "both"})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Blocks) != 1 || rep.Blocks[0].Path != top+":both" {
			t.Errorf("reply %+v, want the handler given %s", rep, top)
		}
	})

	t.Run("two servers", func(t *testing.T) {
		dir := socketDir(t)
		h := &echo{}
		startServer(t, dir, web, ServerOptions{}, h.handle)
		startServer(t, dir, api, ServerOptions{}, h.handle)
		_, err := send(sendCtx(t), dir, top, files, &Request{Text: "both"})
		var split *SplitError
		if !errors.As(err, &split) || len(split.Served) != 2 || len(split.Unserved) != 0 {
			t.Fatalf("files of two servers: %v, want a SplitError", err)
		}
		if msg := err.Error(); !strings.Contains(msg, "api/b.go (in api/") || !strings.Contains(msg, "web/a.ts (in web/") {
			t.Errorf("the SplitError says: %s", msg)
		}
		if h.calls.Load() != 0 {
			t.Error("a handler ran")
		}
		// Each server takes its own folder's files.
		if _, err := send(sendCtx(t), dir, top, files[1:], &Request{Text: "api"}); err != nil {
			t.Error(err)
		}
	})
}
