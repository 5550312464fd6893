package lsp_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graft-editor/graft/internal/corpus"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// TestStaleCorpus sends a sample of the corpus's stale cases
// (corpus.StaleCases, spread over shapes and changes, those that can be
// written as SEARCH/REPLACE answers, as the graft apply tests send them)
// through one graft serve, as an agent's edits reach an
// editor: the client opens the document with the text before, graft.apply
// makes the first edit, whose WorkspaceEdit the client applies to its
// buffer, then graft.apply of a block quoting the text before, in lines
// the first edit changed, is refused as stale, no edit is sent, and the
// buffer keeps the first edit. At least 95% must be refused as stale, and
// none may change the buffer.
func TestStaleCorpus(t *testing.T) {
	sample := corpus.RoutedStaleSample(t)
	files := map[string]string{}
	for i, s := range sample {
		files[fmt.Sprintf("c%02d/%s", i, corpus.AnswerPath(s.Case))] = s.Before
	}
	work := writeFiles(t, t.TempDir(), files)
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(work))

	var stale, changed, sent int
	var others []string
	for i, s := range sample {
		name := fmt.Sprintf("c%02d/%s", i, corpus.AnswerPath(s.Case))
		path := filepath.Join(work, filepath.FromSlash(name))
		if err := e.Open(path, fakeeditor.LanguageID(path), s.Before); err != nil {
			t.Fatal(err)
		}
		first := map[string]any{"path": name, "old_string": s.First.Old, "new_string": s.First.New}
		if s.First.Line != 0 {
			first["start_line"] = s.First.Line
		}
		var r applyReply
		if err := execute(t, e, "graft.apply", map[string]any{"edits": []any{first}}, &r); err != nil || !r.Applied {
			t.Fatalf("%s: the first edit: %v %+v", s.Name, err, r)
		}
		waitText(t, e, path, s.Now)
		edits := len(e.AppliedEdits())

		r = applyReply{}
		if err := execute(t, e, "graft.apply", map[string]any{"edits": []any{map[string]any{"path": name, "old_string": s.Stale.Old, "new_string": s.Stale.New}}}, &r); err != nil {
			t.Fatalf("%s: the stale block: %v", s.Name, err)
		}
		ok := len(r.Blocks) == 1 && r.Blocks[0].Status == "failed" && r.Blocks[0].Reason == "stale" &&
			strings.Contains(r.Blocks[0].Message, "the text graft replaced at ")
		if ok {
			stale++
		}
		more := len(e.AppliedEdits()) - edits
		sent += more
		diff := e.Text(path) != s.Now
		if diff {
			changed++
		}
		if !ok || diff || more > 0 {
			what := fmt.Sprintf("%d blocks", len(r.Blocks))
			if len(r.Blocks) > 0 {
				what = fmt.Sprintf("%s %q: %s", r.Blocks[0].Status, r.Blocks[0].Reason, r.Blocks[0].Message)
			}
			others = append(others, fmt.Sprintf("%s: %d edits sent, changed %v: %s", s.Name, more, diff, what))
		}
		if err := e.Close(path); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("graft serve: %d stale blocks, %d refused as stale, %d changed the buffer, %d edits sent for them", len(sample), stale, changed, sent)
	for _, o := range others[:min(len(others), 5)] {
		t.Log(o)
	}
	if changed > 0 || sent > 0 || float64(stale) < 0.95*float64(len(sample)) {
		t.Errorf("%d of %d stale blocks refused as stale (want 95%%), %d changed the buffer, %d edits sent (want none)", stale, len(sample), changed, sent)
	}
}
