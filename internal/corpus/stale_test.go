package corpus_test

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/internal/corpus"
)

// sumBefore is the file of the hand-made case; sumLoop its lines 7-8,
// which the first edit changes.
const sumBefore = `package p

import "fmt"

func sum(xs []int) int {
	total := 0
	for _, x := range xs {
		total += x
	}
	fmt.Println("sum", total)
	return total
}

func name() string {
	return "sum"
}

func count(xs []int) int {
	return len(xs)
}
`

// sumCase is an apply case whose edit quotes lines 6-9 of sumBefore and
// replaces them by new: sumRename renames the loop variable on lines 7-8,
// sumInsert inserts a line between lines 7 and 8.
func sumCase(new string) corpus.Case {
	return corpus.Case{
		Name:  "hand/00",
		Kind:  "hand",
		Path:  "p/sum.go",
		Line:  6,
		File:  sumBefore,
		Edits: []engine.Edit{{Path: "p/sum.go", Old: sumRegion, New: new}},
		Want:  strings.Replace(sumBefore, sumRegion, new, 1),
	}
}

// sumRegion is lines 6-9 of sumBefore, and sumRename and sumInsert two
// edits of them.
const (
	sumRegion = "\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n"
	sumRename = "\ttotal := 0\n\tfor _, v := range xs {\n\t\ttotal += v\n\t}\n"
	sumInsert = "\ttotal := 0\n\tfor _, x := range xs {\n\t\tlog.Print(x)\n\t\ttotal += x\n\t}\n"
)

