package lsp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/workspace"
)

// TestAnswerNamingAHugeFile pastes into a markdown buffer an answer whose
// block names a file of a GiB: the diagnostic says the file is too large,
// without reading it, and the server goes on answering at once.
func TestAnswerNamingAHugeFile(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.log")
	// A line of text, then a hole that reads as NUL bytes: binary, but
	// a reader that does not check the size first reads a GiB to learn it.
	if err := os.WriteFile(huge, []byte("line one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<30); err != nil {
		t.Fatal(err)
	}
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	answer := filepath.Join(dir, "answer.md")
	text := "Here.\n\nhuge.log\n```\n<<<<<<< SEARCH\nline one\n=======\nline 1\n>>>>>>> REPLACE\n```\n"
	if err := e.Open(answer, "markdown", text); err != nil {
		t.Fatal(err)
	}
	diags, err := e.WaitDiagnostics(fakeeditor.URI(answer), func(d []protocol.Diagnostic) bool { return len(d) > 0 }, answerWait)
	if err != nil {
		t.Fatal(err)
	}
	want := "read huge.log: too large, not edited: 1 GiB (1073741824 bytes), over the 32 MiB limit"
	if len(diags) != 1 || diags[0].Severity != protocol.DiagnosticSeverityError || !strings.HasPrefix(diags[0].Message, want) {
		t.Fatalf("diagnostics %+v, want one error starting %q", diags, want)
	}

	// The next request is answered at once, and the preview, which reads
	// the file in the server's queue, refuses it as promptly.
	start := time.Now()
	actions := answerActions(t, e, answer, 4, 4)
	reply, err := answerRun(t, e, answerAction(t, actions, "Preview edit block → huge.log"))
	if err != nil {
		t.Fatalf("preview: %v", err)
	}
	if !strings.Contains(string(reply), "too large, not edited") {
		t.Errorf("preview reply does not say the file is too large: %s", reply)
	}
	t.Logf("code actions and preview answered in %v", time.Since(start).Round(time.Millisecond))
}

// TestAnswerBufferTooLarge makes an answer buffer larger than 32 MiB,
// with its block at the end: it is no answer, as graft apply would refuse
// it, so it is not parsed, for the diagnostics or for the code lenses.
func TestAnswerBufferTooLarge(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	block := "a.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n"
	answer := filepath.Join(dir, "answer.md")
	if err := e.Open(answer, "markdown", block); err != nil {
		t.Fatal(err)
	}
	u := fakeeditor.URI(answer)
	if _, err := e.WaitDiagnostics(u, func(d []protocol.Diagnostic) bool { return len(d) == 1 }, answerWait); err != nil {
		t.Fatal(err)
	}
	if err := e.SetText(answer, strings.Repeat("Some words.\n", workspace.MaxFileSize/12)+block); err != nil {
		t.Fatal(err)
	}
	if lenses := answerLenses(t, e, answer); len(lenses) != 0 {
		t.Errorf("code lenses in a buffer too large for an answer: %+v", lenses)
	}
	if _, err := e.WaitDiagnostics(u, func(d []protocol.Diagnostic) bool { return len(d) == 0 }, answerWait); err != nil {
		t.Fatal(err)
	}
}
