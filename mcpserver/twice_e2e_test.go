package mcpserver_test

import (
	"strings"
	"testing"
)

// An edit sent twice is a success the second time, not a tool error: its
// change stands, nothing is written, and the report says already-applied.
func TestEditAppliedTwice(t *testing.T) {
	root := writeFiles(t, t.TempDir(), map[string]string{
		"main.go": "package main\n\nfunc main() {\n\tserve()\n}\n",
	})
	s := start(t, startOptions{args: []string{"--root", root, "--editor", "never"}})
	edit := map[string]any{
		"path":       "main.go",
		"old_string": "func main() {\n\tserve()\n}\n",
		"new_string": "func main() {\n\tserve()\n}\n\nfunc serve() {}\n",
	}
	want := "package main\n\nfunc main() {\n\tserve()\n}\n\nfunc serve() {}\n"
	for i, status := range []string{"applied", "already-applied"} {
		res := s.call("edit", edit)
		if res.IsError {
			t.Fatalf("call %d: a tool error:\n%s", i+1, text(res))
		}
		r := report(t, res)
		if len(r.Blocks) != 1 || r.Blocks[0].Status != status {
			t.Errorf("call %d: blocks %+v, want status %s", i+1, r.Blocks, status)
		}
		if got := readFile(t, root, "main.go"); got != want {
			t.Errorf("call %d: main.go:\n%s", i+1, got)
		}
		if status == "already-applied" && (r.AlreadyApplied != 1 || !strings.Contains(text(res), "Already applied")) {
			t.Errorf("call %d: report %+v; text:\n%s", i+1, r, text(res))
		}
	}
}
