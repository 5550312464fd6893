package fakeeditor

import (
	"strings"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func TestOffset(t *testing.T) {
	tests := []struct {
		name string
		text string
		pos  protocol.Position
		enc  string
		want int
	}{
		{"ascii start", "abc\n", pos(0, 0), UTF16, 0},
		{"ascii middle", "abc\n", pos(0, 2), UTF16, 2},
		{"past line end clamps before newline", "abc\ndef", pos(0, 9), UTF16, 3},
		{"second line", "abc\ndef", pos(1, 1), UTF16, 5},
		{"line past the end clamps to the end", "abc\ndef", pos(7, 0), UTF16, 7},
		{"empty last line", "abc\n", pos(1, 0), UTF16, 4},
		{"emoji is two utf-16 units", "a😀b", pos(0, 3), UTF16, 5},
		{"inside a surrogate pair floors", "a😀b", pos(0, 2), UTF16, 1},
		{"emoji is four utf-8 units", "a😀b", pos(0, 5), UTF8, 5},
		{"inside a utf-8 sequence floors", "a😀b", pos(0, 3), UTF8, 1},
		{"emoji is one utf-32 unit", "a😀b", pos(0, 2), UTF32, 5},
		{"cjk is one utf-16 unit", "日本語x", pos(0, 3), UTF16, 9},
		{"cjk is three utf-8 units", "日本語x", pos(0, 6), UTF8, 6},
		{"default encoding is utf-16", "😀x", pos(0, 2), "", 4},
		{"crlf second line", "ab\r\ncd\r\n", pos(1, 1), UTF16, 5},
		{"crlf past end clamps before cr", "ab\r\ncd\r\n", pos(0, 5), UTF16, 2},
		{"crlf last empty line", "ab\r\ncd\r\n", pos(2, 0), UTF16, 8},
		{"lone cr ends a line", "a\rb", pos(1, 0), UTF16, 2},
		{"emoji and cjk before the point on a crlf line", "x\r\n日😀本z\r\n", pos(1, 4), UTF16, 3 + 3 + 4 + 3},
		{"same in utf-8", "x\r\n日😀本z\r\n", pos(1, 10), UTF8, 3 + 3 + 4 + 3},
		{"invalid utf-8 byte is one unit", "a\xffb", pos(0, 2), UTF16, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Offset(tt.text, tt.pos, tt.enc); got != tt.want {
				t.Errorf("Offset(%q, %v, %s) = %d, want %d", tt.text, tt.pos, tt.enc, got, tt.want)
			}
		})
	}
}

func TestPositionAt(t *testing.T) {
	tests := []struct {
		name string
		text string
		off  int
		enc  string
		want protocol.Position
	}{
		{"start", "abc", 0, UTF16, pos(0, 0)},
		{"after emoji utf-16", "a😀b", 5, UTF16, pos(0, 3)},
		{"after emoji utf-8", "a😀b", 5, UTF8, pos(0, 5)},
		{"after emoji utf-32", "a😀b", 5, UTF32, pos(0, 2)},
		{"inside emoji floors", "a😀b", 3, UTF16, pos(0, 1)},
		{"next line after lf", "ab\ncd", 3, UTF16, pos(1, 0)},
		{"at cr of crlf", "ab\r\ncd", 2, UTF16, pos(0, 2)},
		{"between cr and lf is the line end", "ab\r\ncd", 3, UTF16, pos(0, 2)},
		{"after crlf", "ab\r\ncd", 4, UTF16, pos(1, 0)},
		{"after lone cr", "a\rb", 2, UTF16, pos(1, 0)},
		{"past the end clamps", "ab\n", 99, UTF16, pos(1, 0)},
		{"cjk utf-16", "日本語", 6, UTF16, pos(0, 2)},
		{"cjk utf-8", "日本語", 6, UTF8, pos(0, 6)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PositionAt(tt.text, tt.off, tt.enc); got != tt.want {
				t.Errorf("PositionAt(%q, %d, %s) = %v, want %v", tt.text, tt.off, tt.enc, got, tt.want)
			}
		})
	}
}

// roundTrips checks that every offset on a character boundary (and not
// between the two bytes of a CRLF) survives PositionAt then Offset.
func roundTrips(t *testing.T, text string) {
	t.Helper()
	for _, enc := range []string{UTF16, UTF8, UTF32} {
		for off := 0; off <= len(text); off++ {
			if off < len(text) && !utf8.RuneStart(text[off]) {
				continue
			}
			if off > 0 && off < len(text) && text[off-1] == '\r' && text[off] == '\n' {
				continue
			}
			p := PositionAt(text, off, enc)
			if got := Offset(text, p, enc); got != off {
				t.Fatalf("%s: offset %d of %q -> %v -> %d", enc, off, text, p, got)
			}
		}
	}
}

func TestPositionRoundTrip(t *testing.T) {
	for _, text := range []string{
		"", "a", "\n", "\r\n", "\r", "a\r\rb\n\r\n",
		"héllo 😀 wörld\n日本語\r\nx🇫🇷y\n",
		"func main() {\r\n\t// 😀😀\r\n}\r\n",
	} {
		roundTrips(t, text)
	}
}

func FuzzPositionRoundTrip(f *testing.F) {
	for _, s := range []string{"a😀b\n", "日本語\r\nx", "a\rb\r\n\n", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 2000 {
			t.Skip("roundTrips is quadratic")
		}
		roundTrips(t, text)
	})
}

