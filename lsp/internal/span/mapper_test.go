package span

import (
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/graft-editor/graft/internal/test/benchtext"
)

var encodings = []Encoding{UTF16, UTF8, UTF32}

func TestMapperLines(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 1},
		{"a", 1},
		{"a\n", 2},
		{"a\nb", 2},
		{"a\r\nb\r\n", 3},
		{"a\rb", 2},
		{"\r\r\n\n", 4},
		{"\n\r", 3},
	}
	for _, tt := range tests {
		if got := NewMapper(tt.text).Lines(); got != tt.want {
			t.Errorf("NewMapper(%q).Lines() = %d, want %d", tt.text, got, tt.want)
		}
	}
}

// A mapping is one offset and the Position it has in each encoding.
type mapping struct {
	offset             int
	utf16, utf8, utf32 Position
}

func (m mapping) in(enc Encoding) Position {
	switch enc {
	case UTF8:
		return m.utf8
	case UTF32:
		return m.utf32
	}
	return m.utf16
}

func TestMapperConvertsBothWays(t *testing.T) {
	p := func(line, char int) Position { return Position{line, char} }
	tests := []struct {
		name string
		text string
		want []mapping
	}{
		{"empty text", "", []mapping{{0, p(0, 0), p(0, 0), p(0, 0)}}},
		{"no final newline", "ab\ncd", []mapping{
			{0, p(0, 0), p(0, 0), p(0, 0)},
			{2, p(0, 2), p(0, 2), p(0, 2)},
			{3, p(1, 0), p(1, 0), p(1, 0)},
			{5, p(1, 2), p(1, 2), p(1, 2)},
		}},
		{"final newline opens an empty line", "ab\n", []mapping{
			{2, p(0, 2), p(0, 2), p(0, 2)},
			{3, p(1, 0), p(1, 0), p(1, 0)},
		}},
		{"emoji is two UTF-16 units and four bytes", "a😀b\n", []mapping{
			{1, p(0, 1), p(0, 1), p(0, 1)},
			{5, p(0, 3), p(0, 5), p(0, 2)},
			{6, p(0, 4), p(0, 6), p(0, 3)},
		}},
		{"CJK is one unit and three bytes", "世界x", []mapping{
			{3, p(0, 1), p(0, 3), p(0, 1)},
			{6, p(0, 2), p(0, 6), p(0, 2)},
			{7, p(0, 3), p(0, 7), p(0, 3)},
		}},
		{"combining mark is a character of its own", "e\u0301x", []mapping{
			{1, p(0, 1), p(0, 1), p(0, 1)},
			{3, p(0, 2), p(0, 3), p(0, 2)},
		}},
		{"CRLF ends a line", "ab\r\ncd\r\n", []mapping{
			{2, p(0, 2), p(0, 2), p(0, 2)},
			{4, p(1, 0), p(1, 0), p(1, 0)},
			{6, p(1, 2), p(1, 2), p(1, 2)},
			{8, p(2, 0), p(2, 0), p(2, 0)},
		}},
		{"lone CR ends a line", "ab\rcd", []mapping{
			{2, p(0, 2), p(0, 2), p(0, 2)},
			{3, p(1, 0), p(1, 0), p(1, 0)},
		}},
		{"LF CR is two line breaks", "a\n\rb", []mapping{
			{2, p(1, 0), p(1, 0), p(1, 0)},
			{3, p(2, 0), p(2, 0), p(2, 0)},
		}},
		{"non-ASCII on an earlier line does not shift a later one", "😀\r\nab", []mapping{
			{4, p(0, 2), p(0, 4), p(0, 1)},
			{7, p(1, 1), p(1, 1), p(1, 1)},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMapper(tt.text)
			for _, want := range tt.want {
				for _, enc := range encodings {
					pos, err := m.Position(want.offset, enc)
					if err != nil || pos != want.in(enc) {
						t.Errorf("Position(%d, %v) = %v, %v; want %v", want.offset, enc, pos, err, want.in(enc))
					}
					off, err := m.Offset(want.in(enc), enc)
					if err != nil || off != want.offset {
						t.Errorf("Offset(%v, %v) = %d, %v; want %d", want.in(enc), enc, off, err, want.offset)
					}
				}
			}
		})
	}
}

