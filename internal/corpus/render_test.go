package corpus_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/internal/corpus"
)

// fences writes the code fences of a golden answer: three apostrophes
// stand for three backquotes, which a raw string cannot hold.
func fences(s string) string { return strings.ReplaceAll(s, "'''", "```") }

// edited is a small case: one edit of a Go file whose Old, as models often
// write it, lacks its final newline.
var edited = corpus.Case{
	Name: "exact/00",
	Path: "net/http/server.go",
	Line: 3,
	File: "package a\n\nfunc f() {\n\tx := 1\n\ty := 2\n}\n",
	Edits: []engine.Edit{{
		Path: "net/http/server.go",
		Old:  "func f() {\n\tx := 1\n\ty := 2",
		New:  "func f() {\n\tx := 1\n\ty := 3",
	}},
	Want: "package a\n\nfunc f() {\n\tx := 1\n\ty := 3\n}\n",
}

func TestRender(t *testing.T) {
	for _, tt := range []struct {
		style, want string
	}{
		{corpus.SearchReplace, fences(`Here is the edit for ` + "`src/file.go`" + `.

src/file.go
'''go
<<<<<<< SEARCH
func f() {
	x := 1
	y := 2
=======
func f() {
	x := 1
	y := 3
>>>>>>> REPLACE
'''
`)},
		{corpus.StrReplace, fences(`I'll edit ` + "`src/file.go`" + `.

'''json
{
  "file_path": "src/file.go",
  "old_string": "func f() {\n\tx := 1\n\ty := 2",
  "new_string": "func f() {\n\tx := 1\n\ty := 3",
  "replace_all": false
}
'''
`)},
		{corpus.EditV3, `Here is the edit for ` + "`src/file.go`" + `.

src/file.go
««« EDIT
func f() {
	x := 1
	y := 2
═══════ REPL
func f() {
	x := 1
	y := 3
»»» EDIT END
`},
		{corpus.UnifiedDiff, fences(`Here is the diff for ` + "`src/file.go`" + `.

'''diff
--- a/src/file.go
+++ b/src/file.go
@@ -3,3 +3,3 @@
 func f() {
 	x := 1
-	y := 2
+	y := 3
'''
`)},
		{corpus.BareUnifiedDiff, fences(`Here is the diff for ` + "`src/file.go`" + `.

'''diff
--- src/file.go
+++ src/file.go
@@ ... @@
 func f() {
 	x := 1
-	y := 2
+	y := 3
'''
`)},
		{corpus.ApplyPatch, `Here is the patch for ` + "`src/file.go`" + `.

*** Begin Patch
*** Update File: src/file.go
@@
 func f() {
 	x := 1
-	y := 2
+	y := 3
*** End Patch
`},
	} {
		t.Run(tt.style, func(t *testing.T) {
			got, ok := corpus.Render(edited, tt.style)
			if !ok || got != tt.want {
				t.Errorf("Render(%s) = %v and\n%s\nwant\n%s", tt.style, ok, got, tt.want)
			}
		})
	}
}

// TestRenderDiffOfTheCopy checks that a diff is made from the model's Old
// and New, mistakes and all: a typo the edit fixes in passing is a removed
// and an added line, and a shifted copy stays shifted.
func TestRenderDiffOfTheCopy(t *testing.T) {
	c := corpus.Case{
		Path: "a.go",
		Line: 2,
		File: "func g() {\n\tfmt.Println(x)\n\treturn\n}\n",
		Edits: []engine.Edit{{
			Old: "    fmt.Prinltn(x)\n    return\n",
			New: "    fmt.Println(x)\n    return nil\n",
		}},
	}
	body := "-    fmt.Prinltn(x)\n-    return\n+    fmt.Println(x)\n+    return nil\n"
	for _, style := range []string{corpus.UnifiedDiff, corpus.BareUnifiedDiff, corpus.ApplyPatch} {
		got, ok := corpus.Render(c, style)
		if !ok || !strings.Contains(got, "@@\n"+body) {
			t.Errorf("Render(%s) = %v and\n%s\nwant a hunk of\n%s", style, ok, got, body)
		}
	}
}

