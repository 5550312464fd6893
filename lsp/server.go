// Package lsp is graft serve: a language server that editors start, hand
// agents' answers to, and get back edits they apply to their own buffers,
// with their own undo. The server resolves every block with the engine
// against the editor's open buffers (the disk only for files that are not
// open), and never writes a file itself: every change goes to the client
// as a versioned WorkspaceEdit.
package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"

	"github.com/graft-editor/graft/engine"
	hist "github.com/graft-editor/graft/history"
	"github.com/graft-editor/graft/workspace"
)

// Options configure a server.
type Options struct {
	// Version is the version reported in serverInfo.
	Version string
	// Logger receives the server's log; nil logs nothing. It must not
	// write to the protocol's output.
	Logger *zap.Logger
	// Level, when set, is the level of Logger, which initializationOptions
	// may change.
	Level *zap.AtomicLevel
	// Debounce is how long the server waits after a change before it
	// refreshes diagnostics and suggestions; zero means 150ms. Changes
	// that keep coming (an answer streaming into a chat buffer) delay an
	// answer's refresh by at most twice as long.
	Debounce time.Duration
	// VerifyDelay is how long the server waits, after a client said it
	// applied an edit, for the didChange that shows it; zero means 2s.
	VerifyDelay time.Duration
	// PanicOn names a method whose handler panics, to test that a panic
	// never kills the server. Empty in normal use.
	PanicOn string
	// Journal, when set, opens the journal of a workspace folder (see
	// Journal): graft apply's and graft mcp's history of its files, which
	// the server reads and adds its own edits to.
	Journal func(root string) (Journal, error)
	// Git, when set, returns the versions git keeps of the file at abs
	// (hist.Git.Versions: the staged and HEAD texts), which the stale
	// check consults after the server's own, as graft apply does.
	Git func(abs string) []engine.Version
	// Roots, when set, is called with the workspace folders the server
	// serves (absolute paths, links evaluated) and a Router for requests
	// from outside the connection, once initialize named the folders and
	// again each time they change. It is called with the server's lock
	// held: it must not block, nor call the Router before it returns.
	Roots func(roots []string, r *Router)
}

// ErrExitWithoutShutdown is returned by Serve when the client sends exit
// before shutdown; the process should then exit with status 1.
var ErrExitWithoutShutdown = errors.New("exit before shutdown")

// Serve runs a server over rwc until the client sends exit, the
// connection ends, or ctx is done. It returns nil after shutdown and exit,
// ErrExitWithoutShutdown after an exit that came first, the connection's
// error when it ended without exit, and ctx's error when ctx is done. In
// each case the server stops first: the edits it made are recorded in
// the journal.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opt Options) error {
	if opt.Logger == nil {
		opt.Logger = zap.NewNop()
	}
	if opt.Debounce <= 0 {
		opt.Debounce = 150 * time.Millisecond
	}
	if opt.VerifyDelay <= 0 {
		opt.VerifyDelay = 2 * time.Second
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s := newServer(opt)
	s.conn = jsonrpc2.NewConn(newStream(rwc, opt.Logger))
	s.conn.Go(ctx, s.route.wrap(s.handler()))
	select {
	case <-s.exitCh:
		// The input may be a file whose Read a Close cannot interrupt
		// (standard input): do not wait for the connection to end.
		s.stop()
		code, _ := s.exitCode()
		if code != 0 {
			return ErrExitWithoutShutdown
		}
		return nil
	case <-s.conn.Done():
		s.stop()
		if code, ok := s.exitCode(); ok {
			if code != 0 {
				return ErrExitWithoutShutdown
			}
			return nil
		}
		if err := s.conn.Err(); err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("connection: %w", err)
		}
		if s.shutDown() {
			// The editor asked the server to shut down and hung up
			// without the exit notification, as Neovim does when it
			// quits: the server ends as it was asked to.
			return nil
		}
		return errors.New("connection closed without exit")
	case <-ctx.Done():
		// Stopped by the process (SIGTERM, from an editor that will
		// not wait for its server): what the server keeps for later,
		// its journal, is written before it goes.
		s.stop()
		s.conn.Close()
		select {
		case <-s.conn.Done():
		case <-time.After(time.Second):
			// A read of standard input that a Close cannot
			// interrupt (a terminal) is not waited for.
		}
		return ctx.Err()
	}
}

// A server is the state of one connection.
type server struct {
	opt  Options
	log  *zap.Logger
	conn jsonrpc2.Conn
	docs *workspace.Overlay

	// requests holds the cancel functions of the calls in flight, by id.
	requests sync.Map // string -> context.CancelFunc
	// progressSeq numbers the progress tokens the server creates.
	progressSeq atomic.Int64

	// exitCh is closed when the client sends exit.
	exitCh chan struct{}

	mu       sync.Mutex
	state    lifecycle
	exited   bool
	caps     capabilities
	settings settings
	// open maps the URI of every open document to what the server keeps
	// of it; byPath maps the path a file document was opened under to its
	// URI, as the client spells it.
	open   map[string]*openDoc
	byPath map[string]string
	// touches counts the opens and changes of documents, for
	// openDoc.touched; guarded by mu.
	touches uint64

	diags       diagnostics
	answers     *answers
	suggestions *suggestions
	verifier    *verifier
	// history keeps the past of the files the client has open and of
	// those graft edited, for the plans to refuse stale blocks.
	history *history
	// prepared keeps the engine's documents of the texts graft.apply and
	// accepted suggestions leave, for the next apply to start from.
	prepared workspace.Prepared
	// route lets requests from outside the connection into its queue.
	route router
	// subs keeps the folders inside the workspace folders that routed
	// requests are confined to.
	subs subRoots
	// journals are the workspace folders' journals, opened as needed.
	journals *journals
}

// A lifecycle is where a connection stands in the protocol's life.
type lifecycle int

const (
	uninitialized lifecycle = iota
	initializing            // initialize answered, initialized not yet seen
	running
	shutDown
)

// newServer returns a server before initialize.
func newServer(opt Options) *server {
	s := &server{
		opt:      opt,
		log:      opt.Logger,
		exitCh:   make(chan struct{}),
		docs:     workspace.NewOverlay(),
		open:     map[string]*openDoc{},
		byPath:   map[string]string{},
		settings: defaultSettings(),
		history:  newHistory(time.Now),
	}
	s.journals = &journals{open: opt.Journal, log: opt.Logger}
	if opt.Journal != nil {
		s.history.journal = func(abs string) []hist.Entry { return s.journals.entries(s.docs.Roots(), abs) }
	}
	s.history.git = opt.Git
	s.answers = newAnswers(s)
	s.suggestions = newSuggestions(s)
	s.verifier = newVerifier(s)
	return s
}

// stop ends the server's background work.
func (s *server) stop() {
	s.subs.reset()
	s.journals.stop()
	s.answers.stop()
	s.suggestions.stop()
	s.verifier.stop()
}

// exitCode returns the exit status the client asked for, once it sent exit.
func (s *server) exitCode() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.exited {
		return 0, false
	}
	if s.state == shutDown {
		return 0, true
	}
	return 1, true
}

// notify sends a notification to the client, logging a failure.
func (s *server) notify(ctx context.Context, method string, params any) {
	if err := s.conn.Notify(context.WithoutCancel(ctx), method, params); err != nil {
		s.log.Warn("notify", zap.String("method", method), zap.Error(err))
	}
}
