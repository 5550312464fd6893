package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/history"
	"github.com/graft-editor/graft/workspace"
)

const applyUsage = `usage: graft apply [flags] [FILE...]

Apply the edit blocks in FILEs, or in stdin when there is none ("-" is
stdin too), to the files of the workspace. Flags may come before or after
the FILEs. Answers must be UTF-8 text, of at most %[4]s each.

flags:
  --root DIR       workspace root (default: current directory)
  --dry-run        change nothing; print the unified diff that would be applied
  --json           print the JSON report on stdout
  --atomic         apply nothing unless every block resolves and every file
                   can be written
  --force          change read-only files too
  --format NAME    force a dialect instead of auto-detection: %[1]s
  --threshold F    minimum similarity for a fuzzy match, in (0, 1] (default %[2]g)
  --target FILE    the file for blocks that name no path
  --journal=false  neither consult nor write the journal of the texts graft
                   replaced and wrote (also GRAFT_JOURNAL=off); see "stale"
                   below
%[3]s
exit status: 0 every block applied or was already applied (or would, with
--dry-run), 1 a block failed or was skipped, 2 bad usage or unreadable input, 130 interrupted
(Ctrl-C): nothing is written after it, and a file being written is either
finished or left as it was.

stale: a block whose search is not in the file as written, but quotes an
earlier version of it (a text graft apply or graft mcp replaced, or wrote
and another hand changed since, kept in $XDG_STATE_HOME/graft/journal,
else ~/.local/state/graft/journal; in a git repository, the staged file
or the file at HEAD) at lines changed since, fails with reason "stale",
the diff from then to now and the lines to quote.

With --json, an error that stops graft before the report is printed as
{"error": "...", "exitStatus": N} on stdout too.
`

// printApplyUsage prints the usage of graft apply on w.
func printApplyUsage(w io.Writer) {
	fmt.Fprintf(w, applyUsage, strings.Join(dialect.Names(), ", "), engine.DefaultThreshold, editorUsage, workspace.ByteSize(maxAnswer))
}

// applyFlags holds the command line of graft apply.
type applyFlags struct {
	root      string
	dryRun    bool
	json      bool
	atomic    bool
	force     bool
	format    string
	threshold float64
	target    string
	editor    string   // --editor: auto, always or never (editor.go)
	suggest   bool     // --suggest: pending suggestions in the editor (editor.go)
	journal   bool     // --journal: consult and write the journal
	files     []string // the answers to read; none: stdin; "-": stdin
}

// parseApplyFlags parses the arguments of graft apply, flags and FILEs in
// any order; "--" ends the flags. It returns flag.ErrHelp for -h.
func parseApplyFlags(args []string) (*applyFlags, error) {
	f := &applyFlags{}
	// The flags are documented in applyUsage, in the form the contract
	// spells them, rather than by flag.PrintDefaults.
	fs := flag.NewFlagSet("graft apply", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // runApply reports the errors, once
	fs.StringVar(&f.root, "root", ".", "")
	fs.BoolVar(&f.dryRun, "dry-run", false, "")
	fs.BoolVar(&f.json, "json", false, "")
	fs.BoolVar(&f.atomic, "atomic", false, "")
	fs.BoolVar(&f.force, "force", false, "")
	fs.StringVar(&f.format, "format", "", "")
	fs.Float64Var(&f.threshold, "threshold", engine.DefaultThreshold, "")
	fs.StringVar(&f.target, "target", "", "")
	fs.StringVar(&f.editor, "editor", editorAuto, "")
	fs.BoolVar(&f.suggest, "suggest", false, "")
	fs.BoolVar(&f.journal, "journal", true, "")
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			f.files = append(f.files, rest...)
			break
		}
		f.files = append(f.files, rest[0])
		args = rest[1:]
	}
	if !(f.threshold > 0 && f.threshold <= 1) {
		return nil, fmt.Errorf("--threshold %g: want a similarity in (0, 1]", f.threshold)
	}
	if f.format != "" && !slices.Contains(dialect.Names(), f.format) {
		return nil, fmt.Errorf("--format %q: unknown dialect (known: %s)", f.format, strings.Join(dialect.Names(), ", "))
	}
	return f, nil
}

