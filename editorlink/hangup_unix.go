//go:build unix

package editorlink

import (
	"net"

	"golang.org/x/sys/unix"
)

// closedByPeer reports whether the other end of c, which has read the end
// of the stream, has closed the connection rather than only shut down its
// side for writing: then polling c reports a hang-up.
func closedByPeer(c *net.UnixConn) bool {
	raw, err := c.SyscallConn()
	if err != nil {
		return true
	}
	hup := true
	if err := raw.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if n, err := unix.Poll(fds, 0); err == nil && n == 1 {
			hup = fds[0].Revents&(unix.POLLHUP|unix.POLLERR) != 0
		} else if err == nil {
			hup = false
		}
	}); err != nil {
		return true
	}
	return hup
}
