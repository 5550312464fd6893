package dialect

import (
	"slices"
	"sort"
	"strings"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/internal/affix"
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
	// known to. It is set once, before the document is read: isPath
	// keeps its answers.
	exists func(path string) bool
	// paths caches isPath of each text asked.
	paths map[string]bool
	// prose caches isProse of each line: 0 not asked yet, 1 prose, 2
	// not prose.
	prose []int8
	// prev, when set, is the Parser of the same answer, which parsed it
	// last. changed is the index of the first line that differs from the
	// document this one was made after (see firstChange); 0 when it was
	// made anew.
	prev    *Parser
	changed int
}

func newDocument(answer string) *document {
	return newDocumentAfter(nil, answer)
}

// newDocumentAfter returns the document of answer; the lines it shares
// with prev, the document of an earlier text of it (nil: none), up to the
// first byte that differs are taken from prev rather than split again.
// prev's arrays are taken over: prev is not to be read after.
func newDocumentAfter(prev *document, answer string) *document {
	text := strings.ReplaceAll(answer, "\r\n", "\n")
	k := 0 // the lines of prev wholly in the prefix it shares, "\n" included
	var lines []string
	var starts []int
	var prose []int8
	// Of prev's lines past k, the first change needs only how many there
	// were and line k (see firstChange), kept before they are taken over.
	var prevLen int
	var prevK string
	if prev != nil {
		same := affix.Prefix(prev.text, text)
		for k < len(prev.lines) && prev.starts[k]+len(prev.lines[k]) < same {
			k++
		}
		prevLen = len(prev.lines)
		if k < prevLen {
			prevK = prev.lines[k]
		}
		lines, starts, prose = prev.lines[:k], prev.starts[:k], prev.prose[:k]
	}
	off := 0
	if k > 0 {
		off = starts[k-1] + len(lines[k-1]) + 1
	}
	n := k + strings.Count(text[off:], "\n") + 1
	lines, starts = slices.Grow(lines, n-k), slices.Grow(starts, n-k)
	// The lines point into text, not into prev's: an answer parsed again
	// after each change would otherwise keep every text it had.
	for i, l := range lines {
		lines[i] = text[starts[i] : starts[i]+len(l)]
	}
	for rest := text[off:]; ; {
		line, more, found := strings.Cut(rest, "\n")
		if !found && line == "" {
			break // a final "\n" does not start an empty last line
		}
		lines, starts = append(lines, line), append(starts, off)
		if !found {
			break
		}
		off += len(line) + 1
		rest = more
	}
	prose = slices.Grow(prose, len(lines)-k)[:len(lines)]
	clear(prose[k:])
	d := &document{text: text, lines: lines, starts: starts, prose: prose}
	if prev != nil {
		d.changed = firstChange(prevLen, prevK, lines, k)
	}
	return d
}

// isProse reports whether lines[i] reads as prose (see isProse), asking
// each line once: the lines an earlier document of the answer shares
// with d were asked there.
func (d *document) isProse(i int) bool {
	if d.prose[i] == 0 {
		d.prose[i] = 2
		if isProse(d.lines[i]) {
			d.prose[i] = 1
		}
	}
	return d.prose[i] == 1
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
// is a line that is not marked. known and knownNext are the marks and
// next of an earlier text of the answer (see Parser): what they say of the
// lines before the first that changed is taken from them, and their
// arrays are taken over.
func markLines[M comparable](d *document, markOf func(line string) M, known []M, knownNext []int) (marks []M, next []int) {
	n := len(d.lines)
	k := d.kept(len(known))
	marks = slices.Grow(known[:k], n-k)[:n]
	for i, line := range d.lines[k:] {
		marks[k+i] = markOf(line)
	}
	var unmarked M
	return marks, nextWhere(knownNext, k, n, func(i int) bool { return marks[i] != unmarked })
}

// kept returns how many of the first lines of d stand as in the earlier
// text of the answer it was made after, of the known lines of that text
// something was found of: what was found of them holds.
func (d *document) kept(known int) int { return min(known, d.changed, len(d.lines)) }

// nextWhere returns next, where next[i], for i up to n, is the first index
// at or after i where at holds, n when it holds nowhere. known is such an
// array of an earlier text (nil: none), where at held as it holds now
// before k: its array is taken over, and only what follows the last index
// before k where at holds is counted again.
func nextWhere(known []int, k, n int, at func(i int) bool) []int {
	if len(known) < k+1 {
		k = 0
	}
	next := slices.Grow(known[:k], n+1-k)[:n+1]
	next[n] = n
	for i := n - 1; i >= k; i-- {
		next[i] = next[i+1]
		if at(i) {
			next[i] = i
		}
	}
	for i := k - 1; i >= 0 && !at(i); i-- {
		next[i] = next[i+1] // it pointed at or past k
	}
	return next
}

// lineSpan returns the Span of the 0-based line indexes first to last.
func lineSpan(first, last int) engine.Span {
	return engine.Span{StartLine: first + 1, EndLine: last + 1}
}
