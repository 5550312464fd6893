package editorlink

import (
	"errors"
	"fmt"
	"net"
)

// errNoPeerCredentials is the error of peerUID where the system does not
// tell who is at the other end of a connection: no connection can be
// checked, so the link is disabled.
var errNoPeerCredentials = errors.New("peer credentials are only checked on Linux; the editor link is disabled")

// checkPeer returns nil when the peer of c runs as the user uid.
func checkPeer(c *net.UnixConn, uid int) error {
	got, err := peerUID(c)
	if err != nil {
		return err
	}
	return samePeer(got, uid)
}

// samePeer returns nil when peer, the user id of a connection's other
// end, is uid, and an error saying whose connection it is otherwise.
func samePeer(peer, uid int) error {
	if peer != uid {
		return fmt.Errorf("connection from uid %d refused: only uid %d may use this link", peer, uid)
	}
	return nil
}
