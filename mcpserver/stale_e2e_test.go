package mcpserver_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/graft-editor/graft/internal/test/testenv"
)

// TestMain keeps the journal of the graft mcp processes the tests start
// in a temporary state directory, never the user's.
func TestMain(m *testing.M) {
	os.Exit(testenv.RunPrivateState(m))
}

// One graft mcp session edits a function's body, then is sent an edit
// quoting the body as it was: the journal of what the first edit replaced
// tells it is stale, a tool error that names the version and shows what
// changed; the file keeps the first edit. With --journal=false the
// session has no such memory, and the old edit is merged into the new
// body, as it was before the journal.
func TestEditStaleInOneSession(t *testing.T) {
	v1 := "package s\n\nfunc sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n"
	v2 := "package s\n\nfunc sum(xs []int) int {\n\tvar total int\n\tfor i := range xs {\n\t\ttotal += xs[i]\n\t}\n\treturn total\n}\n"
	first := map[string]any{
		"path":       "s.go",
		"old_string": "\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n",
		"new_string": "\tvar total int\n\tfor i := range xs {\n\t\ttotal += xs[i]\n\t}\n",
	}
	stale := map[string]any{
		"path":       "s.go",
		"old_string": "\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n",
		"new_string": "\ttotal := 0\n\tfor _, x := range xs {\n\t\tif x > 0 {\n\t\t\ttotal += x\n\t\t}\n\t}\n\treturn total\n",
	}
	for _, journal := range []bool{true, false} {
		t.Run(fmt.Sprintf("journal=%v", journal), func(t *testing.T) {
			state := t.TempDir()
			root := writeFiles(t, t.TempDir(), map[string]string{"s.go": v1})
			args := []string{"--root", root, "--editor", "never"}
			if !journal {
				args = append(args, "--journal=false")
			}
			s := start(t, startOptions{args: args, env: append(os.Environ(), "XDG_STATE_HOME="+state)})
			if res := s.call("edit", first); res.IsError {
				t.Fatalf("first edit: %s", text(res))
			}
			res := s.call("edit", stale)
			got := readFile(t, root, "s.go")
			if !journal {
				if res.IsError || got == v2 {
					t.Fatalf("without the journal the old edit was not merged: %s\n%s", text(res), got)
				}
				if _, err := os.Stat(state + "/graft/journal"); err == nil {
					t.Error("--journal=false wrote a journal")
				}
				return
			}
			msg := text(res)
			if !res.IsError || !strings.Contains(msg, "stale: the search quotes the text graft mcp replaced at") || !strings.Contains(msg, "+\tfor i := range xs {") {
				t.Fatalf("stale edit: error %v:\n%s", res.IsError, msg)
			}
			if r := report(t, res); len(r.Blocks) != 1 || r.Blocks[0].Reason != "stale" {
				t.Errorf("report %+v", r)
			}
			if got != v2 {
				t.Errorf("s.go changed:\n%s", got)
			}
		})
	}
}