func TestTranscribe(t *testing.T) {
	twice := "x := 1\ny := 2\n\nx := 1\ny := 2\n"
	// The nearest line that opens a block around the region, "if ok {",
	// stands twice: the scope is the function around it.
	twoFuncs := "func a() {\n\tif ok {\n\t\tx := 1\n\t}\n}\n\nfunc b() {\n\tif ok {\n\t\tx := 1\n\t}\n}\n"
	chained := corpus.Case{
		Line:  1,
		File:  "a\nb\nc\nd\n",
		Edits: []engine.Edit{{Old: "a\n", New: "A\n"}, {Old: "  c\n", New: "  C\n"}},
		Steps: []string{"A\nb\nc\nd\n", "A\nb\nC\nd\n"},
	}
	for _, tt := range []struct {
		name  string
		c     corpus.Case
		style string
		want  []engine.Edit // Path aside
		err   bool
	}{
		{
			name:  "str-replace keeps the text as it is",
			c:     corpus.Case{File: "a\r\nb", Edits: []engine.Edit{{Old: "a\r\nb", New: "a\r\nc", Line: 4}}},
			style: corpus.StrReplace,
			want:  []engine.Edit{{Old: "a\r\nb", New: "a\r\nc", Line: 4}},
		},
		{
			name:  "lines end in LF, the last one too",
			c:     corpus.Case{File: "a\r\nb", Edits: []engine.Edit{{Old: "a\r\nb", New: "a\r\nc"}}},
			style: corpus.SearchReplace,
			want:  []engine.Edit{{Old: "a\nb\n", New: "a\nc\n"}},
		},
		{
			name:  "replace-all only in str-replace",
			c:     corpus.Case{File: twice, Edits: []engine.Edit{{Old: "x", New: "z", ReplaceAll: true}}},
			style: corpus.StrReplace,
			want:  []engine.Edit{{Old: "x", New: "z", ReplaceAll: true}},
		},
		{
			name:  "no replace-all in search-replace",
			c:     corpus.Case{File: twice, Edits: []engine.Edit{{Old: "x", New: "z", ReplaceAll: true}}},
			style: corpus.SearchReplace,
			err:   true,
		},
		{
			name:  "search-replace keeps the hint",
			c:     corpus.Case{Line: 4, File: twice, Edits: []engine.Edit{{Old: "x := 1\n", New: "x := 3\n", Line: 4}}},
			style: corpus.SearchReplace,
			want:  []engine.Edit{{Old: "x := 1\n", New: "x := 3\n", Line: 4}},
		},
		{
			name:  "a hunk header gives the hint",
			c:     corpus.Case{Line: 4, File: twice, Edits: []engine.Edit{{Old: "x := 1\n", New: "x := 3\n", Line: 4}}},
			style: corpus.UnifiedDiff,
			want:  []engine.Edit{{Old: "x := 1\n", New: "x := 3\n", Line: 4}},
		},
		{
			name:  "edit-v3 cannot say which of two regions",
			c:     corpus.Case{Line: 4, File: twice, Edits: []engine.Edit{{Old: "x := 1\n", New: "x := 3\n", Line: 4}}},
			style: corpus.EditV3,
			err:   true,
		},
		{
			name:  "a bare hunk cannot say which of two regions",
			c:     corpus.Case{Line: 4, File: twice, Edits: []engine.Edit{{Old: "x := 1\n", New: "x := 3\n", Line: 4}}},
			style: corpus.BareUnifiedDiff,
			err:   true,
		},
		{
			name:  "apply-patch drops a hint the region does not need",
			c:     corpus.Case{Line: 2, File: twice, Edits: []engine.Edit{{Old: "  y := 2\n", New: "  y := 3\n", Line: 7}}},
			style: corpus.ApplyPatch,
			want:  []engine.Edit{{Old: "  y := 2\n", New: "  y := 3\n"}},
		},
		{
			name:  "apply-patch names the function around the right region",
			c:     corpus.Case{Line: 7, File: twoFuncs, Edits: []engine.Edit{{Old: "\t\tx := 1\n", New: "\t\tx := 2\n", Line: 9}}},
			style: corpus.ApplyPatch,
			want:  []engine.Edit{{Old: "\t\tx := 1\n", New: "\t\tx := 2\n", Scope: []string{"func b() {"}}},
		},
		{
			name:  "apply-patch cannot name a block that holds the region twice",
			c:     corpus.Case{Line: 4, File: twice, Edits: []engine.Edit{{Old: "x := 1\n", New: "x := 3\n", Line: 4}}},
			style: corpus.ApplyPatch,
			err:   true,
		},
		{
			name:  "a hunk header gives the region's line",
			c:     corpus.Case{Line: 2, File: twice, Edits: []engine.Edit{{Old: "y := 2\n", New: "y := 3\n"}}},
			style: corpus.UnifiedDiff,
			want:  []engine.Edit{{Old: "y := 2\n", New: "y := 3\n", Line: 2}},
		},
		{
			name:  "a hunk header adds no hint to a trap",
			c:     corpus.Case{Line: 2, Trap: true, File: twice, Edits: []engine.Edit{{Old: "y := 2\n", New: "y := 3\n"}}},
			style: corpus.UnifiedDiff,
			want:  []engine.Edit{{Old: "y := 2\n", New: "y := 3\n"}},
		},
		{
			name:  "a later hunk's line is found in the text it applies to",
			c:     chained,
			style: corpus.UnifiedDiff,
			want:  []engine.Edit{{Old: "a\n", New: "A\n", Line: 1}, {Old: "  c\n", New: "  C\n", Line: 3}},
		},
		{
			name:  "a SEARCH marker in the text",
			c:     corpus.Case{File: "<<<<<<< HEAD\nx\n", Edits: []engine.Edit{{Old: "<<<<<<< HEAD\nx\n", New: "x\n"}}},
			style: corpus.SearchReplace,
			err:   true,
		},
		{
			name:  "a divider is only content in a diff",
			c:     corpus.Case{File: "=======\nx\n", Edits: []engine.Edit{{Old: "=======\nx\n", New: "=======\ny\n"}}},
			style: corpus.UnifiedDiff,
			want:  []engine.Edit{{Old: "=======\nx\n", New: "=======\ny\n", Line: 1}},
		},
		{
			name:  "an edit-v3 marker in the text",
			c:     corpus.Case{File: "  »»» EDIT END\nx\n", Edits: []engine.Edit{{Old: "  »»» EDIT END\nx\n", New: "y\n"}}},
			style: corpus.EditV3,
			err:   true,
		},
		{
			name:  "a patch marker in the text, however spaced",
			c:     corpus.Case{File: "x\n  ***  end  patch\n", Edits: []engine.Edit{{Old: "x\n  ***  end  patch\n", New: "y\n"}}},
			style: corpus.ApplyPatch,
			err:   true,
		},
		{
			name:  "only a final newline added",
			c:     corpus.Case{File: "x", Edits: []engine.Edit{{Old: "x", New: "x\n"}}},
			style: corpus.EditV3,
			err:   true,
		},
		{
			name:  "no such style",
			c:     edited,
			style: "unified-diff:numbered",
			err:   true,
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := corpus.Transcribe(tt.c, tt.style)
			if tt.err {
				if err == nil {
					t.Errorf("Transcribe(%s) = %+v, want an error", tt.style, got)
				}
				if _, ok := corpus.Render(tt.c, tt.style); ok {
					t.Errorf("Render(%s) reports true for a case it cannot write", tt.style)
				}
				return
			}
			if err != nil {
				t.Fatalf("Transcribe(%s): %v", tt.style, err)
			}
			for i := range got {
				if got[i].Path != corpus.AnswerPath(tt.c) {
					t.Errorf("edit %d: path %q, want %q", i+1, got[i].Path, corpus.AnswerPath(tt.c))
				}
				got[i].Path = ""
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Transcribe(%s) =\n%+v\nwant\n%+v", tt.style, got, tt.want)
			}
		})
	}
}