func TestMapperOffsetForgives(t *testing.T) {
	tests := []struct {
		name string
		text string
		pos  Position
		enc  Encoding
		want int
	}{
		{"past the end of a line clamps before LF", "ab\ncd", Position{0, 9}, UTF16, 2},
		{"past the end of a line clamps before CRLF", "ab\r\ncd", Position{0, 3}, UTF16, 2},
		{"past the end of a line clamps before lone CR", "ab\rcd", Position{0, 3}, UTF8, 2},
		{"past the end of the last line clamps to the end", "ab\ncd", Position{1, 7}, UTF32, 5},
		{"past the end of an empty last line", "ab\n", Position{1, 4}, UTF16, 3},
		{"past a line of emoji counts units, not bytes", "😀😀\n", Position{0, 5}, UTF16, 8},
		{"middle of a surrogate pair snaps to its start", "a😀b", Position{0, 2}, UTF16, 1},
		{"inside a UTF-8 sequence snaps to its start", "a😀b", Position{0, 3}, UTF8, 1},
		{"inside a CJK character snaps to its start", "世界", Position{0, 4}, UTF8, 3},
		{"just past the last line is the end of the text", "ab\n", Position{2, 0}, UTF16, 3},
		{"just past a last line without newline is the end", "ab", Position{1, 0}, UTF8, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NewMapper(tt.text).Offset(tt.pos, tt.enc)
			if err != nil || got != tt.want {
				t.Errorf("Offset(%v, %v) on %q = %d, %v; want %d", tt.pos, tt.enc, tt.text, got, err, tt.want)
			}
		})
	}
}

func TestMapperRefuses(t *testing.T) {
	positions := []struct {
		name string
		text string
		pos  Position
		enc  Encoding
	}{
		{"line past the last", "ab\n", Position{3, 0}, UTF16},
		{"character on the line just past the last", "ab\n", Position{2, 1}, UTF16},
		{"negative line", "ab", Position{-1, 0}, UTF16},
		{"negative character", "ab", Position{0, -1}, UTF8},
		{"unknown encoding", "ab", Position{0, 0}, Encoding(7)},
	}
	for _, tt := range positions {
		t.Run(tt.name, func(t *testing.T) {
			if off, err := NewMapper(tt.text).Offset(tt.pos, tt.enc); err == nil {
				t.Errorf("Offset(%v, %v) on %q = %d, want an error", tt.pos, tt.enc, tt.text, off)
			}
		})
	}
	offsets := []struct {
		name   string
		text   string
		offset int
	}{
		{"negative offset", "ab", -1},
		{"offset past the end", "ab", 3},
		{"offset inside a UTF-8 sequence", "a😀", 2},
		{"offset inside a CJK character", "世", 1},
		{"offset between CR and LF", "ab\r\ncd", 3},
	}
	for _, tt := range offsets {
		t.Run(tt.name, func(t *testing.T) {
			for _, enc := range encodings {
				if pos, err := NewMapper(tt.text).Position(tt.offset, enc); err == nil {
					t.Errorf("Position(%d, %v) on %q = %v, want an error", tt.offset, enc, tt.text, pos)
				}
			}
		})
	}
}

func TestMapperRanges(t *testing.T) {
	m := NewMapper("héllo\r\nwörld")
	r, err := m.Range(1, 9, UTF16)
	if want := (Range{Position{0, 1}, Position{1, 1}}); err != nil || r != want {
		t.Fatalf("Range(1, 9) = %v, %v; want %v", r, err, want)
	}
	start, end, err := m.OffsetRange(r, UTF16)
	if err != nil || start != 1 || end != 9 {
		t.Errorf("OffsetRange(%v) = %d, %d, %v; want 1, 9", r, start, end, err)
	}
	if _, _, err := m.OffsetRange(Range{Position{1, 0}, Position{0, 0}}, UTF16); err == nil {
		t.Error("OffsetRange accepted a range whose start comes after its end")
	}
	if _, err := m.Range(3, 1, UTF8); err == nil {
		t.Error("Range accepted offsets whose start comes after the end")
	}
	if _, _, err := m.OffsetRange(Range{Position{0, 0}, Position{5, 0}}, UTF16); err == nil {
		t.Error("OffsetRange accepted an end past the last line")
	}
}

// referencePositions returns the Position of every offset in text that is
// a character boundary outside a CRLF pair, counted in enc the slow, obvious
// way: decoding the whole text from the start.
func referencePositions(text string, enc Encoding) map[int]Position {
	out := make(map[int]Position)
	line, char := 0, 0
	for i := 0; i <= len(text); {
		out[i] = Position{line, char}
		if i == len(text) {
			break
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\r' && strings.HasPrefix(text[i:], "\r\n"):
			line, char, size = line+1, 0, 2
		case r == '\r' || r == '\n':
			line, char = line+1, 0
		case enc == UTF8:
			char += size
		case enc == UTF16 && size > 1 && r != utf8.RuneError:
			char += len(utf16.Encode([]rune{r}))
		default:
			char++
		}
		i += size
	}
	return out
}

