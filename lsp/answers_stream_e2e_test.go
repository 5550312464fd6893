package lsp_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// streamedAnswer has blocks of every fate: two on a.go, the second
// rewriting what the first wrote; one whose lines occur twice; in b.go, one
// that applies, then one that resolves only in part and one that is not in
// the file.
const streamedAnswer = "Here is the change.\n\n" +
	"a.go\n```go\n<<<<<<< SEARCH\nfunc one() int { return 1 }\n=======\nfunc one() int { return 11 }\n>>>>>>> REPLACE\n```\n\n" +
	"a.go\n```go\n<<<<<<< SEARCH\nfunc one() int { return 11 }\n=======\nfunc one() int { return 111 }\n>>>>>>> REPLACE\n```\n\n" +
	"a.go\n```go\n<<<<<<< SEARCH\n\tx := 1\n=======\n\tx := 2\n>>>>>>> REPLACE\n```\n\n" +
	"b.go\n```go\n<<<<<<< SEARCH\nfunc three() int { return 3 }\n=======\nfunc three() int { return 33 }\n>>>>>>> REPLACE\n```\n\n" +
	"b.go\n```go\n<<<<<<< SEARCH\nfunc two() int {\n\t// two.\n\treturn 2\n}\n=======\nfunc two() int { return 22 }\n>>>>>>> REPLACE\n```\n\n" +
	"b.go\n```go\n<<<<<<< SEARCH\nthis line is in no file\n=======\ny\n>>>>>>> REPLACE\n```\n\n" +
	"That is all.\n"

// An answer streamed in line by line, the server refreshing its
// diagnostics after each line from what it kept of the last refresh, ends
// with the diagnostics of the whole answer opened at once: even when a
// file its blocks edit changes while it streams, and lines come in above
// the blocks that have resolved. Streamed without waiting for the server,
// its refreshes are cut short by the next line, and it ends the same.
func TestAnswerStreamedSameAsWhole(t *testing.T) {
	for _, wait := range []bool{true, false} {
		name := "waiting for each refresh"
		if !wait {
			name = "without waiting"
		}
		t.Run(name, func(t *testing.T) { testAnswerStreamed(t, wait) })
	}
}

