package dialect

import "testing"

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
