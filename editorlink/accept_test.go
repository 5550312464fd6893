//go:build unix

package editorlink

import (
	"errors"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
)

func TestAServerOutOfDescriptorsServesItsClientsWhenSomeAreFree(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	h := &echo{}
	startServer(t, dir, root, ServerOptions{}, h.handle)
	path, _ := SocketPath(dir, root)

	// The process gets a few descriptors more than it has open, and
	// clients take them all: the server's accept runs out meanwhile.
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("counting descriptors: %v", err)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	low := lim
	low.Cur = uint64(len(fds) + 16)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skipf("lowering the descriptor limit: %v", err)
	}
	restored := false
	restore := func() {
		if !restored {
			restored = true
			if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
				t.Fatal(err)
			}
		}
	}
	defer restore()
	var conns []*net.UnixConn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for {
		c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: path, Net: "unix"})
		if errors.Is(err, syscall.EMFILE) {
			break
		}
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		conns = append(conns, c)
	}
	time.Sleep(200 * time.Millisecond) // the server tries to accept
	restore()

	// Every client gets its request answered.
	for i, c := range conns {
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if err := writeMessage(c, &Request{Root: root, Text: "x"}); err != nil {
			t.Fatalf("connection %d of %d: %v", i, len(conns), err)
		}
		var rep Reply
		if err := readMessage(c, maxReply, &rep); err != nil || rep.Error != "" {
			t.Fatalf("connection %d of %d: %+v, %v", i, len(conns), rep, err)
		}
	}
	if _, err := send(sendCtx(t), dir, root, nil, &Request{Text: "after"}); err != nil {
		t.Fatalf("the request after: %v", err)
	}
}
