package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/workspace"
)

// jsonReport is the JSON report of graft apply, as the outside contract
// fixes it: fields may be added, never removed or renamed.
type jsonReport struct {
	Blocks  []jsonBlock `json:"blocks"`
	Files   []jsonFile  `json:"files"`
	Applied int         `json:"applied"`
	Failed  int         `json:"failed"`
	Skipped int         `json:"skipped"`
}

// jsonBlock is a block's entry: the contract's fields, whose startLine
// and endLine count the lines of the file as it was before the answer,
// and the lines of the match in the text the block was resolved against,
// after the earlier blocks of its file, when they differ.
type jsonBlock struct {
	workspace.BlockReport
	ResolvedStartLine int `json:"resolvedStartLine,omitempty"`
	ResolvedEndLine   int `json:"resolvedEndLine,omitempty"`
}

type jsonFile struct {
	Path    string `json:"path"`
	NewPath string `json:"newPath,omitempty"` // where a move puts the file
	Action  string `json:"action"`
	Changed bool   `json:"changed"`
	Diff    string `json:"diff,omitempty"` // with --dry-run
}

// writeJSON writes the JSON report of res, with each file's diff when it
// is a dry run.
func writeJSON(w io.Writer, res *workspace.Result, dryRun bool) error {
	r := jsonReport{
		Blocks:  make([]jsonBlock, len(res.Blocks)),
		Files:   make([]jsonFile, len(res.Files)),
		Applied: res.Count(engine.StatusApplied),
		Failed:  res.Count(engine.StatusFailed),
		Skipped: res.Count(engine.StatusSkipped),
	}
	for i := range res.Blocks {
		b := &res.Blocks[i]
		r.Blocks[i].BlockReport = b.Report()
		if moved(b) {
			r.Blocks[i].ResolvedStartLine, r.Blocks[i].ResolvedEndLine = b.ResolvedStartLine, b.ResolvedEndLine
		}
	}
	for i, f := range res.Files {
		r.Files[i] = jsonFile{Path: f.Path, NewPath: f.NewPath, Action: string(f.Action), Changed: f.Changed}
		if dryRun {
			r.Files[i].Diff = f.Diff()
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// writeDiff writes the unified diff of every file res changes.
func writeDiff(w io.Writer, res *workspace.Result) error {
	for _, f := range res.Files {
		if _, err := io.WriteString(w, f.Diff()); err != nil {
			return err
		}
	}
	return nil
}

// writeSummary writes one paragraph per block for people: its status, where
// it landed and how, and the full message indented beneath; then the
// totals.
func writeSummary(w io.Writer, res *workspace.Result, dryRun bool) error {
	var b strings.Builder
	for _, r := range res.Blocks {
		fmt.Fprintf(&b, "block %d: %s %s", r.Index+1, r.Status, where(r))
		if r.Status == engine.StatusApplied || r.Strategy != "" {
			fmt.Fprintf(&b, " (%s, %.2f)", r.Strategy, r.Score)
		}
		b.WriteString("\n")
		if moved(&r) {
			fmt.Fprintf(&b, "    resolved at %s of the text the earlier blocks of the file left\n",
				lineRange(r.ResolvedStartLine, r.ResolvedEndLine))
		}
		if r.Message != "" {
			b.WriteString(indent(r.Message, "    "))
		}
	}
	changed := 0
	for _, f := range res.Files {
		if f.Changed {
			changed++
		}
	}
	fmt.Fprintf(&b, "%d applied, %d failed, %d skipped; ",
		res.Count(engine.StatusApplied), res.Count(engine.StatusFailed), res.Count(engine.StatusSkipped))
	if dryRun {
		fmt.Fprintf(&b, "dry run: %s would change, nothing written\n", plural(changed, "file"))
	} else {
		fmt.Fprintf(&b, "%s changed\n", plural(changed, "file"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// where is the block's path and, when it landed, its lines: "a.go:3-7".
func where(r workspace.BlockResult) string {
	path := r.Path
	if path == "" {
		path = "(no file)"
	}
	switch {
	case r.StartLine <= 0:
		return path
	case r.EndLine <= r.StartLine:
		return fmt.Sprintf("%s:%d", path, r.StartLine)
	default:
		return fmt.Sprintf("%s:%d-%d", path, r.StartLine, r.EndLine)
	}
}

// moved reports whether the block's lines in the text it was resolved
// against are not its lines in the file as it was.
func moved(r *workspace.BlockResult) bool {
	return r.ResolvedStartLine > 0 && (r.ResolvedStartLine != r.StartLine || r.ResolvedEndLine != r.EndLine)
}

// lineRange names the lines start..end: "line 3", "lines 3-7".
func lineRange(start, end int) string {
	if end <= start {
		return fmt.Sprintf("line %d", start)
	}
	return fmt.Sprintf("lines %d-%d", start, end)
}

// indent prefixes every line of s with prefix and ends it with a newline.
func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return prefix + strings.Join(lines, "\n"+prefix) + "\n"
}

func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
