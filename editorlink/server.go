package editorlink

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// A Handler handles one request for the workspace root, the real path of
// one of the roots the server serves. An error is sent to the client as
// the reply's Error.
type Handler func(ctx context.Context, root string, req *Request) (*Reply, error)

// ServerOptions configure a Server. The zero value is the default.
type ServerOptions struct {
	// Dir is the socket directory; empty means Dir().
	Dir string
	// Logger receives the server's log; nil logs nothing.
	Logger *zap.Logger
	// MaxRequest is the largest request accepted, in bytes; zero means
	// DefaultMaxRequest.
	MaxRequest int
	// ReadTimeout bounds the time a client has to send its request after
	// it connects; zero means 30s.
	ReadTimeout time.Duration
	// HandleTimeout bounds the time the handler has; zero means 2 minutes.
	HandleTimeout time.Duration
	// WriteTimeout bounds the time the reply takes to write; zero means 30s.
	WriteTimeout time.Duration
	// Retry is how often a root that a live server holds is claimed
	// again, and how often a held socket is checked to still be there;
	// zero means 3s.
	Retry time.Duration
	// MaxConns bounds the connections handled at once per root; past it a
	// connection is answered "busy". Zero means 16.
	MaxConns int
}

// A Server listens on the sockets of a set of workspace roots and passes
// their requests to a Handler. It is safe for concurrent use.
type Server struct {
	h   Handler
	opt ServerOptions
	log *zap.Logger
	uid int

	mu     sync.Mutex
	roots  map[string]*rootLink // by real path
	closed bool
	wg     sync.WaitGroup
}

// A rootLink is a root's socket, held or waited for.
type rootLink struct {
	root, path string
	cancel     context.CancelFunc
	done       chan struct{}

	mu   sync.Mutex
	held bool
}

// NewServer returns a server that serves no root yet.
func NewServer(h Handler, opt ServerOptions) *Server {
	if opt.Dir == "" {
		opt.Dir = Dir()
	}
	if opt.Logger == nil {
		opt.Logger = zap.NewNop()
	}
	if opt.MaxRequest <= 0 {
		opt.MaxRequest = DefaultMaxRequest
	}
	if opt.ReadTimeout <= 0 {
		opt.ReadTimeout = 30 * time.Second
	}
	if opt.HandleTimeout <= 0 {
		opt.HandleTimeout = 2 * time.Minute
	}
	if opt.WriteTimeout <= 0 {
		opt.WriteTimeout = 30 * time.Second
	}
	if opt.Retry <= 0 {
		opt.Retry = 3 * time.Second
	}
	if opt.MaxConns <= 0 {
		opt.MaxConns = 16
	}
	return &Server{h: h, opt: opt, log: opt.Logger, uid: os.Getuid(), roots: map[string]*rootLink{}}
}

// SetRoots makes the server serve exactly roots: it claims the socket of
// each new one and releases those of the roots no longer listed, both in
// the background (a root a live server holds is claimed when that server
// lets it go), so that SetRoots never waits for a request in flight. A
// root that cannot be served (it does not exist, the directory is
// insecure) is left out, and the errors say why.
func (s *Server) SetRoots(roots []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("editor link server closed")
	}
	var errs []error
	want := map[string]string{} // real path -> socket
	for _, r := range roots {
		real, err := realPath(r)
		if err == nil {
			var p string
			p, err = SocketPath(s.opt.Dir, real)
			want[real] = p
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r, err))
		}
	}
	for real, rl := range s.roots {
		if _, ok := want[real]; !ok {
			rl.cancel() // released in the background: SetRoots never waits
			delete(s.roots, real)
		}
	}
	if len(want) > 0 {
		if err := ensureDir(s.opt.Dir); err != nil {
			return errors.Join(append(errs, err)...)
		}
	}
	for real, p := range want {
		if _, ok := s.roots[real]; ok || p == "" {
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		rl := &rootLink{root: real, path: p, cancel: cancel, done: make(chan struct{})}
		s.roots[real] = rl
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer close(rl.done)
			s.run(ctx, rl)
		}()
	}
	return errors.Join(errs...)
}

