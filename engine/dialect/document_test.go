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
		marks, next := markLines(newDocument(tt.text), markerOf)
		if !slices.Equal(marks, tt.wantMarks) || !slices.Equal(next, tt.wantNext) {
			t.Errorf("markLines(%q) = %v, %v; want %v, %v", tt.text, marks, next, tt.wantMarks, tt.wantNext)
		}
	}
}
