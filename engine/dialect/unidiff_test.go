package dialect

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
	"github.com/graft-editor/graft/engine"
)

func TestParseHunkHeader(t *testing.T) {
	for _, tt := range []struct {
		line string
		ok   bool
		want hunkHeader
	}{
		{"@@ -12,7 +12,8 @@ func main() {", true, hunkHeader{numbered: true, oldStart: 12, oldLines: 7, newStart: 12, newLines: 8, standalone: true}},
		{"@@ -3 +3 @@", true, hunkHeader{numbered: true, oldStart: 3, oldLines: 1, newStart: 3, newLines: 1, standalone: true}},
		{"@@ -0,0 +1,5 @@", true, hunkHeader{numbered: true, newStart: 1, newLines: 5, standalone: true}},
		{"@@  -1,2  +1,3  @@", true, hunkHeader{numbered: true, oldStart: 1, oldLines: 2, newStart: 1, newLines: 3, standalone: true}},
		{"@@ -1,2 +1,3", true, hunkHeader{numbered: true, oldStart: 1, oldLines: 2, newStart: 1, newLines: 3, standalone: true}},
		{"@@ ... @@", true, hunkHeader{standalone: true}},
		{"@@", true, hunkHeader{standalone: true}},
		{"@@ @@ section", true, hunkHeader{standalone: true}},
		{"@@ func main", true, hunkHeader{}},
		{"@@ ...", true, hunkHeader{}},
		{"@@ -a,b +c,d @@", true, hunkHeader{}},
		{"@@ --1,2 +1,2 @@", true, hunkHeader{}},
		{"@@ -1,+2 +1,2 @@", true, hunkHeader{}},
		{"@@ -1,2 +1,2 +1,2 @@", true, hunkHeader{}},
		{"@@count = 0", false, hunkHeader{}},
		{"@@@ -1,2 -1,2 +1,3 @@@", false, hunkHeader{}},
		{" @@ -1 +1 @@", false, hunkHeader{}},
		{"Use @@ here", false, hunkHeader{}},
	} {
		got, ok := parseHunkHeader(tt.line)
		if ok != tt.ok || got != tt.want {
			t.Errorf("parseHunkHeader(%q) = %+v, %v; want %+v, %v", tt.line, got, ok, tt.want, tt.ok)
		}
	}
}

func TestStripPrefixes(t *testing.T) {
	for _, tt := range []struct{ oldName, newName, wantOld, wantNew string }{
		{"a/x.go", "b/x.go", "x.go", "x.go"},
		{"/dev/null", "b/x.go", "/dev/null", "x.go"},
		{"a/x.go", "/dev/null", "x.go", "/dev/null"},
		{"x.go", "x.go", "x.go", "x.go"},
		{"a/x.go", "a/x.go", "a/x.go", "a/x.go"},
		{"/dev/null", "x.go", "/dev/null", "x.go"},
		{"./x.go", "./x.go", "x.go", "x.go"},
		{"a/./x.go", "b/./x.go", "x.go", "x.go"},
	} {
		gotOld, gotNew := stripPrefixes(tt.oldName, tt.newName)
		if gotOld != tt.wantOld || gotNew != tt.wantNew {
			t.Errorf("stripPrefixes(%q, %q) = %q, %q; want %q, %q", tt.oldName, tt.newName, gotOld, gotNew, tt.wantOld, tt.wantNew)
		}
	}
}

