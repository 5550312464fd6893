package dialect

import (
	"sort"
	"strings"

	"github.com/graft-editor/graft/engine"
)

// A document is an answer prepared for parsing: CRLF line ends read as LF,
// and the text split into lines that know their byte offsets, so that every
// dialect counts lines the same way.
type document struct {
	// text is the answer with every "\r\n" replaced by "\n".
	text string
	// lines are the lines of text without their "\n"; a final "\n" does
	// not start an empty last line.
	lines []string
	// starts[i] is the offset in text where lines[i] begins.
	starts []int
	// exists reports whether a file exists under the workspace root, for
	// the bare names that name a file only when it does; nil: none is
	// known to.
	exists func(path string) bool
	// prev, when set, is the Parser of the same answer, which parsed it
	// last; changed is the index of the first line that differs from
	// that text (see firstChange).
	prev    *Parser
	changed int
}

func newDocument(answer string) *document {
	text := strings.ReplaceAll(answer, "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	starts := make([]int, len(lines))
	off := 0
	for i, line := range lines {
		starts[i] = off
		off += len(line) + 1
	}
	return &document{text: text, lines: lines, starts: starts}
}

// lineAt returns the 1-based number of the line holding byte offset off.
func (d *document) lineAt(off int) int {
	n := sort.SearchInts(d.starts, off+1)
	return max(1, min(n, len(d.lines)))
}

// span returns the lines holding the bytes text[start:end].
func (d *document) span(start, end int) engine.Span {
	return engine.Span{StartLine: d.lineAt(start), EndLine: d.lineAt(max(start, end-1))}
}

// markLines returns the mark markOf gives each line of d, and next, where
// next[i], for i up to len(d.lines), is the index of the first line at or
// after i that is marked, len(d.lines) when none is. The zero value of M
// is a line that is not marked.
func markLines[M comparable](d *document, markOf func(line string) M) (marks []M, next []int) {
	n := len(d.lines)
	marks = make([]M, n)
	for i, line := range d.lines {
		marks[i] = markOf(line)
	}
	var unmarked M
	next = make([]int, n+1)
	next[n] = n
	for i := n - 1; i >= 0; i-- {
		next[i] = next[i+1]
		if marks[i] != unmarked {
			next[i] = i
		}
	}
	return marks, next
}

// lineSpan returns the Span of the 0-based line indexes first to last.
func lineSpan(first, last int) engine.Span {
	return engine.Span{StartLine: first + 1, EndLine: last + 1}
}
