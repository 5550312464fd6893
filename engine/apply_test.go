package engine

import "testing"

// ApplyEdits reads an insertion's line as a line of the original text, as
// it reads a replacement's hint: earlier edits that add lines move it.
func TestApplyEditsShiftsInsertions(t *testing.T) {
	const file = "one\ntwo\nthree\nfour\n"
	text, outcomes := ApplyEdits(file, []Edit{
		{Op: OpInsert, Line: 1, New: "one-a\none-b\n"},
		{Op: OpInsert, Line: 3, New: "three-a\n"},
		{Old: "two\n", New: "TWO\n"},
		{Op: OpInsert, Line: 2, New: "after two\n"},
	}, Options{})
	for i, o := range outcomes {
		if o.Status != StatusApplied {
			t.Fatalf("edit %d: %v", i+1, o.Err)
		}
	}
	const want = "one\none-a\none-b\nTWO\nafter two\nthree\nthree-a\nfour\n"
	if text != want {
		t.Errorf("got %q, want %q", text, want)
	}
}

// Two insertions at one place keep the order of the edits: after a line,
// before the first line, and at the end.
func TestApplyEditsKeepsInsertionOrder(t *testing.T) {
	for _, tc := range []struct {
		line int
		want string
	}{
		{1, "one\nfirst\nsecond\ntwo\n"},
		{0, "first\nsecond\none\ntwo\n"},
		{AtEnd, "one\ntwo\nfirst\nsecond\n"},
	} {
		text, outcomes := ApplyEdits("one\ntwo\n", []Edit{
			{Op: OpInsert, Line: tc.line, New: "first\n"},
			{Op: OpInsert, Line: tc.line, New: "second\n"},
		}, Options{})
		for i, o := range outcomes {
			if o.Status != StatusApplied {
				t.Fatalf("line %d, edit %d: %v", tc.line, i+1, o.Err)
			}
		}
		if text != tc.want {
			t.Errorf("after line %d: got %q, want %q", tc.line, text, tc.want)
		}
	}
}
