//go:build !linux

package editorlink

import "net"

// peerUID is not implemented off Linux: without the peer's credentials,
// no connection is accepted, and clients go to the disk.
func peerUID(c *net.UnixConn) (int, error) {
	return 0, errNoPeerCredentials
}
