package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/workspace"
)

// An inProcess is a server driven inside the test's process, without the
// protocol: its notification handlers are called directly, and an
// answer's diagnostics are refreshed when the test asks, the debounce
// never firing. The documents are named by their absolute paths.
type inProcess struct {
	tb       testing.TB
	s        *server
	versions map[string]int
}

// newInProcess returns a server whose one workspace folder is dir.
func newInProcess(tb testing.TB, dir string) *inProcess {
	s := newServer(Options{Debounce: time.Hour}) // the test refreshes
	tb.Cleanup(s.answers.stop)
	root, err := workspace.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	s.docs.SetRoots([]*workspace.Root{root})
	return &inProcess{tb: tb, s: s, versions: map[string]int{}}
}

// notify calls the handler of a notification with params.
func (p *inProcess) notify(handler func(context.Context, json.RawMessage) (any, error), params any) {
	p.tb.Helper()
	raw, err := json.Marshal(params)
	if err != nil {
		p.tb.Fatal(err)
	}
	if _, err := handler(context.Background(), raw); err != nil {
		p.tb.Fatal(err)
	}
}

type params = map[string]any

// uri returns the URI of the document at path.
func (p *inProcess) uri(path string) string { return "file://" + filepath.ToSlash(path) }

// open opens the document at path with text, at version 1.
func (p *inProcess) open(path, language, text string) {
	p.versions[path] = 1
	p.notify(p.s.didOpen, params{"textDocument": params{"uri": p.uri(path), "languageId": language, "version": 1, "text": text}})
}

// change replaces the lines from to to (to not included) of the document
// at path with text, at its next version.
func (p *inProcess) change(path string, from, to int, text string) {
	p.versions[path]++
	start, end := params{"line": from, "character": 0}, params{"line": to, "character": 0}
	p.notify(p.s.didChange, params{"textDocument": params{"uri": p.uri(path), "version": p.versions[path]},
		"contentChanges": []params{{"range": params{"start": start, "end": end}, "text": text}}})
}

// close closes the document at path.
func (p *inProcess) close(path string) {
	p.notify(p.s.didClose, params{"textDocument": params{"uri": p.uri(path)}})
}

// refresh refreshes the diagnostics of the answer at path now, and
// returns them, the state of its blocks, and the time the refresh took.
func (p *inProcess) refresh(path string) ([]protocol.Diagnostic, *answerState, time.Duration) {
	p.tb.Helper()
	a := p.s.answers
	a.mu.Lock()
	ad := a.docs[p.uri(path)]
	a.mu.Unlock()
	if ad == nil {
		p.tb.Fatalf("%s holds no answer", path)
	}
	start := time.Now()
	diags, st, err := a.compute(context.Background(), ad, ad.gen)
	if err != nil {
		p.tb.Fatal(err)
	}
	return diags, st, time.Since(start)
}