func TestDetectUnifiedDiff(t *testing.T) {
	for _, tt := range []struct {
		name, text, want string
	}{
		{"git diff", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", UnifiedDiff},
		{"plain diff", "--- x\n+++ x\n@@ -1 +1 @@\n-a\n+b\n", UnifiedDiff},
		{"git rename without hunks", "diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\n", UnifiedDiff},
		{"hunk alone", "@@ -1 +1 @@\n-a\n+b\n", UnifiedDiff},
		{"aider hunk alone", "```diff\n@@ ... @@\n a\n-b\n+c\n```\n", UnifiedDiff},
		{"hunk without a change", "@@ -1,2 +1,2 @@\n a\n b\n", ""},
		{"header pair without hunk", "--- x\n+++ x\nthe end\n", ""},
		{"markdown rule", "Title\n---\n\nText\n", ""},
		{"yaml separator", "---\na: 1\n---\nb: 2\n", ""},
		{"prose with @@", "Hunks start with @@ -1,2 +1,2 @@.\n", ""},
		{"git command in prose", "diff --git a/x b/x\n", ""},
		{"ruby class variable", "@@count = 0\n-1\n", ""},
		{"diff quoted in a search-replace block", "a.md\n<<<<<<< SEARCH\nx\n=======\n--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n>>>>>>> REPLACE\n", SearchReplace},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Detect(tt.text); got != tt.want {
				t.Errorf("Detect(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// TestUnifiedDiffRoundTrip checks that the diffs go-udiff writes parse into
// edits that turn the old text into the new one.
func TestUnifiedDiffRoundTrip(t *testing.T) {
	for _, tt := range []struct{ name, old, new string }{
		{"one change", "a\nb\nc\n", "a\nB\nc\n"},
		{"two hunks", numbered(1, 30), strings.Replace(strings.Replace(numbered(1, 30), "line 3\n", "line three\n", 1), "line 27\n", "", 1)},
		{"append", "a\nb\n", "a\nb\nc\nd\n"},
		{"prepend", "a\nb\n", "z\na\nb\n"},
		{"create", "", "new\nfile\n"},
		{"empty", "a\nb\n", ""},
		{"add final newline", "a\nb", "a\nb\n"},
		{"drop final newline", "a\nb\n", "a\nb"},
		{"last line without newline", "a\nb", "a\nc"},
		{"blank lines", "a\n\n\nb\n\nc\n", "a\n\nb\n\n\nc\n"},
		{"diff-like content", "--- x\n+++ y\n@@ z\n", "--- x\n+++ y\n@@ w\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			roundTrip(t, tt.old, tt.new)
		})
	}
}

func FuzzUnifiedDiffRoundTrip(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("a\nb", "a\nb\n")
	f.Add("", "x\n")
	f.Add("x\n\ny\n", "x\ny\n\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		switch {
		case strings.Contains(old+new, "\r"):
			t.Skip("the answer's CRLF is read as LF")
		case ambiguousHeader(old) || ambiguousHeader(new):
			t.Skip(`removed "-- " and added "++ " lines read as a file header`)
		case strings.Contains(old+new, "...") || strings.Contains(old+new, "\u2026"):
			t.Skip("the resolver reads a line of dots as lines the model left out")
		}
		roundTrip(t, old, new)
	})
}

// ambiguousHeader reports whether a removed and an added line of text could
// read as "---"/"+++" header lines.
func ambiguousHeader(text string) bool {
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, "-- ") || strings.HasPrefix(line, "++ ") {
			return true
		}
	}
	return false
}

// roundTrip checks that the diff from old to new, parsed and applied to
// old, gives new, or else refuses; it must apply when the lines of old are
// all different, so that no hunk is ambiguous, unless a hunk's old side is
// only white space, which the resolver refuses to look for.
func roundTrip(t *testing.T, old, new string) {
	t.Helper()
	text := udiff.Unified("a/f.txt", "b/f.txt", old, new)
	if text == "" {
		return
	}
	blocks, err := Parse(text, Options{Format: UnifiedDiff})
	if err != nil {
		t.Fatalf("Parse:\n%s\n%v", text, err)
	}
	edits := make([]engine.Edit, len(blocks))
	for i, b := range blocks {
		if b.Err != nil || b.Path != "f.txt" {
			t.Fatalf("block %d of\n%s\nis for %q with error %v", i+1, text, b.Path, b.Err)
		}
		edits[i] = b.Edit
	}
	got, outcomes := engine.ApplyEdits(old, edits, engine.Options{})
	for i, o := range outcomes {
		if o.Status != engine.StatusApplied {
			if distinctLines(old) && strings.TrimSpace(edits[i].Old) != "" {
				t.Fatalf("edit %d of\n%s\n%s: %v", i+1, text, o.Status, o.Err)
			}
			return
		}
	}
	if got != new && !(got == new+"\n" && onlyInserts(blocks)) {
		t.Fatalf("applying\n%s\ngives %q, want %q", text, got, new)
	}
}

// onlyInserts reports whether the blocks insert lines without replacing
// any. engine.Insert ends the inserted lines with a newline, so a diff
// that appends to a file and marks its new last line "\ No newline at end
// of file" leaves the final newline in place.
func onlyInserts(blocks []Block) bool {
	for _, b := range blocks {
		if b.Op != engine.OpInsert {
			return false
		}
	}
	return true
}

// distinctLines reports whether no line of text occurs twice.
func distinctLines(text string) bool {
	lines := slices.Collect(strings.Lines(text))
	slices.Sort(lines)
	return len(slices.Compact(lines)) == len(lines)
}

// numbered returns the lines "line from" to "line to".
func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		b.WriteString("line " + strconv.Itoa(i) + "\n")
	}
	return b.String()
}