// Sockets returns the paths of the sockets the server holds now, by the
// real path of their root.
func (s *Server) Sockets() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]string{}
	for real, rl := range s.roots {
		rl.mu.Lock()
		if rl.held {
			out[real] = rl.path
		}
		rl.mu.Unlock()
	}
	return out
}

// Close stops serving every root, waits for the requests in flight to
// end (their handlers' contexts are cancelled) and removes the sockets it
// holds.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	for _, rl := range s.roots {
		rl.cancel()
	}
	s.roots = map[string]*rootLink{}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// errBusy says a live server holds the socket.
var errBusy = errors.New("a live graft serve holds the socket")

// run claims rl's socket, serves it until ctx is done or the socket is
// lost, and claims it again, every Retry, until ctx is done.
func (s *Server) run(ctx context.Context, rl *rootLink) {
	for {
		ln, fi, err := s.claim(rl.path)
		switch {
		case err == nil:
			s.log.Info("editor link listening", zap.String("root", rl.root), zap.String("socket", rl.path))
			rl.mu.Lock()
			rl.held = true
			rl.mu.Unlock()
			s.serve(ctx, rl, ln, fi)
			rl.mu.Lock()
			rl.held = false
			rl.mu.Unlock()
		case errors.Is(err, errBusy):
			s.log.Info("editor link: another graft serve holds the root; waiting for it to exit", zap.String("root", rl.root))
		default:
			s.log.Warn("editor link", zap.String("root", rl.root), zap.Error(err))
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(s.opt.Retry):
		}
	}
}

// claim takes the socket at path: it listens there unless a live server
// does, replacing a stale socket. It returns the listener and the
// socket's file info, to remove it later only if it is still this one.
func (s *Server) claim(path string) (*net.UnixListener, os.FileInfo, error) {
	if err := CheckDir(filepath.Dir(path), s.uid); err != nil {
		return nil, nil, err
	}
	unlock, err := lockDir(filepath.Dir(path))
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	s.sweep(filepath.Dir(path), path)
	if _, err := os.Lstat(path); err == nil {
		if live(path) {
			return nil, nil, errBusy
		}
		s.log.Info("editor link: replacing a stale socket", zap.String("socket", path))
		if err := os.Remove(path); err != nil {
			return nil, nil, fmt.Errorf("removing stale socket: %w", err)
		}
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, nil, fmt.Errorf("listen: %w", err)
	}
	ln.SetUnlinkOnClose(false) // release removes it, if it is still ours
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		os.Remove(path)
		return nil, nil, fmt.Errorf("socket mode: %w", err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		ln.Close()
		return nil, nil, fmt.Errorf("socket: %w", err)
	}
	return ln, fi, nil
}

// live reports whether a server accepts connections on the socket at
// path. Only a refused connection, or no socket, makes it stale: a
// server too busy to accept at once is live.
func live(path string) bool {
	c, err := net.DialTimeout("unix", path, time.Second)
	if err == nil {
		c.Close()
		return true
	}
	return !(errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTSOCK))
}

// sweep removes the stale sockets of other roots in dir, which killed
// servers left behind, so that the directory does not fill with them.
// The directory's lock is held, so that no socket is between its bind
// and its listen.
func (s *Server) sweep(dir, except string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if p == except || e.Type()&fs.ModeSocket == 0 || !strings.HasSuffix(e.Name(), ".sock") {
			continue
		}
		if c, err := net.DialTimeout("unix", p, time.Second); err == nil {
			c.Close()
		} else if errors.Is(err, syscall.ECONNREFUSED) {
			os.Remove(p)
		}
	}
}

