package dialect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/graft-editor/graft/engine"
)

// The hunks of a unified diff, read as models write them. A hunk's body
// ends at the first line that is none of " ", "-", "+" or "\" lines, at a
// blank line that completes the counts of its header outside a code fence,
// or at the next header; an empty line inside it is a blank context line
// whose space was stripped, and blank lines at its end are not part of it.

// A hunkHeader is what an "@@" line says.
type hunkHeader struct {
	// numbered reports whether the line gives the ranges "-a,b +c,d";
	// the counts b and d are 1 when left out.
	numbered           bool
	oldStart, oldLines int
	newStart, newLines int
	// standalone reports whether the line opens a hunk even without a file
	// header before it: it is numbered, or aider's bare "@@" or
	// "@@ ... @@". A line such as "@@ func main" opens a hunk only after
	// a file header.
	standalone bool
}

// parseHunkHeader reads an "@@" line: "@@" followed by the end of the line
// or by a space ("@@count" is a Ruby class variable, "@@@" a combined diff).
func parseHunkHeader(line string) (hunkHeader, bool) {
	rest, ok := strings.CutPrefix(line, "@@")
	if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return hunkHeader{}, false
	}
	ranges, _, closed := strings.Cut(rest, "@@")
	ranges = strings.TrimSpace(ranges)
	var h hunkHeader
	if ranges == "" || closed && ranges == "..." {
		h.standalone = true
	} else {
		h.numbered = h.readRanges(ranges)
		h.standalone = h.numbered
	}
	return h, true
}

// readRanges reads "-a,b +c,d" into h and reports whether it could; h is
// left as it was when it could not.
func (h *hunkHeader) readRanges(s string) bool {
	fields := strings.Fields(s)
	if len(fields) != 2 {
		return false
	}
	oldRange, ok1 := strings.CutPrefix(fields[0], "-")
	newRange, ok2 := strings.CutPrefix(fields[1], "+")
	oldStart, oldLines, ok3 := readRange(oldRange)
	newStart, newLines, ok4 := readRange(newRange)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return false
	}
	h.oldStart, h.oldLines, h.newStart, h.newLines = oldStart, oldLines, newStart, newLines
	return true
}

// readRange reads "start,count" or "start".
func readRange(s string) (start, count int, ok bool) {
	first, second, hasCount := strings.Cut(s, ",")
	start, err := strconv.Atoi(first)
	if err != nil || start < 0 || first[0] == '+' {
		return 0, 0, false
	}
	if !hasCount {
		return start, 1, true
	}
	count, err = strconv.Atoi(second)
	if err != nil || count < 0 || second[0] == '+' {
		return 0, 0, false
	}
	return start, count, true
}

// insertAfter returns the line after which a hunk that only adds lines
// inserts them: the old start when the old range is empty ("-5,0": after
// line 5), the line before it when a miscounted header gives old lines, and
// the end of the file when the header has no numbers (aider appends such a
// hunk).
func (h hunkHeader) insertAfter() int {
	switch {
	case !h.numbered:
		return engine.AtEnd
	case h.oldLines == 0:
		return h.oldStart
	}
	return max(0, h.oldStart-1)
}

// A hunkLine is one line of a hunk's body.
type hunkLine struct {
	// op is ' ' (context), '-' (removed) or '+' (added).
	op   byte
	text string
	// at is the index of the line in the answer.
	at int
	// noEOL is set by a "\ No newline at end of file" line after it.
	noEOL bool
}

// A hunk is one "@@" section of a diff.
type hunk struct {
	header hunkHeader
	// first and last are the indexes of its "@@" line (or of its first
	// line when it has none) and of its last line.
	first, last int
	lines       []hunkLine
	// err is set when the hunk is malformed.
	err error
}

