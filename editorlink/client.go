package editorlink

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/graft-editor/graft/workspace"
)

// ErrNoServer is wrapped by the errors of Send and Lookup when no graft
// serve serves the root: no socket directory, no socket, or a stale one.
// It is the only error after which a client may write the disk instead
// of sending the edit to the editor: every other error of Lookup means
// that an editor may serve the root but cannot be reached safely (see
// UnreachableError).
var ErrNoServer = errors.New("no graft serve is serving this workspace")

// ErrLinkDisabled is wrapped by the errors of Send and Lookup when the
// link cannot work where the client runs: the socket's path is too long
// for a Unix socket address, or the system does not tell who is at the
// other end of a connection (off Linux; on Windows no connection is even
// tried). No graft serve can serve the
// root through it either, so it wraps ErrNoServer; a client that writes
// the disk instead should say why the editor was not tried.
var ErrLinkDisabled = fmt.Errorf("%w: the editor link cannot work here", ErrNoServer)

// ErrNoReply is wrapped by the errors of Send when the request reached
// graft serve whole but its reply did not come back: ctx ended (the
// client was interrupted or cancelled), the connection broke, or the
// reply timed out. The server may have sent the edit to the editor, and
// the editor may have applied it: a client must say so, and must not send
// the request again without looking at the editor's buffers first. An
// error of Send that is neither this nor a *ServerError (the server's own
// word) means that the server did not get the whole request: nothing was
// applied.
var ErrNoReply = errors.New("the request went to graft serve, but its reply did not come back")

// An UnreachableError is an error of Lookup or Send that says an editor
// may serve the root but cannot be reached safely: the socket directory
// is not private to the user, the socket cannot be connected to for
// another reason than that nobody listens there, or the server at the
// socket runs as another user. A client must not write the disk instead,
// behind an editor that may hold the files open, unless the person asked
// for that (--editor never).
type UnreachableError struct {
	// Err says what is wrong, naming the directory or the socket.
	Err error
	// Fix says what the person can do about it, as a sentence without
	// its final period.
	Fix string
}

// Error returns Err's message; Fix is for the person, and the caller says
// it as fits.
func (e *UnreachableError) Error() string { return e.Err.Error() }

// Unwrap returns Err, which may wrap ErrInsecureDir.
func (e *UnreachableError) Unwrap() error { return e.Err }

// A ServerError is a reply's Error: the server did not handle the
// request.
type ServerError struct{ Message string }

func (e *ServerError) Error() string { return "graft serve: " + e.Message }

// defaultReplyTimeout bounds the wait for a reply when ctx has no
// deadline: the server's own limit, and some.
const defaultReplyTimeout = 3 * time.Minute

// Lookup returns the socket of the graft serve that serves a request
// for root that changes files (absolute paths, as workspace.Root.Path
// makes them; nil when they are not known yet), in the directory Dir
// returns, after checking that one answers there as the user: the server
// of root, or of the nearest folder above it (an editor with the
// repository open serves graft apply run in one of its folders: the
// files may be open there); else, when files are known, the server of a
// folder inside root that holds every one of them (the editor has that
// folder open, the agent runs at the top). It returns an error wrapping
// ErrNoServer when none serves the request (and ErrLinkDisabled too when
// none can); an *UnreachableError when one may but cannot be reached
// safely (an insecure directory wraps ErrInsecureDir); a *SplitError
// when the files lie in a served folder inside root and outside it, or
// in two; and ctx's error, wrapped, when ctx ends first.
func Lookup(ctx context.Context, root string, files []string) (string, error) {
	c, path, err := dial(ctx, Dir(), root, files)
	if err != nil {
		return "", err
	}
	c.Close()
	return path, nil
}

// Send sends req to the graft serve that serves a request for root that
// changes files, as Lookup finds it (in the directory Dir returns;
// req.Root is set to root, which confines the request) and returns its
// reply. The errors are Lookup's, a *ServerError when the server refused
// the request or failed to handle it, one wrapping ErrNoReply when the
// request went to the server but its reply did not come back (the editor
// may then have applied the edit), or the connection's, with nothing
// received. When ctx ends, the error wraps ctx's error too.
func Send(ctx context.Context, root string, files []string, req *Request) (*Reply, error) {
	return send(ctx, Dir(), root, files, req)
}

