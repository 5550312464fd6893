package mcpserver_test

import (
	"cmp"
	"context"
	"encoding/json"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// goFile is a small Go file the edit tests work on.
const goFile = `package demo

func greet(name string) string {
	if name == "" {
		return "hello, world"
	}
	return "hello, " + name
}

func count(xs []int) int {
	n := 0
	for range xs {
		n++
	}
	return n
}
`

func TestListTools(t *testing.T) {
	s := startIn(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := s.session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		required    []string
		optional    []string
		readOnly    bool
		destructive bool
		idempotent  bool
	}
	wants := map[string]want{
		"edit":          {required: []string{"new_string", "old_string", "path"}, optional: []string{"replace_all", "start_line", "review"}, destructive: true},
		"apply_edits":   {required: []string{"text"}, optional: []string{"atomic", "review"}, destructive: true},
		"preview_edits": {required: []string{"text"}, readOnly: true, idempotent: true},
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		w, ok := wants[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %q", tool.Name)
			continue
		}
		var in struct {
			Type                 string                     `json:"type"`
			Required             []string                   `json:"required"`
			Properties           map[string]json.RawMessage `json:"properties"`
			AdditionalProperties *bool                      `json:"additionalProperties"`
		}
		remarshal(t, tool.InputSchema, &in)
		if in.Type != "object" {
			t.Errorf("%s: input schema type %q, want object", tool.Name, in.Type)
		}
		slices.Sort(in.Required)
		if !slices.Equal(in.Required, w.required) {
			t.Errorf("%s: required %q, want %q", tool.Name, in.Required, w.required)
		}
		for _, p := range append(append([]string{}, w.required...), w.optional...) {
			if _, ok := in.Properties[p]; !ok {
				t.Errorf("%s: no property %q in the input schema", tool.Name, p)
			}
		}
		if len(in.Properties) != len(w.required)+len(w.optional) {
			t.Errorf("%s: %d properties, want %d", tool.Name, len(in.Properties), len(w.required)+len(w.optional))
		}
		var out struct {
			Required []string `json:"required"`
		}
		remarshal(t, tool.OutputSchema, &out)
		for _, f := range []string{"blocks", "files", "applied", "failed", "skipped"} {
			if !slices.Contains(out.Required, f) {
				t.Errorf("%s: output schema does not require %q (requires %q)", tool.Name, f, out.Required)
			}
		}
		a := tool.Annotations
		if a == nil {
			t.Errorf("%s: no annotations", tool.Name)
			continue
		}
		destructive := a.DestructiveHint == nil || *a.DestructiveHint
		if a.ReadOnlyHint != w.readOnly || (!w.readOnly && destructive != w.destructive) || a.IdempotentHint != w.idempotent {
			t.Errorf("%s: readOnly %v destructive %v idempotent %v, want %v %v %v", tool.Name,
				a.ReadOnlyHint, destructive, a.IdempotentHint, w.readOnly, w.destructive, w.idempotent)
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: openWorldHint not false", tool.Name)
		}
		if tool.Description == "" {
			t.Errorf("%s: no description", tool.Name)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"apply_edits", "edit", "preview_edits"}) {
		t.Errorf("tools %q", names)
	}
}

func TestEdit(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		args     map[string]any
		wantErr  bool              // isError
		wantFile map[string]string // the files after; nil: as before
		wantText []string          // in the text for the model
		strategy string            // the block's strategy, when it applied
	}{{
		name:     "an exact match is replaced, and nothing else changes",
		files:    map[string]string{"demo.go": goFile},
		args:     map[string]any{"path": "demo.go", "old_string": "\t\treturn \"hello, world\"\n", "new_string": "\t\treturn \"hi\"\n"},
		wantFile: map[string]string{"demo.go": strings.Replace(goFile, `"hello, world"`, `"hi"`, 1)},
		wantText: []string{"Applied to demo.go line 5 (exact)."},
		strategy: "exact",
	}, {
		name:  "a search with other indentation applies, and says what was adjusted",
		files: map[string]string{"demo.go": goFile},
		args: map[string]any{"path": "demo.go",
			"old_string": "n := 0\nfor range xs {\n    n++\n}\n",
			"new_string": "n := len(xs)\n"},
		wantFile: map[string]string{"demo.go": strings.Replace(goFile, "\tn := 0\n\tfor range xs {\n\t\tn++\n\t}\n", "\tn := len(xs)\n", 1)},
		wantText: []string{"Applied to demo.go lines 11-14, adjusted:", "Read lines 11-14 again"},
	}, {
		name:  "a search too far from the file is refused with the candidate to quote",
		files: map[string]string{"demo.go": goFile},
		args: map[string]any{"path": "demo.go",
			"old_string": "func count(items []string) int {\n\ttotal := 0\n\tfor range items {\n\t\ttotal++\n\t}\n\treturn total\n}\n",
			"new_string": "func count(items []string) int { return len(items) }\n"},
		wantErr:  true,
		wantText: []string{"Refused (demo.go, ", "Best candidate: lines 10-16", "Lines 10-16 of demo.go read now:\nfunc count(xs []int) int {\n\tn := 0\n", "To retry: quote these lines exactly as old_string"},
	}, {
		name:     "an ambiguous search is refused with the places and start_line",
		files:    map[string]string{"a.txt": "x = 1\ny = 2\nx = 1\n"},
		args:     map[string]any{"path": "a.txt", "old_string": "x = 1\n", "new_string": "x = 3\n"},
		wantErr:  true,
		wantText: []string{"ambiguous", "It matches 2 places: line 1", "line 3", "start_line: 1", "replace_all: true"},
	}, {
		name:     "start_line chooses between equal places",
		files:    map[string]string{"a.txt": "x = 1\ny = 2\nx = 1\n"},
		args:     map[string]any{"path": "a.txt", "old_string": "x = 1\n", "new_string": "x = 3\n", "start_line": 3},
		wantFile: map[string]string{"a.txt": "x = 1\ny = 2\nx = 3\n"},
		wantText: []string{"Applied to a.txt line 3"},
	}, {
		name:     "replace_all changes every occurrence",
		files:    map[string]string{"a.txt": "x = 1\ny = 2\nx = 1\n"},
		args:     map[string]any{"path": "a.txt", "old_string": "x = 1", "new_string": "x = 3", "replace_all": true},
		wantFile: map[string]string{"a.txt": "x = 3\ny = 2\nx = 3\n"},
		wantText: []string{"Applied to a.txt"},
	}, {
		name:     "an empty old_string creates a file",
		files:    map[string]string{},
		args:     map[string]any{"path": "pkg/new.txt", "old_string": "", "new_string": "new\n"},
		wantFile: map[string]string{"pkg/new.txt": "new\n"},
		wantText: []string{"Applied to pkg/new.txt"},
		strategy: "create",
	}, {
		name:     "an empty old_string does not overwrite a file",
		files:    map[string]string{"a.txt": "keep\n"},
		args:     map[string]any{"path": "a.txt", "old_string": "", "new_string": "new\n"},
		wantErr:  true,
		wantText: []string{"already exists"},
	}, {
		name:     "a missing file is refused, and says how to create one",
		files:    map[string]string{"a.txt": "keep\n"},
		args:     map[string]any{"path": "b.txt", "old_string": "x", "new_string": "y"},
		wantErr:  true,
		wantText: []string{"No such file. To create it, pass an empty old_string"},
		wantFile: map[string]string{"b.txt": "<missing>"},
	}, {
		name:     "a path outside the root is refused",
		files:    map[string]string{"a.txt": "keep\n"},
		args:     map[string]any{"path": "../outside.txt", "old_string": "", "new_string": "escaped\n"},
		wantErr:  true,
		wantText: []string{"outside the workspace root", "Paths must stay inside the workspace root"},
	}, {
		name:     "an absolute path outside the root is refused",
		files:    map[string]string{"a.txt": "keep\n"},
		args:     map[string]any{"path": "/etc/hostname", "old_string": "a", "new_string": "b"},
		wantErr:  true,
		wantText: []string{"outside the workspace root"},
	}, {
		name:     "a binary file is refused",
		files:    map[string]string{"bin.dat": "ab\x00cd\n"},
		args:     map[string]any{"path": "bin.dat", "old_string": "ab", "new_string": "xy"},
		wantErr:  true,
		wantText: []string{"binary file", "UTF-8 text files only"},
	}, {
		name:     "a file that is not UTF-8 is refused",
		files:    map[string]string{"latin1.txt": "caf\xe9\n"},
		args:     map[string]any{"path": "latin1.txt", "old_string": "caf", "new_string": "tea"},
		wantErr:  true,
		wantText: []string{"not valid UTF-8"},
	}, {
		name:     "an edit that changes nothing is refused",
		files:    map[string]string{"a.txt": "keep\n"},
		args:     map[string]any{"path": "a.txt", "old_string": "keep", "new_string": "keep"},
		wantErr:  true,
		wantText: []string{"no change"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir := writeFiles(t, filepath.Join(parent, "root"), tt.files)
			s := startIn(t, dir)
			res := s.call("edit", tt.args)
			got := text(res)
			t.Logf("text for the model:\n%s", got)
			if res.IsError != tt.wantErr {
				t.Errorf("isError %v, want %v; text:\n%s", res.IsError, tt.wantErr, got)
			}
			for _, w := range tt.wantText {
				if !strings.Contains(got, w) {
					t.Errorf("text does not say %q:\n%s", w, got)
				}
			}
			want := tt.wantFile
			if want == nil || tt.wantErr {
				want = map[string]string{}
				for name, content := range tt.files {
					want[name] = content
				}
				for name, content := range tt.wantFile {
					want[name] = content
				}
			}
			for name, content := range want {
				if got := readFile(t, dir, name); got != content {
					t.Errorf("%s after the edit:\n%q\nwant:\n%q", name, got, content)
				}
			}
			if readFile(t, parent, "outside.txt") != "<missing>" {
				t.Errorf("a file was written outside the root")
			}
			if res.StructuredContent == nil {
				return // a refusal before any block: the arguments
			}
			r := report(t, res)
			if len(r.Blocks) != 1 {
				t.Fatalf("%d blocks in the report, want 1", len(r.Blocks))
			}
			b := r.Blocks[0]
			if wantStatus := map[bool]string{false: "applied", true: "failed"}[tt.wantErr]; b.Status != wantStatus {
				t.Errorf("status %q, want %q", b.Status, wantStatus)
			}
			if b.Dialect != "str-replace" {
				t.Errorf("dialect %q, want str-replace", b.Dialect)
			}
			switch {
			case tt.strategy != "" && b.Strategy != tt.strategy:
				t.Errorf("strategy %q, want %q", b.Strategy, tt.strategy)
			case tt.strategy == "" && !tt.wantErr && b.Strategy == "":
				t.Errorf("no strategy for an applied block")
			}
		})
	}
}

