package mcpserver_test

import (
	"fmt"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/graft-editor/graft/internal/corpus"
)

// TestEditStaleCorpus sends a sample of the corpus's stale cases
// (corpus.StaleCases, spread over shapes and changes, those that can be
// written as SEARCH/REPLACE answers, as the graft apply tests send them)
// through one graft mcp session, as an agent makes
// them: the edit tool makes the first edit, then an edit quoting the text
// from before it, in lines it changed, is a tool error with reason stale,
// and the file keeps the first edit, byte for byte. At least 95% must be
// refused as stale, and none may change the file.
func TestEditStaleCorpus(t *testing.T) {
	sample := corpus.RoutedStaleSample(t)
	files := map[string]string{}
	for i, s := range sample {
		files[fmt.Sprintf("c%02d/%s", i, corpus.AnswerPath(s.Case))] = s.Before
	}
	work := writeFiles(t, t.TempDir(), files)
	srv := start(t, startOptions{args: []string{"--root", work, "--editor", "never"}, env: append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "GRAFT_JOURNAL=")})

	var stale, changed int
	var others []string
	for i, s := range sample {
		name := path.Join(fmt.Sprintf("c%02d", i), corpus.AnswerPath(s.Case))
		args := map[string]any{"path": name, "old_string": s.First.Old, "new_string": s.First.New}
		if s.First.Line != 0 {
			args["start_line"] = s.First.Line
		}
		if res := srv.call("edit", args); res.IsError || readFile(t, work, name) != s.Now {
			t.Fatalf("%s: the first edit: error %v: %s", s.Name, res.IsError, text(res))
		}
		res := srv.call("edit", map[string]any{"path": name, "old_string": s.Stale.Old, "new_string": s.Stale.New})
		ok := false
		what := text(res)
		if res.IsError {
			r := report(t, res)
			ok = len(r.Blocks) == 1 && r.Blocks[0].Reason == "stale" && strings.Contains(r.Blocks[0].Message, "the text graft mcp replaced at ")
		}
		if ok {
			stale++
		}
		diff := readFile(t, work, name) != s.Now
		if diff {
			changed++
		}
		if !ok || diff {
			others = append(others, fmt.Sprintf("%s: error %v, changed %v: %s", s.Name, res.IsError, diff, what))
		}
	}
	t.Logf("graft mcp, one session: %d stale blocks, %d refused as stale, %d changed the file", len(sample), stale, changed)
	for _, o := range others[:min(len(others), 5)] {
		t.Log(o)
	}
	if changed > 0 || float64(stale) < 0.95*float64(len(sample)) {
		t.Errorf("%d of %d stale blocks refused as stale (want 95%%), %d changed the file (want none)", stale, len(sample), changed)
	}
}