func send(ctx context.Context, dir, root string, files []string, req *Request) (*Reply, error) {
	c, _, err := dial(ctx, dir, root, files)
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
	// A write that returns no error put the whole request in the socket:
	// from then on, the server may be handling it.
	werr := writeMessage(c, &r)
	// A server that refused the request midway still replied why.
	var rep Reply
	if err := readMessage(c, maxReply, &rep); err != nil {
		switch {
		case werr != nil && ctx.Err() != nil:
			return nil, fmt.Errorf("stopped before the request reached graft serve: %w", ctx.Err())
		case werr != nil:
			return nil, fmt.Errorf("sending the request to graft serve: %w", werr)
		case ctx.Err() != nil:
			return nil, fmt.Errorf("%w: %w", ErrNoReply, ctx.Err())
		}
		return nil, fmt.Errorf("%w: %w", ErrNoReply, err)
	}
	if rep.Error != "" {
		return nil, &ServerError{Message: rep.Error}
	}
	return &rep, nil
}

// dial connects to the socket of root in dir, or else of the nearest
// folder above root that has a server, or else of the folder inside root
// that holds the files, and checks that the server runs as the user. Its
// errors are Lookup's, for root's own socket when no folder has one.
func dial(ctx context.Context, dir, root string, files []string) (*net.UnixConn, string, error) {
	c, path, err := dialRoot(ctx, dir, root)
	if !errors.Is(err, ErrNoServer) || errors.Is(err, ErrLinkDisabled) {
		return c, path, err
	}
	real, rerr := realPath(root)
	if rerr != nil {
		return nil, "", err
	}
	for up, down := filepath.Dir(real), real; up != down; down, up = up, filepath.Dir(up) {
		if c, path, uerr := dialRoot(ctx, dir, up); !errors.Is(uerr, ErrNoServer) {
			return c, path, uerr
		}
	}
	if len(files) == 0 {
		return nil, "", err
	}
	return dialBelow(ctx, dir, real, files, err)
}

// dialBelow is dial for the servers of the folders inside root, the real
// path of the request's root: it connects to the server whose folders
// hold every file (an editor may serve several, web/ and api/ both), and
// returns a *SplitError when the files lie in served folders and outside
// them, or in the folders of two servers. none is the error when no
// served folder holds any.
func dialBelow(ctx context.Context, dir, root string, files []string, none error) (*net.UnixConn, string, error) {
	folders, lerr := below(dir, root)
	if lerr != nil || len(folders) == 0 {
		return nil, "", none
	}
	// A live server's connection by socket; nil for a stale socket.
	conns := map[string]*net.UnixConn{}
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.Close()
			}
		}
	}()
	// The innermost folder that holds each file, of those with a live
	// server.
	holder := make([]*served, len(files))
	for i, f := range files {
		for k := range folders {
			s := &folders[k]
			if _, in := workspace.Within(s.root, f); !in || holder[i] != nil && len(holder[i].root) >= len(s.root) {
				continue
			}
			c, seen := conns[s.socket]
			if !seen {
				var err error
				c, _, err = dialRoot(ctx, dir, s.root)
				switch {
				case errors.Is(err, ErrNoServer):
					c = nil // stale: nobody serves it
				case err != nil:
					return nil, "", err
				}
				conns[s.socket] = c
			}
			if c != nil {
				holder[i] = s
			}
		}
	}
	split := &SplitError{Root: root, Served: map[string][]string{}}
	servers := map[string]bool{} // by id
	for i, f := range files {
		if holder[i] == nil {
			split.Unserved = append(split.Unserved, f)
			continue
		}
		split.Served[holder[i].root] = append(split.Served[holder[i].root], f)
		servers[holder[i].server] = true
	}
	switch {
	case len(servers) == 0:
		return nil, "", none
	case len(servers) > 1 || len(split.Unserved) > 0:
		return nil, "", split
	}
	socket := holder[0].socket // every file has one
	c := conns[socket]
	delete(conns, socket) // the caller's now
	return c, socket, nil
}

// A SplitError is the error of Lookup and Send for a request whose files
// an editor serves in part: some lie in a folder inside the request's
// root that an editor's graft serve serves, and others outside it, or in
// a folder another graft serve serves. Neither an editor nor the disk
// can take the request whole, and writing the disk for some of it would
// go behind an editor that may hold the files open: a client writes
// nothing, and says to send the edits of each folder on their own.
type SplitError struct {
	// Root is the request's root, a real path.
	Root string
	// Served holds, for each served folder, the files of the request in
	// it.
	Served map[string][]string
	// Unserved are the files in no served folder.
	Unserved []string
}