func TestPreviewChangesNothing(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{"demo.go": goFile})
	s := startIn(t, dir)
	answer := "demo.go\n```go\n<<<<<<< SEARCH\n\t\treturn \"hello, world\"\n=======\n\t\treturn \"hi\"\n>>>>>>> REPLACE\n```\n"
	res := s.call("preview_edits", map[string]any{"text": answer})
	if res.IsError {
		t.Fatalf("preview refused:\n%s", text(res))
	}
	for _, w := range []string{"Would apply to demo.go line 5", "--- a/demo.go\n+++ b/demo.go\n", "-\t\treturn \"hello, world\"\n+\t\treturn \"hi\"\n"} {
		if !strings.Contains(text(res), w) {
			t.Errorf("preview does not say %q:\n%s", w, text(res))
		}
	}
	r := report(t, res)
	if r.Applied != 1 || len(r.Files) != 1 || !r.Files[0].Changed || !strings.Contains(r.Files[0].Diff, "+\t\treturn \"hi\"") {
		t.Errorf("report %+v", r)
	}
	if got := readFile(t, dir, "demo.go"); got != goFile {
		t.Errorf("preview changed the file:\n%s", got)
	}
}

func TestApplyEdits(t *testing.T) {
	good := "a.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n"
	bad := "b.txt\n<<<<<<< SEARCH\nnothing like it\n=======\nTWO\n>>>>>>> REPLACE\n"
	tests := []struct {
		name    string
		text    string
		atomic  bool
		wantErr bool
		a, b    string
		applied int
		skipped int
	}{
		{name: "two files", text: good + "\n" + strings.Replace(bad, "nothing like it", "two", 1), a: "ONE\n", b: "TWO\n", applied: 2},
		{name: "a failed block leaves the others applied", text: good + "\n" + bad, wantErr: true, a: "ONE\n", b: "two\n", applied: 1},
		{name: "atomic: a failed block withholds every other", text: good + "\n" + bad, atomic: true, wantErr: true, a: "one\n", b: "two\n", skipped: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "one\n", "b.txt": "two\n"})
			s := startIn(t, dir)
			res := s.call("apply_edits", map[string]any{"text": tt.text, "atomic": tt.atomic})
			if res.IsError != tt.wantErr {
				t.Errorf("isError %v, want %v:\n%s", res.IsError, tt.wantErr, text(res))
			}
			if got := readFile(t, dir, "a.txt"); got != tt.a {
				t.Errorf("a.txt = %q, want %q", got, tt.a)
			}
			if got := readFile(t, dir, "b.txt"); got != tt.b {
				t.Errorf("b.txt = %q, want %q", got, tt.b)
			}
			r := report(t, res)
			if r.Applied != tt.applied || r.Skipped != tt.skipped {
				t.Errorf("applied %d skipped %d, want %d %d:\n%s", r.Applied, r.Skipped, tt.applied, tt.skipped, text(res))
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "one\n"})
	s := startIn(t, dir)
	tests := []struct {
		name     string
		tool     string
		args     any
		protocol bool   // a protocol error rather than a tool error
		wantText string // in the error
	}{
		{name: "unknown tool", tool: "delete_everything", args: map[string]any{}, protocol: true, wantText: "unknown tool"},
		{name: "wrong type", tool: "edit", args: map[string]any{"path": "a.txt", "old_string": 1, "new_string": "x"}, wantText: "old_string"},
		{name: "missing field", tool: "edit", args: map[string]any{"path": "a.txt", "old_string": "one"}, wantText: "new_string"},
		{name: "unknown field", tool: "edit", args: map[string]any{"path": "a.txt", "old_string": "one", "new_string": "x", "force": true}, wantText: "force"},
		{name: "negative start_line", tool: "edit", args: map[string]any{"path": "a.txt", "old_string": "one", "new_string": "x", "start_line": -2}, wantText: "start_line"},
		{name: "fractional start_line", tool: "edit", args: map[string]any{"path": "a.txt", "old_string": "one", "new_string": "x", "start_line": 1.5}, wantText: "start_line"},
		{name: "arguments not UTF-8", tool: "edit", args: json.RawMessage("{\"path\":\"a.txt\",\"old_string\":\"one\",\"new_string\":\"t\xffo\"}"), wantText: "not valid UTF-8 (byte 0xff on line 1 is not UTF-8)"},
		{name: "half a surrogate pair", tool: "edit", args: json.RawMessage(`{"path":"a.txt","old_string":"one","new_string":"b\udce9ta"}`), wantText: `not valid UTF-8 (\udce9 on line 1 is half of a UTF-16 surrogate pair`},
		{name: "empty path", tool: "edit", args: map[string]any{"path": "", "old_string": "one", "new_string": "x"}, wantText: "path is empty"},
		{name: "control character in the path", tool: "edit", args: map[string]any{"path": "a.txt\n", "old_string": "one", "new_string": "x"}, wantText: "control character"},
		{name: "arguments not an object", tool: "apply_edits", args: []string{"a"}, wantText: "arguments"},
		{name: "atomic not a boolean", tool: "apply_edits", args: map[string]any{"text": "x", "atomic": "yes"}, wantText: "atomic"},
		{name: "no blocks in the text", tool: "apply_edits", args: map[string]any{"text": "just prose"}, wantText: "no edit blocks"},
		{name: "empty text", tool: "preview_edits", args: map[string]any{"text": " \n"}, wantText: "text is empty"},
		{name: "a block outside the root", tool: "apply_edits", args: map[string]any{"text": "../a.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n"}, wantText: "outside the workspace root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := s.callErr(tt.tool, tt.args)
			switch {
			case tt.protocol && err == nil:
				t.Errorf("no protocol error; result:\n%s", text(res))
			case tt.protocol && !strings.Contains(err.Error(), tt.wantText):
				t.Errorf("error %q does not say %q", err, tt.wantText)
			case !tt.protocol && err != nil:
				t.Errorf("protocol error %v, want a tool error", err)
			case !tt.protocol && !res.IsError:
				t.Errorf("not a tool error:\n%s", text(res))
			case !tt.protocol && !strings.Contains(text(res), tt.wantText):
				t.Errorf("tool error does not say %q:\n%s", tt.wantText, text(res))
			}
			if got := readFile(t, dir, "a.txt"); got != "one\n" {
				t.Errorf("a.txt changed: %q", got)
			}
		})
	}
	// The session survives every bad call.
	if res := s.call("edit", map[string]any{"path": "a.txt", "old_string": "one", "new_string": "two"}); res.IsError {
		t.Errorf("edit after the bad calls: %s", text(res))
	}
}

