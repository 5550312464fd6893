package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/graft-editor/graft/history"
	"github.com/graft-editor/graft/mcpserver"
	"github.com/graft-editor/graft/workspace"
)

const mcpUsage = `usage: graft mcp [--root DIR] [--editor auto|always|never] [--journal=false]

Serve Graft's edit tools to an agent over the Model Context Protocol, on
standard input and output. Agents start it from their MCP configuration;
nothing but the protocol is written to standard output.

tools:
  edit            one str-replace edit {path, old_string, new_string,
                  replace_all?, start_line?}, with Graft's matching
  apply_edits     an answer in any dialect {text, atomic?}
  preview_edits   the same, changing nothing {text}: the diff

flags:
  --root DIR   workspace root; every path stays inside it (default: the
               client's first MCP root, else the current directory)
  --editor MODE
               auto (default): when an editor's graft serve serves the root,
               or a folder above it, or the folder inside the root that
               holds every file the edits change, send edit and apply_edits
               there, so that they land in its buffers; else write the disk
               (edits of such a folder and of files outside it, in one call,
               are refused: nothing written). always:
               refuse the edits when no graft serve serves the root. never:
               always write the disk. preview_edits reads the disk.
  --journal=false
               neither consult nor write the journal of the texts graft
               replaced and wrote (also GRAFT_JOURNAL=off). With it, and in a git
               repository with the staged and HEAD versions, a block that
               quotes an earlier version at lines changed since fails as
               stale.

The client writes one JSON-RPC message a line, of at most 64 MiB. A line
that cannot be served (not JSON, a batch, too long) is answered with a
JSON-RPC error and skipped; graft mcp serves on until its input ends.
`

// runMCP is graft mcp.
func runMCP(ctx context.Context, args []string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer) int {
	fs := flag.NewFlagSet("graft mcp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	root := fs.String("root", "", "")
	editor := fs.String("editor", string(mcpserver.EditorAuto), "")
	journal := fs.Bool("journal", true, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, mcpUsage)
			return exitOK
		}
		fmt.Fprintf(stderr, "graft mcp: %v\n%s", err, mcpUsage)
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "graft mcp: unexpected arguments %q\n%s", fs.Args(), mcpUsage)
		return exitUsage
	}
	mode, err := mcpserver.ParseEditorMode(*editor)
	if err != nil {
		fmt.Fprintf(stderr, "graft mcp: --editor: %v\n", err)
		return exitUsage
	}
	dir, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "graft mcp: %v\n", err)
		return exitUsage
	}
	tuneServerGC(os.LookupEnv)
	info, _ := debug.ReadBuildInfo()
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := mcpserver.New(mcpserver.Options{
		Root:    *root,
		Dir:     dir,
		Editor:  mode,
		Version: version(info),
		Logger:  logger,
		History: func(root string) workspace.History {
			return history.New(root, history.Options{Journal: *journal, By: "graft mcp", Git: true, Warn: stderr})
		},
	})
	if err != nil {
		fmt.Fprintf(stderr, "graft mcp: --root: %v\n", err)
		return exitUsage
	}
	defer srv.Close()
	// A client may close graft mcp's standard error (or its output), and
	// Go ends a program that writes to a broken pipe on descriptor 1 or 2
	// unless it asks for SIGPIPE: asked for, the write fails with EPIPE
	// instead, which a log line ignores, and graft mcp serves on.
	sigpipe := make(chan os.Signal, 1)
	signal.Notify(sigpipe, syscall.SIGPIPE)
	defer signal.Stop(sigpipe)
	// Graft's transport, not the SDK's: it answers a line it cannot
	// serve (not JSON, a batch, too large) and reads on, where the SDK's
	// would end the session, and graft mcp with it.
	err = srv.Run(ctx, &mcpserver.Transport{Reader: stdin, Writer: stdout, Logger: logger})
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "graft mcp: %v\n", err)
		return exitFailed
	}
	return exitOK
}
