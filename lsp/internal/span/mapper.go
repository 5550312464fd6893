// Package span converts between the byte offsets Graft works with and the
// places LSP names in a text: a line and a character in it, counted in
// UTF-16 code units, bytes or code points as the client and the server
// agreed (a Position, a Range, an Encoding). A Mapper does it over a whole
// text; Offset and OffsetRange over a text read by lines, as a
// workspace.Buffer shows it while it takes an editor's changes.
package span

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/graft-editor/graft/workspace"
)

// An Encoding says how a Position counts the characters of a line.
type Encoding int

// The encodings a client and a server may agree on (LSP 3.17
// PositionEncodingKind).
const (
	UTF16 Encoding = iota // LSP's default: UTF-16 code units
	UTF8                  // bytes
	UTF32                 // code points
)

// String returns the encoding's name as LSP spells it: "utf-16", "utf-8"
// or "utf-32".
func (e Encoding) String() string {
	switch e {
	case UTF16:
		return "utf-16"
	case UTF8:
		return "utf-8"
	case UTF32:
		return "utf-32"
	}
	return fmt.Sprintf("Encoding(%d)", int(e))
}

func (e Encoding) valid() bool { return e == UTF16 || e == UTF8 || e == UTF32 }

// A Position is a place in a text as LSP counts it: a 0-based line and a
// 0-based character offset in the line, in an Encoding's units.
type Position struct{ Line, Character int }

// String returns the position as "line:character", both 0-based.
func (p Position) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Character) }

// A Range is a span between two Positions, End excluded.
type Range struct{ Start, End Position }

// String returns the range as "line:character-line:character".
func (r Range) String() string { return r.Start.String() + "-" + r.End.String() }

// A Mapper converts between byte offsets into one text and Positions.
//
// Lines end at "\n", "\r\n" or "\r", as LSP counts them; a text that ends
// with a line break has an empty last line. A Position whose character lies
// past the end of its line means the end of the line's content, before the
// line break; one whose character falls inside a character (the middle of
// a UTF-16 surrogate pair, inside a multi-byte UTF-8 sequence) means the
// start of that character. Bytes that are not valid UTF-8 count as one
// character each, as U+FFFD would.
//
// A Mapper is immutable and safe for concurrent use.
type Mapper struct {
	text   string
	starts []int // the offset where each line starts; starts[0] == 0
}

// NewMapper returns a Mapper over text. It finds the lines once, in time
// linear in the length of text.
func NewMapper(text string) *Mapper {
	return &Mapper{text: text, starts: workspace.LineStarts(text)}
}

// NewMapperLines returns a Mapper over text whose lines start at starts,
// as workspace.Snapshot.LineStarts gives them, without finding them again.
// It keeps starts, which must not be changed.
func NewMapperLines(text string, starts []int) *Mapper {
	return &Mapper{text: text, starts: starts}
}

// Text returns the text the Mapper was built over.
func (m *Mapper) Text() string { return m.text }

// Lines returns the number of lines of the text as LSP counts them: an
// empty text has one line, and a text ending in a line break has an empty
// last line.
func (m *Mapper) Lines() int { return len(m.starts) }

// line returns the offsets where line i starts and where its content ends,
// before its line break.
func (m *Mapper) line(i int) (start, end int) {
	start = m.starts[i]
	if i+1 == len(m.starts) {
		return start, len(m.text)
	}
	return start, contentEnd(m.text, start, m.starts[i+1])
}

// contentEnd returns where the content of the line text[start:next] ends,
// next being where the following line starts.
func contentEnd(text string, start, next int) int {
	end := next - 1 // a line break, "\n" or "\r"
	if text[end] == '\n' && end > start && text[end-1] == '\r' {
		end--
	}
	return end
}