func (e *SplitError) Error() string {
	rel := func(p string) string {
		if r, ok := workspace.Within(e.Root, p); ok {
			return filepath.ToSlash(r)
		}
		return p
	}
	list := func(files []string) string {
		names := make([]string, len(files))
		for i, f := range files {
			names[i] = rel(f)
		}
		return strings.Join(names, ", ")
	}
	var parts []string
	for _, folder := range slices.Sorted(maps.Keys(e.Served)) {
		parts = append(parts, fmt.Sprintf("%s (in %s/, which an editor's graft serve serves)", list(e.Served[folder]), rel(folder)))
	}
	if len(e.Unserved) > 0 {
		parts = append(parts, fmt.Sprintf("%s (which no editor serves)", list(e.Unserved)))
	}
	return "the edits change " + strings.Join(parts, " and ")
}

// dialRoot is dial for root's own socket.
func dialRoot(ctx context.Context, dir, root string) (*net.UnixConn, string, error) {
	if err := linkSupport(); err != nil {
		return nil, "", fmt.Errorf("%w (%w)", ErrLinkDisabled, err)
	}
	uid := os.Getuid()
	if err := CheckDir(dir, uid); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, "", fmt.Errorf("%w (no directory %s)", ErrNoServer, dir)
		}
		return nil, "", &UnreachableError{Err: err, Fix: dirFix(dir, uid, err)}
	}
	path, err := SocketPath(dir, root)
	if err != nil {
		if errors.Is(err, errPathTooLong) {
			// No server can listen there either: it would need the same
			// path.
			return nil, "", fmt.Errorf("%w (%w)", ErrLinkDisabled, err)
		}
		return nil, "", err
	}
	d := net.Dialer{Timeout: 2 * time.Second}
	nc, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return nil, "", fmt.Errorf("connecting to graft serve: %w", ctx.Err())
		case errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED):
			return nil, "", fmt.Errorf("%w (%s: %v)", ErrNoServer, path, errors.Unwrap(err))
		case errors.Is(err, syscall.EAGAIN) || os.IsTimeout(err):
			return nil, "", &UnreachableError{
				Err: fmt.Errorf("graft serve at %s did not accept the connection: %w", path, err),
				Fix: "try again in a moment: the editor's graft serve is busy",
			}
		}
		return nil, "", &UnreachableError{
			Err: fmt.Errorf("connecting to graft serve at %s: %w", path, err),
			Fix: fmt.Sprintf("remove %s if no editor of yours runs graft serve for this workspace, or restart the editor, whose graft serve makes it again", path),
		}
	}
	c := nc.(*net.UnixConn)
	if err := checkPeer(c, uid); err != nil {
		c.Close()
		if errors.Is(err, errNoPeerCredentials) {
			return nil, "", fmt.Errorf("%w (%s: %w)", ErrLinkDisabled, path, err)
		}
		return nil, "", &UnreachableError{
			Err: fmt.Errorf("the server at %s: %w", path, err),
			Fix: fmt.Sprintf("stop the graft serve of the other user that listens at %s, or set %s to a directory of your own, for the editor's graft serve too", path, DirEnv),
		}
	}
	return c, path, nil
}

// dirFix says how to fix the socket directory dir, for which CheckDir
// returned err for the user uid.
func dirFix(dir string, uid int, err error) string {
	if !errors.Is(err, ErrInsecureDir) {
		return fmt.Sprintf("make %s reachable, or set %s to a private directory of your own, for the editor's graft serve too", dir, DirEnv)
	}
	if fi, err := os.Lstat(dir); err == nil {
		if ownedBy(dir, fi, uid) {
			if fi.IsDir() {
				return fmt.Sprintf("make the directory private (chmod 700 %s), or remove it (the editor's graft serve makes it again when it restarts), or set %s to a private directory, for the editor's graft serve too", dir, DirEnv)
			}
			return fmt.Sprintf("remove %s, which is not a directory (the editor's graft serve makes one when it restarts), or set %s to a private directory, for the editor's graft serve too", dir, DirEnv)
		}
	}
	return fmt.Sprintf("remove %s (it is not yours: its owner or an administrator may have to), or set %s to a private directory of your own, for the editor's graft serve too", dir, DirEnv)
}
