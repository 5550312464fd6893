package editorlink

import (
	"context"
	"crypto/rand"
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

	"github.com/graft-editor/graft/workspace"
	"go.uber.org/zap"
)

// A Handler handles one request for the workspace root, the real path of
// one of the roots the server serves or of a folder in one (graft apply
// run there), to which the request is confined. An error is sent to the
// client as the reply's Error.
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
	// IdleTimeout bounds the time a client has to start sending its
	// request after it connects: a connection that sent nothing by then
	// is answered so and closed. Zero means 5s.
	IdleTimeout time.Duration
	// ReadTimeout bounds the time the rest of the request takes to
	// arrive, from its first byte; zero means 30s.
	ReadTimeout time.Duration
	// QueueTimeout bounds the time a request waits for its turn to be
	// handled; past it, the request is answered with an error saying how
	// long it waited and behind how many requests. Zero means 30s.
	QueueTimeout time.Duration
	// HandleTimeout bounds the time the handler has; zero means 2 minutes.
	HandleTimeout time.Duration
	// WriteTimeout bounds the time the reply takes to write; zero means 30s.
	WriteTimeout time.Duration
	// Retry is how often a root that a live server holds is claimed
	// again, and how often a held socket is checked to still be there;
	// zero means 3s.
	Retry time.Duration
	// MaxConns bounds the connections open at once per root, whatever
	// they are doing (sending their request, waiting for their turn,
	// being handled, reading the reply): each holds a file descriptor.
	// Past it a connection is answered with an error and closed. Zero
	// means 256.
	MaxConns int
	// Handlers bounds the requests handled at once, for all the roots
	// together; the others wait for their turn in the order they
	// arrived. Zero means 1: an editor takes routed requests one at a
	// time anyway, and a request handled before the edit ahead of it has
	// landed is resolved against buffers about to change.
	Handlers int
}

// A Server listens on the sockets of a set of workspace roots and passes
// their requests to a Handler. It is safe for concurrent use.
type Server struct {
	h     Handler
	opt   ServerOptions
	log   *zap.Logger
	uid   int
	turns *queue // of the requests of every root
	// id tells this server's root files from other servers': a client
	// sends a request whose files lie in several of its folders to it.
	id string

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
	if opt.IdleTimeout <= 0 {
		opt.IdleTimeout = 5 * time.Second
	}
	if opt.ReadTimeout <= 0 {
		opt.ReadTimeout = 30 * time.Second
	}
	if opt.QueueTimeout <= 0 {
		opt.QueueTimeout = 30 * time.Second
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
		opt.MaxConns = 256
	}
	if opt.Handlers <= 0 {
		opt.Handlers = 1
	}
	return &Server{h: h, opt: opt, log: opt.Logger, uid: os.Getuid(), turns: newQueue(opt.Handlers), roots: map[string]*rootLink{}, id: rand.Text()}
}

// SetRoots makes the server serve exactly roots: it claims the socket of
// each new one and releases those of the roots no longer listed, both in
// the background (a root a live server holds is claimed when that server
// lets it go), so that SetRoots never waits for a request in flight. A
// root that cannot be served (it does not exist, the directory is
// insecure) is left out, and the errors say why. On Windows no root can
// be: SetRoots claims nothing, and its error says so.
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
		if err := linkSupport(); err != nil {
			return errors.Join(append(errs, err)...)
		}
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
	s.turns.stop()
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
		ln, fi, err := s.claim(rl.path, rl.root)
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

