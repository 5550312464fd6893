package lsp

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/benchtext"
	"github.com/graft-editor/graft/lsp/internal/span"
	"github.com/graft-editor/graft/workspace"
)

var encodings = []span.Encoding{span.UTF16, span.UTF8, span.UTF32}

// rng returns the change that replaces the range from line sl, character
// sc to line el, character ec with text.
func rng(sl, sc, el, ec int, text string) contentChange {
	return contentChange{Range: &protocol.Range{
		Start: protocol.Position{Line: uint32(sl), Character: uint32(sc)},
		End:   protocol.Position{Line: uint32(el), Character: uint32(ec)},
	}, Text: text}
}

// TestChangeBuffer applies didChange's content changes to a buffer: each
// range is found, in the encoding agreed, in the text the changes before
// it left.
func TestChangeBuffer(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		enc     span.Encoding
		changes [][]contentChange // notifications, in order
		want    string
	}{
		{"insert a character", "abc\ndef\n", span.UTF16,
			[][]contentChange{{rng(1, 1, 1, 1, "X")}}, "abc\ndXef\n"},
		{"replace a line", "abc\ndef\nghi", span.UTF16,
			[][]contentChange{{rng(1, 0, 1, 3, "replaced")}}, "abc\nreplaced\nghi"},
		{"insert lines", "abc\ndef", span.UTF16,
			[][]contentChange{{rng(0, 1, 0, 1, "1\n2\n3")}, {rng(2, 0, 2, 0, ">")}}, "a1\n2\n>3bc\ndef"},
		{"delete a whole line with its break", "l0\nl1\nl2", span.UTF16,
			[][]contentChange{{rng(1, 0, 2, 0, "")}}, "l0\nl2"},
		{"append at the end of the text", "abc\n", span.UTF16,
			[][]contentChange{{rng(1, 0, 1, 0, "tail")}, {rng(1, 4, 1, 4, "\n")}}, "abc\ntail\n"},
		{"append just past the last line", "abc", span.UTF16,
			[][]contentChange{{rng(1, 0, 1, 0, "!")}}, "abc!"},
		{"character past the end of a line clamps", "abc\r\ndef", span.UTF16,
			[][]contentChange{{rng(0, 9, 0, 12, "!")}}, "abc!\r\ndef"},
		{"replace the whole text", "old\ntext", span.UTF16,
			[][]contentChange{{{Text: "new\r\ntext"}}, {rng(1, 0, 1, 0, "+")}}, "new\r\n+text"},
		{"several changes apply in order", "abc\ndef", span.UTF16,
			[][]contentChange{{
				rng(0, 0, 0, 0, "1\n"),  // 1 / abc / def
				rng(1, 0, 1, 3, "ABC"),  // 1 / ABC / def
				rng(2, 3, 2, 3, "\n4"),  // 1 / ABC / def / 4
				rng(0, 1, 1, 1, ""),     // 1BC / def / 4
				{Text: "fresh"},         // fresh
				rng(0, 5, 0, 5, " end"), // fresh end
			}}, "fresh end"},
		{"a CR inserted before LF makes one CRLF", "ab\ncd", span.UTF16,
			[][]contentChange{{rng(0, 2, 0, 2, "\r")}, {rng(1, 0, 1, 0, "X")}}, "ab\r\nXcd"},
		{"a CRLF replaced by CR stays a line break", "ab\r\ncd", span.UTF16,
			[][]contentChange{{rng(0, 2, 1, 0, "\r")}, {rng(1, 1, 1, 1, "X")}}, "ab\rcXd"},
		{"UTF-16 counts an emoji as two units", "😀a😀b\n", span.UTF16,
			[][]contentChange{{rng(0, 3, 0, 5, "X")}}, "😀aXb\n"},
		{"UTF-8 counts an emoji as four bytes", "😀a😀b\n", span.UTF8,
			[][]contentChange{{rng(0, 5, 0, 9, "X")}}, "😀aXb\n"},
		{"UTF-32 counts an emoji as one", "😀a😀b\n", span.UTF32,
			[][]contentChange{{rng(0, 2, 0, 3, "X")}}, "😀aXb\n"},
		{"CJK before the edit", "世界abc", span.UTF16,
			[][]contentChange{{rng(0, 3, 0, 4, "B")}}, "世界aBc"},
		{"inside a surrogate pair means its start", "a😀b", span.UTF16,
			[][]contentChange{{rng(0, 2, 0, 2, "X")}}, "aX😀b"},
		{"positions on the lines a change before made", "ab", span.UTF32,
			[][]contentChange{{rng(0, 1, 0, 1, "😀\n😀"), rng(1, 1, 1, 1, "!")}}, "a😀\n😀!b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := workspace.NewBuffer("/w/f.txt", tt.text, 1)
			for i, changes := range tt.changes {
				if err := changeBuffer(b, int32(i+2), changes, tt.enc); err != nil {
					t.Fatalf("notification %d: %v", i+1, err)
				}
			}
			s, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			if s.Text != tt.want || s.Version != int32(len(tt.changes)+1) {
				t.Errorf("Snapshot() = %q v%d; want %q v%d", s.Text, s.Version, tt.want, len(tt.changes)+1)
			}
		})
	}
}