func TestRoots(t *testing.T) {
	tests := []struct {
		name    string
		roots   bool // the client names the root
		noRoots bool // the client has no roots capability
		inCwd   bool // the edit lands in the working directory
	}{
		{name: "the client's first root", roots: true},
		{name: "the working directory when the client names no root", inCwd: true},
		{name: "the working directory when the client has no roots", noRoots: true, inCwd: true},
	}
	// The roots are asked for in the call's result from 2026-07-28 on, by
	// a request of the server's own before.
	for _, tt := range tests {
		for _, version := range []string{"", "2025-06-18"} {
			t.Run(tt.name+"/protocol "+cmp.Or(version, "latest"), func(t *testing.T) {
				rootDir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "one\n"})
				cwd := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "one\n"})
				opt := startOptions{dir: cwd, protocol: version}
				if tt.roots {
					u := url.URL{Scheme: "file", Path: filepath.ToSlash(rootDir)}
					opt.roots = []*mcp.Root{{URI: u.String(), Name: "project"}, {URI: "https://example.com/"}}
				}
				if tt.noRoots {
					opt.client = &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}}
				}
				s := start(t, opt)
				res := s.call("edit", map[string]any{"path": "a.txt", "old_string": "one", "new_string": "two"})
				if res.IsError {
					t.Fatalf("edit refused:\n%s", text(res))
				}
				wantRoot, wantCwd := "two\n", "one\n"
				if tt.inCwd {
					wantRoot, wantCwd = "one\n", "two\n"
				}
				if got := readFile(t, rootDir, "a.txt"); got != wantRoot {
					t.Errorf("the root's a.txt = %q, want %q", got, wantRoot)
				}
				if got := readFile(t, cwd, "a.txt"); got != wantCwd {
					t.Errorf("the working directory's a.txt = %q, want %q", got, wantCwd)
				}
			})
		}
	}
}

// TestRootsFollowTheClient checks that the root is asked for at each
// call: when the client's roots change, the next edit lands in the new
// one.
func TestRootsFollowTheClient(t *testing.T) {
	first := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "one\n"})
	second := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "one\n"})
	uri := func(dir string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir)}).String() }
	s := start(t, startOptions{roots: []*mcp.Root{{URI: uri(first)}}})
	edit := map[string]any{"path": "a.txt", "old_string": "one", "new_string": "two"}
	if res := s.call("edit", edit); res.IsError {
		t.Fatalf("first edit: %s", text(res))
	}
	s.client.RemoveRoots(uri(first))
	s.client.AddRoots(&mcp.Root{URI: uri(second)})
	if res := s.call("edit", edit); res.IsError {
		t.Fatalf("second edit: %s", text(res))
	}
	if a, b := readFile(t, first, "a.txt"), readFile(t, second, "a.txt"); a != "two\n" || b != "two\n" {
		t.Errorf("the first root's a.txt = %q, the second's %q; want both edited once", a, b)
	}
}

// remarshal decodes v, as JSON, into out.
func remarshal(tb testing.TB, v, out any) {
	tb.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		tb.Fatalf("%s: %v", data, err)
	}
}
