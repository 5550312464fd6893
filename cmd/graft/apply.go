package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/workspace"
)

const applyUsage = `usage: graft apply [flags] [FILE...]

Apply the edit blocks in FILEs, or in stdin when there is none, to the files
of the workspace. Flags may come before or after the FILEs.

flags:
  --root DIR       workspace root (default: current directory)
  --dry-run        change nothing; print the unified diff that would be applied
  --json           print the JSON report on stdout
  --atomic         apply nothing unless every block resolves and every file
                   can be written
  --force          change read-only files too
  --format NAME    force a dialect instead of auto-detection: %s
  --threshold F    minimum similarity for a fuzzy match, in (0, 1] (default %g)
  --target FILE    the file for blocks that name no path

exit status: 0 every block applied (or would, with --dry-run), 1 a block
failed or was skipped, 2 bad usage or unreadable input.
`

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
	files     []string // the answers to read; none: stdin
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
		fmt.Fprintf(stdout, applyUsage, strings.Join(dialect.Names(), ", "), engine.DefaultThreshold)
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "graft apply: %v\nRun \"graft apply -h\" for usage.\n", err)
		return exitUsage
	}
	root, err := workspace.Open(f.root)
	if err != nil {
		fmt.Fprintf(stderr, "graft apply: %v\n", err)
		return exitUsage
	}
	target, err := targetPath(root, f.target)
	if err != nil {
		fmt.Fprintf(stderr, "graft apply: --target: %v\n", err)
		return exitUsage
	}
	opt := dialect.Options{Format: f.format, Target: target, Exists: root.Exists}
	blocks, err := readBlocks(f.files, stdin, opt, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "graft apply: %v\n", err)
		return exitUsage
	}

	popt := workspace.PlanOptions{
		Engine: engine.Options{Threshold: f.threshold},
		Atomic: f.atomic,
	}
	var res *workspace.Result
	if f.dryRun {
		res, err = workspace.Plan(ctx, root.Links(), blocks, popt)
	} else {
		// A file that cannot be written fails its blocks in res, which
		// the report shows; only an interruption needs saying here.
		res, err = workspace.Apply(ctx, root, blocks, workspace.ApplyOptions{Plan: popt, Force: f.force})
	}
	if err != nil {
		fmt.Fprintf(stderr, "graft apply: %v\n", err)
		return exitFailed
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

// readBlocks reads and parses the answers in files, in order, or stdin
// when there are none. An answer without blocks is only an error when no
// answer has any.
func readBlocks(files []string, stdin io.Reader, opt dialect.Options, stderr io.Writer) ([]dialect.Block, error) {
	type answer struct{ name, text string }
	var answers []answer
	if len(files) == 0 {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, fmt.Errorf("read stdin: %w", err)
		}
		answers = append(answers, answer{"stdin", string(data)})
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		answers = append(answers, answer{name, string(data)})
	}
	var all []dialect.Block
	for _, a := range answers {
		blocks, err := dialect.Parse(a.text, opt)
		switch {
		case errors.Is(err, dialect.ErrNoBlocks):
			if len(answers) > 1 {
				fmt.Fprintf(stderr, "graft apply: %s: no edit blocks\n", a.name)
			}
			continue
		case err != nil:
			return nil, fmt.Errorf("%s: %w", a.name, err)
		}
		all = append(all, blocks...)
	}
	if len(all) == 0 {
		names := make([]string, len(answers))
		for i, a := range answers {
			names[i] = a.name
		}
		return nil, fmt.Errorf("no edit blocks in %s", strings.Join(names, ", "))
	}
	return all, nil
}
