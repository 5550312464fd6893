package mcpserver_test

import (
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

// A graft mcp session edits a function's body, then is sent an edit
// quoting the body as it was: it is stale, a tool error that names the
// version and shows what changed; the file keeps the first edit. The
// session itself remembers the texts it read and wrote, and the journal
// carries them to the next session: with --journal=false, a second
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
	for _, tc := range []struct {
		name    string
		journal bool
		// again sends the stale edit in a second session.
		again bool
		// version is how the stale edit's message names the version it
		// quotes; "" when it is merged, unknown.
		version string
	}{
		{"one session", true, false, "stale: the search quotes the text graft mcp replaced at"},
		{"one session, no journal", false, false, "stale: the search quotes the file as graft mcp saw it at"},
		{"the next session", true, true, "stale: the search quotes the text graft mcp replaced at"},
		{"the next session, no journal", false, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			state := t.TempDir()
			root := writeFiles(t, t.TempDir(), map[string]string{"s.go": v1})
			args := []string{"--root", root, "--editor", "never"}
			if !tc.journal {
				args = append(args, "--journal=false")
			}
			opt := startOptions{args: args, env: append(os.Environ(), "XDG_STATE_HOME="+state)}
			s := start(t, opt)
			if res := s.call("edit", first); res.IsError {
				t.Fatalf("first edit: %s", text(res))
			}
			if tc.again {
				s = start(t, opt)
			}
			res := s.call("edit", stale)
			got := readFile(t, root, "s.go")
			if tc.version == "" {
				if res.IsError || got == v2 {
					t.Fatalf("with no memory of the first edit, the old edit was not merged: %s\n%s", text(res), got)
				}
				if _, err := os.Stat(state + "/graft/journal"); err == nil {
					t.Error("--journal=false wrote a journal")
				}
				return
			}
			msg := text(res)
			if !res.IsError || !strings.Contains(msg, tc.version) || !strings.Contains(msg, "+\tfor i := range xs {") {
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

// An agent shown a file by graft mcp (a refusal quotes its lines) changes
// it with a tool of its own, then sends graft an edit quoting the lines it
// was shown: they changed since, and the edit is refused as stale instead
// of merged into the agent's own change. graft wrote nothing, and the file
// is not committed: the journal keeps the text the refusal showed, for
// this session and the next; with --journal=false the session itself
// remembers the text it saw.
func TestEditStaleAfterTheAgentsOwnEdit(t *testing.T) {
	v1 := "package s\n\nfunc sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n"
	own := strings.Replace(v1, "total += x", "total += 2 * x", 1)
	for _, tc := range []struct {
		name    string
		journal bool
		again   bool // the stale edit comes in a second session
		version string
	}{
		{"one session", true, false, "stale: the search quotes the text graft mcp showed at"},
		{"the next session", true, true, "stale: the search quotes the text graft mcp showed at"},
		{"one session, no journal", false, false, "stale: the search quotes the file as graft mcp saw it at"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeFiles(t, t.TempDir(), map[string]string{"s.go": v1})
			args := []string{"--root", root, "--editor", "never"}
			if !tc.journal {
				args = append(args, "--journal=false")
			}
			opt := startOptions{args: args, env: append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())}
			s := start(t, opt)
			// A search the file does not hold: refused, with the file's lines.
			res := s.call("edit", map[string]any{"path": "s.go", "old_string": "\ttotal := 1\n", "new_string": "\ttotal := 2\n"})
			if !res.IsError {
				t.Fatalf("the edit of a line the file lacks applied: %s", text(res))
			}
			writeFiles(t, root, map[string]string{"s.go": own}) // the agent's own tool
			if tc.again {
				s = start(t, opt)
			}
			res = s.call("edit", map[string]any{
				"path":       "s.go",
				"old_string": "\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n",
				"new_string": "\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total + 1\n",
			})
			msg := text(res)
			if !res.IsError || !strings.Contains(msg, tc.version) || !strings.Contains(msg, "+\t\ttotal += 2 * x") {
				t.Fatalf("the edit quoting the lines shown before: error %v:\n%s", res.IsError, msg)
			}
			if got := readFile(t, root, "s.go"); got != own {
				t.Errorf("s.go changed:\n%s", got)
			}
		})
	}
}
