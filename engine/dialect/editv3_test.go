package dialect

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/graft-editor/graft/engine"
)

func TestAnchor(t *testing.T) {
	for _, tc := range []struct {
		name, old, new           string
		anchor, oldRest, newRest string
	}{
		{"anchor then a changed line",
			"def f():\n    return 1\n", "def f():\n    return 2\n",
			"def f():\n", "    return 1\n", "    return 2\n"},
		{"no common first line",
			"a\nb\n", "c\nb\n",
			"", "a\nb\n", "c\nb\n"},
		{"equal sections are all anchor",
			"a\nb\n", "a\nb\n",
			"a\nb\n", "", ""},
		{"an insertion after the anchor",
			"a\n", "a\nb\n",
			"a\n", "", "b\n"},
		{"a deletion after the anchor",
			"a\nb\n", "a\n",
			"a\n", "b\n", ""},
		{"lines are compared whole, not as prefixes",
			"ab\n", "abc\n",
			"", "ab\n", "abc\n"},
		{"a line without its line end differs from one with it",
			"a\nb", "a\nb\nc\n",
			"a\n", "b", "b\nc\n"},
		{"equal last lines without line ends",
			"a\nb", "a\nb",
			"a\nb", "", ""},
		{"trailing space makes lines differ",
			"a \nb\n", "a\nc\n",
			"", "a \nb\n", "a\nc\n"},
		{"empty sections", "", "", "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			anchor, oldRest, newRest := Anchor(tc.old, tc.new)
			if anchor != tc.anchor || oldRest != tc.oldRest || newRest != tc.newRest {
				t.Errorf("Anchor(%q, %q) = %q, %q, %q; want %q, %q, %q",
					tc.old, tc.new, anchor, oldRest, newRest, tc.anchor, tc.oldRest, tc.newRest)
			}
		})
	}
}

func TestExplain(t *testing.T) {
	// file holds "func a() {" twice and "func b() {" once.
	const file = "package p\n\nfunc a() {\n\treturn\n}\n\nfunc b() {\n\treturn\n}\n\nfunc a() {\n}\n"
	block := func(old, new string) Block {
		return Block{Edit: engine.Edit{Path: "p.go", Old: old, New: new, Dialect: EditV3}}
	}
	notFound := &engine.Error{Reason: engine.ReasonNotFound, Summary: "not found: nothing in the file lines up with the search"}
	below := &engine.Error{Reason: engine.ReasonBelowThreshold, Summary: "no place is similar enough",
		Candidates: []engine.Candidate{{StartLine: 7, EndLine: 9, Score: 0.6}}}
	ambiguous := &engine.Error{Reason: engine.ReasonAmbiguous, Summary: "ambiguous: two places",
		Candidates: []engine.Candidate{{StartLine: 3, EndLine: 5, Score: 0.9}, {StartLine: 11, EndLine: 12, Score: 0.9}}}
	skipped := &engine.Error{Reason: engine.ReasonSkipped, Summary: "skipped: edit 1 to this file failed"}
	conflict := &engine.Error{Reason: engine.ReasonConflict, Summary: "conflict at line 4"}

	for _, tc := range []struct {
		name string
		b    Block
		file string
		err  error
		// want is the first line of the message; the engine's message
		// follows it unless head is false.
		want string
		head bool
	}{
		{"the anchor is nowhere",
			block("func c() {\n\treturn\n", "func c() {\n\treturn nil\n"), file, notFound,
			"Anchor not found in file", true},
		{"the anchor is in two places",
			block("func a() {\n\treturn 1\n", "func a() {\n\treturn 2\n"), file, notFound,
			"Edit location is ambiguous (matches at lines 3 and 11)", true},
		{"the anchor is in more than two places",
			block("\treturn\n}\nx\n", "\treturn\n}\ny\n"), file + "func c() {\n\treturn\n}\n", notFound,
			"Edit location is ambiguous (matches at lines 4 and 8, and 1 more)", true},
		{"the anchor is in one place and the old lines differ",
			block("func b() {\n\treturn 1\n", "func b() {\n\treturn 2\n"), file, below,
			"Old lines don't match content after anchor (anchor at line 7)", true},
		{"the anchor is found as whole lines whatever their trailing space",
			block("func b() {   \n\treturn 1\n", "func b() {   \n\treturn 2\n"),
			strings.ReplaceAll(file, "\n", "\r\n"), notFound,
			"Old lines don't match content after anchor (anchor at line 7)", true},
		{"an anchor of several lines is found only where they follow each other",
			block("func b() {\n\treturn\n}\nx\n", "func b() {\n\treturn\n}\ny\n"), file, notFound,
			"Old lines don't match content after anchor (anchor at line 7)", true},
		{"part of a line is not the anchor",
			block("func\n\treturn 1\n", "func\n\treturn 2\n"), file, notFound,
			"Anchor not found in file", true},
		{"a byte order mark does not hide the first line",
			block("package p\nx\n", "package p\ny\n"), "\ufeff" + file, notFound,
			"Old lines don't match content after anchor (anchor at line 1)", true},
		{"without an anchor the whole EDIT section is missing",
			block("func c() {\n", "func d() {\n"), file, notFound,
			"Content sequence not found in file", true},
		{"an anchor of blank lines is no anchor",
			block("\n\nx\n", "\n\ny\n"), file, notFound,
			"Content sequence not found in file", true},
		{"the engine found two equal places",
			block("func a() {\n", "func a() {\n\t// a\n"), file, ambiguous,
			"Edit location is ambiguous (matches at lines 3 and 11)", true},
		{"the engine found too many places to list",
			block("}\n", "}\n\n"), file, &engine.Error{Reason: engine.ReasonAmbiguous, Summary: "ambiguous: too many places"},
			"Edit location is ambiguous", true},
		{"an earlier edit failed",
			block("a\n", "b\n"), file, skipped,
			"Previous edit to this file failed", true},
		{"a wrapped engine error is explained",
			block("func c() {\n\treturn\n", "func c() {\n\treturn nil\n"), file, fmt.Errorf("p.go: %w", notFound),
			"Anchor not found in file", true},
		{"a conflict keeps the engine's words",
			block("a\n", "b\n"), file, conflict,
			conflict.Error(), false},
		{"an error that is not the engine's is kept",
			block("a\n", "b\n"), file, errors.New("line 3: no path"),
			"line 3: no path", false},
		{"another dialect keeps the engine's words",
			Block{Edit: engine.Edit{Old: "func c() {\n", New: "func c() {\n", Dialect: SearchReplace}}, file, notFound,
			notFound.Error(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Explain(tc.b, tc.file, tc.err)
			want := tc.want
			if tc.head {
				want += "\n" + tc.err.Error()
			}
			if got != want {
				t.Errorf("Explain = %q\nwant %q", got, want)
			}
		})
	}
	if got := Explain(block("a\n", "b\n"), file, nil); got != "" {
		t.Errorf("Explain of no error = %q, want \"\"", got)
	}
}