// readHunk reads the hunk whose "@@" line (with h), or first line when it
// has none, is lines[first], and whose body starts at lines[from].
func (p *udParser) readHunk(first, from int, h hunkHeader, inFence bool) hunk {
	lines := p.doc.lines
	hk := hunk{header: h, first: first, last: from - 1}
	kept := 0 // the lines of hk.lines up to the last one that is not blank
	olds, news := 0, 0
	for k := from; k < len(lines); k++ {
		line := lines[k]
		var l hunkLine
		bare := isBlank(line) && !strings.HasPrefix(line, " ")
		switch {
		case bare:
			if !inFence && h.numbered && olds == h.oldLines && news == h.newLines {
				// The counts are met: what follows is prose, as in a
				// git diff pasted before a list.
				return hk.trim(kept)
			}
			l = hunkLine{op: ' ', at: k}
		case line[0] == ' ', line[0] == '+':
			l = hunkLine{op: line[0], text: line[1:], at: k}
		case line[0] == '-':
			if p.fileStart(k) {
				return hk.trim(kept) // the header of the next file
			}
			l = hunkLine{op: '-', text: line[1:], at: k}
		case line[0] == '\\':
			// "\ No newline at end of file", in any language.
			if len(hk.lines) > 0 {
				hk.lines[len(hk.lines)-1].noEOL = true
				kept, hk.last = len(hk.lines), k
			}
			continue
		default:
			if inFence && !p.headerAt(k) && !isFence(line) {
				hk.stray(p, k)
			}
			return hk.trim(kept)
		}
		if l.op != '+' {
			olds++
		}
		if l.op != '-' {
			news++
		}
		hk.lines = append(hk.lines, l)
		if !bare {
			kept, hk.last = len(hk.lines), k
		}
	}
	return hk.trim(kept)
}

// headerAt reports whether lines[k] starts a file or a hunk.
func (p *udParser) headerAt(k int) bool {
	_, ok := parseHunkHeader(p.doc.lines[k])
	return ok || p.fileStart(k)
}

// trim drops the blank lines after the first n lines of the hunk, which
// end it rather than belong to it, and returns it.
func (hk hunk) trim(n int) hunk {
	hk.lines = hk.lines[:n]
	return hk
}

// stray looks at the line without a prefix, lines[k], that ends a hunk in a
// code fence: when changed lines follow it in the fence before another
// header, it is a context line whose prefix the model left out, and the
// hunk is malformed up to the last of them. Reading it as context would be
// a guess.
func (hk *hunk) stray(p *udParser, k int) {
	lines := p.doc.lines
	for j := k + 1; j < len(lines); j++ {
		line := lines[j]
		if isFence(line) || p.headerAt(j) {
			return
		}
		if strings.HasPrefix(line, "+") || strings.HasPrefix(line, "-") {
			hk.err = fmt.Errorf("line %d: %q in a hunk lacks the ' ', '-' or '+' that starts a hunk line", k+1, lines[k])
			hk.last = j
		}
	}
}

// isBlank reports whether line holds only white space.
func isBlank(line string) bool {
	return strings.TrimSpace(line) == ""
}

// changes reports whether the hunk removes or adds a line.
func (hk *hunk) changes() bool {
	return hk.index('-') >= 0 || hk.index('+') >= 0
}

// index returns the index of the first line of the hunk with op, or -1.
func (hk *hunk) index(op byte) int {
	for i, l := range hk.lines {
		if l.op == op {
			return i
		}
	}
	return -1
}

// sides returns the old and new text of the hunk: its context and removed
// lines, and its context and added lines, as whole lines, but for the
// last line of a side that "\ No newline at end of file" follows.
func (hk *hunk) sides() (old, new string) {
	var olds, news []string
	oldEOL, newEOL := true, true
	for _, l := range hk.lines {
		if l.op != '+' {
			olds, oldEOL = append(olds, l.text), !l.noEOL
		}
		if l.op != '-' {
			news, newEOL = append(news, l.text), !l.noEOL
		}
	}
	return joinSide(olds, oldEOL), joinSide(news, newEOL)
}

// joinSide joins the lines of one side of a hunk, the last one ending in a
// newline when eol is set.
func joinSide(lines []string, eol bool) string {
	s := joinLines(lines)
	if !eol {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}
