//go:build unix

package main

import (
	"io"
	"os"
	"sync"
	"syscall"
)

// messageInput returns standard input for the messages of graft serve and
// graft mcp: when it is a pipe or a socket, as an editor or an agent
// starts a server, it is read through Go's network poller rather than by
// a thread blocked in read(2). A thread blocked there hands its processor
// to another thread, and takes one back when a message comes: measured
// on a 2-core machine, that more than doubled the CPU time each message
// costs the server (0.65 ms against 0.28 ms a didChange, a chat plugin
// sending an answer line by line). A terminal or a file is read as it is.
//
// The descriptor is made non-blocking, a mode its other holders would
// see; closing the returned reader, or restore, makes it blocking again.
func messageInput() (in io.ReadCloser, restore func()) {
	var st syscall.Stat_t
	if err := syscall.Fstat(0, &st); err != nil {
		return os.Stdin, func() {}
	}
	if kind := st.Mode & syscall.S_IFMT; kind != syscall.S_IFIFO && kind != syscall.S_IFSOCK {
		return os.Stdin, func() {}
	}
	if err := syscall.SetNonblock(0, true); err != nil {
		return os.Stdin, func() {}
	}
	f := os.NewFile(0, "/dev/stdin")
	var once sync.Once // a descriptor 0 closed may be another file's by then
	restore = func() { once.Do(func() { syscall.SetNonblock(0, false) }) }
	return blockingOnClose{f, restore}, restore
}

// blockingOnClose is standard input read through the poller; Close makes
// the descriptor blocking again before it closes it.
type blockingOnClose struct {
	*os.File
	restore func()
}

func (b blockingOnClose) Close() error {
	b.restore()
	return b.File.Close()
}
