package workspace

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
)

func TestFileChangeDiff(t *testing.T) {
	tests := []struct {
		name string
		f    FileChange
		want string
	}{
		{
			name: "modify",
			f:    FileChange{Path: "a.go", Changed: true, Existed: true, Exists: true, Before: "one\ntwo\n", After: "one\n2\n"},
			want: "--- a/a.go\n+++ b/a.go\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n",
		},
		{
			name: "create",
			f:    FileChange{Path: "n.go", Changed: true, Exists: true, After: "new\n"},
			want: "--- /dev/null\n+++ b/n.go\n@@ -0,0 +1 @@\n+new\n",
		},
		{
			name: "delete",
			f:    FileChange{Path: "d.go", Changed: true, Existed: true, Before: "old\n"},
			want: "--- a/d.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-old\n",
		},
		{
			name: "move keeping the content",
			f:    FileChange{Path: "a.go", NewPath: "b/a.go", Changed: true, Existed: true, Exists: true, Before: "x\n", After: "x\n"},
			want: "--- a/a.go\n+++ b/b/a.go\n",
		},
		{
			name: "unchanged",
			f:    FileChange{Path: "a.go", Existed: true, Exists: true, Before: "x\n", After: "x\n"},
			want: "",
		},
	}
	for _, tt := range tests {
		if got := tt.f.Diff(); got != tt.want {
			t.Errorf("%s: Diff() =\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
	}
}

// checkUnified checks that diff, a unified diff of before and after,
// holds: each hunk's old lines (context and deletions) are before's from
// its first old line on, its new lines (context and insertions) after's
// from its first new line on, and the lines between the hunks are the
// same in both.
func checkUnified(before, after, diff string) error {
	if diff == "" {
		if before != after {
			return errors.New("empty diff of different texts")
		}
		return nil
	}
	old, new := diffLines(before), diffLines(after)
	lines := strings.SplitAfter(diff, "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return fmt.Errorf("no header: %q", diff)
	}
	lines = lines[2 : len(lines)-1]
	var oi, ni int // lines of old and new accounted for
	for len(lines) > 0 {
		var fromLine, fromCount, toLine, toCount int
		if err := parseHunkHeader(lines[0], &fromLine, &fromCount, &toLine, &toCount); err != nil {
			return err
		}
		lines = lines[1:]
		from, to := fromLine-1, toLine-1
		if fromCount == 0 {
			from++ // "-N,0" names the line before the insertion
		}
		if toCount == 0 {
			to++
		}
		if from < oi || to < ni || from-oi != to-ni {
			return fmt.Errorf("hunk at -%d +%d: after -%d +%d, the lines between do not pair", fromLine, toLine, oi, ni)
		}
		for k := 0; k < from-oi; k++ {
			if old[oi+k] != new[ni+k] {
				return fmt.Errorf("line %d before a hunk differs", oi+k+1)
			}
		}
		oi, ni = from, to
		for fromCount+toCount > 0 {
			if len(lines) == 0 {
				return fmt.Errorf("hunk at -%d +%d ends early", fromLine, toLine)
			}
			l := lines[0]
			lines = lines[1:]
			text := l[1:]
			if len(lines) > 0 && lines[0] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				lines = lines[1:]
			}
			switch l[0] {
			case ' ':
				if oi >= len(old) || ni >= len(new) || old[oi] != text || new[ni] != text {
					return fmt.Errorf("context line %q is not line %d before and %d after", text, oi+1, ni+1)
				}
				oi, ni, fromCount, toCount = oi+1, ni+1, fromCount-1, toCount-1
			case '-':
				if oi >= len(old) || old[oi] != text {
					return fmt.Errorf("deleted line %q is not line %d before", text, oi+1)
				}
				oi, fromCount = oi+1, fromCount-1
			case '+':
				if ni >= len(new) || new[ni] != text {
					return fmt.Errorf("inserted line %q is not line %d after", text, ni+1)
				}
				ni, toCount = ni+1, toCount-1
			default:
				return fmt.Errorf("bad line %q", l)
			}
		}
	}
	if !slices.Equal(old[oi:], new[ni:]) {
		return fmt.Errorf("the lines after the last hunk differ: -%d +%d", oi+1, ni+1)
	}
	return nil
}

// parseHunkHeader reads "@@ -f[,n] +t[,m] @@"; a count left out is 1.
func parseHunkHeader(h string, from, fromCount, to, toCount *int) error {
	var a, b string
	if _, err := fmt.Sscanf(h, "@@ -%s +%s @@\n", &a, &b); err != nil {
		return fmt.Errorf("hunk header %q: %v", h, err)
	}
	for _, x := range []struct {
		s          string
		line, part *int
	}{{a, from, fromCount}, {b, to, toCount}} {
		*x.part = 1
		line, count, ok := strings.Cut(x.s, ",")
		var err error
		if *x.line, err = strconv.Atoi(line); err != nil {
			return fmt.Errorf("hunk header %q: %v", h, err)
		}
		if ok {
			if *x.part, err = strconv.Atoi(count); err != nil {
				return fmt.Errorf("hunk header %q: %v", h, err)
			}
		}
	}
	return nil
}

func TestUnified(t *testing.T) {
	numbered := func(n int, changed ...int) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "%d", i)
			if slices.Contains(changed, i) {
				b.WriteString("x")
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	tests := []struct {
		name          string
		before, after string
		want          string
	}{
		{
			// Two changes joined in one hunk, then a third: the third's
			// hunk starts at line 13 of both (udiff.Unified says +11).
			name:   "hunks after a joined one",
			before: numbered(20),
			after:  numbered(20, 3, 6, 16),
			want: "--- a\n+++ b\n@@ -1,9 +1,9 @@\n 1\n 2\n-3\n+3x\n 4\n 5\n-6\n+6x\n 7\n 8\n 9\n" +
				"@@ -13,7 +13,7 @@\n 13\n 14\n 15\n-16\n+16x\n 17\n 18\n 19\n",
		},
		{
			name:   "a line added in the middle",
			before: numbered(10),
			after:  strings.Replace(numbered(10), "5\n", "5\nnew\n", 1),
			want:   "--- a\n+++ b\n@@ -3,6 +3,7 @@\n 3\n 4\n 5\n+new\n 6\n 7\n 8\n",
		},
		{
			name:   "no newline at the end, added",
			before: "a\nb",
			after:  "a\nb\n",
			want:   "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
		},
		{
			name:   "a common end that starts within a line of after",
			before: "x\nfoo\n",
			after:  "xfoo\n",
			want:   "--- a\n+++ b\n@@ -1,2 +1 @@\n-x\n-foo\n+xfoo\n",
		},
		{
			name:   "from nothing",
			before: "",
			after:  "a\n",
			want:   "--- a\n+++ b\n@@ -0,0 +1 @@\n+a\n",
		},
		{
			name:   "to nothing",
			before: "a\nb\n",
			after:  "",
			want:   "--- a\n+++ b\n@@ -1,2 +0,0 @@\n-a\n-b\n",
		},
		{name: "the same", before: "a\n", after: "a\n", want: ""},
	}
	for _, tt := range tests {
		got := unified("a", "b", tt.before, tt.after)
		if got != tt.want {
			t.Errorf("%s: unified =\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
		if err := checkUnified(tt.before, tt.after, got); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestUnifiedRandom checks the diffs of random changes to random texts,
// and that they change no more lines than udiff.Unified's. They may place
// a change elsewhere among lines that repeat: the common ends are taken
// first, as GNU diff and Git do.
func TestUnifiedRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a\n", "b\n", "c\n", "d\n", "\n", "a", "x y\n"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[r.IntN(len(words))])
		}
		return b.String()
	}
	changed := func(diff string) (n int) {
		for _, l := range strings.Split(diff, "\n") {
			if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++ ") && !strings.HasPrefix(l, "--- ") {
				n++
			}
		}
		return n
	}
	same := 0
	for i := range 3000 {
		before := text(r.IntN(40))
		after := before
		for range r.IntN(5) {
			at, n := r.IntN(len(after)+1), r.IntN(8)
			end := min(at+n, len(after))
			after = after[:at] + text(r.IntN(4)) + after[end:]
		}
		got := unified("a", "b", before, after)
		if err := checkUnified(before, after, got); err != nil {
			t.Fatalf("case %d: %v\nbefore %q\nafter %q\ndiff:\n%s", i, err, before, after, got)
		}
		theirs := udiff.Unified("a", "b", before, after)
		if changed(got) > changed(theirs) {
			t.Errorf("case %d: before %q after %q: %d lines changed, udiff.Unified %d:\n%s\nudiff.Unified:\n%s",
				i, before, after, changed(got), changed(theirs), got, theirs)
		}
		if got == theirs {
			same++
		}
	}
	t.Logf("%d of 3000 diffs the same as udiff.Unified's", same)
}

// TestUnifiedManyChanges diffs a text changed at every tenth line.
func TestUnifiedManyChanges(t *testing.T) {
	before, after := everyTenth(100_000)
	if err := checkUnified(before, after, unified("a", "b", before, after)); err != nil {
		t.Fatal(err)
	}
}

// everyTenth returns a text of n numbered lines, and the same with every
// tenth line changed.
func everyTenth(n int) (before, after string) {
	var b, a strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %d\n", i)
		if i%10 == 0 {
			fmt.Fprintf(&a, "LINE %d\n", i)
		} else {
			fmt.Fprintf(&a, "line %d\n", i)
		}
	}
	return b.String(), a.String()
}

// BenchmarkUnifiedManyChanges diffs texts of a growing number of lines,
// every tenth one changed, with unified and with udiff.Unified.
func BenchmarkUnifiedManyChanges(b *testing.B) {
	for _, n := range []int{10_000, 40_000} {
		before, after := everyTenth(n)
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				unified("a", "b", before, after)
			}
		})
		b.Run(fmt.Sprintf("lines=%d/udiff", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				udiff.Unified("a", "b", before, after)
			}
		})
	}
}
