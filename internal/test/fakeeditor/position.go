package fakeeditor

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Position encodings an LSP client and server may agree on.
const (
	UTF16 = "utf-16"
	UTF8  = "utf-8"
	UTF32 = "utf-32"
)

// lineCursor finds lines of one text, moving forward from the line it
// found last, so that resolving positions in document order scans the
// text once.
type lineCursor struct {
	text   string
	lfOnly bool   // text has no '\r': jump from '\n' to '\n'
	line   uint32 // the line that starts at start
	start  int
}

func newLineCursor(text string) *lineCursor {
	return &lineCursor{text: text, lfOnly: strings.IndexByte(text, '\r') < 0}
}

// bounds returns the byte offsets of the start of line n and of the end
// of its content (before its line terminator). Lines end with "\r\n",
// "\n" or a lone "\r", as the LSP specification says. A line past the
// last one is clamped to the end of the text.
func (c *lineCursor) bounds(n uint32) (start, end int) {
	if n < c.line {
		c.line, c.start = 0, 0
	}
	text := c.text
	for c.line < n {
		next := c.nextLine(c.start)
		if next < 0 {
			return len(text), len(text)
		}
		c.start = next
		c.line++
	}
	return c.start, c.lineEnd(c.start)
}

// lineEnd is the offset of the terminator of the line starting at i.
func (c *lineCursor) lineEnd(i int) int {
	if c.lfOnly {
		if j := strings.IndexByte(c.text[i:], '\n'); j >= 0 {
			return i + j
		}
		return len(c.text)
	}
	for i < len(c.text) && c.text[i] != '\n' && c.text[i] != '\r' {
		i++
	}
	return i
}

// nextLine is the start of the line after the one starting at i, or -1.
func (c *lineCursor) nextLine(i int) int {
	j := c.lineEnd(i)
	if j == len(c.text) {
		return -1
	}
	if c.text[j] == '\r' && j+1 < len(c.text) && c.text[j+1] == '\n' {
		j++
	}
	return j + 1
}

// units is how many code units of enc the rune r takes.
func units(r rune, size int, enc string) int {
	switch enc {
	case UTF8:
		return size
	case UTF32:
		return 1
	default:
		if r >= 0x10000 && size == 4 {
			return 2
		}
		return 1
	}
}

// Offset returns the byte offset in text of pos, whose character counts code
// units of enc (UTF16, UTF8 or UTF32; "" means UTF16). A character past the
// end of its line clamps to the line's end, a line past the last one to the
// end of the text, and a character inside a multi-unit character to that
// character's start.
func Offset(text string, pos protocol.Position, enc string) int {
	return newLineCursor(text).offset(pos, enc)
}

func (c *lineCursor) offset(pos protocol.Position, enc string) int {
	text := c.text
	start, end := c.bounds(pos.Line)
	want := int(pos.Character)
	i, col := start, 0
	for i < end {
		r, size := utf8.DecodeRuneInString(text[i:end])
		w := units(r, size, enc)
		if col+w > want {
			break
		}
		col += w
		i += size
	}
	return i
}

// PositionAt returns the position of the byte offset off in text, counting
// characters in code units of enc. An offset inside a line terminator or a
// multi-byte character is moved back to its start; one past the end of the
// text is clamped to the end.
func PositionAt(text string, off int, enc string) protocol.Position {
	return newPosCursor(text).at(off, enc)
}

// posCursor finds the positions of offsets of one text, counting lines
// from the offset it found last, so that finding them in document order
// scans the text once.
type posCursor struct {
	text   string
	lfOnly bool // text has no '\r'
	// off is in the line that is the line-th and starts at start.
	off, line, start int
}

func newPosCursor(text string) *posCursor {
	return &posCursor{text: text, lfOnly: strings.IndexByte(text, '\r') < 0}
}