// lineSlice is a LineText kept as its lines, as a buffer keeps them.
type lineSlice []string

func (l lineSlice) Lines() int { return len(l) }

func (l lineSlice) Line(i int) (start int, line string) {
	for _, prev := range l[:i] {
		start += len(prev)
	}
	return start, l[i]
}

// checkMapper compares m with the reference on every offset of its text
// and checks that Offset(Position(o)) == o for each boundary. Offset over
// the lines of the text, as a LineText, must find what m.Offset finds.
func checkMapper(t *testing.T, m *Mapper) {
	t.Helper()
	text := m.Text()
	var lines lineSlice
	for i := range m.Lines() {
		_, line := m.Line(i)
		lines = append(lines, line)
	}
	if strings.Join(lines, "") != text {
		t.Fatalf("%q: the Mapper's lines are %q", text, lines)
	}
	offset := func(p Position, enc Encoding) (int, error) {
		t.Helper()
		off, err := m.Offset(p, enc)
		if off2, err2 := Offset(lines, p, enc); off2 != off || (err == nil) != (err2 == nil) {
			t.Fatalf("%q: Offset(%v, %v) = %d, %v from the Mapper and %d, %v from its lines", text, p, enc, off, err, off2, err2)
		}
		return off, err
	}
	for _, enc := range encodings {
		want := referencePositions(text, enc)
		for off := 0; off <= len(text)+1; off++ {
			pos, err := m.Position(off, enc)
			wantPos, ok := want[off]
			if !ok {
				if err == nil {
					t.Fatalf("%q: Position(%d, %v) = %v, want an error", text, off, enc, pos)
				}
				continue
			}
			if err != nil || pos != wantPos {
				t.Fatalf("%q: Position(%d, %v) = %v, %v; want %v", text, off, enc, pos, err, wantPos)
			}
			back, err := offset(pos, enc)
			if err != nil || back != off {
				t.Fatalf("%q: Offset(Position(%d)=%v, %v) = %d, %v", text, off, pos, enc, back, err)
			}
		}
		last := m.Lines() - 1
		for ch := 0; ch < 8; ch++ {
			// Any position maps to a boundary, and past the last line is refused.
			for line := 0; line <= last; line++ {
				off, err := offset(Position{line, ch}, enc)
				if _, ok := want[off]; err != nil || !ok {
					t.Fatalf("%q: Offset(%d:%d, %v) = %d, %v; not a boundary", text, line, ch, enc, off, err)
				}
			}
			if off, err := offset(Position{last + 1, ch}, enc); ch == 0 && (err != nil || off != len(text)) {
				t.Fatalf("%q: Offset(%d:0, %v) = %d, %v; want the end of the text", text, last+1, enc, off, err)
			}
			if off, err := offset(Position{last + 2, ch}, enc); err == nil {
				t.Fatalf("%q: Offset(%d:%d, %v) = %d past the last line", text, last+2, ch, enc, off)
			}
		}
	}
}

func TestMapperMatchesReference(t *testing.T) {
	texts := []string{
		"", "\n", "\r", "\r\n", "\n\r", "\r\r\n\n",
		"plain\nascii\n",
		"a😀b\r\n世界\rc\u0301\n\n😀",
		"\xff\xfe invalid \xe4\xb8 truncated \xf0\x9f\x98 sequences\r\n\x80",
		"\U0010FFFF\uFFFD\u200d👩‍👩‍👧",
	}
	for _, text := range texts {
		checkMapper(t, NewMapper(text))
	}
}

func FuzzMapper(f *testing.F) {
	for _, s := range []string{"", "a\nb", "a😀b\r\n世界\rc\u0301\n", "\r\r\n\n\xff", "é\r"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 256 {
			text = text[:256] // checkMapper is quadratic in a line's length
		}
		checkMapper(t, NewMapper(text))
	})
}

func BenchmarkNewMapper(b *testing.B) {
	text := benchtext.GoLines(100_000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		NewMapper(text)
	}
}

func BenchmarkMapperPosition(b *testing.B) {
	m := NewMapper(benchtext.GoLines(100_000))
	off := len(m.Text()) / 2
	for b.Loop() {
		if _, err := m.Position(off, UTF16); err != nil {
			b.Fatal(err)
		}
	}
}
