package editorlink

import (
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// errHungUp is the cause of a handler's context when its client hung up
// before the reply: it was interrupted, or cancelled its request.
var errHungUp = errors.New("the client hung up before the reply")

// hangupPoll is how often a connection whose client shut down its side
// for writing is checked for the client closing it.
const hangupPoll = 100 * time.Millisecond

// watchHangup watches c, whose request has been read, for its client
// hanging up, and calls hungUp when it does: when the connection breaks,
// or is closed at the other end. A client that only shuts down its side
// for writing after its request (as a shell's nc -N does) still waits for
// the reply: it has not hung up until it closes the connection. It
// returns the function that stops the watch, which returns once the
// watch has stopped, before the reply is written.
func watchHangup(c *net.UnixConn, hungUp func()) (stop func()) {
	c.SetReadDeadline(time.Time{})
	var stopped atomic.Bool
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var buf [512]byte
		for {
			_, err := c.Read(buf[:])
			if err == nil {
				continue // bytes after the request: ignored, as the request was
			}
			if errors.Is(err, io.EOF) {
				// Shut down for writing, or closed: only a close hangs up.
				for !closedByPeer(c) {
					select {
					case <-done:
						return
					case <-time.After(hangupPoll):
					}
				}
			}
			if !stopped.Load() {
				hungUp()
			}
			return
		}
	}()
	return func() {
		stopped.Store(true)
		close(done)
		c.SetReadDeadline(time.Now())
		wg.Wait()
	}
}