func TestAnswerPath(t *testing.T) {
	for path, want := range map[string]string{
		"net/http/server.go":     "src/file.go",
		"runtime/asm_amd64.s":    "src/file.s",
		"../misc/wasm/exec.js":   "src/file.js",
		"cmd/dist/build.bash":    "src/file.bash",
		"crypto/x509/testdata.h": "src/file.h",
	} {
		if got := corpus.AnswerPath(corpus.Case{Path: path}); got != want {
			t.Errorf("AnswerPath(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestDialectOf(t *testing.T) {
	want := map[string]string{
		corpus.SearchReplace:   "search-replace",
		corpus.StrReplace:      "str-replace",
		corpus.EditV3:          "edit-v3",
		corpus.UnifiedDiff:     "unified-diff",
		corpus.BareUnifiedDiff: "unified-diff",
		corpus.ApplyPatch:      "apply-patch",
	}
	styles := corpus.Styles()
	if len(styles) != len(want) {
		t.Errorf("Styles() = %q, want the %d styles of %v", styles, len(want), want)
	}
	for _, s := range styles {
		if got := corpus.DialectOf(s); got != want[s] {
			t.Errorf("DialectOf(%q) = %q, want %q", s, got, want[s])
		}
	}
}

// TestTranscribeReasons checks that a style that cannot write a case says
// why in words that name no case, so that reasons can be counted.
func TestTranscribeReasons(t *testing.T) {
	all := corpus.Case{File: "x x\n", Edits: []engine.Edit{{Old: "x", New: "y", ReplaceAll: true}}}
	_, err1 := corpus.Transcribe(all, corpus.EditV3)
	_, err2 := corpus.Transcribe(all, corpus.ApplyPatch)
	if err1 == nil || !errors.Is(err1, err2) {
		t.Errorf("replace-all in edit-v3 and apply-patch: %v and %v, want the same error", err1, err2)
	}
}

// TestRenderScope checks that a scope line follows the "@@" of its chunk.
func TestRenderScope(t *testing.T) {
	c := corpus.Case{
		Path:  "a.go",
		Line:  6,
		File:  "func a() {\n\tx := 1\n\ty := 2\n}\n\nfunc b() {\n\tx := 1\n\ty := 2\n}\n",
		Edits: []engine.Edit{{Old: "\tx := 1\n\ty := 2\n", New: "\tx := 1\n\ty := 3\n", Line: 7}},
	}
	want := "*** Update File: src/file.go\n@@ func b() {\n \tx := 1\n-\ty := 2\n+\ty := 3\n*** End Patch\n"
	if got, ok := corpus.Render(c, corpus.ApplyPatch); !ok || !strings.HasSuffix(got, want) {
		t.Errorf("Render(apply-patch) = %v and\n%s\nwant it to end with\n%s", ok, got, want)
	}
}