// Offset returns the byte offset of p in the text, its character counted
// in enc. A character past the end of the line's content means the end of
// the content; a character inside a character means its start. The end of
// the text is Position{Lines()-1, len(last line)}; Position{Lines(), 0},
// just past the last line, is accepted for it too, as editors send it. Any
// other line past the last is an error.
func (m *Mapper) Offset(p Position, enc Encoding) (int, error) {
	if err := checkPosition(p, enc); err != nil {
		return 0, err
	}
	if p.Line >= len(m.starts) {
		if p.Line == len(m.starts) && p.Character == 0 {
			return len(m.text), nil
		}
		return 0, fmt.Errorf("position %v: line %d is past the end of the text (%d lines)", p, p.Line, len(m.starts))
	}
	start, end := m.line(p.Line)
	return start + byteColumn(m.text[start:end], p.Character, enc), nil
}

// checkPosition refuses negative positions and unknown encodings.
func checkPosition(p Position, enc Encoding) error {
	if !enc.valid() {
		return fmt.Errorf("position %v: unknown position encoding %v", p, enc)
	}
	if p.Line < 0 || p.Character < 0 {
		return fmt.Errorf("position %v: negative line or character", p)
	}
	return nil
}

// Position returns the Position of the byte offset in the text, its
// character counted in enc. An offset out of the text, inside a UTF-8
// sequence or between the "\r" and the "\n" of a line break is an error.
func (m *Mapper) Position(offset int, enc Encoding) (Position, error) {
	if !enc.valid() {
		return Position{}, fmt.Errorf("offset %d: unknown position encoding %v", offset, enc)
	}
	if offset < 0 || offset > len(m.text) {
		return Position{}, fmt.Errorf("offset %d is out of the text (%d bytes)", offset, len(m.text))
	}
	line := sort.Search(len(m.starts), func(i int) bool { return m.starts[i] > offset }) - 1
	start, end := m.line(line)
	if offset > end {
		return Position{}, fmt.Errorf("offset %d is inside the line break \"\\r\\n\" ending line %d", offset, line)
	}
	content := m.text[start:end]
	col := offset - start
	if charStart(content, col) != col {
		return Position{}, fmt.Errorf("offset %d is inside a UTF-8 sequence on line %d", offset, line)
	}
	return Position{Line: line, Character: charColumn(content, col, enc)}, nil
}

// OffsetRange returns the byte offsets of r's ends, as Offset does. A range
// whose start comes after its end is an error.
func (m *Mapper) OffsetRange(r Range, enc Encoding) (start, end int, err error) {
	if start, err = m.Offset(r.Start, enc); err != nil {
		return 0, 0, fmt.Errorf("range %v: %w", r, err)
	}
	if end, err = m.Offset(r.End, enc); err != nil {
		return 0, 0, fmt.Errorf("range %v: %w", r, err)
	}
	if start > end {
		return 0, 0, fmt.Errorf("range %v: start comes after end", r)
	}
	return start, end, nil
}

// Range returns the Range of the byte offsets start and end, as Position
// does. start must not come after end.
func (m *Mapper) Range(start, end int, enc Encoding) (Range, error) {
	if start > end {
		return Range{}, fmt.Errorf("offsets %d-%d: start comes after end", start, end)
	}
	s, err := m.Position(start, enc)
	if err != nil {
		return Range{}, err
	}
	e, err := m.Position(end, enc)
	if err != nil {
		return Range{}, err
	}
	return Range{Start: s, End: e}, nil
}

// A LineText is a text read by lines, as LSP counts them: lines end at
// "\n", "\r\n" or "\r", and a text that ends with a line break has an
// empty last line. A Mapper is one, and so is the workspace.Text a
// workspace.Buffer shows each change it takes.
type LineText interface {
	// Lines returns the number of lines, at least one.
	Lines() int
	// Line returns line i, with its line break, and the byte offset
	// where it starts.
	Line(i int) (start int, line string)
}