func (c *posCursor) at(off int, enc string) protocol.Position {
	text := c.text
	if off > len(text) {
		off = len(text)
	}
	if off < 0 {
		off = 0
	}
	if off > 0 && off < len(text) && text[off-1] == '\r' && text[off] == '\n' {
		off-- // inside "\r\n": the end of the line
	}
	line, lineStart := c.lineOf(off)
	col := 0
	for i := lineStart; i < off; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if i+size > off {
			break
		}
		col += units(r, size, enc)
		i += size
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

// lineOf returns the line holding the byte offset off of the text and the
// offset where that line starts.
func (c *posCursor) lineOf(off int) (line, start int) {
	if off < c.off {
		c.off, c.line, c.start = 0, 0, 0
	}
	if c.lfOnly {
		seg := c.text[c.off:off]
		if n := strings.Count(seg, "\n"); n > 0 {
			c.line += n
			c.start = c.off + strings.LastIndexByte(seg, '\n') + 1
		}
	} else {
		text := c.text
		for i := c.off; i < off; i++ {
			switch {
			case text[i] == '\n', text[i] == '\r' && (i+1 == len(text) || text[i+1] != '\n'):
				c.line++
				c.start = i + 1
			}
		}
	}
	c.off = off
	return c.line, c.start
}

// byteEdit is a TextEdit turned into byte offsets of the text it applies to.
type byteEdit struct {
	start, end int
	newText    string
	index      int // position in the original list, for a stable order
}

// resolveEdits turns edits into byte offsets of text, in document order
// (edits at the same place keep their order in the list), and refuses
// overlapping or reversed ranges as editors do.
func resolveEdits(text string, edits []protocol.TextEdit, enc string) ([]byteEdit, error) {
	out := make([]byteEdit, len(edits))
	c := newLineCursor(text)
	for i, e := range edits {
		s, t := c.offset(e.Range.Start, enc), c.offset(e.Range.End, enc)
		if t < s {
			return nil, fmt.Errorf("edit %d: range end %v before start %v", i, e.Range.End, e.Range.Start)
		}
		out[i] = byteEdit{start: s, end: t, newText: e.NewText, index: i}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].start < out[b].start })
	for i := 1; i < len(out); i++ {
		if out[i].start < out[i-1].end {
			return nil, fmt.Errorf("edits %d and %d overlap", out[i-1].index, out[i].index)
		}
	}
	return out, nil
}

// ApplyEdits applies edits to text with LSP semantics: every range refers
// to text as it was before any of them, ranges may not overlap, and inserts
// at one position appear in the order of the list. Positions count code
// units of enc.
func ApplyEdits(text string, edits []protocol.TextEdit, enc string) (string, error) {
	be, err := resolveEdits(text, edits, enc)
	if err != nil {
		return "", err
	}
	return applyResolved(text, be), nil
}

func applyResolved(text string, be []byteEdit) string {
	size := len(text)
	for _, e := range be {
		size += len(e.newText) - (e.end - e.start)
	}
	var b strings.Builder
	b.Grow(size)
	last := 0
	for _, e := range be {
		b.WriteString(text[last:e.start])
		b.WriteString(e.newText)
		last = e.end
	}
	b.WriteString(text[last:])
	return b.String()
}

// sequentialChanges returns edits, which all refer to text, applied to
// text, and as a list of changes that stay valid when applied one after
// the other, as the contentChanges of a didChange are: in reverse document
// order, so that no change moves the text under a later one.
func sequentialChanges(text string, edits []protocol.TextEdit, enc string) (string, []protocol.TextEdit, error) {
	be, err := resolveEdits(text, edits, enc)
	if err != nil {
		return "", nil, err
	}
	out := make([]protocol.TextEdit, len(be))
	c := newPosCursor(text)
	for i, e := range be { // in document order, the cursor's
		out[len(be)-1-i] = protocol.TextEdit{
			Range:   protocol.Range{Start: c.at(e.start, enc), End: c.at(e.end, enc)},
			NewText: e.newText,
		}
	}
	return applyResolved(text, be), out, nil
}

// EndPosition is the position just past the last character of text.
func EndPosition(text string, enc string) protocol.Position {
	return PositionAt(text, len(text), enc)
}
