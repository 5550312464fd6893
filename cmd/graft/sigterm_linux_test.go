package main

import (
	"net"
	"syscall"
	"testing"
)

// This test finds graft serve's pid by its socket's peer credentials,
// which only Linux gives, and signals it as only Unix can.

func TestEditorServeRemovesItsSocketOnSIGTERM(t *testing.T) {
	root, sockets := editorWorkspace(t)
	startEditor(t, root, sockets)
	path := waitSocket(t, sockets, root, true)
	pid := findServer(t, path)
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitSocket(t, sockets, root, false)
}

// findServer returns the pid of the process at the other end of a
// connection to the socket at path.
func findServer(t *testing.T, path string) int {
	t.Helper()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	raw, err := c.(*net.UnixConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var pid int
	raw.Control(func(fd uintptr) {
		cred, err := syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
		if err == nil {
			pid = int(cred.Pid)
		}
	})
	if pid == 0 {
		t.Fatal("no peer pid")
	}
	return pid
}
