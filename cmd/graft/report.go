package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/workspace"
)

// writeJSON writes the JSON report of res, with each file's diff when it
// is a dry run.
func writeJSON(w io.Writer, res *workspace.Result, dryRun bool) error {
	return encodeJSON(w, res.Report(dryRun))
}

// jsonError is what graft apply --json prints when an error stops it
// before the report: a bad command line, an unreadable answer, an
// interruption.
type jsonError struct {
	Error      string `json:"error"`
	ExitStatus int    `json:"exitStatus"`
}

// writeJSONError writes err, which ends graft with status code, as a JSON
// object.
func writeJSONError(w io.Writer, err error, code int) error {
	return encodeJSON(w, jsonError{Error: err.Error(), ExitStatus: code})
}

// encodeJSON writes v as indented JSON, in which no character that could
// act on a terminal (controls, bidirectional and other format characters)
// appears raw: encoding/json escapes those below U+0020, and escapeJSON the
// others.
func encodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(escapeJSON(buf.Bytes()))
	return err
}

// escapeJSON returns the encoded JSON data with every rune that
// unsafeRune reports written as a \u escape. Such runes can only be in
// strings, where the escape means the same.
func escapeJSON(data []byte) []byte {
	if !bytes.ContainsFunc(data, unsafeRune) {
		return data
	}
	var b bytes.Buffer
	for _, r := range string(data) {
		if !unsafeRune(r) {
			b.WriteRune(r)
			continue
		}
		if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.Bytes()
}

// unsafeRune reports whether r could act on a terminal, or hide or reorder
// the text around it: a control character other than newline and tab, or
// a format character (bidirectional overrides, zero-width characters).
func unsafeRune(r rune) bool {
	return r != '\n' && r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r))
}

// escapeText returns s with every rune that unsafeRune reports written as
// a Go escape (\x1b, \u202e), so that text from answers and file names
// reaches the terminal as text; newlines and tabs stay.
func escapeText(s string) string {
	if !strings.ContainsFunc(s, unsafeRune) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if !unsafeRune(r) {
			b.WriteRune(r)
			continue
		}
		q := strconv.QuoteRune(r)
		b.WriteString(q[1 : len(q)-1])
	}
	return b.String()
}

// displayPath returns path as the summary shows it: as it is, or quoted
// with Go escapes when it holds a newline, a tab, a quote or another rune
// that is not plainly printable, so that a file name can never pass for
// another line of the report.
func displayPath(path string) string {
	for _, r := range path {
		if r == '"' || r == '\\' || !strconv.IsPrint(r) {
			return strconv.Quote(path)
		}
	}
	return path
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
		fmt.Fprintf(&b, "block %d: %s %s", r.Number, r.Status, where(&r))
		if r.Status.OK() || r.Strategy != "" {
			fmt.Fprintf(&b, " (%s, %.2f)", r.Strategy, r.Score)
		}
		b.WriteString("\n")
		if r.Moved() {
			fmt.Fprintf(&b, "    resolved at %s of the text the earlier blocks of the file left\n",
				lineRange(r.ResolvedStartLine, r.ResolvedEndLine))
		}
		if r.Message != "" {
			b.WriteString(indent(escapeText(r.Message), "    "))
		}
	}
	changed := 0
	for _, f := range res.Files {
		if f.Changed {
			changed++
		}
	}
	fmt.Fprintf(&b, "%d applied, ", res.Count(engine.StatusApplied))
	if n := res.Count(engine.StatusAlreadyApplied); n > 0 {
		fmt.Fprintf(&b, "%d already applied, ", n)
	}
	fmt.Fprintf(&b, "%d failed, %d skipped; ", res.Count(engine.StatusFailed), res.Count(engine.StatusSkipped))
	if dryRun {
		fmt.Fprintf(&b, "dry run: %s would change, nothing written\n", plural(changed, "file"))
	} else {
		fmt.Fprintf(&b, "%s changed\n", plural(changed, "file"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// where is the block's path and, when it landed, its lines: "a.go:3-7".
func where(r *workspace.BlockResult) string {
	path := displayPath(r.Path)
	if r.Path == "" {
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