// claim takes the socket at path, for root: it listens there unless a
// live server does, replacing a stale socket, and writes its root file.
// It returns the listener and the socket's file info, to remove it later
// only if it is still this one.
func (s *Server) claim(path, root string) (*net.UnixListener, os.FileInfo, error) {
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
	if err := writeRootFile(path, root, s.id); err != nil {
		// The socket still serves root and the folders in it; only
		// clients in a folder above root will not find it.
		s.log.Warn("editor link", zap.String("socket", path), zap.Error(err))
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
// servers left behind, so that the directory does not fill with them,
// and the root files of sockets gone.
// The directory's lock is held, so that no socket is between its bind
// and its listen.
func (s *Server) sweep(dir, except string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case strings.HasPrefix(e.Name(), ".root-") && e.Type().IsRegular():
			os.Remove(p) // a root file a server died writing: they are written under the lock
			continue
		case strings.HasSuffix(p, ".root") && e.Type().IsRegular():
			if _, err := os.Lstat(strings.TrimSuffix(p, ".root") + ".sock"); errors.Is(err, fs.ErrNotExist) {
				os.Remove(p) // its socket is gone
			}
			continue
		}
		if p == except || e.Type()&fs.ModeSocket == 0 || !strings.HasSuffix(e.Name(), ".sock") {
			continue
		}
		if c, err := net.DialTimeout("unix", p, time.Second); err == nil {
			c.Close()
		} else if errors.Is(err, syscall.ECONNREFUSED) {
			os.Remove(p)
			os.Remove(rootFile(p))
		}
	}
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
	open := make(chan struct{}, s.opt.MaxConns) // a token per open connection
	var pause time.Duration                     // after a failed accept
	for {
		c, err := ln.AcceptUnix()
		if err != nil && cctx.Err() == nil && outOfResources(err) {
			// The connection waits in the listener's backlog: accept
			// it when descriptors are free again, rather than close
			// the listener and turn every client away.
			pause = min(max(2*pause, 5*time.Millisecond), time.Second)
			s.log.Warn("editor link: accept; trying again", zap.Error(err), zap.Duration("in", pause))
			select {
			case <-cctx.Done():
				return
			case <-time.After(pause):
			}
			continue
		}
		if err != nil {
			if cctx.Err() == nil && !errors.Is(err, net.ErrClosed) {
				s.log.Warn("editor link: accept", zap.Error(err))
			}
			return
		}
		pause = 0
		select {
		case open <- struct{}{}:
		default:
			s.refuse(c, rl.root)
			continue
		}
		conns.Add(1)
		go func() {
			defer conns.Done()
			defer func() { <-open }()
			s.serveConn(cctx, rl.root, c)
		}()
	}
}

// outOfResources reports whether err, accept's, says the process or the
// system ran out of file descriptors or memory for a while.
func outOfResources(err error) bool {
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) ||
		errors.Is(err, syscall.ENOBUFS) || errors.Is(err, syscall.ENOMEM)
}

// refuse answers c, a connection past MaxConns, with an error and closes
// it, without reading its request.
func (s *Server) refuse(c *net.UnixConn, root string) {
	defer c.Close()
	if err := checkPeer(c, s.uid); err != nil {
		s.log.Warn("editor link: connection refused", zap.Error(err))
		return
	}
	s.log.Warn("editor link: too many connections; refusing one", zap.String("root", root), zap.Int("open", s.opt.MaxConns))
	c.SetWriteDeadline(time.Now().Add(time.Second)) // a fresh connection's buffer has room
	msg := fmt.Sprintf("refused: %d connections to this graft serve for %s are open already, the most it takes; nothing was applied: try again", s.opt.MaxConns, root)
	writeMessage(c, &Reply{Error: msg})
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
		os.Remove(rootFile(path))
	}
	s.log.Info("editor link closed", zap.String("socket", path))
}

// serveConn answers the one request of c: it reads it, waits for its
// turn, has the handler answer it and writes the reply. A connection from
// another user is closed unanswered. Reading holds no turn, so a client
// slow to send its request delays no other; handling a request holds one,
// until the reply is ready.
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
	req, err := s.readRequest(ctx, c)
	if err != nil {
		if errors.Is(err, errProbe) {
			return
		}
		s.log.Info("editor link: bad request", zap.Error(err))
		reply(&Reply{Error: "request refused: " + err.Error()})
		c.CloseWrite()
		return
	}
	real, err := realPath(req.Root)
	_, in := workspace.Within(root, real)
	_, holds := workspace.Within(real, root)
	if err != nil || !in && !holds {
		reply(&Reply{Error: fmt.Sprintf("request for root %q refused: this socket serves %s", req.Root, root)})
		return
	}
	// A client that hangs up (interrupted, or cancelled) cancels its
	// request: it leaves the queue, or the handler drops it if it has
	// not started it.
	hctx, hangUp := context.WithCancelCause(ctx)
	defer hangUp(nil)
	stop := watchHangup(c, func() {
		s.log.Info("editor link: the client hung up before its reply; cancelling its request")
		hangUp(errHungUp)
	})
	rep := s.handle(hctx, real, req)
	stop()
	reply(rep)
}