// naiveLineMatches is lineMatches written the obvious, quadratic way, to
// check it against.
func naiveLineMatches(text, want string) []int {
	trim := func(s string) []string {
		var lines []string
		for line := range strings.Lines(s) {
			lines = append(lines, strings.TrimRightFunc(line, unicode.IsSpace))
		}
		return lines
	}
	file, pat := trim(strings.TrimPrefix(text, "\ufeff")), trim(want)
	if len(pat) == 0 {
		return nil
	}
	var at []int
	for i := 0; i+len(pat) <= len(file); i++ {
		if slices.Equal(file[i:i+len(pat)], pat) {
			at = append(at, i+1)
		}
	}
	return at
}

func TestLineMatches(t *testing.T) {
	for _, tc := range []struct {
		text, want string
		at         []int
	}{
		{"a\nb\na\nb\n", "a\nb\n", []int{1, 3}},
		{"a\na\na\n", "a\na\n", []int{1, 2}}, // overlapping places count
		{"a\nb\nc\n", "b\nd\n", nil},
		{"a\nb\n", "", nil},
		{"x\na\na\nb\n", "a\nb\n", []int{3}}, // a partial match restarts
		{"a \t\r\nb", "a\nb\n", []int{1}},
	} {
		at, n := lineMatches(tc.text, tc.want, 10)
		if !slices.Equal(at, tc.at) || n != len(tc.at) {
			t.Errorf("lineMatches(%q, %q) = %v, %d; want %v, %d", tc.text, tc.want, at, n, tc.at, len(tc.at))
		}
	}
	at, n := lineMatches(strings.Repeat("a\n", 5), "a\n", 2)
	if !slices.Equal(at, []int{1, 2}) || n != 5 {
		t.Errorf("lineMatches limited to 2 = %v, %d; want [1 2], 5", at, n)
	}
}

// TestLineMatchesLinear checks that a file of one repeated line and an
// anchor of the same line repeated, with a different last line, do not
// take quadratic time: the naive search would compare 10^10 lines.
func TestLineMatchesLinear(t *testing.T) {
	text := strings.Repeat("x\n", 100_000)
	want := strings.Repeat("x\n", 100_000-1) + "y\n"
	if at, n := lineMatches(text, want, 2); n != 0 {
		t.Errorf("lineMatches found %d places at %v, want none", n, at)
	}
}

// FuzzLineMatches checks lineMatches against the naive search.
func FuzzLineMatches(f *testing.F) {
	f.Add("a\nb\na\nb\n", "a\nb\n")
	f.Add("a\na\nb\na\na\na\nb\n", "a\na\nb\n")
	f.Add("\ufeffa \r\n\n\nb", "a\n\n")
	f.Fuzz(func(t *testing.T, text, want string) {
		all := naiveLineMatches(text, want)
		at, n := lineMatches(text, want, 3)
		if n != len(all) || !slices.Equal(at, all[:min(3, len(all))]) {
			t.Errorf("lineMatches(%q, %q) = %v, %d; the naive search finds %v", text, want, at, n, all)
		}
	})
}

// FuzzAnchor checks that Anchor splits its arguments and that the anchor
// is their longest common prefix of whole lines.
func FuzzAnchor(f *testing.F) {
	f.Add("a\nb\n", "a\nc\n")
	f.Add("a\nb", "a\nbc")
	f.Add("", "x\n")
	f.Fuzz(func(t *testing.T, old, new string) {
		anchor, oldRest, newRest := Anchor(old, new)
		if anchor+oldRest != old || anchor+newRest != new {
			t.Fatalf("Anchor(%q, %q) = %q, %q, %q: not a split", old, new, anchor, oldRest, newRest)
		}
		if anchor != "" && !strings.HasSuffix(anchor, "\n") && (oldRest != "" || newRest != "") {
			t.Errorf("Anchor(%q, %q): anchor %q ends inside a line", old, new, anchor)
		}
		o, _, _ := strings.Cut(oldRest, "\n")
		n, _, _ := strings.Cut(newRest, "\n")
		if oldRest != "" && newRest != "" && o == n && strings.Contains(oldRest, "\n") == strings.Contains(newRest, "\n") {
			t.Errorf("Anchor(%q, %q): the rests %q and %q begin with the same line", old, new, oldRest, newRest)
		}
	})
}
