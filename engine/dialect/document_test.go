package dialect

import (
	"math"
	"slices"
	"testing"
)

func TestMarkLines(t *testing.T) {
	for _, tt := range []struct {
		text      string
		wantMarks []marker
		wantNext  []int
	}{
		{"", nil, []int{0}},
		{"a\nb\n", []marker{notMarker, notMarker}, []int{2, 2, 2}},
		{
			"a\n<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE\nd\n",
			[]marker{notMarker, searchMarker, notMarker, dividerMarker, notMarker, replaceMarker, notMarker},
			[]int{1, 1, 3, 3, 5, 5, 7, 7},
		},
	} {
		marks, next := markLines(newDocument(tt.text), markerOf, nil, nil)
		if !slices.Equal(marks, tt.wantMarks) || !slices.Equal(next, tt.wantNext) {
			t.Errorf("markLines(%q) = %v, %v; want %v, %v", tt.text, marks, next, tt.wantMarks, tt.wantNext)
		}
	}
}

// TestNewDocumentAfter checks that a document made after an earlier one
// of the same answer, taking the lines they share from it (and its
// arrays), is the document made anew, and knows the first line where the
// two differ: for texts that share a prefix ending anywhere, in a line or
// at its end, with CRLF line ends or not.
func TestNewDocumentAfter(t *testing.T) {
	texts := []string{"", "a", "a\n", "a\nb", "a\nb\n", "a\nbc\n\nd", "a\r\nb\r\n", "a\r\nb", "x\n", "a\nb\nc\n", "a\nb\nc", "a\nb\nc\nd\n"}
	for _, before := range texts {
		for _, after := range texts {
			old, want := newDocument(before), newDocument(after)
			changed := math.MaxInt // the first line where old's and want's lines differ
			for i := range max(len(old.lines), len(want.lines)) {
				if i >= min(len(old.lines), len(want.lines)) || old.lines[i] != want.lines[i] {
					changed = i
					break
				}
			}
			got := newDocumentAfter(newDocument(before), after)
			if got.text != want.text || !slices.Equal(got.lines, want.lines) || !slices.Equal(got.starts, want.starts) || len(got.prose) != len(got.lines) {
				t.Errorf("after %q, %q: lines %q at %v, want %q at %v", before, after, got.lines, got.starts, want.lines, want.starts)
			}
			if got.changed != changed {
				t.Errorf("after %q, %q: first change at line %d, want %d", before, after, got.changed, changed)
			}
		}
	}
}