// testAnswerStreamed is TestAnswerStreamedSameAsWhole, waiting for the
// server's refresh after each line or not.
func testAnswerStreamed(t *testing.T, wait bool) {
	dir := t.TempDir()
	files := map[string]string{
		"a.go": "package a\n\nfunc one() int { return 1 }\n\nfunc f() {\n\tx := 1\n\t_ = x\n}\n\nfunc g() {\n\tx := 1\n\t_ = x\n}\n",
		"b.go": "package a\n\nfunc two() int {\n\t// two\n\treturn 2\n}\n\nfunc three() int { return 3 }\n",
	}
	opt := fakeeditor.VSCode(dir)
	log := &passLog{path: filepath.Join(t.TempDir(), "graft.log")}
	opt.Args = []string{"--debounce", "1ms", "--log-level", "debug", "--log", log.path}
	e, _ := fakeeditor.StartReady(t, opt)
	openFiles(t, e, dir, files)
	chat := filepath.Join(dir, "chat.md")
	u := fakeeditor.URI(chat)
	if err := e.Open(chat, "markdown", ""); err != nil {
		t.Fatal(err)
	}
	// waitPass waits for the server's refresh of the chat's present
	// version, which it logs.
	var reused int
	waitPass := func() {
		t.Helper()
		if !wait {
			// A fast stream: a refresh starts, and the next line cuts
			// it short.
			time.Sleep(2 * time.Millisecond)
			return
		}
		from := len(log.seen)
		log.wait(t, string(u), e.Version(chat), from)
		for _, p := range log.seen[from:] {
			reused += p.Reused
		}
	}
	lines := strings.SplitAfter(streamedAnswer, "\n")
	for n, line := range lines[:len(lines)-1] {
		// Appended at the end, as a chat plugin writes.
		at := protocol.Position{Line: uint32(strings.Count(e.Text(chat), "\n"))}
		if err := e.Edit(chat, &protocol.Range{Start: at, End: at}, line); err != nil {
			t.Fatal(err)
		}
		waitPass()
		if n == 37 {
			// b.go changes under the answer, and a line comes in above
			// the blocks.
			top := protocol.Position{Line: 1}
			if err := e.Edit(filepath.Join(dir, "b.go"), &protocol.Range{Start: top, End: top}, "// Package a.\n"); err != nil {
				t.Fatal(err)
			}
			if err := e.Edit(chat, &protocol.Range{Start: top, End: top}, "(streaming)\n"); err != nil {
				t.Fatal(err)
			}
			waitPass()
		}
	}
	if wait && reused == 0 {
		t.Errorf("no refresh kept a block's result: every one resolved the whole answer")
	}
	final := e.Text(chat)
	if want := strings.Replace(streamedAnswer, "Here is the change.\n", "Here is the change.\n(streaming)\n", 1); final != want {
		t.Fatalf("the chat holds:\n%s\nwant:\n%s", final, want)
	}
	// Without waiting, a refresh of the text before its last line may
	// have published six diagnostics with the last block unfinished.
	streamed, err := e.WaitDiagnostics(u, finished(6), answerWait)
	if err != nil {
		t.Fatal(err)
	}

	whole := filepath.Join(dir, "whole.md")
	if err := e.Open(whole, "markdown", final); err != nil {
		t.Fatal(err)
	}
	want, err := e.WaitDiagnostics(fakeeditor.URI(whole), func(d []protocol.Diagnostic) bool { return len(d) == 6 }, answerWait)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.MarshalIndent(streamed, "", " ")
	exp, _ := json.MarshalIndent(want, "", " ")
	if string(got) != string(exp) {
		t.Errorf("diagnostics of the streamed answer:\n%s\nof the answer opened whole:\n%s", got, exp)
	}
	// Every fate is there, as the answer means it to be.
	codes := []string{}
	for _, d := range want {
		codes = append(codes, d.Code.(string))
	}
	t.Logf("codes: %v", codes)
	for _, c := range []string{"exact", "ambiguous", "not-found"} {
		if !strings.Contains(strings.Join(codes, " "), c) {
			t.Errorf("no block of the answer is %s: %v", c, codes)
		}
	}
}

// An answer that streams in faster than the debounce, line after line
// with no pause, still shows a block's diagnostic while the rest of the
// answer comes: a change waits for a pause in the changes, but at most
// twice the debounce. Once, the first diagnostic came only when the whole
// answer had stopped.
func TestAnswerStreamingFastShowsBlocksAsTheyClose(t *testing.T) {
	const debounce, pace = 150 * time.Millisecond, 25 * time.Millisecond
	dir := t.TempDir()
	opt := fakeeditor.VSCode(dir)
	opt.Args = []string{"--debounce", debounce.String()}
	e, _ := fakeeditor.StartReady(t, opt)
	openFiles(t, e, dir, map[string]string{"a.go": "package a\n\nfunc one() int { return 1 }\n"})
	chat := filepath.Join(dir, "chat.md")
	u := fakeeditor.URI(chat)
	if err := e.Open(chat, "markdown", ""); err != nil {
		t.Fatal(err)
	}
	// One block, then prose that streams on for a second and a half.
	answer := "a.go\n```go\n<<<<<<< SEARCH\nfunc one() int { return 1 }\n=======\nfunc one() int { return 11 }\n>>>>>>> REPLACE\n```\n" +
		strings.Repeat("More words of the answer.\n", 60)
	var shownAt int // the lines streamed when the block's diagnostic came
	for n, line := range strings.SplitAfter(answer, "\n") {
		if line == "" {
			break
		}
		at := protocol.Position{Line: uint32(n)}
		if err := e.Edit(chat, &protocol.Range{Start: at, End: at}, line); err != nil {
			t.Fatal(err)
		}
		if pd, ok := e.Diagnostics(u); ok && shownAt == 0 && len(pd.Diagnostics) == 1 && pd.Diagnostics[0].Code == "exact" {
			shownAt = n + 1
		}
		time.Sleep(pace)
	}
	if shownAt == 0 {
		t.Fatalf("the block's diagnostic did not come while the answer streamed in (a line every %v, debounce %v)", pace, debounce)
	}
	t.Logf("the block closed at line 8; its diagnostic came after line %d of %d", shownAt, strings.Count(answer, "\n"))
}
