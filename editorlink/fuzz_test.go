package editorlink

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzServeConn sends any bytes to a running server as a request: the
// server must answer or close, never hang past its deadline or die, and
// answer the well-formed request after it.
func FuzzServeConn(f *testing.F) {
	for _, seed := range []string{
		"",
		"\n",
		"{}\n",
		`{"root": "/", "text": "x"}` + "\n",
		`{"root": 1}` + "\n",
		`{"edits": [1, {"a": null}], "suggest": "yes"}` + "\n",
		"{\"text\": \"\\u0000\"}\n{}\n",
		`{"text": "unterminated`,
		"\xff\xfe\n",
	} {
		f.Add([]byte(seed))
	}
	base, err := os.MkdirTemp("", "elf")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(base) })
	dir, root := filepath.Join(base, "graft"), f.TempDir()
	h := &echo{}
	s := NewServer(h.handle, ServerOptions{Dir: dir, MaxRequest: 64 << 10, ReadTimeout: 200 * time.Millisecond})
	f.Cleanup(func() { s.Close() })
	if err := s.SetRoots([]string{root}); err != nil {
		f.Fatal(err)
	}
	path, _ := SocketPath(dir, root)
	for deadline := time.Now().Add(5 * time.Second); len(s.Sockets()) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			f.Fatal("no socket")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		c.Write(data)
		c.(*net.UnixConn).CloseWrite()
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		var rep Reply
		err = readMessage(c, maxReply, &rep)
		c.Close()
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatal("the server neither answered nor closed")
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := send(ctx, dir, root, nil, &Request{Text: "after"}); err != nil {
			t.Fatalf("the request after: %v", err)
		}
	})
}