// Line returns line i of the text, with its line break, and the byte
// offset where it starts. It makes the Mapper a LineText.
func (m *Mapper) Line(i int) (start int, line string) {
	start = m.starts[i]
	if i+1 == len(m.starts) {
		return start, m.text[start:]
	}
	return start, m.text[start:m.starts[i+1]]
}

// Offset returns the byte offset of p in t, as Mapper.Offset does, reading
// only the lines it needs.
func Offset(t LineText, p Position, enc Encoding) (int, error) {
	if err := checkPosition(p, enc); err != nil {
		return 0, err
	}
	n := t.Lines()
	if p.Line >= n {
		if p.Line == n && p.Character == 0 {
			start, line := t.Line(n - 1)
			return start + len(line), nil
		}
		return 0, fmt.Errorf("position %v: line %d is past the end of the text (%d lines)", p, p.Line, n)
	}
	start, line := t.Line(p.Line)
	return start + byteColumn(line[:len(line)-len(lineBreak(line))], p.Character, enc), nil
}

// OffsetRange returns the byte offsets of r's ends in t, as
// Mapper.OffsetRange does, reading only the lines it needs.
func OffsetRange(t LineText, r Range, enc Encoding) (start, end int, err error) {
	if start, err = Offset(t, r.Start, enc); err != nil {
		return 0, 0, fmt.Errorf("range %v: %w", r, err)
	}
	if end, err = Offset(t, r.End, enc); err != nil {
		return 0, 0, fmt.Errorf("range %v: %w", r, err)
	}
	if start > end {
		return 0, 0, fmt.Errorf("range %v: start comes after end", r)
	}
	return start, end, nil
}

// lineBreak returns the line break that ends l: "\r\n", "\n", "\r" or "".
func lineBreak(l string) string {
	switch {
	case strings.HasSuffix(l, "\r\n"):
		return "\r\n"
	case strings.HasSuffix(l, "\n"):
		return "\n"
	case strings.HasSuffix(l, "\r"):
		return "\r"
	}
	return ""
}

// byteColumn returns the byte offset in line, the content of a line
// without its line break, of the character ch counted in enc. A character
// past the end means the end; one inside a character means its start.
func byteColumn(line string, ch int, enc Encoding) int {
	if ch >= len(line) {
		return len(line) // every encoding counts at most one unit a byte
	}
	if enc == UTF8 {
		return charStart(line, ch)
	}
	i, n := 0, 0
	for i < len(line) && n < ch {
		if line[i] < utf8.RuneSelf {
			i, n = i+1, n+1
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		w := 1
		if enc == UTF16 && r >= 0x10000 {
			w = 2
		}
		if n+w > ch {
			break // ch falls inside this character
		}
		i, n = i+size, n+w
	}
	return i
}

// charColumn returns the character column of the byte offset b in line,
// counted in enc; b is the start of a character or len(line).
func charColumn(line string, b int, enc Encoding) int {
	if enc == UTF8 {
		return b
	}
	n := 0
	for i := 0; i < b; {
		if line[i] < utf8.RuneSelf {
			i, n = i+1, n+1
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		if enc == UTF16 && r >= 0x10000 {
			n++
		}
		i, n = i+size, n+1
	}
	return n
}

// charStart returns the offset where the character holding the byte at
// offset i of s starts, decoding s from its start as Go does (an invalid
// byte is a character of its own); i itself when it is such a start or
// len(s).
func charStart(s string, i int) int {
	if i >= len(s) || utf8.RuneStart(s[i]) {
		return i
	}
	// A continuation byte: it belongs to the character that a lead byte at
	// most utf8.UTFMax-1 bytes before starts, if that one decodes over it.
	for k := 1; k < utf8.UTFMax && i-k >= 0; k++ {
		if utf8.RuneStart(s[i-k]) {
			if _, size := utf8.DecodeRuneInString(s[i-k:]); size > k {
				return i - k
			}
			break
		}
	}
	return i
}