// handGenerator returns a generator over a root holding one Go file: the
// stale blocks of a case depend on the seed alone.
func handGenerator(t *testing.T, seed uint64) *corpus.Generator {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte(sumBefore), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := corpus.NewGenerator(root, seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// checkStale fails t unless s is a well-made stale case: a search of whole
// lines of the text before, two or more, standing once there at s.Line
// and not in the text now, and a change that is neither the search nor
// in the text now.
func checkStale(t *testing.T, s corpus.StaleCase) {
	t.Helper()
	before, now := plainText(s.Before), plainText(s.Now)
	old, new := s.Stale.Old, s.Stale.New
	switch {
	case !slices.Contains(corpus.StaleShapes(), s.Shape) || !slices.Contains(corpus.StaleChanges(), s.Change):
		t.Errorf("%s: shape %q, change %q", s.Name, s.Shape, s.Change)
	case !strings.HasSuffix(old, "\n") || strings.Count(old, "\n") < 2:
		t.Errorf("%s: the search is not two whole lines or more: %q", s.Name, old)
	case strings.Count(before, old) != 1:
		t.Errorf("%s: the search stands %d times in the text before", s.Name, strings.Count(before, old))
	case !strings.HasPrefix(before[lineStart(before, s.Line):], old):
		t.Errorf("%s: the search does not start at line %d", s.Name, s.Line)
	case strings.Contains(now, old):
		t.Errorf("%s: the search is in the text now: not stale", s.Name)
	case old == new || strings.Contains(now, new):
		t.Errorf("%s: the change is none, or stands in the text now", s.Name)
	case s.Before != s.Case.File || s.Now != s.Case.Want || !reflect.DeepEqual(s.First, s.Case.Edits[0]):
		t.Errorf("%s: the versions or the first edit are not the apply case's", s.Name)
	}
}

// plainText is text with LF line endings and no byte order mark.
func plainText(s string) string {
	return strings.ReplaceAll(strings.TrimPrefix(s, "\ufeff"), "\r\n", "\n")
}

// lineStart returns the offset of the 1-based line n of text.
func lineStart(text string, n int) int {
	at := 0
	for range n - 1 {
		at += strings.IndexByte(text[at:], '\n') + 1
	}
	return at
}

// TestStaleCasesShapes makes the stale blocks of hand-made cases over many
// seeds, and checks where each quotes (lines 6-9 are the first edit's
// region) and what each changes: after a rename of lines 7-8, and after
// a line inserted between lines 7 and 8, which changes none of the text
// before (a block is stale there when it quotes lines 7 and 8 together).
func TestStaleCasesShapes(t *testing.T) {
	lines := strings.Split(sumBefore, "\n")
	tests := []struct {
		name    string
		new     string
		changed func(l int) bool // the lines of sumBefore the edit changed
		// shape reports whether a block of the shape may quote lines
		// first-last.
		shape map[string]func(first, last int) bool
	}{
		{
			name:    "rename",
			new:     sumRename,
			changed: func(l int) bool { return l == 7 || l == 8 },
			shape: map[string]func(first, last int) bool{
				corpus.StaleSame:        func(f, l int) bool { return f == 6 && l == 9 },
				corpus.StaleInside:      func(f, l int) bool { return f >= 6 && l <= 9 },
				corpus.StaleOverlapping: func(f, l int) bool { return f < 6 && l >= 7 && l < 9 || f > 6 && f <= 8 && l > 9 },
				corpus.StaleBeside:      func(f, l int) bool { return f == 8 && l >= 10 || l == 7 && f <= 5 },
			},
		},
		{
			name:    "insertion",
			new:     sumInsert,
			changed: func(int) bool { return false },
			shape: map[string]func(first, last int) bool{
				corpus.StaleSame:        func(f, l int) bool { return f == 6 && l == 9 },
				corpus.StaleInside:      func(f, l int) bool { return f == 7 && l == 8 },
				corpus.StaleOverlapping: func(f, l int) bool { return f < 6 && l == 8 || f == 7 && l > 9 },
				corpus.StaleBeside:      func(f, l int) bool { return f == 7 && l >= 9 || l == 8 && f <= 6 },
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := sumCase(tc.new)
			seen := map[string]bool{}
			for seed := range uint64(20) {
				for _, s := range handGenerator(t, seed).StaleCases(c) {
					checkStale(t, s)
					seen[s.Shape+"/"+s.Change] = true
					first, last := s.Line, s.Line+strings.Count(s.Stale.Old, "\n")-1
					if !tc.shape[s.Shape](first, last) {
						t.Errorf("seed %d, %s quotes lines %d-%d", seed, s.Name, first, last)
					}
					// What the block changes: the lines the edit changed,
					// or a line next to them or at its insertion
					// (changed-lines); otherwise a line the edit kept,
					// every changed line standing in the replacement as
					// it was.
					var quoted []int
					for l := first; l <= last; l++ {
						if tc.changed(l) {
							quoted = append(quoted, l)
						}
					}
					kept := true
					for _, l := range quoted {
						kept = kept && strings.Contains(s.Stale.New, lines[l-1]+"\n")
					}
					rework := !kept || strings.Contains(s.Stale.New, "graft: ") && (len(quoted) > 0 || strings.Contains(s.Stale.New, lines[6]+"\n\t\t// graft: a second look\n"+lines[7]+"\n"))
					if s.Change == corpus.StaleRework && !rework || s.Change == corpus.StaleElsewhere && !kept {
						t.Errorf("seed %d, %s (%s) changes:\n%s", seed, s.Name, s.Variant, s.Stale.New)
					}
				}
			}
			for _, shape := range corpus.StaleShapes() {
				for _, change := range corpus.StaleChanges() {
					if !seen[shape+"/"+change] {
						t.Errorf("no seed made a block %s/%s", shape, change)
					}
				}
			}
		})
	}
}

// TestStaleCasesRefuse makes no stale block of a case that does not apply
// exactly, of a trap, or of one that changes nothing.
func TestStaleCasesRefuse(t *testing.T) {
	g := handGenerator(t, 1)
	tests := []struct {
		name string
		edit func(*corpus.Case)
	}{
		{"trap", func(c *corpus.Case) { c.Trap = true }},
		{"no change", func(c *corpus.Case) { c.Want = c.File }},
		{"not exact", func(c *corpus.Case) { c.Want += "// more\n" }},
		{"two edits", func(c *corpus.Case) { c.Edits = append(c.Edits, c.Edits[0]) }},
		{"replace all", func(c *corpus.Case) { c.Edits[0].ReplaceAll = true }},
	}
	for _, tc := range tests {
		c := sumCase(sumRename)
		tc.edit(&c)
		if got := g.StaleCases(c); len(got) != 0 {
			t.Errorf("%s: %d stale blocks, first %s", tc.name, len(got), got[0].Name)
		}
	}
}

// TestStaleCasesCorpus makes the stale blocks of the corpus's cases: each
// is well made, every shape and change is made, and the same seed makes
// the same blocks.
func TestStaleCasesCorpus(t *testing.T) {
	a, b := generator(t, 3), generator(t, 3)
	counts := map[string]int{}
	for _, kind := range []string{"exact", "indent-shift", "line-numbers", "elision", "delete-lines"} {
		cases, err := a.Cases(kind, 12)
		if err != nil {
			t.Fatal(err)
		}
		again, err := b.Cases(kind, 12)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			got := a.StaleCases(c)
			if !reflect.DeepEqual(got, b.StaleCases(again[i])) {
				t.Errorf("%s: the same seed made different stale blocks", c.Name)
			}
			for _, s := range got {
				checkStale(t, s)
				counts[s.Shape+"/"+s.Change]++
				if first := s.FirstCase(); first.File != s.Before || first.Want != s.Now || len(first.Edits) != 1 {
					t.Errorf("%s: FirstCase %+v", s.Name, first)
				}
				if blk := s.StaleBlockCase(); blk.File != s.Now || blk.Want != s.Now || !blk.Trap || !reflect.DeepEqual(blk.Edits[0], s.Stale) {
					t.Errorf("%s: StaleBlockCase %+v", s.Name, blk)
				}
			}
		}
	}
	for _, shape := range corpus.StaleShapes() {
		for _, change := range corpus.StaleChanges() {
			if counts[shape+"/"+change] < 10 {
				t.Errorf("%s/%s: %d stale blocks of 60 cases", shape, change, counts[shape+"/"+change])
			}
		}
	}
	t.Logf("stale blocks of 60 cases: %v", counts)
}

// TestStaleSample draws a sample of routable stale cases: as many as
// asked, each routable, spread over every shape and change.
func TestStaleSample(t *testing.T) {
	g := generator(t, 1)
	sample, err := g.StaleSample(24, 3, corpus.StaleCase.Routable)
	if err != nil {
		t.Fatal(err)
	}
	if len(sample) != 24 {
		t.Fatalf("%d cases, want 24", len(sample))
	}
	rows := map[string]int{}
	for _, s := range sample {
		rows[s.Shape+"/"+s.Change]++
		if !s.Routable() {
			t.Errorf("%s: not routable", s.Name)
		}
	}
	for _, shape := range corpus.StaleShapes() {
		for _, change := range corpus.StaleChanges() {
			if rows[shape+"/"+change] != 3 {
				t.Errorf("%s/%s: %d cases of 24, want 3", shape, change, rows[shape+"/"+change])
			}
		}
	}
}
