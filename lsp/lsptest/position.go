package lsptest

import (
	"fmt"
	"sort"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// Position encodings an LSP client and server may agree on.
const (
	UTF16 = "utf-16"
	UTF8  = "utf-8"
	UTF32 = "utf-32"
)

// lineBounds returns the byte offsets of the start of line n of text and of
// the end of its content (before its line terminator). Lines end with
// "\r\n", "\n" or a lone "\r", as the LSP specification says. A line past
// the last one is clamped to the end of the text.
func lineBounds(text string, n uint32) (start, end int) {
	var line uint32
	i := 0
	for line < n {
		j := i
		for j < len(text) && text[j] != '\n' && text[j] != '\r' {
			j++
		}
		if j == len(text) {
			return len(text), len(text)
		}
		if text[j] == '\r' && j+1 < len(text) && text[j+1] == '\n' {
			j++
		}
		i = j + 1
		line++
	}
	end = i
	for end < len(text) && text[end] != '\n' && text[end] != '\r' {
		end++
	}
	return i, end
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
	start, end := lineBounds(text, pos.Line)
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
	if off > len(text) {
		off = len(text)
	}
	if off < 0 {
		off = 0
	}
	if off > 0 && off < len(text) && text[off-1] == '\r' && text[off] == '\n' {
		off-- // inside "\r\n": the end of the line
	}
	var line uint32
	lineStart := 0
	for i := 0; i < off; i++ {
		switch {
		case text[i] == '\n', text[i] == '\r' && (i+1 == len(text) || text[i+1] != '\n'):
			line++
			lineStart = i + 1
		}
	}
	col := 0
	for i := lineStart; i < off; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if i+size > off {
			break
		}
		col += units(r, size, enc)
		i += size
	}
	return protocol.Position{Line: line, Character: uint32(col)}
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
	for i, e := range edits {
		s, t := Offset(text, e.Range.Start, enc), Offset(text, e.Range.End, enc)
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
	var b []byte
	last := 0
	for _, e := range be {
		b = append(b, text[last:e.start]...)
		b = append(b, e.newText...)
		last = e.end
	}
	b = append(b, text[last:]...)
	return string(b), nil
}

// sequentialChanges returns edits, which all refer to text, as a list of
// changes that stay valid when applied one after the other, as the
// contentChanges of a didChange are: in reverse document order, so that no
// change moves the text under a later one.
func sequentialChanges(text string, edits []protocol.TextEdit, enc string) ([]protocol.TextEdit, error) {
	be, err := resolveEdits(text, edits, enc)
	if err != nil {
		return nil, err
	}
	out := make([]protocol.TextEdit, 0, len(be))
	for i := len(be) - 1; i >= 0; i-- {
		e := be[i]
		out = append(out, protocol.TextEdit{
			Range:   protocol.Range{Start: PositionAt(text, e.start, enc), End: PositionAt(text, e.end, enc)},
			NewText: e.newText,
		})
	}
	return out, nil
}

// EndPosition is the position just past the last character of text.
func EndPosition(text string, enc string) protocol.Position {
	return PositionAt(text, len(text), enc)
}