// A range that is not in the text leaves the buffer out of sync, saying
// which change and why.
func TestChangeBufferOutOfSync(t *testing.T) {
	tests := []struct {
		name    string
		changes []contentChange
		why     string
	}{
		{"line past the end", []contentChange{rng(5, 0, 5, 0, "x")},
			"change 1 of 1: range 5:0-5:0: position 5:0: line 5 is past the end of the text (2 lines)"},
		{"start after end", []contentChange{rng(1, 0, 0, 1, "x")},
			"change 1 of 1: range 1:0-0:1: start comes after end"},
		{"a later change fails after earlier ones applied", []contentChange{
			rng(0, 0, 0, 0, "ok"),
			rng(9, 0, 9, 0, "bad"),
		}, "change 2 of 2: range 9:0-9:0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := workspace.NewBuffer("/w/f.txt", "abc\ndef", 1)
			err := changeBuffer(b, 2, tt.changes, span.UTF16)
			if !errors.Is(err, workspace.ErrOutOfSync) || !strings.Contains(err.Error(), tt.why) {
				t.Fatalf("changeBuffer() = %v, want ErrOutOfSync saying %q", err, tt.why)
			}
			if err := changeBuffer(b, 3, []contentChange{{Text: "again\n"}}, span.UTF16); err != nil {
				t.Fatalf("the whole text: %v", err)
			}
			if s, err := b.Snapshot(); err != nil || s.Text != "again\n" {
				t.Fatalf("Snapshot() = %q, %v; want \"again\\n\"", s.Text, err)
			}
		})
	}
}

// applyReference applies one notification's changes to text the plain
// way: a Mapper over the whole text for each change, then string slicing.
// ok is false when the result is out of sync.
func applyReference(text string, changes []contentChange, enc span.Encoding) (string, bool) {
	ok := true
	for _, c := range changes {
		if c.Range == nil {
			text, ok = c.Text, true
			continue
		}
		if !ok {
			continue
		}
		start, end, err := span.NewMapper(text).OffsetRange(fromProtocolRange(*c.Range), enc)
		if err != nil {
			ok = false
			continue
		}
		text = text[:start] + c.Text + text[end:]
	}
	return text, ok
}

// pieces are what random texts are made of.
var pieces = []string{"a", "bc", "é", "世", "😀", "\u0301", "\r", "\n", "\r\n", "\n\r", " "}

func randomText(r *rand.Rand, n int) string {
	var sb strings.Builder
	for range n {
		sb.WriteString(pieces[r.IntN(len(pieces))])
	}
	return sb.String()
}

