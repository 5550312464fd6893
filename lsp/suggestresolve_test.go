package lsp

import (
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/graft-editor/graft/engine"
)

func TestShiftOffsetFollowsLinesAbove(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		off      int
		want     int
		lost     bool
	}{
		{"lines inserted above", "a\nb\nc\n", "x\ny\na\nb\nc\n", 2, 6, false},
		{"line deleted above", "a\nb\nc\n", "b\nc\n", 2, 0, false},
		{"change below", "a\nb\nc\n", "a\nb\nC\n", 2, 2, false},
		{"the line at the offset replaced", "a\nb\nc\n", "a\nB\nc\n", 2, 2, false},
		{"inside a replaced line", "a\nb\nc\n", "a\nB\nc\n", 3, 2, true},
		{"inside deleted lines", "a\nbb\ncc\nd\n", "a\nd\n", 5, 2, true},
		{"lines inserted at the offset go before it", "a\nb\n", "a\nx\nb\n", 2, 4, false},
		{"crlf", "a\r\nb\r\n", "z\r\na\r\nb\r\n", 3, 6, false},
		{"emoji above", "a\nb\n", "😀漢字\na\nb\n", 2, 13, false},
		{"no final newline", "a\nb", "a\nbc", 2, 2, false},
		{"unchanged", "a\nb\n", "a\nb\n", 2, 2, false},
		{"end of text", "a\nb\n", "x\na\nb\n", 4, 6, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, lost := shiftOffset(lineDiffEdits(tc.old, tc.new), tc.off)
			if got != tc.want || lost != tc.lost {
				t.Errorf("shiftOffset(%q → %q, %d) = %d, %v; want %d, %v", tc.old, tc.new, tc.off, got, lost, tc.want, tc.lost)
			}
		})
	}
}

// FuzzLineDiffEdits checks that the edits turn old into new, and that an
// offset they do not lose maps to the same bytes in new.
func FuzzLineDiffEdits(f *testing.F) {
	f.Add("a\nb\nc\n", "x\na\nb\nc\n", 2)
	f.Add("a\r\nb\r\n", "a\r\nB\r\nc", 3)
	f.Add("😀\n漢字\n", "漢字\n😀\n", 5)
	f.Add("", "a\n", 0)
	f.Add("one\ntwo\nthree\nfour\n", "one\nthree\nfour\nfive\n", 8)
	f.Fuzz(func(t *testing.T, old, new string, off int) {
		if len(old) == 0 {
			off = 0
		} else {
			off = ((off % (len(old) + 1)) + len(old) + 1) % (len(old) + 1)
		}
		edits := lineDiffEdits(old, new)
		got, err := udiff.Apply(old, edits)
		if err != nil || got != new {
			t.Fatalf("edits %v turn %q into %q (%v), want %q", edits, old, got, err, new)
		}
		to, lost := shiftOffset(edits, off)
		if to < 0 || to > len(new) {
			t.Fatalf("offset %d maps to %d, out of the new text (%d bytes)", off, to, len(new))
		}
		if lost {
			return
		}
		next := len(old)
		for _, e := range edits {
			if e.Start >= off && !(e.Start == off && e.End == off) {
				next = e.Start
				break
			}
		}
		if want := old[off:next]; !strings.HasPrefix(new[to:], want) {
			t.Fatalf("offset %d of %q maps to %d of %q: %q does not follow it", off, old, to, new, want)
		}
	})
}

func TestSummarizeChange(t *testing.T) {
	tests := []struct {
		name string
		text string
		edit engine.Edit
		want string
	}{
		{"in a line", "\ts := \"😀\"; x := 1\n", engine.Edit{Old: "x := 1", New: "x := 2"}, "x := 1 → x := 2"},
		{"a line added", "a\nb\n", engine.Edit{Old: "a\nb\n", New: "a\nadded\nb\n"}, "insert 1 line: added"},
		{"lines deleted", "a\nb\nc\nd\n", engine.Edit{Old: "a\nb\nc\nd\n", New: "a\nd\n"}, "delete 2 lines: b"},
		{"one line for two", "a\nb\nc\n", engine.Edit{Old: "a\nb\nc\n", New: "a\nB1\nB2\nc\n"}, "replace 1 line with 2: b → B1"},
		{"two changes", "a\nb\nc\n", engine.Edit{Old: "a\nb\nc\n", New: "A\nb\nC\n"}, "a → A (and 1 more change)"},
		{"replace all", "x\ny\nx\n", engine.Edit{Old: "x", New: "z", ReplaceAll: true}, "x → z (and 1 more change)"},
		{"insertion", "a\nb\n", engine.Edit{Op: engine.OpInsert, Line: 1, New: "new line\n"}, "insert 1 line: new line"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, out := engine.ApplyEdits(tc.text, []engine.Edit{tc.edit}, engine.Options{})
			if out[0].Match == nil {
				t.Fatalf("the edit does not resolve: %v", out[0].Err)
			}
			var edits []engine.Change
			for _, c := range out[0].Match.Changes {
				edits = append(edits, c)
			}
			if got := summarizeChange(tc.text, edits); got != tc.want {
				t.Errorf("summary %q, want %q", got, tc.want)
			}
		})
	}
}

// BenchmarkFollowEditAbove measures what carrying a suggestion's place
// across one line typed above it costs in a 100,000-line buffer: the
// common ends are skipped in linear time, and only the changed line is
// diffed.
func BenchmarkFollowEditAbove(b *testing.B) {
	var sb strings.Builder
	for i := range 100_000 {
		sb.WriteString("\tline := ")
		sb.WriteString(strings.Repeat("x", i%40))
		sb.WriteString("\n")
	}
	old := sb.String()
	at := strings.Index(old, "\tline := xxxxxxxx\n")
	new := old[:at] + "\t// typed\n" + old[at:]
	off := len(old) - 1000
	b.ReportAllocs()
	for b.Loop() {
		if to, lost := shiftOffset(lineDiffEdits(old, new), off); lost || to != off+len("\t// typed\n") {
			b.Fatalf("offset %d maps to %d (lost %v)", off, to, lost)
		}
	}
}
