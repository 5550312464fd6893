package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"sync/atomic"
	"syscall"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/history"
	"github.com/graft-editor/graft/lsp"
)

const serveUsage = `usage: graft serve [--stdio] [--log FILE] [--log-level LEVEL]

Run the Graft language server over standard input and output. Editors
start it; nothing but the protocol is written to standard output.

For each workspace folder it serves, it listens on a Unix socket private
to the user ($XDG_RUNTIME_DIR/graft, or $TMPDIR/graft-UID), so that
graft apply --editor and graft mcp send their edits into the editor's
buffers; the sockets are removed when it exits.

flags:
  --stdio            speak LSP over stdin and stdout (the default; accepted
                     because some clients pass it)
  --log FILE         write the log to FILE instead of standard error
  --log-level LEVEL  debug, info, warn or error (default info); the client's
                     initializationOptions.logLevel overrides it
  --editor-link=false  do not listen for edits from graft apply and graft mcp
  --journal=false    neither read nor write the journal of the texts graft
                     replaced and wrote (also GRAFT_JOURNAL=off): the
                     history graft apply and graft mcp keep, which the
                     server reads and adds its own edits to, so that a
                     block quoting an earlier text is stale on every route,
                     and after the editor restarts
`

// runServe is graft serve.
func runServe(ctx context.Context, args []string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer) (code int) {
	fs := flag.NewFlagSet("graft serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Bool("stdio", true, "")
	logFile := fs.String("log", "", "")
	logLevel := fs.String("log-level", "info", "")
	panicOn := fs.String("inject-panic", "", "") // for tests: a method whose handler panics
	debounce := fs.Duration("debounce", 0, "")   // for tests and benchmarks: the wait before diagnostics refresh
	link := fs.Bool("editor-link", true, "")
	journal := fs.Bool("journal", true, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, serveUsage)
			return exitOK
		}
		fmt.Fprintf(stderr, "graft serve: %v\n%s", err, serveUsage)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "graft serve: unexpected arguments %q\n%s", fs.Args(), serveUsage)
		return exitUsage
	}
	level, err := zap.ParseAtomicLevel(*logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "graft serve: --log-level: %v\n", err)
		return exitUsage
	}
	// An editor may close graft serve's standard error, where it logs,
	// and its standard output as it quits; Go ends a program that writes
	// to a broken pipe on descriptor 1 or 2 unless it asks for SIGPIPE.
	// Asked for, the write fails with EPIPE instead: the server goes on
	// serving, and stops as it would (a reply still going out as the
	// editor quits does not end it before its last line is logged).
	sigpipe := make(chan os.Signal, 1)
	signal.Notify(sigpipe, syscall.SIGPIPE)
	defer signal.Stop(sigpipe)
	var sink io.Writer = stderr
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
		if err != nil {
			fmt.Fprintf(stderr, "graft serve: --log: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		sink = f
	}
	enc := zap.NewProductionEncoderConfig()
	enc.EncodeTime = zapcore.ISO8601TimeEncoder
	logger := zap.New(zapcore.NewCore(zapcore.NewConsoleEncoder(enc), zapcore.AddSync(sink), level))
	defer logger.Sync()
	// The last line: what the server wrote (its journal, the editor
	// link's socket) is written or gone, and it is about to exit.
	defer func() { logger.Info("graft serve stopped", zap.Int("exit", code)) }()

	tuneServerGC(os.LookupEnv)
	info, _ := debug.ReadBuildInfo()
	opt := lsp.Options{
		Version:  version(info),
		Logger:   logger,
		Level:    &level,
		PanicOn:  *panicOn,
		Debounce: *debounce,
	}
	opt.Git = history.Git{}.Versions
	if *journal && !history.JournalOff() {
		opt.Journal = func(root string) (lsp.Journal, error) {
			state, err := history.StateDir()
			if err != nil {
				return nil, err
			}
			return history.OpenJournal(state, root, "graft serve")
		}
	}
	if *link {
		// The router is known once the server has its folders.
		var router atomic.Pointer[lsp.Router]
		srv := editorlink.NewServer(routeLink(&router), editorlink.ServerOptions{Logger: logger})
		defer srv.Close()
		opt.Roots = func(roots []string, r *lsp.Router) {
			router.Store(r)
			if err := srv.SetRoots(roots); err != nil {
				logger.Warn("editor link", zap.Error(err))
			}
		}
	}
	err = lsp.Serve(ctx, stdio{stdin, stdout}, opt)
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, lsp.ErrExitWithoutShutdown):
		return exitFailed
	case ctx.Err() != nil:
		return exitInterrupted // stopped by a signal, as it was asked
	default:
		logger.Error("server stopped", zap.Error(err))
		return exitFailed
	}
}

// routeLink returns the editor link's handler: it passes each request to
// the Router that router holds, once the server has one, and returns its
// reply.
func routeLink(router *atomic.Pointer[lsp.Router]) editorlink.Handler {
	return func(ctx context.Context, root string, req *editorlink.Request) (*editorlink.Reply, error) {
		r := router.Load()
		if r == nil {
			return nil, errors.New("the server is not initialized")
		}
		rep, err := r.Route(ctx, root, &lsp.RouteRequest{
			Text:      req.Text,
			Edits:     req.Edits,
			URI:       req.URI,
			Atomic:    req.Atomic,
			Format:    req.Format,
			Suggest:   req.Suggest,
			Decisions: req.Decisions,
		})
		if err != nil {
			return nil, err
		}
		return linkReply(rep), nil
	}
}

// linkReply returns rep as the editor link sends it.
func linkReply(rep *lsp.RouteReply) *editorlink.Reply {
	out := &editorlink.Reply{
		Applied:       rep.Applied,
		FailureReason: rep.FailureReason,
		Blocks:        make([]editorlink.Block, len(rep.Blocks)),
		Suggestions:   rep.Suggestions,
		Decisions:     rep.Decisions,
	}
	for i, b := range rep.Blocks {
		out.Blocks[i] = editorlink.Block{BlockReport: b.BlockReport, URI: b.URI, ID: b.ID}
		if b.Range != nil {
			out.Blocks[i].Range = &editorlink.Range{
				Start: editorlink.Position{Line: b.Range.Start.Line, Character: b.Range.Start.Character},
				End:   editorlink.Position{Line: b.Range.End.Line, Character: b.Range.End.Character},
			}
		}
	}
	return out
}

// stdio is the server's connection: standard input and output.
type stdio struct {
	io.ReadCloser
	io.WriteCloser
}

// Close closes both.
func (s stdio) Close() error {
	return errors.Join(s.ReadCloser.Close(), s.WriteCloser.Close())
}
