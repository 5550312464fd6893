package mcpserver

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/workspace"
)

// The most lines of a diff and of quoted file text a refusal shows: enough
// to retry, short enough for a model's context.
const (
	maxDiffLines  = 30
	maxQuoteLines = 40
)

// outcomeText is the text for the model: one paragraph per block, then the
// totals. A refusal says why, shows the best candidate with its lines, a
// short diff and the file's text there, and how to retry in one step; a
// fuzzy match says what was adjusted.
func outcomeText(res *workspace.Result, dryRun bool) string {
	var b strings.Builder
	files := make(map[string]*workspace.FileChange, len(res.Files))
	for i := range res.Files {
		files[res.Files[i].Path] = &res.Files[i]
	}
	for i := range res.Blocks {
		r := &res.Blocks[i]
		if len(res.Blocks) > 1 {
			fmt.Fprintf(&b, "Block %d: ", r.Number)
		}
		switch r.Status {
		case engine.StatusApplied:
			writeApplied(&b, r, dryRun)
		case engine.StatusAlreadyApplied:
			fmt.Fprintf(&b, "Already applied (%s %s): the change is in the file already; nothing written. %s\n",
				pathOf(r), lineRange(r.StartLine, r.EndLine), oneLine(r.Message))
		case engine.StatusSkipped:
			fmt.Fprintf(&b, "Not applied (%s): %s\n", pathOf(r), firstLine(r.Message))
		default:
			writeRefusal(&b, r, files[r.Path])
		}
	}
	changed := 0
	for _, f := range res.Files {
		if f.Changed {
			changed++
		}
	}
	applied := res.Count(engine.StatusApplied)
	if len(res.Blocks) > 1 || applied < len(res.Blocks) {
		fmt.Fprintf(&b, "%d applied, ", applied)
		if n := res.Count(engine.StatusAlreadyApplied); n > 0 {
			fmt.Fprintf(&b, "%d already applied, ", n)
		}
		fmt.Fprintf(&b, "%d failed, %d skipped; ", res.Count(engine.StatusFailed), res.Count(engine.StatusSkipped))
		switch {
		case dryRun:
			fmt.Fprintf(&b, "preview: %s would change, nothing written.\n", plural(changed, "file"))
		case changed == 0:
			b.WriteString("nothing written.\n")
		default:
			fmt.Fprintf(&b, "%s written.\n", plural(changed, "file"))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// writeApplied says where block r landed, and what was adjusted when it
// was not an exact match.
func writeApplied(b *strings.Builder, r *workspace.BlockResult, dryRun bool) {
	verb := "Applied"
	if dryRun {
		verb = "Would apply"
	}
	where := fmt.Sprintf("%s %s", pathOf(r), lineRange(r.StartLine, r.EndLine))
	if r.StartLine <= 0 {
		where = pathOf(r)
	}
	if exact(r.Strategy) {
		fmt.Fprintf(b, "%s to %s (%s).", verb, where, r.Strategy)
		if r.Message != "" {
			fmt.Fprintf(b, " %s", oneLine(r.Message))
		}
		b.WriteString("\n")
		return
	}
	fmt.Fprintf(b, "%s to %s, adjusted: the text there was not exactly what you quoted; matched by %s (%.0f%% similar).",
		verb, where, r.Strategy, 100*r.Score)
	if r.Message != "" {
		fmt.Fprintf(b, " %s.", strings.TrimSuffix(oneLine(r.Message), "."))
	}
	if !dryRun {
		fmt.Fprintf(b, " Read %s again before you edit them.", lineRange(r.StartLine, r.EndLine))
	}
	b.WriteString("\n")
}

// exact reports whether a strategy placed the text as the model wrote it.
func exact(strategy string) bool {
	switch strategy {
	case "exact", "create", "delete", "move", "insert":
		return true
	}
	return false
}

// writeRefusal says why block r was refused and how to retry; f is its
// file's change, nil when the block names no readable file.
func writeRefusal(b *strings.Builder, r *workspace.BlockResult, f *workspace.FileChange) {
	var ee *engine.Error
	if !errors.As(r.Err, &ee) {
		fmt.Fprintf(b, "Refused (%s): %s\n", pathOf(r), r.Message)
		if hint := pathHint(r.Err); hint != "" {
			b.WriteString(hint + "\n")
		}
		return
	}
	fmt.Fprintf(b, "Refused (%s, %s): %s Nothing was changed by this block.\n", pathOf(r), ee.Reason, sentence(ee.Summary))
	cands := ee.Candidates
	if ee.Reason == engine.ReasonAmbiguous && len(cands) > 1 {
		places := make([]string, 0, min(len(cands), 5))
		for _, c := range cands[:min(len(cands), 5)] {
			places = append(places, fmt.Sprintf("%s (%.0f%%)", lineRange(c.StartLine, c.EndLine), 100*c.Score))
		}
		fmt.Fprintf(b, "It matches %d places: %s.\n", len(cands), strings.Join(places, ", "))
		fmt.Fprintf(b, "To retry: add unchanged lines around the change so that old_string matches one place, "+
			"or pass start_line: %d (the first line of the place you mean), or replace_all: true to change every one.\n", cands[0].StartLine)
		return
	}
	if ee.Detail != "" {
		b.WriteString(strings.TrimRight(ee.Detail, "\n") + "\n")
	}
	if len(cands) == 0 {
		b.WriteString("Nothing in the file resembles the text you quoted. To retry: read the file again and quote the lines to change exactly as they are.\n")
		return
	}
	c := cands[0]
	fmt.Fprintf(b, "Best candidate: %s (%.0f%% similar).", lineRange(c.StartLine, c.EndLine), 100*c.Score)
	if c.Diff != "" {
		b.WriteString(" Diff from your text to the file:\n")
		b.WriteString(clip(c.Diff, maxDiffLines))
	} else {
		b.WriteString("\n")
	}
	if f != nil && f.Existed && f.After == f.Before {
		if quote, ok := lines(f.Before, c.StartLine, c.EndLine); ok {
			fmt.Fprintf(b, "%s of %s read now:\n", capitalize(lineRange(c.StartLine, c.EndLine)), pathOf(r))
			b.WriteString(clip(quote, maxQuoteLines))
			fmt.Fprintf(b, "To retry: quote these lines exactly as old_string (your change goes in new_string), with start_line: %d if they occur elsewhere too.\n", c.StartLine)
			return
		}
	}
	fmt.Fprintf(b, "To retry: read %s of %s again and quote them exactly.\n", lineRange(c.StartLine, c.EndLine), pathOf(r))
}

// pathHint says how to retry after a refusal that is not the resolver's:
// a path outside the root, a missing file, a file that is not text.
func pathHint(err error) string {
	switch {
	case errors.Is(err, workspace.ErrOutsideRoot):
		return "Paths must stay inside the workspace root: name the file relative to it."
	case errors.Is(err, fs.ErrNotExist):
		return "No such file. To create it, pass an empty old_string and its whole content as new_string."
	case errors.Is(err, workspace.ErrBinary), errors.Is(err, workspace.ErrNotUTF8):
		return "Graft edits UTF-8 text files only; this file is left as it is."
	case errors.Is(err, workspace.ErrReadOnly):
		return "The file is read-only; graft mcp does not change it."
	}
	return ""
}

// lines returns the lines start..end (1-based, both included) of text,
// each with its newline, and whether they are all there.
func lines(text string, start, end int) (string, bool) {
	if start < 1 || end < start {
		return "", false
	}
	all := strings.SplitAfter(text, "\n")
	if all[len(all)-1] == "" {
		all = all[:len(all)-1]
	}
	if end > len(all) {
		return "", false
	}
	s := strings.Join(all[start-1:end], "")
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	return s, true
}

// clip returns the first max lines of s, and says how many were left out;
// the result ends with a newline.
func clip(s string, max int) string {
	all := strings.SplitAfter(strings.TrimRight(s, "\n")+"\n", "\n")
	all = all[:len(all)-1]
	if len(all) <= max {
		return strings.Join(all, "")
	}
	return strings.Join(all[:max], "") + fmt.Sprintf("... (%d more lines)\n", len(all)-max)
}

// pathOf is the block's file, or a word for none.
func pathOf(r *workspace.BlockResult) string {
	if r.Path == "" {
		return "no file named"
	}
	return r.Path
}

// lineRange names the lines start..end: "line 3", "lines 3-7".
func lineRange(start, end int) string {
	if end <= start {
		return fmt.Sprintf("line %d", start)
	}
	return fmt.Sprintf("lines %d-%d", start, end)
}

// sentence returns s ending with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// oneLine joins the lines of s with "; ".
func oneLine(s string) string {
	return strings.Join(strings.Split(strings.TrimSpace(s), "\n"), "; ")
}

// capitalize returns s with its first letter upper case; s is ASCII.
func capitalize(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// plural returns "1 file" or "n files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
