package dialect

import (
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
// of the same answer, taking the lines they share from it, is the
// document made anew: for texts that share a prefix ending anywhere, in a
// line or at its end, with CRLF line ends or not.
func TestNewDocumentAfter(t *testing.T) {
	texts := []string{"", "a", "a\n", "a\nb", "a\nb\n", "a\nbc\n\nd", "a\r\nb\r\n", "a\r\nb", "x\n", "a\nb\nc\n"}
	for _, before := range texts {
		for _, after := range texts {
			prev := newDocument(before)
			got, want := newDocumentAfter(prev, after), newDocument(after)
			if got.text != want.text || !slices.Equal(got.lines, want.lines) || !slices.Equal(got.starts, want.starts) {
				t.Errorf("after %q, %q: lines %q at %v, want %q at %v", before, after, got.lines, got.starts, want.lines, want.starts)
			}
			// The earlier document is left as it was.
			if again := newDocument(before); !slices.Equal(prev.lines, again.lines) || !slices.Equal(prev.starts, again.starts) {
				t.Errorf("making the document of %q changed that of %q", after, before)
			}
		}
	}
}