func edit(sl, sc, el, ec uint32, text string) protocol.TextEdit {
	return protocol.TextEdit{Range: protocol.Range{Start: pos(sl, sc), End: pos(el, ec)}, NewText: text}
}

func TestApplyEdits(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		enc     string
		edits   []protocol.TextEdit
		want    string
		wantErr bool
	}{
		{"replace a word after an emoji", "a😀 old\n", UTF16, []protocol.TextEdit{edit(0, 4, 0, 7, "new")}, "a😀 new\n", false},
		{"same in utf-8", "a😀 old\n", UTF8, []protocol.TextEdit{edit(0, 6, 0, 9, "new")}, "a😀 new\n", false},
		{"edits given out of order", "one\ntwo\nthree\n", UTF16, []protocol.TextEdit{edit(2, 0, 2, 5, "3"), edit(0, 0, 0, 3, "1")}, "1\ntwo\n3\n", false},
		{"inserts at one point keep list order", "ab", UTF16, []protocol.TextEdit{edit(0, 1, 0, 1, "X"), edit(0, 1, 0, 1, "Y")}, "aXYb", false},
		{"insert then replace at the same start", "abc", UTF16, []protocol.TextEdit{edit(0, 1, 0, 1, "X"), edit(0, 1, 0, 2, "Y")}, "aXYc", false},
		{"adjacent ranges", "abcd", UTF16, []protocol.TextEdit{edit(0, 0, 0, 2, "1"), edit(0, 2, 0, 4, "2")}, "12", false},
		{"crlf lines", "a\r\nb\r\nc\r\n", UTF16, []protocol.TextEdit{edit(1, 0, 2, 0, "")}, "a\r\nc\r\n", false},
		{"delete past end of line clamps", "ab\ncd", UTF16, []protocol.TextEdit{edit(0, 1, 0, 50, "")}, "a\ncd", false},
		{"cjk then insert", "日本語\n", UTF16, []protocol.TextEdit{edit(0, 3, 0, 3, "!")}, "日本語!\n", false},
		{"overlap refused", "abcdef", UTF16, []protocol.TextEdit{edit(0, 0, 0, 3, "x"), edit(0, 2, 0, 4, "y")}, "", true},
		{"reversed range refused", "abcdef", UTF16, []protocol.TextEdit{edit(0, 3, 0, 1, "x")}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ApplyEdits(tt.text, tt.edits, tt.enc)
			if (err != nil) != tt.wantErr {
				t.Fatalf("ApplyEdits error = %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if got != tt.want {
				t.Errorf("ApplyEdits = %q, want %q", got, tt.want)
			}
			// The same edits as successive changes give the same text.
			text, changes, err := sequentialChanges(tt.text, tt.edits, tt.enc)
			if err != nil || text != tt.want {
				t.Fatalf("sequentialChanges = %q, %v; want %q", text, err, tt.want)
			}
			seq := tt.text
			for _, c := range changes {
				if seq, err = ApplyEdits(seq, []protocol.TextEdit{c}, tt.enc); err != nil {
					t.Fatal(err)
				}
			}
			if seq != tt.want {
				t.Errorf("successive changes %v give %q, want %q", changes, seq, tt.want)
			}
		})
	}
}

// FuzzLineFastPath checks that the paths for texts without '\r' agree with
// the general ones, and that a cursor moving back and forth finds the same
// lines as a fresh one.
func FuzzLineFastPath(f *testing.F) {
	f.Add("a\nb\n\nc", uint32(2), uint32(1), 3)
	f.Add("", uint32(0), uint32(0), 0)
	f.Fuzz(func(t *testing.T, text string, n, m uint32, off int) {
		if off < 0 || off > len(text) {
			t.Skip()
		}
		n %= 1000
		m %= 1000
		fresh := func(line uint32) (int, int) { return newLineCursor(text).bounds(line) }
		general := func(line uint32) (int, int) {
			c := newLineCursor(text)
			c.lfOnly = false
			return c.bounds(line)
		}
		c := newLineCursor(text)
		for _, line := range []uint32{n, m, n} {
			s1, e1 := c.bounds(line)
			s2, e2 := fresh(line)
			s3, e3 := general(line)
			if s1 != s2 || e1 != e2 || s2 != s3 || e2 != e3 {
				t.Fatalf("line %d of %q: reused cursor %d-%d, fresh %d-%d, general %d-%d", line, text, s1, e1, s2, e2, s3, e3)
			}
		}
		// The line of an offset, found from an earlier offset, from the
		// start, and, in a text without '\r', by jumping from '\n' to '\n'.
		pc := newPosCursor(text)
		for _, o := range []int{off / 2, off, off, off / 2} {
			l1, st1 := pc.lineOf(o)
			slow := newPosCursor(text)
			slow.lfOnly = false
			l2, st2 := slow.lineOf(o)
			if l1 != l2 || st1 != st2 {
				t.Fatalf("offset %d of %q: line %d at %d, from the start one by one %d at %d", o, text, l1, st1, l2, st2)
			}
		}
	})
}

func BenchmarkEditLargeBuffer(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 100000; i++ {
		sb.WriteString("\tx := compute(a, b) // a line of ordinary Go code\n")
	}
	text := sb.String()
	edits := []protocol.TextEdit{edit(50000, 5, 50000, 12, "calc")}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, _, err := sequentialChanges(text, edits, UTF16); err != nil {
			b.Fatal(err)
		}
	}
}
