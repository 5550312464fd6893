package corpus_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/graft-editor/graft/internal/corpus"
)

// generator returns a generator over the Go source tree, or skips the test
// when there is none.
func generator(t *testing.T, seed uint64) *corpus.Generator {
	t.Helper()
	root, err := corpus.SourceRoot(t.Context())
	if err != nil {
		t.Skipf("no Go source tree: %v", err)
	}
	g, err := corpus.NewGenerator(root, seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestKinds(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range corpus.Kinds() {
		if seen[k.Name] {
			t.Errorf("kind %s listed twice", k.Name)
		}
		seen[k.Name] = true
		if k.Trap != strings.HasPrefix(k.Name, "trap-") {
			t.Errorf("kind %s: Trap is %v, but traps and only traps are named trap-*", k.Name, k.Trap)
		}
		if k.Doc == "" {
			t.Errorf("kind %s has no Doc", k.Name)
		}
	}
	if _, err := generator(t, 1).Cases("no-such-kind", 1); err == nil {
		t.Error("Cases of an unknown kind: no error")
	}
}

func TestDeterministic(t *testing.T) {
	a, b := generator(t, 7), generator(t, 7)
	for _, k := range corpus.Kinds() {
		first, err := a.Cases(k.Name, 3)
		if err != nil {
			t.Fatal(err)
		}
		again, err := b.Cases(k.Name, 5)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(first, again[:3]) {
			t.Errorf("%s: the same seed made different cases", k.Name)
		}
	}
	other, err := generator(t, 8).Cases("exact", 3)
	if err != nil {
		t.Fatal(err)
	}
	same, err := a.Cases("exact", 3)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(other, same) {
		t.Error("seeds 7 and 8 made the same cases")
	}
}

// TestCases checks what every case promises, whatever its kind.
func TestCases(t *testing.T) {
	const n = 12
	g := generator(t, 1)
	names := map[string]bool{}
	for _, k := range corpus.Kinds() {
		cases, err := g.Cases(k.Name, n)
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) != n {
			t.Fatalf("%s: %d cases, want %d", k.Name, len(cases), n)
		}
		for _, c := range cases {
			if names[c.Name] {
				t.Errorf("%s: name used twice", c.Name)
			}
			names[c.Name] = true
			if c.Kind != k.Name || c.Trap != k.Trap || c.Path == "" || c.Variant == "" || len(c.Edits) == 0 {
				t.Errorf("%s: incomplete case: kind %q, trap %v, path %q, variant %q, %d edits",
					c.Name, c.Kind, c.Trap, c.Path, c.Variant, len(c.Edits))
			}
			checkCase(t, c)
		}
	}
}

func checkCase(t *testing.T, c corpus.Case) {
	t.Helper()
	for i, e := range c.Edits {
		if e.Old == e.New {
			t.Errorf("%s: edit %d changes nothing", c.Name, i+1)
		}
		if !utf8.ValidString(e.Old) || !utf8.ValidString(e.New) {
			t.Errorf("%s: edit %d is not UTF-8", c.Name, i+1)
		}
	}
	switch {
	case c.Trap && c.Want != c.File:
		t.Errorf("%s: a trap expects the file to change", c.Name)
	case !c.Trap && c.Want == c.File:
		t.Errorf("%s: Want is the file itself", c.Name)
	}
	if len(c.Edits) > 1 && (len(c.Steps) != len(c.Edits) || c.Steps[len(c.Steps)-1] != c.Want) {
		t.Errorf("%s: %d edits but %d steps, or the last step is not Want", c.Name, len(c.Edits), len(c.Steps))
	}
	// File and Want are stored alike: the same byte order mark and line
	// endings.
	bom := "\ufeff"
	if strings.HasPrefix(c.File, bom) != strings.HasPrefix(c.Want, bom) {
		t.Errorf("%s: File and Want differ in their byte order mark", c.Name)
	}
	for _, text := range []string{c.File, c.Want} {
		crlf, lf := strings.Count(text, "\r\n"), strings.Count(text, "\n")
		if crlf != 0 && crlf != lf {
			t.Errorf("%s: mixed line endings (%d CRLF of %d)", c.Name, crlf, lf)
		}
	}
	if (strings.Count(c.File, "\r\n") == 0) != (strings.Count(c.Want, "\r\n") == 0) {
		t.Errorf("%s: File and Want differ in their line endings", c.Name)
	}
	if strings.HasSuffix(c.File, "\n") != strings.HasSuffix(c.Want, "\n") {
		t.Errorf("%s: File and Want differ in their final newline", c.Name)
	}
	// The change starts where the case says the region does (the edits of
	// a chain start elsewhere).
	if !c.Trap && c.Kind != "chained" {
		if first := firstDiffLine(c.File, c.Want); c.Line < 1 || first < c.Line {
			t.Errorf("%s: the region starts at line %d but the text changes at line %d", c.Name, c.Line, first)
		}
	}
	if c.Kind == "exact" {
		e := c.Edits[0]
		if n := strings.Count(c.File, e.Old); n != 1 {
			t.Errorf("%s: Old occurs %d times in File, want once", c.Name, n)
		}
		if got := strings.Replace(c.File, e.Old, e.New, 1); got != c.Want {
			t.Errorf("%s: replacing Old by New in File does not give Want", c.Name)
		}
	}
}

// firstDiffLine returns the 1-based line where a and b first differ.
func firstDiffLine(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return strings.Count(strings.TrimPrefix(a[:i], "\ufeff"), "\n") + 1
}

// TestMistakes checks, kind by kind, that the model's copy has the
// mistake the kind names.
func TestMistakes(t *testing.T) {
	g := generator(t, 3)
	tests := []struct {
		kind string
		ok   func(c corpus.Case) bool
		want string
	}{
		{"tabs-to-spaces", func(c corpus.Case) bool {
			return strings.Contains(c.Edits[0].Old, "    ") && !strings.Contains(indents(c.Edits[0].Old), "\t")
		}, "Old indented with spaces only"},
		{"escaped", func(c corpus.Case) bool {
			e := c.Edits[0]
			return !strings.Contains(e.Old, "\n") && !strings.Contains(e.New, "\n") && strings.Contains(e.Old+e.New, `\n`)
		}, `Old and New on one line with \n`},
		{"line-numbers", func(c corpus.Case) bool {
			first, _, _ := strings.Cut(c.Edits[0].Old, "\n")
			return strings.Contains(first, strconv.Itoa(c.Line))
		}, "Old's first line numbered with the region's line"},
		{"hint", func(c corpus.Case) bool { return c.Edits[0].Line > 0 }, "a line hint"},
		{"wrong-hint", func(c corpus.Case) bool {
			d := c.Edits[0].Line - c.Line
			return d <= -100 && d >= -300 || d >= 100 && d <= 300
		}, "a hint 100 to 300 lines off"},
		{"replace-all", func(c corpus.Case) bool {
			e := c.Edits[0]
			return e.ReplaceAll && strings.Count(c.File, e.Old) >= 2 && c.Want == strings.ReplaceAll(c.File, e.Old, e.New)
		}, "ReplaceAll of a text that occurs several times"},
		{"delete-lines", func(c corpus.Case) bool { return c.Edits[0].New == "" }, "an empty New"},
		{"chained", func(c corpus.Case) bool { return len(c.Edits) == 3 }, "three edits"},
		{"trap-duplicate", func(c corpus.Case) bool {
			old := strings.TrimSpace(c.Edits[0].Old)
			return c.Edits[0].Line == 0 && (strings.Count(c.File, old) == 2 || strings.Count(c.File, old) == 0)
		}, "no hint, and Old twice in the file or not at all (damaged)"},
		{"trap-other-file", func(c corpus.Case) bool {
			return !strings.Contains(c.File, strings.TrimSpace(c.Edits[0].Old))
		}, "Old not in the file"},
	}
	for _, tt := range tests {
		cases, err := g.Cases(tt.kind, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if !tt.ok(c) {
				t.Errorf("%s: want %s; old: %q", c.Name, tt.want, c.Edits[0].Old)
			}
		}
	}
}

// indents returns the indentation of every line of s.
func indents(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		b.WriteString(line[:len(line)-len(strings.TrimLeft(line, " \t"))])
	}
	return b.String()
}
