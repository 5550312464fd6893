package lsp_test

import (
	"cmp"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// An answer's blocks that name files the editor does not have open say
// what they would do with those files as they are on the disk now: an
// editor that watches the files for the server (VS Code; Neovim from 0.9
// where the capability is on) tells it of their changes, and the answer's
// diagnostics follow, with no change to the answer. An agent that writes
// the block's change itself, a checkout that removes the file, or one
// that brings it, are told at once.
func TestAnswerFollowsFilesOnDisk(t *testing.T) {
	const (
		one   = "package a\n\nfunc one() int { return 1 }\n"
		block = "<<<<<<< SEARCH\nfunc one() int { return 1 }\n=======\nfunc one() int { return 11 }\n>>>>>>> REPLACE\n"
	)
	tests := []struct {
		name string
		// file is the file the block names; a.go when empty.
		file string
		// before are the files on the disk when the answer opens.
		before map[string]string
		// change changes them, and returns the files it changed.
		change func(t *testing.T, dir string) []string
		kind   protocol.FileChangeType
		// first and then are the block's diagnostic, by its severity and
		// the start of its message, before and after the change.
		first, then diagWant
	}{
		{
			name:   "an agent writes the change",
			before: map[string]string{"a.go": one},
			change: func(t *testing.T, dir string) []string {
				writeFiles(t, dir, map[string]string{"a.go": strings.Replace(one, "return 1 ", "return 11 ", 1)})
				return []string{"a.go"}
			},
			kind:  protocol.FileChangeTypeChanged,
			first: diagWant{protocol.DiagnosticSeverityHint, "applies exactly: a.go line 3"},
			then:  diagWant{protocol.DiagnosticSeverityHint, "already applied: a.go line 3"},
		},
		{
			name:   "the file is removed",
			before: map[string]string{"a.go": one},
			change: func(t *testing.T, dir string) []string {
				if err := os.Remove(filepath.Join(dir, "a.go")); err != nil {
					t.Fatal(err)
				}
				return []string{"a.go"}
			},
			kind:  protocol.FileChangeTypeDeleted,
			first: diagWant{protocol.DiagnosticSeverityHint, "applies exactly: a.go line 3"},
			then:  diagWant{protocol.DiagnosticSeverityError, "edit a.go"},
		},
		{
			name:   "the file comes",
			before: map[string]string{"b.go": "package a\n"},
			change: func(t *testing.T, dir string) []string {
				writeFiles(t, dir, map[string]string{"a.go": one})
				return []string{"a.go"}
			},
			kind:  protocol.FileChangeTypeCreated,
			first: diagWant{protocol.DiagnosticSeverityError, "edit a.go"},
			then:  diagWant{protocol.DiagnosticSeverityHint, "applies exactly: a.go line 3"},
		},
		{
			// The editor tells of the folder alone.
			name:   "its folder is removed",
			file:   "src/a.go",
			before: map[string]string{"src/a.go": one},
			change: func(t *testing.T, dir string) []string {
				if err := os.RemoveAll(filepath.Join(dir, "src")); err != nil {
					t.Fatal(err)
				}
				return []string{"src"}
			},
			kind:  protocol.FileChangeTypeDeleted,
			first: diagWant{protocol.DiagnosticSeverityHint, "applies exactly: src/a.go line 3"},
			then:  diagWant{protocol.DiagnosticSeverityError, "edit src/a.go"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.before)
			e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
			answer := filepath.Join(dir, "answer.md")
			file := cmp.Or(tc.file, "a.go")
			if err := e.Open(answer, "markdown", file+"\n```go\n"+block+"```\n"); err != nil {
				t.Fatal(err)
			}
			u := fakeeditor.URI(answer)
			if _, err := e.WaitDiagnostics(u, tc.first.match, answerWait); err != nil {
				t.Fatalf("before the change: %v", err)
			}
			changed := tc.change(t, dir)
			for i, name := range changed {
				changed[i] = filepath.Join(dir, name)
			}
			if err := e.ChangeWatchedFiles(tc.kind, changed...); err != nil {
				t.Fatal(err)
			}
			if _, err := e.WaitDiagnostics(u, tc.then.match, answerWait); err != nil {
				t.Fatalf("after the change: %v", err)
			}
			if pd, _ := e.Diagnostics(u); pd.Version == nil || *pd.Version != 1 {
				t.Errorf("diagnostics version %v, want 1: the answer did not change", pd.Version)
			}
		})
	}
}