// lockDir takes the lock of the socket directory dir (an flock on
// dir/lock), which claims and releases hold, and returns its release.
func lockDir(dir string) (func(), error) {
	f, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("socket lock: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("socket lock: %w", err)
	}
	return func() {
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}

// serve accepts connections on ln until ctx is done or the socket file is
// no longer fi (removed or replaced behind the server's back), then closes
// ln. When ctx is done it removes the socket first, if it is still fi,
// while ln still listens: a server that claims the root meanwhile finds it
// live and waits, so the socket it binds next cannot be taken for this
// one (a new socket may get the inode number of the one it replaced).
func (s *Server) serve(ctx context.Context, rl *rootLink, ln *net.UnixListener, fi os.FileInfo) {
	var conns sync.WaitGroup
	cctx, cancel := context.WithCancel(ctx)
	watched := make(chan struct{})
	defer func() {
		cancel()
		<-watched
		conns.Wait()
	}()
	go func() {
		defer close(watched)
		t := time.NewTicker(s.opt.Retry)
		defer t.Stop()
		for {
			select {
			case <-cctx.Done():
				s.release(rl.path, fi)
				ln.Close()
				return
			case <-t.C:
				if cur, err := os.Lstat(rl.path); err != nil || !os.SameFile(cur, fi) {
					s.log.Warn("editor link: the socket was removed or replaced; claiming it again", zap.String("socket", rl.path))
					ln.Close()
					return
				}
			}
		}
	}()
	slots := make(chan struct{}, s.opt.MaxConns)
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if cctx.Err() == nil && !errors.Is(err, net.ErrClosed) {
				s.log.Warn("editor link: accept", zap.Error(err))
			}
			return
		}
		select {
		case slots <- struct{}{}:
		default:
			c.SetWriteDeadline(time.Now().Add(time.Second))
			writeMessage(c, &Reply{Error: "busy: too many requests at once; try again"})
			c.Close()
			continue
		}
		conns.Add(1)
		go func() {
			defer conns.Done()
			defer func() { <-slots }()
			s.serveConn(cctx, rl.root, c)
		}()
	}
}

// release removes the socket at path if it is still fi.
func (s *Server) release(path string, fi os.FileInfo) {
	unlock, err := lockDir(filepath.Dir(path))
	if err != nil {
		s.log.Warn("editor link: release", zap.Error(err))
		return
	}
	defer unlock()
	if cur, err := os.Lstat(path); err == nil && os.SameFile(cur, fi) {
		if err := os.Remove(path); err != nil {
			s.log.Warn("editor link: removing socket", zap.Error(err))
		}
	}
	s.log.Info("editor link closed", zap.String("socket", path))
}

// serveConn reads one request from c, has the handler answer it and
// writes the reply. A connection from another user is closed unanswered.
func (s *Server) serveConn(ctx context.Context, root string, c *net.UnixConn) {
	defer c.Close()
	if err := checkPeer(c, s.uid); err != nil {
		s.log.Warn("editor link: connection refused", zap.Error(err))
		return
	}
	reply := func(r *Reply) {
		c.SetWriteDeadline(time.Now().Add(s.opt.WriteTimeout))
		if err := writeMessage(c, r); err != nil {
			s.log.Info("editor link: writing reply", zap.Error(err))
		}
	}
	c.SetReadDeadline(time.Now().Add(s.opt.ReadTimeout))
	var req Request
	if err := readMessage(c, s.opt.MaxRequest, &req); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) && !strings.Contains(err.Error(), "newline") {
			return // a probe: connected and closed
		}
		s.log.Info("editor link: bad request", zap.Error(err))
		reply(&Reply{Error: "request refused: " + err.Error()})
		c.CloseWrite()
		return
	}
	if real, err := realPath(req.Root); err != nil || real != root {
		reply(&Reply{Error: fmt.Sprintf("request for root %q refused: this socket serves %s", req.Root, root)})
		return
	}
	hctx, cancel := context.WithTimeout(ctx, s.opt.HandleTimeout)
	defer cancel()
	// A client that hangs up (interrupted, or cancelled) cancels its
	// request: the handler drops it if it has not started it.
	hctx, hangUp := context.WithCancelCause(hctx)
	defer hangUp(nil)
	stop := watchHangup(c, func() {
		s.log.Info("editor link: the client hung up before its reply; cancelling its request")
		hangUp(errHungUp)
	})
	rep, err := s.h(hctx, root, &req)
	stop()
	if err != nil {
		rep = &Reply{Error: err.Error()}
	}
	if rep == nil {
		rep = &Reply{Error: "no reply"}
	}
	if rep.Blocks == nil && rep.Error == "" {
		rep.Blocks = []Block{}
	}
	reply(rep)
}
