package dialect

import (
	"slices"
	"testing"
)

func TestCleanPath(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"src/a.go", "src/a.go"},
		{"  src/a.go\t", "src/a.go"},
		{"`src/a.go`", "src/a.go"},
		{"**src/a.go**", "src/a.go"},
		{"**`src/a.go`**:", "src/a.go"},
		{`"src/a.go"`, "src/a.go"},
		{"'src/a.go'", "src/a.go"},
		{"# src/a.go", "src/a.go"},
		{"### `src/a.go`", "src/a.go"},
		{"File: src/a.go", "src/a.go"},
		{"filename: src/a.go", "src/a.go"},
		{"**File:** `src/a.go`", "src/a.go"},
		{"Path: ./src/a.go", "src/a.go"},
		{"src/a.go:", "src/a.go"},
		{"./src/a.go", "src/a.go"},
		{"././a.go", "a.go"},
		{"../a.go", "../a.go"},
		{"/abs/a.go", "/abs/a.go"},
		{"path with spaces.txt", "path with spaces.txt"},
		{"__init__.py", "__init__.py"},
	} {
		if got := cleanPath(tt.in); got != tt.want {
			t.Errorf("cleanPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPathFromLine(t *testing.T) {
	for _, tt := range []struct {
		line string
		want string // "" for no path
	}{
		{"src/a.go", "src/a.go"},
		{"**src/a.go**", "src/a.go"},
		{"`src/a.go`:", "src/a.go"},
		{"# File: src/a.go", "src/a.go"},
		{".gitignore", ".gitignore"},
		{"Makefile", "Makefile"},
		{"cmd/tool/run", "cmd/tool/run"},
		{"app/(auth)/[id]/page.tsx", "app/(auth)/[id]/page.tsx"},
		{"my notes.txt", "my notes.txt"},
		{`C:\work\a.go`, `C:\work\a.go`},
		// A short lead-in quoting exactly one path.
		{"In `src/a.go`:", "src/a.go"},
		{"Now **src/a.go**:", "src/a.go"},
		{"Change `count` in `src/a.go`:", "src/a.go"},

		// Prose, code and markup name no file.
		{"Update main.go", ""},
		{"Here is the fix for main.go.", ""},
		{"This changes the handler so that it closes the body in server.go.", ""},
		{"In `a.go` and `b.go`:", ""},
		{"I changed `src/a.go` so that the handler closes the request body:", ""},
		{"In `src/a.go` we close the body", ""},
		{"Here are the changes:", ""},
		{"python", ""},
		{"v1.2", ""},
		{"e.g.", ""},
		{"src/", ""},
		{"fmt.Println(x)", ""},
		{"x := a.b", ""},
		{"<path>a.go</path>", ""},
		{"https://example.com/a.go", ""},
		{"- a.go", ""},
		{"--- a/a.go", ""},
		{"+++ b/a.go", ""},
		{"", ""},
	} {
		got, ok := pathFromLine(tt.line)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("pathFromLine(%q) = %q, %t; want %q", tt.line, got, ok, tt.want)
		}
	}
}

func TestFenceInfoPath(t *testing.T) {
	for _, tt := range []struct{ info, want string }{
		{"python path/to/file.py", "path/to/file.py"},
		{"path/to/file.py", "path/to/file.py"},
		{"a.go", "a.go"},
		{"python:src/app.py", "src/app.py"},
		{`go title="cmd/main.go"`, "cmd/main.go"},
		{"{.python file=a.py}", "a.py"},
		{"python", ""},
		{"c++", ""},
		{"Dockerfile", ""},
		{"diff", ""},
		{"", ""},
	} {
		if got := fenceInfoPath(tt.info); got != tt.want {
			t.Errorf("fenceInfoPath(%q) = %q, want %q", tt.info, got, tt.want)
		}
	}
}

func TestPathBefore(t *testing.T) {
	// Each text ends with the line "BLOCK", whose path is looked for; a
	// line "END" ends the previous block, and "STOP" is a line the caller
	// stops at.
	for _, tt := range []struct {
		name, text, want string
	}{
		{"on the line before", "src/a.go\nBLOCK\n", "src/a.go"},
		{"blank lines passed over", "src/a.go\n\n\n\n\nBLOCK\n", "src/a.go"},
		{"prose passed over, a few lines", "src/a.go\nWe fix it.\nLike so.\nBLOCK\n", "src/a.go"},
		{"no further than a few lines", "src/a.go\nOne.\nTwo.\nThree.\nBLOCK\n", ""},
		{"in the info string of the fence around it", "a.go\n```go src/b.go\nBLOCK\n", "src/b.go"},
		{"before the fence around it", "src/a.go\n```go\nBLOCK\n", "src/a.go"},
		{"a few lines again before the fence", "src/a.go\nOne.\nTwo.\n```go\nOne.\nTwo.\nBLOCK\n", "src/a.go"},
		{"alone in its own small fence", "```\nsrc/a.go\n```\nBLOCK\n", "src/a.go"},
		{"in a small fence with a language", "```text\n`src/a.go`\n```\n\nBLOCK\n", "src/a.go"},
		{"the nearer of two small fences", "```\nsrc/a.go\n```\n```\nsrc/b.go\n```\nBLOCK\n", "src/b.go"},
		{"a small fence before the fence around it", "```\nsrc/a.go\n```\n```python\nBLOCK\n", "src/a.go"},
		{"a small fence before the prose", "```\nsrc/a.go\n```\nWe fix it.\nBLOCK\n", "src/a.go"},
		{"not into another fence of code", "```\nx := 1\nsrc/a.go\n```\nBLOCK\n", ""},
		{"not into a fence of a shell", "```sh\nbin/setup\n```\nBLOCK\n", ""},
		{"not a name with spaces in a fence", "```\nsrc/my file.go\n```\nBLOCK\n", ""},
		{"not into a fence closed otherwise", "```\nsrc/a.go\n~~~\nBLOCK\n", ""},
		{"not a bare name that may not be a file", "```\nconfigure\n```\nBLOCK\n", ""},
		{"not into the previous block", "src/a.go\nEND\nBLOCK\n", ""},
		{"not past a line the caller stops at", "src/a.go\nSTOP\nBLOCK\n", ""},
		{"nothing before", "BLOCK\n", ""},
	} {
		d := newDocument(tt.text)
		i, after := len(d.lines)-1, -1
		var f fence
		for j, line := range d.lines[:i] {
			f.see(j, line)
			if line == "END" {
				after = j
			}
		}
		stop := func(j int) bool { return d.lines[j] == "STOP" }
		if got := d.pathBefore(i, after, f, stop); got != tt.want {
			t.Errorf("%s: pathBefore = %q, want %q\n%s", tt.name, got, tt.want, tt.text)
		}
	}
}

func TestPathBeforeExists(t *testing.T) {
	// A bare name, without a folder or an extension, names a file only
	// when the file exists; Pipfile, VERSION and configure do here.
	files := []string{"Pipfile", "VERSION", "configure", "tmpk3j9x", "my notes"}
	exists := func(p string) bool { return slices.Contains(files, p) }
	for _, tt := range []struct {
		name, text    string
		want, without string // the path with Exists, and without it
	}{
		{"a bare name", "Pipfile\nBLOCK\n", "Pipfile", ""},
		{"decorated", "**VERSION**:\nBLOCK\n", "VERSION", ""},
		{"quoted in a lead-in", "In `configure`:\nBLOCK\n", "configure", ""},
		{"a temp file's name", "tmpk3j9x\nBLOCK\n", "tmpk3j9x", ""},
		{"in a small fence", "```\nconfigure\n```\nBLOCK\n", "configure", ""},
		{"before the fence around it", "Pipfile\n```toml\nBLOCK\n", "Pipfile", ""},
		{"nearer than a path", "src/a.go\nVERSION\nBLOCK\n", "VERSION", "src/a.go"},
		{"not a name that is no file", "Done\nBLOCK\n", "", ""},
		{"not a name in a sentence", "Run configure\nBLOCK\n", "", ""},
		{"not a bare name with spaces", "my notes\nBLOCK\n", "", ""},
		{"a path of a missing file still", "src/new.go\nBLOCK\n", "src/new.go", "src/new.go"},
	} {
		d := newDocument(tt.text)
		d.exists = exists
		i := len(d.lines) - 1
		var f fence
		for j, line := range d.lines[:i] {
			f.see(j, line)
		}
		if got := d.pathBefore(i, -1, f, nil); got != tt.want {
			t.Errorf("%s: pathBefore = %q, want %q\n%s", tt.name, got, tt.want, tt.text)
		}
		d = newDocument(tt.text) // a document is read with one Exists
		if got := d.pathBefore(i, -1, f, nil); got != tt.without {
			t.Errorf("%s: without Exists, pathBefore = %q, want %q\n%s", tt.name, got, tt.without, tt.text)
		}
	}
}