// errStopping is the error of a request the server stopped reading or
// handling because it is stopping.
var errStopping = errors.New("graft serve is stopping; nothing was applied")

// errProbe is readRequest's error for a connection closed before it sent
// anything, as Lookup's and a claiming server's are.
var errProbe = errors.New("connection closed unused")

// readRequest reads c's request: its first byte must come within
// IdleTimeout of the connection, the rest within ReadTimeout of the first
// byte. When ctx is done, the read stops.
func (s *Server) readRequest(ctx context.Context, c *net.UnixConn) (*Request, error) {
	c.SetReadDeadline(time.Now().Add(s.opt.IdleTimeout))
	r := &requestReader{c: c, rest: s.opt.ReadTimeout}
	defer context.AfterFunc(ctx, r.stop)()
	var req Request
	err := readMessage(r, s.opt.MaxRequest, &req)
	started := r.hasStarted()
	switch {
	case err == nil:
		return &req, nil
	case ctx.Err() != nil:
		return nil, errStopping
	case !started && errors.Is(err, io.ErrUnexpectedEOF):
		return nil, errProbe
	case !started && errors.Is(err, os.ErrDeadlineExceeded):
		return nil, fmt.Errorf("nothing received in the %s after connecting: %w", roundWait(s.opt.IdleTimeout), os.ErrDeadlineExceeded)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, fmt.Errorf("the request did not arrive in full within %s of its start: %w", roundWait(s.opt.ReadTimeout), os.ErrDeadlineExceeded)
	}
	return nil, err
}

// A requestReader reads a request from c: once the first byte has come,
// it gives the rest of the request its own deadline, rest from then on.
type requestReader struct {
	c    *net.UnixConn
	rest time.Duration

	mu      sync.Mutex
	started bool // a byte came
	stopped bool // reading must stop
}

// Read reads from c.
func (r *requestReader) Read(p []byte) (int, error) {
	n, err := r.c.Read(p)
	if n > 0 {
		r.mu.Lock()
		if !r.started && !r.stopped {
			r.c.SetReadDeadline(time.Now().Add(r.rest))
		}
		r.started = true
		r.mu.Unlock()
	}
	return n, err
}

// stop ends the read at once.
func (r *requestReader) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	r.c.SetReadDeadline(time.Now())
}

// hasStarted reports whether a byte of the request came.
func (r *requestReader) hasStarted() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.started
}

// handle waits for req's turn, behind the requests that came before it,
// and has the handler answer it. The turn ends when the reply is ready,
// before it is written.
func (s *Server) handle(ctx context.Context, root string, req *Request) *Reply {
	if ctx.Err() != nil {
		return &Reply{Error: errStopping.Error()}
	}
	start := time.Now()
	s.log.Debug("editor link: request read; waiting for its turn", zap.String("root", root))
	release, err := s.turns.wait(ctx, s.opt.QueueTimeout)
	if err != nil {
		s.log.Warn("editor link: request not handled", zap.String("root", root), zap.Error(err))
		return &Reply{Error: err.Error()}
	}
	defer release()
	if waited := time.Since(start); waited >= time.Second {
		s.log.Info("editor link: request waited for its turn", zap.String("root", root), zap.Duration("waited", waited))
	}
	hctx, cancel := context.WithTimeout(ctx, s.opt.HandleTimeout)
	defer cancel()
	rep, err := s.h(hctx, root, req)
	if err != nil {
		rep = &Reply{Error: err.Error()}
	}
	if rep == nil {
		rep = &Reply{Error: "no reply"}
	}
	if rep.Blocks == nil && rep.Error == "" {
		rep.Blocks = []Block{}
	}
	return rep
}