// A diagWant is one diagnostic expected alone: its severity and the start
// of its message.
type diagWant struct {
	severity protocol.DiagnosticSeverity
	prefix   string
}

// match reports whether diags is the one diagnostic w wants.
func (w diagWant) match(diags []protocol.Diagnostic) bool {
	return len(diags) == 1 && diags[0].Severity == w.severity && strings.HasPrefix(diags[0].Message, w.prefix)
}

// The server asks to be told of changes on the disk only of an editor
// that can be asked (VS Code), and once, for every file; Neovim 0.7.2,
// which cannot, is not asked. An editor that never answers holds up
// nothing.
func TestWatchedFilesRegistration(t *testing.T) {
	hangs := fakeeditor.VSCode(t.TempDir())
	hangs.Unanswered = []string{"client/registerCapability"}
	for _, tc := range []struct {
		name string
		opt  fakeeditor.Options
		want int
	}{
		{"vscode", fakeeditor.VSCode(t.TempDir()), 1},
		{"neovim-0.7.2", fakeeditor.Neovim072(t.TempDir()), 0},
		{"an editor that never answers", hangs, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := fakeeditor.StartReady(t, tc.opt)
			if got := waitRequest(e, "client/registerCapability", tc.want > 0); got != (tc.want > 0) {
				t.Fatalf("client/registerCapability sent: %v, want %v", got, tc.want > 0)
			}
			// The server goes on serving.
			ctx, cancel := context.WithTimeout(t.Context(), answerWait)
			defer cancel()
			var res any
			if err := e.Command(ctx, "graft.suggestions", map[string]any{}, &res); err != nil {
				t.Fatal(err)
			}
			var got []protocol.RegistrationParams
			for _, r := range e.ServerRequests() {
				if r.Method != "client/registerCapability" {
					continue
				}
				var p protocol.RegistrationParams
				if err := json.Unmarshal(r.Params, &p); err != nil {
					t.Fatal(err)
				}
				got = append(got, p)
			}
			if len(got) != tc.want {
				t.Fatalf("%d registrations, want %d: %+v", len(got), tc.want, got)
			}
			if tc.want == 0 {
				return
			}
			regs := got[0].Registrations
			if len(regs) != 1 || regs[0].Method != "workspace/didChangeWatchedFiles" {
				t.Fatalf("registrations %+v, want one of workspace/didChangeWatchedFiles", regs)
			}
			raw, _ := json.Marshal(regs[0].RegisterOptions)
			if want := `{"watchers":[{"globPattern":"**/*"}]}`; string(raw) != want {
				t.Errorf("register options %s, want %s", raw, want)
			}
		})
	}
}

// A suggestion pending in a file the editor does not have open follows
// the file on the disk, as one in a buffer follows the buffer: lines
// written above it move its hunk, and its change written there (by an
// agent, say) lands it, and it goes.
func TestSuggestionFollowsFileOnDisk(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	path := filepath.Join(dir, "main.go")
	u := fakeeditor.URI(path)
	var reply suggestResult
	suggestExecute(t, e, "graft.suggest", map[string]any{"text": suggestAnswer}, &reply)
	r := suggestRange(t, suggestMainGo, "\treturn 41", e.Encoding())
	if _, err := e.WaitDiagnostics(u, suggestDiag(r, protocol.DiagnosticSeverityHint), suggestWait); err != nil {
		t.Fatal(err)
	}

	above := "// written\n// above\n" + suggestMainGo
	writeFiles(t, dir, map[string]string{"main.go": above})
	if err := e.ChangeWatchedFiles(protocol.FileChangeTypeChanged, path); err != nil {
		t.Fatal(err)
	}
	moved := suggestRange(t, above, "\treturn 41", e.Encoding())
	if _, err := e.WaitDiagnostics(u, suggestDiag(moved, protocol.DiagnosticSeverityHint), suggestWait); err != nil {
		t.Fatalf("lines written above: %v", err)
	}

	writeFiles(t, dir, map[string]string{"main.go": strings.Replace(above, "return 41", "return 42", 1)})
	if err := e.ChangeWatchedFiles(protocol.FileChangeTypeChanged, path); err != nil {
		t.Fatal(err)
	}
	if _, err := e.WaitDiagnostics(u, func(d []protocol.Diagnostic) bool { return len(d) == 0 }, suggestWait); err != nil {
		t.Fatalf("its change written: %v", err)
	}
	if l := suggestList(t, e, path); len(l) != 0 {
		t.Errorf("graft.suggestions after the change landed: %+v, want none", l)
	}
}

