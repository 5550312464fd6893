package engine

import (
	"sort"
	"strings"
)

const bom = "\ufeff"

// A document is a text split into lines, remembering everything a rewrite
// must keep: the byte order mark, each line's ending and the final newline.
type document struct {
	text  string
	body  int   // offset of the first byte after the BOM
	start []int // start offset of each line
	end   []int // end offset of each line's content, before "\r\n" or "\n"
	crlf  bool  // most line endings are "\r\n"

	lf      string // the text without BOM, every "\r\n" turned into "\n"
	lfStart []int  // start of each line in lf; nil when lf is the body itself
}

func newDocument(text string) *document {
	d := &document{text: text}
	if strings.HasPrefix(text, bom) {
		d.body = len(bom)
	}
	n := strings.Count(text[d.body:], "\n") + 1
	d.start = make([]int, 0, n)
	d.end = make([]int, 0, n)
	crlf := 0
	for at := d.body; at < len(text); {
		i := strings.IndexByte(text[at:], '\n')
		if i < 0 {
			d.start = append(d.start, at)
			d.end = append(d.end, len(text))
			break
		}
		e := at + i
		if e > at && text[e-1] == '\r' {
			e--
			crlf++
		}
		d.start = append(d.start, at)
		d.end = append(d.end, e)
		at += i + 1
	}
	d.crlf = crlf > 0 && 2*crlf >= len(d.start)
	if crlf == 0 {
		d.lf = text[d.body:]
		return d
	}
	var b strings.Builder
	b.Grow(len(text) - d.body)
	d.lfStart = make([]int, len(d.start))
	for i := range d.start {
		d.lfStart[i] = b.Len()
		b.WriteString(d.line(i))
		if d.hasEOL(i) {
			b.WriteByte('\n')
		}
	}
	d.lf = b.String()
	return d
}

func (d *document) lineCount() int { return len(d.start) }

// line returns the content of line i (0-based) without its line ending.
func (d *document) line(i int) string { return d.text[d.start[i]:d.end[i]] }

// lineWithEOL returns line i with its line ending, if it has one.
func (d *document) lineWithEOL(i int) string { return d.text[d.start[i]:d.offsetOfLine(i+1)] }

func (d *document) hasEOL(i int) bool { return i+1 < len(d.start) || d.endsWithNewline() }

func (d *document) endsWithNewline() bool { return strings.HasSuffix(d.text, "\n") }

// offsetOfLine is the byte offset where line i starts; for i equal to the
// line count it is the length of the text.
func (d *document) offsetOfLine(i int) int {
	if i >= len(d.start) {
		return len(d.text)
	}
	if i < 0 {
		return d.body
	}
	return d.start[i]
}

// eol is the line ending new lines get.
func (d *document) eol() string {
	if d.crlf {
		return "\r\n"
	}
	return "\n"
}

// withEOL converts text with "\n" line endings to the document's.
func (d *document) withEOL(s string) string {
	if !d.crlf {
		return s
	}
	return strings.ReplaceAll(s, "\n", "\r\n")
}

// lineAt returns the 0-based line that holds byte offset off of the text.
func (d *document) lineAt(off int) int {
	i := sort.Search(len(d.start), func(i int) bool { return d.start[i] > off }) - 1
	if i < 0 {
		return 0
	}
	return i
}

// fromLF maps an offset in d.lf to the corresponding offset in d.text.
func (d *document) fromLF(off int) int {
	if d.lfStart == nil {
		return d.body + off
	}
	i := sort.Search(len(d.lfStart), func(i int) bool { return d.lfStart[i] > off }) - 1
	if i < 0 {
		return d.body
	}
	col := off - d.lfStart[i]
	if n := d.end[i] - d.start[i]; col > n {
		// Past the content: the "\n" that stands for "\r\n", or beyond.
		return d.offsetOfLine(i + 1)
	}
	return d.start[i] + col
}

// toLF turns "\r\n" line endings into "\n".
func toLF(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// wholeLines reports whether the bytes [start, end) cover whole lines but
// for white space at their ends, and returns those lines, 0-based.
func (d *document) wholeLines(start, end int) (a, b int, ok bool) {
	a, b = d.lineAt(start), d.lineAt(max(start, end-1))
	before := d.text[d.start[a]:start]
	after := ""
	if end < d.end[b] {
		after = d.text[end:d.end[b]]
	}
	return a, b, strings.TrimSpace(before) == "" && strings.TrimSpace(after) == ""
}

// lfOffset is the offset in d.lf where line i starts (the length of d.lf
// for i at or past the line count).
func (d *document) lfOffset(i int) int {
	switch {
	case i >= len(d.start):
		return len(d.lf)
	case d.lfStart == nil:
		return d.start[i] - d.body
	}
	return d.lfStart[i]
}
