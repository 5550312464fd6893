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
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
)

// The exit statuses of graft, as the outside contract fixes them.
const (
	exitOK     = 0 // every block applied
	exitFailed = 1 // a block failed or was skipped
	exitUsage  = 2 // bad usage or unreadable input
)

const usage = `usage: graft <command> [arguments]

commands:
  apply [flags] [FILE...]   apply the edit blocks in FILEs, or stdin when none
  serve [flags]             run the language server over stdin and stdout
  version                   print graft's version

Run "graft apply -h" for the flags of apply.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
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
		return runServe(ctx, args, os.Stdin, os.Stdout, stderr)
	case "version":
		return runVersion(args, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(stderr, "graft: unknown command %q\n%s", cmd, usage)
		return exitUsage
	}
}
