package lsp_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// With a.txt in two workspace folders, a block naming B's copy by its
// absolute path is reported as B's: the uri of the reply, the range of a
// refusal, and the related locations of an answer buffer's diagnostic all
// point at B's file, never at A's.
func TestSeveralFoldersReportTheFileThatChanged(t *testing.T) {
	a := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "one\ntwo\nthree\n"})
	b := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "alpha\nbeta\ngamma\ndelta\nepsilon\n"})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(a, b))
	bFile := filepath.Join(b, "a.txt")
	wantURI := string(fakeeditor.URI(bFile))

	t.Run("applied", func(t *testing.T) {
		answer := `{"path":"` + bFile + `","old_string":"gamma\n","new_string":"GAMMA\n"}`
		var r applyReply
		if err := execute(t, e, "graft.apply", map[string]any{"text": answer}, &r); err != nil {
			t.Fatal(err)
		}
		if !r.Applied || statuses(r.Blocks) != "applied" {
			t.Fatalf("reply %+v", r)
		}
		if got := r.Blocks[0]; got.URI != wantURI || got.Range == nil || got.Range.Start.Line != 2 {
			t.Errorf("block uri %s range %+v, want %s line 2", got.URI, got.Range, wantURI)
		}
		if got := e.Text(bFile); !strings.Contains(got, "GAMMA") {
			t.Errorf("B's a.txt: %q", got)
		}
		if e.IsOpen(filepath.Join(a, "a.txt")) {
			t.Errorf("A's a.txt was edited: %q", e.Text(filepath.Join(a, "a.txt")))
		}
	})
	t.Run("refused", func(t *testing.T) {
		answer := `{"path":"` + bFile + `","old_string":"delta\nepsilom\nzeta\n","new_string":"x\n"}`
		var r previewReply
		if err := execute(t, e, "graft.preview", map[string]any{"text": answer}, &r); err != nil {
			t.Fatal(err)
		}
		if statuses(r.Blocks) != "failed" {
			t.Fatalf("blocks %+v", r.Blocks)
		}
		if got := r.Blocks[0]; got.URI != wantURI || got.Range == nil || got.Range.Start.Line != 3 {
			t.Errorf("block uri %s range %+v, want %s at the candidate, line 3\n%s", got.URI, got.Range, wantURI, got.Message)
		}
	})
	t.Run("answer buffer", func(t *testing.T) {
		answer := filepath.Join(a, "answer.md")
		text := "```\n" + bFile + "\n<<<<<<< SEARCH\ndelta\nepsilom\nzeta\n=======\nx\n>>>>>>> REPLACE\n```\n"
		if err := e.Open(answer, "markdown", text); err != nil {
			t.Fatal(err)
		}
		diags, err := e.WaitDiagnostics(fakeeditor.URI(answer), func(d []protocol.Diagnostic) bool { return len(d) > 0 }, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		rel := diags[0].RelatedInformation
		if len(rel) == 0 {
			t.Fatalf("no related locations: %+v", diags[0])
		}
		if got := rel[0].Location; string(got.URI) != wantURI || got.Range.Start.Line != 3 {
			t.Errorf("related location %s line %d, want %s line 3", got.URI, got.Range.Start.Line, wantURI)
		}
	})
}