// randomChange returns a change to text that is usually valid, and
// sometimes a whole text, past the end or reversed.
func randomChange(r *rand.Rand, text string) contentChange {
	if r.IntN(30) == 0 {
		return contentChange{Text: randomText(r, r.IntN(20))}
	}
	lines := span.NewMapper(text).Lines()
	pos := func() (int, int) {
		line := r.IntN(lines + 1)
		if r.IntN(50) == 0 {
			line = lines + 1 // past the end
		}
		return line, r.IntN(8)
	}
	sl, sc := pos()
	el, ec := pos()
	if r.IntN(20) != 0 && (el < sl || el == sl && ec < sc) {
		sl, sc, el, ec = el, ec, sl, sc
	}
	if r.IntN(4) == 0 && sl < lines {
		el, ec = sl+r.IntN(2), r.IntN(3) // short spans around line breaks
	}
	return rng(sl, sc, el, ec, randomText(r, r.IntN(4)))
}

// TestChangeBufferMatchesReference applies random notifications to a
// buffer, in each encoding, and to the reference, and compares them.
func TestChangeBufferMatchesReference(t *testing.T) {
	for _, enc := range encodings {
		t.Run(enc.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(enc)))
			for range 200 {
				text := randomText(r, r.IntN(30))
				b := workspace.NewBuffer("/w/f", text, 0)
				want, inSync := text, true
				for i := range 20 {
					var changes []contentChange
					for range 1 + r.IntN(3) {
						changes = append(changes, randomChange(r, want))
					}
					err := changeBuffer(b, int32(i+1), changes, enc)
					if inSync {
						want, inSync = applyReference(want, changes, enc)
					} else {
						for j, c := range changes {
							if c.Range == nil {
								want, inSync = applyReference("", changes[j:], enc)
							}
						}
					}
					s, serr := b.Snapshot()
					if !inSync {
						if !errors.Is(err, workspace.ErrOutOfSync) || !errors.Is(serr, workspace.ErrOutOfSync) {
							t.Fatalf("notification %d %v: changeBuffer() = %v, Snapshot() = %v; want ErrOutOfSync", i, changes, err, serr)
						}
						want, inSync = randomText(r, r.IntN(30)), true
						if err := changeBuffer(b, int32(i+1), []contentChange{{Text: want}}, enc); err != nil {
							t.Fatal(err)
						}
						continue
					}
					if err != nil || serr != nil || s.Text != want {
						t.Fatalf("notification %d %v: buffer %q (%v, %v), reference %q", i, changes, s.Text, err, serr, want)
					}
				}
			}
		})
	}
}

// BenchmarkChangeBuffer measures one didChange on a 100,000-line buffer
// (about 4 MB), from the LSP ranges to the buffer's text: what
// workspace.BenchmarkBufferChange measures, and the ranges found in UTF-16.
// Each pair of operations undoes itself so that the buffer stays the same
// size; "whole text" is the cost of re-reading the buffer, for comparison.
func BenchmarkChangeBuffer(b *testing.B) {
	text := benchtext.GoLines(100_000)
	replacement := strings.Repeat("y", len("\tx := computeSomething(a, b, c) + 42"))
	benches := []struct {
		name   string
		change func(i int) contentChange
	}{
		{"insert character", func(i int) contentChange {
			line := 1 + 10*(i/2%9000)
			if i%2 == 0 {
				return rng(line, 5, line, 5, "z")
			}
			return rng(line, 5, line, 6, "")
		}},
		{"replace line", func(i int) contentChange {
			line := 1 + 10*(i%9000)
			return rng(line, 0, line, len(replacement), replacement)
		}},
		{"split and join line", func(i int) contentChange {
			line := 1 + 10*(i/2%9000)
			if i%2 == 0 {
				return rng(line, 5, line, 5, "\n")
			}
			return rng(line, 5, line+1, 0, "")
		}},
		{"whole text", func(int) contentChange { return contentChange{Text: text} }},
	}
	for _, bb := range benches {
		b.Run(bb.name, func(b *testing.B) {
			buf := workspace.NewBuffer("/w/big.go", text, 0)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				if err := changeBuffer(buf, int32(i), []contentChange{bb.change(i)}, span.UTF16); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
