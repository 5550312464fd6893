package editorlink

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"syscall"
	"time"
)

// ErrNoServer is wrapped by the errors of Send and Lookup when no graft
// serve serves the root: no socket directory, no socket, or a stale one.
var ErrNoServer = errors.New("no graft serve is serving this workspace")

// A ServerError is a reply's Error: the server did not handle the
// request.
type ServerError struct{ Message string }

func (e *ServerError) Error() string { return "graft serve: " + e.Message }

// defaultReplyTimeout bounds the wait for a reply when ctx has no
// deadline: the server's own limit, and some.
const defaultReplyTimeout = 3 * time.Minute

// Lookup returns the socket of the graft serve that serves root, in the
// directory Dir returns, after checking that one answers there as the
// user. It returns an error wrapping ErrNoServer when none does, and one
// wrapping ErrInsecureDir when the directory is not private to the user.
func Lookup(ctx context.Context, root string) (string, error) {
	c, path, err := dial(ctx, Dir(), root)
	if err != nil {
		return "", err
	}
	c.Close()
	return path, nil
}

// Send sends req to the graft serve that serves root (in the directory
// Dir returns; req.Root is set to root) and returns its reply. The errors
// are Lookup's, a *ServerError when the server refused the request, or
// the connection's.
func Send(ctx context.Context, root string, req *Request) (*Reply, error) {
	return send(ctx, Dir(), root, req)
}

func send(ctx context.Context, dir, root string, req *Request) (*Reply, error) {
	c, _, err := dial(ctx, dir, root)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	r := *req
	r.Root = root
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(defaultReplyTimeout)
	}
	c.SetDeadline(deadline)
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
	defer stop()
	werr := writeMessage(c, &r)
	// A server that refused the request midway still replied why.
	var rep Reply
	if err := readMessage(c, maxReply, &rep); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if werr != nil {
			return nil, fmt.Errorf("sending the request to graft serve: %w", werr)
		}
		return nil, fmt.Errorf("reading graft serve's reply: %w", err)
	}
	if rep.Error != "" {
		return nil, &ServerError{Message: rep.Error}
	}
	return &rep, nil
}

// dial connects to the socket of root in dir and checks that the server
// runs as the user.
func dial(ctx context.Context, dir, root string) (*net.UnixConn, string, error) {
	uid := os.Getuid()
	if err := CheckDir(dir, uid); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", fmt.Errorf("%w (no directory %s)", ErrNoServer, dir)
		}
		return nil, "", err
	}
	path, err := SocketPath(dir, root)
	if err != nil {
		return nil, "", err
	}
	d := net.Dialer{Timeout: 2 * time.Second}
	nc, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
			return nil, "", fmt.Errorf("%w (%s: %v)", ErrNoServer, path, errors.Unwrap(err))
		}
		return nil, "", fmt.Errorf("connecting to graft serve: %w", err)
	}
	c := nc.(*net.UnixConn)
	if err := checkPeer(c, uid); err != nil {
		c.Close()
		return nil, "", fmt.Errorf("the server at %s: %w", path, err)
	}
	return c, path, nil
}
