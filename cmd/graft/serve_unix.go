//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/graft-editor/graft/editorlink"
)

// removeOnSIGTERM makes a SIGTERM remove the editor link's sockets before
// it ends the process, as it did before; the returned function stops
// watching. (Serve cannot return on a signal: its read of standard input
// may not be interruptible.)
func removeOnSIGTERM(srv *editorlink.Server) (stop func()) {
	sig := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(sig, syscall.SIGTERM)
	go func() {
		select {
		case <-sig:
			srv.Close()
			signal.Reset(syscall.SIGTERM)
			syscall.Kill(os.Getpid(), syscall.SIGTERM)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sig)
		close(done)
	}
}
