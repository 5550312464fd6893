package lsp

import (
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
)

func TestPinRegion(t *testing.T) {
	const text = "one\ntwo\nthree\nfour\n"
	at := func(s string) int { return strings.Index(text, s) }
	tests := []struct {
		name string
		text string
		edit engine.Change
		// want is the region the edit is pinned on.
		want string
	}{
		{"a line, with the line on either side", text, engine.Change{Start: at("two"), End: at("three"), Text: "TWO\n"}, "one\ntwo\nthree\n"},
		{"the first line", text, engine.Change{Start: 0, End: at("two"), Text: "ONE\n"}, "one\ntwo\n"},
		{"the last line", text, engine.Change{Start: at("four"), End: len(text), Text: ""}, "three\nfour\n"},
		{"an insertion between lines", text, engine.Change{Start: at("three"), End: at("three"), Text: "2.5\n"}, "two\nthree\n"},
		{"an insertion at the top", text, engine.Change{Start: 0, End: 0, Text: "zero\n"}, "one\n"},
		{"an insertion at the end", text, engine.Change{Start: len(text), End: len(text), Text: "five\n"}, "four\n"},
		{"the last line, with no line break", "a\nb", engine.Change{Start: 2, End: 3, Text: "B"}, "a\nb"},
		{"part of a line: exactly that part", text, engine.Change{Start: at("hree"), End: at("hree") + 4, Text: "HREE"}, "hree"},
		{"part of a line to the end of the next", text, engine.Change{Start: at("wo"), End: at("four"), Text: "x\n"}, "wo\nthree\n"},
		{"an empty file", "", engine.Change{Text: "new\n"}, ""},
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
