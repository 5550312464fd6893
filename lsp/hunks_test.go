package lsp

import (
	"strings"
	"testing"

	"github.com/graft-editor/graft/workspace"
)

func TestPinRegion(t *testing.T) {
	const text = "one\ntwo\nthree\nfour\n"
	at := func(s string) int { return strings.Index(text, s) }
	tests := []struct {
		name string
		text string
		edit workspace.TextEdit
		// want is the region the edit is pinned on.
		want string
	}{
		{"a line, with the line on either side", text, workspace.TextEdit{Start: at("two"), End: at("three"), New: "TWO\n"}, "one\ntwo\nthree\n"},
		{"the first line", text, workspace.TextEdit{Start: 0, End: at("two"), New: "ONE\n"}, "one\ntwo\n"},
		{"the last line", text, workspace.TextEdit{Start: at("four"), End: len(text), New: ""}, "three\nfour\n"},
		{"an insertion between lines", text, workspace.TextEdit{Start: at("three"), End: at("three"), New: "2.5\n"}, "two\nthree\n"},
		{"an insertion at the top", text, workspace.TextEdit{Start: 0, End: 0, New: "zero\n"}, "one\n"},
		{"an insertion at the end", text, workspace.TextEdit{Start: len(text), End: len(text), New: "five\n"}, "four\n"},
		{"the last line, with no line break", "a\nb", workspace.TextEdit{Start: 2, End: 3, New: "B"}, "a\nb"},
		{"part of a line: exactly that part", text, workspace.TextEdit{Start: at("hree"), End: at("hree") + 4, New: "HREE"}, "hree"},
		{"part of a line to the end of the next", text, workspace.TextEdit{Start: at("wo"), End: at("four"), New: "x\n"}, "wo\nthree\n"},
		{"an empty file", "", workspace.TextEdit{New: "new\n"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps, pe := pinRegion(tc.text, tc.edit)
			if got := tc.text[ps:pe]; got != tc.want {
				t.Errorf("pinned on %q, want %q", got, tc.want)
			}
			if ps > tc.edit.Start || pe < tc.edit.End {
				t.Errorf("region %d-%d does not hold the edit %d-%d", ps, pe, tc.edit.Start, tc.edit.End)
			}
		})
	}
}
