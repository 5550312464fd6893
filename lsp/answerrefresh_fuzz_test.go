package lsp

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// refreshLines are the lines FuzzAnswerRefresh writes into an answer, or
// over one of its lines: the parts of blocks of several dialects, the
// names of the files, and what their search and replace texts quote.
var refreshLines = []string{
	"a.go", "b.go", "c.go", "```go", "```", "", "Then this.",
	"<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE",
	"func one() int { return 1 }", "func one() int { return 11 }", "\tx := 1", "\tx := 2",
	"func three() int { return 3 }", "this line is in no file",
	"--- a/a.go", "+++ b/a.go", "@@ -3,1 +3,1 @@", "-func one() int { return 1 }", "+func one() int { return 7 }",
	"*** Begin Patch", "*** Update File: b.go", "@@", "-func three() int { return 3 }", "+func three() int { return 9 }", "*** End Patch",
}

// refreshAnswer is the answer FuzzAnswerRefresh starts from: blocks of
// two files, one chained on another, one that fails, a diff.
const refreshAnswer = "Here is the change.\n\n" +
	"a.go\n```go\n<<<<<<< SEARCH\nfunc one() int { return 1 }\n=======\nfunc one() int { return 11 }\n>>>>>>> REPLACE\n```\n\n" +
	"b.go\n```go\n<<<<<<< SEARCH\nfunc three() int { return 3 }\n=======\nfunc three() int { return 33 }\n>>>>>>> REPLACE\n```\n\n" +
	"a.go\n```go\n<<<<<<< SEARCH\nfunc one() int { return 11 }\n=======\nfunc one() int { return 111 }\n>>>>>>> REPLACE\n```\n\n" +
	"b.go\n```go\n<<<<<<< SEARCH\nthis line is in no file\n=======\ny\n>>>>>>> REPLACE\n```\n\n" +
	"```diff\n--- a/a.go\n+++ b/a.go\n@@ -5,1 +5,1 @@\n-\tx := 1\n+\tx := 3\n```\n\n" +
	"a.go\n```go\n<<<<<<< SEARCH\n\tx := 1\n=======\n\tx := 2\n>>>>>>> REPLACE\n```\n"

// FuzzAnswerRefresh edits an answer anywhere, line by line, and the files
// its blocks name: after each change, the diagnostics a refresh finds from
// what it kept of the last (the plan of the blocks that did not change,
// the results of the blocks before the first that did) are those of the
// same text opened anew. Each op is three bytes: what to do (insert a
// line, delete one, write one over another, change a file the blocks
// name: an open one, or one on the disk), where, and which line of
// refreshLines.
func FuzzAnswerRefresh(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 20, 7, 0, 21, 10, 0, 22, 8, 0, 23, 11, 0, 24, 9})    // a block written in the middle
	f.Add([]byte{1, 3, 0, 1, 3, 0, 2, 12, 13, 3, 0, 0, 2, 40, 12})       // a block dropped, a line changed, a file changed
	f.Add([]byte{2, 5, 2, 3, 1, 0, 1, 30, 0, 0, 0, 7, 2, 14, 14})        // a block's file renamed, b.go changed
	f.Add([]byte{0, 60, 21, 0, 61, 22, 0, 62, 23, 0, 63, 25, 0, 64, 26}) // an apply-patch at the end
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 3*40 {
			return
		}
		dir := t.TempDir()
		files := map[string]string{
			"a.go": "package a\n\nfunc one() int { return 1 }\n\nfunc f() {\n\tx := 1\n\t_ = x\n}\n",
			"b.go": "package a\n\nfunc three() int { return 3 }\n",
			"c.go": "package a\n\nfunc one() int { return 1 }\n",
		}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		p := newInProcess(t, dir)
		in := func(name string) string { return filepath.Join(dir, name) }
		diagnostics := func(name string) string {
			diags, st, _ := p.refresh(in(name))
			out, err := json.MarshalIndent(diags, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			return fmt.Sprintf("%s\n%+v", out, st.blocks)
		}
		p.open(in("a.go"), "go", files["a.go"])
		p.open(in("b.go"), "go", files["b.go"])
		p.open(in("answer.md"), "markdown", refreshAnswer)
		lines := strings.SplitAfter(refreshAnswer, "\n")
		lines = lines[:len(lines)-1]
		if first := diagnostics("answer.md"); strings.Count(first, `"severity"`) != 6 {
			t.Fatalf("the answer's diagnostics, not one a block:\n%s", first)
		}
		for n := 0; n+3 <= len(ops); n += 3 {
			at := int(ops[n+1]) % (len(lines) + 1)
			line := refreshLines[int(ops[n+2])%len(refreshLines)] + "\n"
			var what string
			switch ops[n] % 4 {
			case 0:
				p.change(in("answer.md"), at, at, line)
				lines = slices.Insert(lines, at, line)
				what = fmt.Sprintf("%q written at line %d", line, at+1)
			case 1:
				if at == len(lines) {
					continue
				}
				p.change(in("answer.md"), at, at+1, "")
				what = fmt.Sprintf("line %d, %q, deleted", at+1, lines[at])
				lines = slices.Delete(lines, at, at+1)
			case 2:
				if at == len(lines) {
					continue
				}
				p.change(in("answer.md"), at, at+1, line)
				what = fmt.Sprintf("line %d, %q, replaced with %q", at+1, lines[at], line)
				lines[at] = line
			case 3:
				name := []string{"a.go", "b.go", "c.go"}[at%3]
				if name == "c.go" {
					// On the disk, one line longer: a file written
					// again to the same size within one tick of its
					// clock is taken as it was.
					files[name] += "// changed\n"
					if err := os.WriteFile(filepath.Join(dir, name), []byte(files[name]), 0o644); err != nil {
						t.Fatal(err)
					}
				} else {
					p.change(in(name), 1, 1, "// changed\n")
				}
				what = name + " changed"
			}
			text := strings.Join(lines, "")
			fresh := fmt.Sprintf("fresh%d.md", n)
			p.open(in(fresh), "markdown", text)
			want := diagnostics(fresh)
			p.close(in(fresh))
			if got := diagnostics("answer.md"); got != want {
				t.Fatalf("after %s, the answer:\n%s\nrefreshed:\n%s\nopened anew:\n%s", what, text, got, want)
			}
		}
	})
}