// runApply is graft apply.
func runApply(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f, err := parseApplyFlags(args)
	if errors.Is(err, flag.ErrHelp) {
		printApplyUsage(stdout)
		return exitOK
	}
	if err != nil {
		return applyError(stdout, stderr, wantsJSON(args), exitUsage, err, "Run \"graft help apply\" for usage.")
	}
	root, err := workspace.Open(f.root)
	if err != nil {
		return applyError(stdout, stderr, f.json, exitUsage, err, "")
	}
	target, err := targetPath(root, f.target)
	if err != nil {
		return applyError(stdout, stderr, f.json, exitUsage, fmt.Errorf("--target: %w", err), "")
	}
	code, done, answers := applyInEditor(ctx, f, root, target, stdin, stdout, stderr)
	if done {
		return code
	}
	if answers == nil {
		answers, err = readAnswers(ctx, f.files, stdin, stderr)
	}
	var blocks []dialect.Block
	if err == nil {
		blocks, err = parseAnswers(answers, dialect.Options{Format: f.format, Target: target, Exists: root.Exists}, stderr)
	}
	if err != nil {
		return applyError(stdout, stderr, f.json, orInterrupted(ctx, exitUsage), err, "")
	}
	prog := startProgress(stderr, len(blocks), f.json)

	popt := workspace.PlanOptions{
		Engine:   engine.Options{Threshold: f.threshold},
		Atomic:   f.atomic,
		Progress: prog.Update,
		History:  history.New(root.Dir(), history.Options{Journal: f.journal, By: "graft apply", Git: true, Warn: stderr}),
	}
	var res *workspace.Result
	if f.dryRun {
		res, err = workspace.Plan(ctx, root.Links(), blocks, popt)
	} else {
		// A file that cannot be written fails its blocks in res, which
		// the report shows; only an interruption needs saying here.
		res, err = workspace.Apply(ctx, root, blocks, workspace.ApplyOptions{Plan: popt, Force: f.force})
	}
	prog.Stop()
	if err != nil {
		if res == nil {
			return applyError(stdout, stderr, f.json, orInterrupted(ctx, exitFailed), interrupted(ctx, err), "")
		}
		// Stopped while writing: the report says which files were written.
		fmt.Fprintf(stderr, "graft apply: %s\n", escapeText(interrupted(ctx, err).Error()))
	}

	switch {
	case f.json:
		err = writeJSON(stdout, res, f.dryRun)
	case f.dryRun:
		err = writeDiff(stdout, res)
		if err == nil {
			err = writeSummary(stderr, res, true)
		}
	default:
		err = writeSummary(stdout, res, false)
	}
	if err != nil {
		fmt.Fprintf(stderr, "graft apply: %v\n", err)
		return exitFailed
	}
	if !res.OK() {
		return exitFailed
	}
	return exitOK
}

// targetPath maps the --target path, relative to the current directory
// like every path on the command line, to a path relative to the root.
func targetPath(root *workspace.Root, target string) (string, error) {
	if target == "" {
		return "", nil
	}
	abs, err := filepath.Abs(target)
	if err != nil {
		return "", err
	}
	p, err := root.Path(abs)
	if err != nil {
		return "", err
	}
	return root.Rel(p), nil
}

// wantsJSON reports whether args, which did not parse, ask for the JSON
// report, so that even a usage error is reported in JSON.
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "json" {
			continue
		}
		if b, err := strconv.ParseBool(value); !hasValue || err == nil && b {
			return true
		}
	}
	return false
}

// orInterrupted returns code, or exitInterrupted when ctx was interrupted:
// the status the process exits with, which the JSON error must state.
func orInterrupted(ctx context.Context, code int) int {
	if ctx.Err() != nil {
		return exitInterrupted
	}
	return code
}

// interrupted names an error that ctx's interruption caused as such.
func interrupted(ctx context.Context, err error) error {
	if ctx.Err() == nil {
		return err
	}
	switch {
	case strings.HasPrefix(err.Error(), "interrupted while writing"):
		// The error joins one per file not written, which the report
		// shows.
		return errors.New("interrupted while writing; the files not written are reported so")
	case strings.Contains(err.Error(), "interrupted"):
		return err // says so already
	case errors.Is(err, context.Canceled):
		return errors.New("interrupted before anything was written")
	}
	return fmt.Errorf("interrupted: %w", err)
}

// applyError reports err, which stops graft apply with status code, on
// stderr with hint, and as a JSON error object on stdout when the report
// is JSON; it returns code.
func applyError(stdout, stderr io.Writer, asJSON bool, code int, err error, hint string) int {
	fmt.Fprintf(stderr, "graft apply: %s\n", escapeText(err.Error()))
	if hint != "" {
		fmt.Fprintln(stderr, hint)
	}
	if asJSON {
		if jerr := writeJSONError(stdout, err, code); jerr != nil {
			fmt.Fprintf(stderr, "graft apply: %v\n", jerr)
		}
	}
	return code
}
