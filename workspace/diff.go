package workspace

import (
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/graft-editor/graft/internal/affix"
)

// devNull is the name a unified diff gives the missing side of a created
// or deleted file.
const devNull = "/dev/null"

// Diff returns the change as a unified diff, labelled a/Path and b/Path
// (b/NewPath for a move), and /dev/null for the side of a created or
// deleted file. It is empty when the file does not change, and holds only
// the two labels for a move that keeps the content.
func (f *FileChange) Diff() string {
	if !f.Changed {
		return ""
	}
	from, to := "a/"+f.Path, "b/"+f.Path
	if f.NewPath != "" {
		to = "b/" + f.NewPath
	}
	if !f.Existed {
		from = devNull
	}
	if !f.Exists {
		to = devNull
	}
	d := unified(from, to, f.Before, f.After)
	if d == "" {
		// A move that keeps the content, or an empty file created or
		// deleted: the labels alone say what happens.
		d = "--- " + from + "\n+++ " + to + "\n"
	}
	return d
}

// unified returns the unified diff of before and after, labelled from and
// to, with udiff.DefaultContextLines lines of context, in udiff's form;
// empty when they are the same.
//
// Its cost follows the change, not the file: the whole lines the two
// texts share at each end are skipped in linear time, without splitting
// them into lines, and only the lines between are compared, as GNU diff
// and Git do. udiff.Unified splits both texts whole into lines, twice, and
// counts the lines before each change from the start of the text. Each
// hunk's first line in after is counted from the change itself, which
// udiff.Unified gets wrong after a hunk that joins two changes.
func unified(from, to, before, after string) string {
	if before == after {
		return ""
	}
	const context = udiff.DefaultContextLines
	p, s := commonLineEnds(before, after)
	// Only the middles, between the common ends, are compared; up to
	// context lines of each end are kept around the middle of before, for
	// the hunks' context. The window so made starts at the same offset and
	// line in both texts.
	start := p
	for k := 0; k < context && start > 0; k++ {
		start = strings.LastIndexByte(before[:start-1], '\n') + 1
	}
	end := len(before) - s
	for k := 0; k < context && end < len(before); k++ {
		if i := strings.IndexByte(before[end:], '\n'); i >= 0 {
			end += i + 1
		} else {
			end = len(before)
		}
	}
	a := diffLines(before[start:end]) // the window of before
	pre := strings.Count(before[start:p], "\n")
	mid := a[pre : len(a)-countLines(before[len(before)-s:end])]
	b := diffLines(after[p : len(after)-s])      // the middle of after
	first := strings.Count(before[:start], "\n") // lines before the window

	u := udiff.UnifiedDiff{From: from, To: to}
	var h *udiff.Hunk
	equal := func(from, to int) {
		for _, l := range a[from:min(to, len(a))] {
			h.Lines = append(h.Lines, udiff.Line{Kind: udiff.Equal, Content: l})
		}
	}
	last := 0 // the line of a after the last change
	for _, d := range lcs.DiffLines(mid, b) {
		at := pre + d.Start // in a
		if h != nil && at <= last+2*context {
			equal(last, at) // joins the hunk before
		} else {
			if h != nil {
				equal(last, last+context)
				u.Hunks = append(u.Hunks, h)
			}
			// The hunk starts c lines of context above the change, in
			// both texts: the lines before it pair one to one.
			c := min(at, context)
			h = &udiff.Hunk{FromLine: first + at - c + 1, ToLine: first + pre + d.ReplStart - c + 1}
			equal(at-c, at)
		}
		for _, l := range mid[d.Start:d.End] {
			h.Lines = append(h.Lines, udiff.Line{Kind: udiff.Delete, Content: l})
		}
		for _, l := range b[d.ReplStart:d.ReplEnd] {
			h.Lines = append(h.Lines, udiff.Line{Kind: udiff.Insert, Content: l})
		}
		last = pre + d.End
	}
	if h != nil {
		equal(last, last+context)
		u.Hunks = append(u.Hunks, h)
	}
	return u.String()
}

// commonLineEnds returns the lengths, in bytes, of the whole lines that
// before and after share at their start (p) and, after those, at their
// end (s).
func commonLineEnds(before, after string) (p, s int) {
	p = affix.Prefix(before, after)
	p = strings.LastIndexByte(before[:p], '\n') + 1 // back to a line start
	s = affix.Suffix(before[p:], after[p:])
	// The common end must start a line in both texts.
	lineStart := func(t string, i int) bool { return i == p || t[i-1] == '\n' }
	for s > 0 && !(lineStart(before, len(before)-s) && lineStart(after, len(after)-s)) {
		s--
	}
	return p, s
}

// diffLines returns the lines of text as a diff counts them: split after
// each newline, the last one without when text does not end with one;
// none for empty text.
func diffLines(text string) []string {
	lines := make([]string, 0, countLines(text))
	for text != "" {
		i := strings.IndexByte(text, '\n') + 1
		if i == 0 {
			i = len(text)
		}
		lines = append(lines, text[:i])
		text = text[i:]
	}
	return lines
}

// countLines returns the number of lines of text, the last one counted
// whether or not it ends with a newline.
func countLines(text string) int {
	n := strings.Count(text, "\n")
	if text != "" && text[len(text)-1] != '\n' {
		n++
	}
	return n
}
