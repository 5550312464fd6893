// Command graft applies the edits that language models write (SEARCH/REPLACE
// blocks, str-replace tool calls, ...) to the files of a workspace: exact
// matches first, fuzzy ones only when they are unique and clearly good, and
// a refusal that shows the best candidate otherwise.
//
// Usage:
//
//	graft apply [flags] [FILE...]
//	graft serve [--stdio] [--log FILE] [--log-level LEVEL]
//	graft version
//	graft help [COMMAND]
//
// Ctrl-C (SIGINT) stops graft at once in every phase: while it reads the
// answer and plans, nothing has been written; while it writes, the file
// being written is finished or left as it was, and no other is started.
// graft then exits with status 130, as a shell reports a command that
// SIGINT ended.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// The exit statuses of graft, as the outside contract fixes them.
const (
	exitOK     = 0 // every block applied, or was already applied
	exitFailed = 1 // a block failed or was skipped
	exitUsage  = 2 // bad usage or unreadable input
	// exitInterrupted is the status of a run that Ctrl-C stopped: 128
	// plus SIGINT's number, as shells report it.
	exitInterrupted = 130
)

const usage = `usage: graft <command> [arguments]

commands:
  apply [flags] [FILE...]   apply the edit blocks in FILEs, or stdin when none
  serve [flags]             run the language server over stdin and stdout
  mcp [--root DIR]          serve the edit tools to agents over MCP (stdio)
  version                   print graft's version (also: graft --version)
  help [COMMAND]            print this, or the usage of COMMAND

Run "graft help apply" for the flags of apply.
`

func main() {
	// SIGTERM stops a run as an interrupt does: an editor that will not
	// wait for graft serve to exit ends it so, and the server records the
	// edits it made before it goes (see lsp.Serve).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if ctx.Err() != nil {
		// Only an interrupt or SIGTERM cancels ctx: whatever the
		// command made of it, the run was stopped.
		code = exitInterrupted
	}
	stop()
	os.Exit(code)
}

// run runs the graft command line args and returns its exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch cmd, args := args[0], args[1:]; cmd {
	case "apply":
		return runApply(ctx, args, stdin, stdout, stderr)
	case "serve":
		in, restore := messageInput()
		defer restore()
		return runServe(ctx, args, in, os.Stdout, stderr)
	case "mcp":
		in, restore := messageInput()
		defer restore()
		return runMCP(ctx, args, in, os.Stdout, stderr)
	case "version", "-version", "--version":
		return runVersion(args, stdout, stderr)
	case "help", "-h", "-help", "--help":
		return runHelp(args, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "graft: unknown command %q\n%s", cmd, usage)
		return exitUsage
	}
}

// runHelp is graft help [COMMAND].
func runHelp(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if len(args) > 1 {
		fmt.Fprintf(stderr, "graft help: unexpected arguments %q\n", args[1:])
		return exitUsage
	}
	switch args[0] {
	case "apply":
		printApplyUsage(stdout)
	case "serve":
		fmt.Fprint(stdout, serveUsage)
	case "mcp":
		fmt.Fprint(stdout, mcpUsage)
	case "version":
		fmt.Fprint(stdout, "usage: graft version\n\nPrint graft's version: the module version, the VCS revision, or \"devel\".\n")
	case "help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "graft help: unknown command %q\n%s", args[0], usage)
		return exitUsage
	}
	return exitOK
}