// A block quoting a file as it was before another hand wrote it on the
// disk (the agent's own edit, made after it wrote the answer) is stale:
// the server read the file before, and keeps that text as an earlier
// version of it once it finds the file changed, so that the block is
// refused with what changed since rather than merged into the new lines.
// The server finds the change when the editor tells it (VS Code), or at
// the answer's next refresh (Neovim 0.7.2, which tells nothing: the
// person types a line in the answer).
func TestAnswerStaleAfterTheDiskChanged(t *testing.T) {
	const (
		before = "package a\n\nfunc total(xs []int) int {\n\tsum := 0\n\tfor _, x := range xs {\n\t\tsum += x\n\t}\n\treturn sum\n}\n"
		answer = "a.go\n```go\n<<<<<<< SEARCH\n\tfor _, x := range xs {\n\t\tsum += x\n\t}\n\treturn sum\n=======\n\tfor _, x := range xs {\n\t\tsum += x\n\t}\n\treturn sum + 1\n>>>>>>> REPLACE\n```\n"
	)
	for _, tc := range []struct {
		name string
		opt  func(folders ...string) fakeeditor.Options
		// told tells the server of the change.
		told func(t *testing.T, e *fakeeditor.Editor, path, answer string)
	}{
		{"vscode", fakeeditor.VSCode, func(t *testing.T, e *fakeeditor.Editor, path, _ string) {
			if err := e.ChangeWatchedFiles(protocol.FileChangeTypeChanged, path); err != nil {
				t.Fatal(err)
			}
		}},
		{"neovim-0.7.2", fakeeditor.Neovim072, func(t *testing.T, e *fakeeditor.Editor, _, answer string) {
			end := protocol.Position{Line: uint32(strings.Count(e.Text(answer), "\n"))}
			if err := e.Edit(answer, &protocol.Range{Start: end, End: end}, "Thanks.\n"); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), map[string]string{"a.go": before})
			e, _ := fakeeditor.StartReady(t, tc.opt(dir))
			path, md := filepath.Join(dir, "a.go"), filepath.Join(dir, "answer.md")
			if err := e.Open(md, "markdown", answer); err != nil {
				t.Fatal(err)
			}
			u := fakeeditor.URI(md)
			if _, err := e.WaitDiagnostics(u, diagWant{protocol.DiagnosticSeverityHint, "applies exactly: a.go lines 5-8"}.match, answerWait); err != nil {
				t.Fatal(err)
			}
			// The agent's own edit, on the disk, of a line the block quotes.
			now := strings.Replace(before, "sum += x", "sum += 2 * x", 1)
			writeFiles(t, dir, map[string]string{"a.go": now})
			tc.told(t, e, path, md)
			want := diagWant{protocol.DiagnosticSeverityError, "stale: the search quotes the file on the disk before a change seen at "}
			diags, err := e.WaitDiagnostics(u, want.match, answerWait)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(diags[0].Message, "nothing was merged") {
				t.Errorf("the stale block's diagnostic: %q", diags[0].Message)
			}
			if got := answerRead(t, path); got != now {
				t.Errorf("a.go on the disk:\n%s", got)
			}
		})
	}
}
