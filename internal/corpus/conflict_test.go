package corpus

import (
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
)

func TestClash(t *testing.T) {
	tests := []struct {
		read, a, b string
		want       bool
	}{
		{"n := 10", "n := 20", "n := 30", true},
		{"n := 64", "n := 65", "n := 128", true},
		{"buf := x", "newBuf := x", "tmpBuf := x", true},
		{"$0-16", "$0-8", "$0-18", true},                               // both end in 8, but the model drops the 1
		{"mktypes=x", "record=x", "result=x", true},                    // letters in common, not the name
		{"buf := x", "buf := x", "tmpBuf := x", false},                 // one side unchanged
		{"n := 10", "n := 11", "n := 20", false},                       // different digits
		{"buf := x", "bufLen := x", "bufOut := x", false},              // insertions: no character replaced
		{"buf := x", "newBuf := x", "bufLen := x", false},              // the two ends of the name
		{`f("open")`, `f("open failed")`, `f("open: %v")`, false},      // insertions at one place
		{`f("open file")`, `f("open stale")`, `f("open empty")`, true}, // the same word
		{"x := a + b", "x := c + b", "x := a + c", false},              // apart
	}
	for _, tt := range tests {
		if got := clash(tt.read, tt.a, tt.b); got != tt.want {
			t.Errorf("clash(%q, %q, %q) = %v, want %v", tt.read, tt.a, tt.b, got, tt.want)
		}
	}
}

func TestMergeApart(t *testing.T) {
	tests := []struct {
		read, a, b string
		want       string // "" when the changes are not apart
	}{
		{"n := f(10)", "count := f(10)", "n := f(30)", "count := f(30)"},
		{"n := f(10)", "n := f(30)", "count := f(10)", "count := f(30)"},
		{"a+1", "b+1", "a+2", "b+2"},
		{`log("x", n)`, `log("x failed", n)`, `log("x", nVal)`, `log("x failed", nVal)`},
		{"ab", "xb", "ax", ""},                // neighbours
		{"n := 10", "n := 20", "n := 30", ""}, // the same characters
	}
	for _, tt := range tests {
		got, ok := mergeApart(tt.read, tt.a, tt.b)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("mergeApart(%q, %q, %q) = %q, %v, want %q", tt.read, tt.a, tt.b, got, ok, tt.want)
		}
	}
}

// changedLine is the one line of a case whose model's copy differs from the
// file: the line as the model read it, as its edit changes it, as the file
// holds it and as Want does.
type changedLine struct {
	read, model, file, want string
}

// theChangedLine finds the line of a case of trap-conflict or stale-merge
// that changed in the file since the model read it, checking that it is
// the only line the model's copy gets wrong and the only one its edit
// changes.
func theChangedLine(t *testing.T, c Case) (changedLine, bool) {
	t.Helper()
	lines := func(s string) []string {
		s = strings.ReplaceAll(strings.TrimPrefix(s, "\ufeff"), "\r\n", "\n")
		return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	}
	e := c.Edits[0]
	file, want, old, new := lines(c.File), lines(c.Want), lines(e.Old), lines(e.New)
	if len(old) != len(new) || c.Line < 1 || c.Line-1+len(old) > len(file) || len(want) != len(file) {
		t.Errorf("%s: %d lines of Old, %d of New, at line %d of %d; want one line changed in place", c.Name, len(old), len(new), c.Line, len(file))
		return changedLine{}, false
	}
	region := file[c.Line-1 : c.Line-1+len(old)]
	x := -1
	for i := range old {
		if old[i] == region[i] && old[i] == new[i] {
			continue
		}
		if x >= 0 || old[i] == region[i] || old[i] == new[i] {
			t.Errorf("%s: line %d: the copy %q, the file %q, the edit %q; want one line, stale and edited", c.Name, c.Line+i, old[i], region[i], new[i])
			return changedLine{}, false
		}
		x = i
	}
	if x < 0 {
		t.Errorf("%s: no stale line", c.Name)
		return changedLine{}, false
	}
	for i := range file {
		if i != c.Line-1+x && want[i] != file[i] {
			t.Errorf("%s: Want changes line %d, not only the stale line %d", c.Name, i+1, c.Line+x)
			return changedLine{}, false
		}
	}
	return changedLine{read: old[x], model: new[x], file: region[x], want: want[c.Line-1+x]}, true
}

// TestStaleChanges checks that the edits of trap-conflict and stale-merge
// change a line that changed in the file, and, with go-udiff's character
// diffs as a witness, that the two changes replace a character in common
// in a trap and merge into Want otherwise.
func TestStaleChanges(t *testing.T) {
	root, err := SourceRoot(t.Context())
	if err != nil {
		t.Skipf("no Go source tree: %v", err)
	}
	g, err := NewGenerator(root, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"trap-conflict", "stale-merge"} {
		cases, err := g.Cases(kind, 200)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			l, ok := theChangedLine(t, c)
			if !ok {
				continue
			}
			fileEdits, modelEdits := udiff.Strings(l.read, l.file), udiff.Strings(l.read, l.model)
			if c.Trap {
				if l.file == l.model || !overlap(fileEdits, modelEdits) {
					t.Errorf("%s: the copy %q, the file %q, the edit %q: the changes touch different characters", c.Name, l.read, l.file, l.model)
				}
				continue
			}
			merged, ok := udiff.Merge(fileEdits, modelEdits)
			if !ok {
				t.Errorf("%s: the copy %q, the file %q, the edit %q: the changes do not merge", c.Name, l.read, l.file, l.model)
				continue
			}
			if got, err := udiff.Apply(l.read, merged); err != nil || got != l.want {
				t.Errorf("%s: the copy %q, the file %q, the edit %q: merged %q (%v), Want has %q", c.Name, l.read, l.file, l.model, got, err, l.want)
			}
			if l.want == l.file || l.want == l.model {
				t.Errorf("%s: Want's line %q lacks a change: the file has %q, the edit %q", c.Name, l.want, l.file, l.model)
			}
		}
	}
}

// overlap reports whether two lists of edits of one text both delete or
// replace a byte of it.
func overlap(x, y []udiff.Edit) bool {
	for _, a := range x {
		for _, b := range y {
			if max(a.Start, b.Start) < min(a.End, b.End) {
				return true
			}
		}
	}
	return false
}
