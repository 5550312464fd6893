package lsp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// These tests drive the built graft serve over stdio as an editor does:
// graft.suggest turns an agent's answer into suggestions shown in the
// files it changes, which the person applies or dismisses from code
// actions, and which follow the buffer as it is edited.

// suggestMainGo is a target file with emoji and CJK before an edit point: its
// UTF-16, UTF-8 and byte columns all differ there.
const suggestMainGo = "package main\n" +
	"\n" +
	"func main() {\n" +
	"\ts := \"😀漢字\"; x := 1\n" +
	"\tprintln(s, x)\n" +
	"}\n" +
	"\n" +
	"func answer() int {\n" +
	"\treturn 41\n" +
	"}\n"

// suggestAnswer is a SEARCH/REPLACE answer that changes the last function
// of suggestMainGo.
const suggestAnswer = "main.go\n" +
	"<<<<<<< SEARCH\n" +
	"func answer() int {\n" +
	"\treturn 41\n" +
	"}\n" +
	"=======\n" +
	"func answer() int {\n" +
	"\treturn 42\n" +
	"}\n" +
	">>>>>>> REPLACE\n"

// suggestEditX is a str-replace edit of suggestMainGo in the middle of the line after
// the emoji.
var suggestEditX = map[string]any{"path": "main.go", "old_string": "x := 1", "new_string": "x := 2"}

const suggestWait = 10 * time.Second

// suggestResult is the reply to graft.suggest.
type suggestResult struct {
	Blocks []struct {
		Index   int             `json:"index"`
		Path    string          `json:"path"`
		Status  string          `json:"status"`
		Message string          `json:"message"`
		ID      string          `json:"id"`
		URI     string          `json:"uri"`
		Range   *protocol.Range `json:"range"`
	} `json:"blocks"`
	Suggestions []suggestEntry `json:"suggestions"`
}

// suggestEntry is an entry of graft.suggestions.
type suggestEntry struct {
	ID       string         `json:"id"`
	URI      string         `json:"uri"`
	Path     string         `json:"path"`
	Range    protocol.Range `json:"range"`
	Version  *int32         `json:"version"`
	Strategy string         `json:"strategy"`
	Score    float64        `json:"score"`
	Summary  string         `json:"summary"`
	State    string         `json:"state"`
	Message  string         `json:"message"`
}

// suggestApplied is the reply to graft.applySuggestion.
type suggestApplied struct {
	Applied       bool   `json:"applied"`
	FailureReason string `json:"failureReason"`
	Blocks        []struct {
		ID      string `json:"id"`
		Status  string `json:"status"`
		Message string `json:"message"`
	} `json:"blocks"`
}

// suggestWorkspace returns a temporary workspace holding files.
func suggestWorkspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// suggestExecute runs a workspace/executeCommand and decodes its result.
func suggestExecute(t *testing.T, e *fakeeditor.Editor, command string, arg, result any) {
	t.Helper()
	if err := suggestTryExecute(e, command, arg, result); err != nil {
		t.Fatalf("%s: %v", command, err)
	}
}

// suggestTryExecute runs a workspace/executeCommand and returns its error.
func suggestTryExecute(e *fakeeditor.Editor, command string, arg, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), suggestWait)
	defer cancel()
	args := []any{}
	if arg != nil {
		args = append(args, arg)
	}
	return e.Call(ctx, "workspace/executeCommand", map[string]any{"command": command, "arguments": args}, result)
}

// suggestRun executes the command of an suggestAction or a lens, as an editor does
// when the person picks it.
func suggestRun(t *testing.T, e *fakeeditor.Editor, c *protocol.Command, result any) {
	t.Helper()
	if c == nil {
		t.Fatal("no command")
	}
	var arg any
	if len(c.Arguments) > 0 {
		arg = c.Arguments[0]
	}
	suggestExecute(t, e, c.Command, arg, result)
}

// suggestActions asks for the code actions over r in the document at path.
func suggestActions(t *testing.T, e *fakeeditor.Editor, path string, r protocol.Range) []protocol.CodeAction {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), suggestWait)
	defer cancel()
	var actions []protocol.CodeAction
	err := e.Call(ctx, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": fakeeditor.URI(path)},
		"range":        r,
		"context":      map[string]any{"diagnostics": []any{}},
	}, &actions)
	if err != nil {
		t.Fatalf("codeAction: %v", err)
	}
	return actions
}

// suggestAction returns the suggestAction whose title starts with prefix, or fails.
func suggestAction(t *testing.T, actions []protocol.CodeAction, prefix string) protocol.CodeAction {
	t.Helper()
	for _, a := range actions {
		if strings.HasPrefix(a.Title, prefix) {
			return a
		}
	}
	t.Fatalf("no action %q among %v", prefix, suggestTitles(actions))
	return protocol.CodeAction{}
}

func suggestTitles(actions []protocol.CodeAction) []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.Title)
	}
	return out
}

// suggestList returns graft.suggestions, of the file at path when
// path is not empty.
func suggestList(t *testing.T, e *fakeeditor.Editor, path string) []suggestEntry {
	t.Helper()
	var arg any
	if path != "" {
		arg = map[string]any{"uri": fakeeditor.URI(path)}
	}
	var out []suggestEntry
	suggestExecute(t, e, "graft.suggestions", arg, &out)
	return out
}

// suggestRange returns the range of the first occurrence of sub in text, in
// the editor's encoding.
func suggestRange(t *testing.T, text, sub, enc string) protocol.Range {
	t.Helper()
	i := strings.Index(text, sub)
	if i < 0 {
		t.Fatalf("%q not in the text", sub)
	}
	return protocol.Range{Start: fakeeditor.PositionAt(text, i, enc), End: fakeeditor.PositionAt(text, i+len(sub), enc)}
}

// suggestDiag returns a diagnostics condition: one diagnostic of severity
// sev over r.
func suggestDiag(r protocol.Range, sev protocol.DiagnosticSeverity) func([]protocol.Diagnostic) bool {
	return func(ds []protocol.Diagnostic) bool {
		for _, d := range ds {
			if d.Range == r && d.Severity == sev {
				return true
			}
		}
		return false
	}
}

// suggestNone is the diagnostics condition of a document that shows nothing.
func suggestNone(ds []protocol.Diagnostic) bool { return len(ds) == 0 }

func TestSuggestShowsHintOverRegion(t *testing.T) {
	for _, tc := range []struct {
		name      string
		encodings []string
		want      string
	}{
		{"utf-16", []string{"utf-16"}, "utf-16"},
		{"utf-8 offered", []string{"utf-8", "utf-16"}, "utf-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo})
			opt := fakeeditor.VSCode(dir)
			opt.PositionEncodings = tc.encodings
			e, _ := fakeeditor.StartReady(t, opt)
			if got := e.Encoding(); got != tc.want {
				t.Fatalf("encoding %s, want %s", got, tc.want)
			}
			path := filepath.Join(dir, "main.go")
			if err := e.Open(path, "go", suggestMainGo); err != nil {
				t.Fatal(err)
			}
			var reply suggestResult
			suggestExecute(t, e, "graft.suggest", map[string]any{"edits": []any{suggestEditX}}, &reply)

			want := suggestRange(t, suggestMainGo, "x := 1", tc.want)
			if len(reply.Blocks) != 1 || reply.Blocks[0].ID == "" || reply.Blocks[0].Range == nil || *reply.Blocks[0].Range != want {
				t.Fatalf("reply %+v, want one suggestion over %v", reply, want)
			}
			ds, err := e.WaitDiagnostics(fakeeditor.URI(path), suggestDiag(want, protocol.DiagnosticSeverityHint), suggestWait)
			if err != nil {
				t.Fatal(err)
			}
			if msg := ds[0].Message; !strings.Contains(msg, "exact") || !strings.Contains(msg, "x := 1 → x := 2") {
				t.Errorf("message %q: want the strategy and the change", msg)
			}
			if got := e.Text(path); got != suggestMainGo {
				t.Errorf("buffer changed by a suggestion:\n%s", got)
			}
			if n := len(e.AppliedEdits()); n != 0 {
				t.Errorf("%d workspace/applyEdit sent for a suggestion", n)
			}
		})
	}
}

func TestSuggestAppliedFromCodeAction(t *testing.T) {
	for _, opt := range []func(...string) fakeeditor.Options{fakeeditor.VSCode, fakeeditor.Neovim072} {
		dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo})
		o := opt(dir)
		t.Run(o.Flavor.String(), func(t *testing.T) {
			e, _ := fakeeditor.StartReady(t, o)
			path := filepath.Join(dir, "main.go")
			// The buffer differs from the disk: the suggestion is made and
			// applied against the buffer.
			buffer := strings.Replace(suggestMainGo, "package main\n", "package main\n\n// unsaved\n", 1)
			if err := e.Open(path, "go", buffer); err != nil {
				t.Fatal(err)
			}
			var reply suggestResult
			suggestExecute(t, e, "graft.suggest", map[string]any{"edits": []any{suggestEditX}}, &reply)
			r := suggestRange(t, buffer, "x := 1", e.Encoding())
			if _, err := e.WaitDiagnostics(fakeeditor.URI(path), suggestDiag(r, protocol.DiagnosticSeverityHint), suggestWait); err != nil {
				t.Fatal(err)
			}

			actions := suggestActions(t, e, path, protocol.Range{Start: r.Start, End: r.Start})
			for _, title := range []string{"Accept hunk", "Accept all in file", "Reject hunk", "Reject all in file"} {
				suggestAction(t, actions, title)
			}
			var applied suggestApplied
			suggestRun(t, e, suggestAction(t, actions, "Accept hunk").Command, &applied)
			if !applied.Applied || len(applied.Blocks) != 1 || applied.Blocks[0].Status != "applied" {
				t.Fatalf("apply: %+v", applied)
			}
			if got, want := e.Text(path), strings.Replace(buffer, "x := 1", "x := 2", 1); got != want {
				t.Errorf("buffer:\n%s\nwant:\n%s", got, want)
			}
			if disk, _ := os.ReadFile(path); string(disk) != suggestMainGo {
				t.Errorf("the disk was written:\n%s", disk)
			}
			if _, err := e.WaitDiagnostics(fakeeditor.URI(path), suggestNone, suggestWait); err != nil {
				t.Errorf("an applied suggestion stays shown: %v", err)
			}
			if l := suggestList(t, e, ""); len(l) != 0 {
				t.Errorf("suggestions left after applying: %+v", l)
			}
		})
	}
}

func TestSuggestApplyAllInFile(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo, "other.go": "package main\n\nvar y = 1\n"})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	path := filepath.Join(dir, "main.go")
	other := filepath.Join(dir, "other.go")
	for _, p := range []string{path, other} {
		text, _ := os.ReadFile(p)
		if err := e.Open(p, "go", string(text)); err != nil {
			t.Fatal(err)
		}
	}
	var reply suggestResult
	suggestExecute(t, e, "graft.suggest", map[string]any{
		"text":  suggestAnswer,
		"edits": []any{suggestEditX, map[string]any{"path": "other.go", "old_string": "var y = 1", "new_string": "var y = 2"}},
	}, &reply)
	if len(reply.Suggestions) != 3 {
		t.Fatalf("want 3 suggestions, got %+v", reply)
	}
	if _, err := e.WaitDiagnostics(fakeeditor.URI(path), func(ds []protocol.Diagnostic) bool { return len(ds) == 2 }, suggestWait); err != nil {
		t.Fatal(err)
	}

	r := suggestRange(t, suggestMainGo, "return 41", e.Encoding())
	var applied suggestApplied
	suggestRun(t, e, suggestAction(t, suggestActions(t, e, path, r), "Accept all in file").Command, &applied)
	if !applied.Applied || len(applied.Blocks) != 2 {
		t.Fatalf("apply all: %+v", applied)
	}
	want := strings.Replace(strings.Replace(suggestMainGo, "x := 1", "x := 2", 1), "return 41", "return 42", 1)
	if got := e.Text(path); got != want {
		t.Errorf("buffer:\n%s\nwant:\n%s", got, want)
	}
	if got := e.Text(other); got != "package main\n\nvar y = 1\n" {
		t.Errorf("another file changed:\n%s", got)
	}
	if _, err := e.WaitDiagnostics(fakeeditor.URI(path), suggestNone, suggestWait); err != nil {
		t.Error(err)
	}
	left := suggestList(t, e, "")
	if len(left) != 1 || left[0].Path != "other.go" || left[0].State != "pending" {
		t.Errorf("left: %+v, want the suggestion of other.go", left)
	}
}

func TestSuggestDismissed(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo, "other.go": "package main\n\nvar y = 1\n"})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	path := filepath.Join(dir, "main.go")
	other := filepath.Join(dir, "other.go")
	if err := e.Open(path, "go", suggestMainGo); err != nil {
		t.Fatal(err)
	}
	var reply suggestResult
	suggestExecute(t, e, "graft.suggest", map[string]any{
		"text":  suggestAnswer,
		"edits": []any{suggestEditX, map[string]any{"path": "other.go", "old_string": "var y = 1", "new_string": "var y = 2"}},
	}, &reply)
	if _, err := e.WaitDiagnostics(fakeeditor.URI(path), func(ds []protocol.Diagnostic) bool { return len(ds) == 2 }, suggestWait); err != nil {
		t.Fatal(err)
	}

	// One, from its code suggestAction: the other stays.
	r := suggestRange(t, suggestMainGo, "x := 1", e.Encoding())
	suggestRun(t, e, suggestAction(t, suggestActions(t, e, path, r), "Reject hunk").Command, nil)
	kept := suggestRange(t, suggestMainGo, "\treturn 41", e.Encoding())
	if _, err := e.WaitDiagnostics(fakeeditor.URI(path), func(ds []protocol.Diagnostic) bool {
		return len(ds) == 1 && ds[0].Range == kept
	}, suggestWait); err != nil {
		t.Fatal(err)
	}
	// Those of a file.
	suggestExecute(t, e, "graft.dismiss", map[string]any{"uri": fakeeditor.URI(path)}, nil)
	if _, err := e.WaitDiagnostics(fakeeditor.URI(path), suggestNone, suggestWait); err != nil {
		t.Fatal(err)
	}
	if l := suggestList(t, e, ""); len(l) != 1 || l[0].Path != "other.go" {
		t.Fatalf("left %+v, want the one of other.go", l)
	}
	// All of them: other.go is not open, its diagnostics were published
	// for its file URI all the same.
	if _, err := e.WaitDiagnostics(fakeeditor.URI(other), func(ds []protocol.Diagnostic) bool { return len(ds) == 1 }, suggestWait); err != nil {
		t.Fatal(err)
	}
	suggestExecute(t, e, "graft.dismiss", nil, nil)
	if _, err := e.WaitDiagnostics(fakeeditor.URI(other), suggestNone, suggestWait); err != nil {
		t.Fatal(err)
	}
	if l := suggestList(t, e, ""); len(l) != 0 {
		t.Fatalf("left %+v after dismissing all", l)
	}
	if e.Text(path) != suggestMainGo {
		t.Error("dismissing changed the buffer")
	}
}

func TestSuggestFollowsEditAbove(t *testing.T) {
	const numbered = "one\ntwo\nthree\nfour\nfive\n"
	tests := []struct {
		name string
		// edit is the suggestion, in the editor's file numbered.txt.
		edit map[string]any
		// region is the text the suggestion's diagnostic covers.
		region string
		// old is the text its hunk replaces.
		old  string
		want string
	}{
		{
			name:   "replace",
			edit:   map[string]any{"path": "numbered.txt", "old_string": "four\n", "new_string": "FOUR\n"},
			region: "four",
			old:    "four\n",
			want:   "added 1\nadded 2\nadded 3\none\ntwo\nthree\nFOUR\nfive\n",
		},
		{
			// An insertion has only its line to go by: the line must
			// follow the lines inserted above it.
			name:   "insert after a line",
			edit:   map[string]any{"command": "insert", "path": "numbered.txt", "insert_line": 3, "new_str": "inserted\n"},
			region: "",
			want:   "added 1\nadded 2\nadded 3\none\ntwo\nthree\ninserted\nfour\nfive\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := suggestWorkspace(t, map[string]string{"numbered.txt": numbered})
			e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
			path := filepath.Join(dir, "numbered.txt")
			if err := e.Open(path, "plaintext", numbered); err != nil {
				t.Fatal(err)
			}
			var reply suggestResult
			suggestExecute(t, e, "graft.suggest", map[string]any{"edits": []any{tc.edit}}, &reply)
			if len(reply.Suggestions) != 1 {
				t.Fatalf("reply %+v", reply)
			}
			at := func(text string) protocol.Range {
				if tc.region == "" {
					p := fakeeditor.PositionAt(text, strings.Index(text, "four"), e.Encoding())
					return protocol.Range{Start: p, End: p}
				}
				return suggestRange(t, text, tc.region, e.Encoding())
			}
			if _, err := e.WaitDiagnostics(fakeeditor.URI(path), suggestDiag(at(numbered), protocol.DiagnosticSeverityHint), suggestWait); err != nil {
				t.Fatal(err)
			}

			if err := e.Edit(path, &protocol.Range{}, "added 1\nadded 2\nadded 3\n"); err != nil {
				t.Fatal(err)
			}
			moved := at(e.Text(path))
			if _, err := e.WaitDiagnostics(fakeeditor.URI(path), suggestDiag(moved, protocol.DiagnosticSeverityHint), suggestWait); err != nil {
				t.Fatalf("the suggestion did not follow the edit above it: %v", err)
			}
			// The hunk's range is that of the text it replaces.
			hunk := moved
			if tc.old != "" {
				hunk = suggestRange(t, e.Text(path), tc.old, e.Encoding())
			}
			l := suggestList(t, e, path)
			if len(l) != 1 || l[0].Range != hunk || l[0].State != "pending" || l[0].Version == nil || *l[0].Version != e.Version(path) {
				t.Fatalf("graft.suggestions: %+v, want one pending over %v at version %d", l, hunk, e.Version(path))
			}
			var applied suggestApplied
			suggestRun(t, e, suggestAction(t, suggestActions(t, e, path, moved), "Accept hunk").Command, &applied)
			if !applied.Applied {
				t.Fatalf("apply: %+v", applied)
			}
			if got := e.Text(path); got != tc.want {
				t.Errorf("buffer:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestSuggestAppliedBeforeRefresh applies a suggestion right after an edit
// above it, before the server's debounced refresh: it is resolved again
// against the version the edit is sent for.
func TestSuggestAppliedBeforeRefresh(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	path := filepath.Join(dir, "main.go")
	if err := e.Open(path, "go", suggestMainGo); err != nil {
		t.Fatal(err)
	}
	var reply suggestResult
	suggestExecute(t, e, "graft.suggest", map[string]any{"text": suggestAnswer}, &reply)
	if len(reply.Suggestions) != 1 {
		t.Fatalf("reply %+v", reply)
	}
	id := reply.Suggestions[0].ID
	if err := e.Edit(path, &protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 1}}, "// 😀 one\n// two\n"); err != nil {
		t.Fatal(err)
	}
	var applied suggestApplied
	suggestExecute(t, e, "graft.applySuggestion", map[string]any{"uri": fakeeditor.URI(path), "id": id}, &applied)
	if !applied.Applied {
		t.Fatalf("apply: %+v", applied)
	}
	want := strings.Replace(strings.Replace(suggestMainGo, "return 41", "return 42", 1), "package main\n", "package main\n// 😀 one\n// two\n", 1)
	if got := e.Text(path); got != want {
		t.Errorf("buffer:\n%s\nwant:\n%s", got, want)
	}
}

func TestSuggestRegionDeleted(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	path := filepath.Join(dir, "main.go")
	if err := e.Open(path, "go", suggestMainGo); err != nil {
		t.Fatal(err)
	}
	var reply suggestResult
	suggestExecute(t, e, "graft.suggest", map[string]any{"text": suggestAnswer}, &reply)
	if len(reply.Suggestions) != 1 {
		t.Fatalf("reply %+v", reply)
	}
	id := reply.Suggestions[0].ID

	// The person deletes the function the suggestion changes.
	i := strings.Index(suggestMainGo, "\nfunc answer")
	del := protocol.Range{Start: fakeeditor.PositionAt(suggestMainGo, i, e.Encoding()), End: fakeeditor.EndPosition(suggestMainGo, e.Encoding())}
	if err := e.Edit(path, &del, "\n"); err != nil {
		t.Fatal(err)
	}
	ds, err := e.WaitDiagnostics(fakeeditor.URI(path), func(ds []protocol.Diagnostic) bool {
		return len(ds) == 1 && ds[0].Severity == protocol.DiagnosticSeverityWarning
	}, suggestWait)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ds[0].Message, "no longer applies") {
		t.Errorf("message %q: want it to say the suggestion no longer applies", ds[0].Message)
	}
	actions := suggestActions(t, e, path, ds[0].Range)
	for _, a := range actions {
		if strings.HasPrefix(a.Title, "Accept") {
			t.Errorf("action %q offered for a suggestion that no longer applies", a.Title)
		}
	}
	suggestAction(t, actions, "Reject hunk")
	if l := suggestList(t, e, path); len(l) != 1 || l[0].State != "stale" || l[0].Message == "" {
		t.Errorf("graft.suggestions: %+v, want it stale with a reason", l)
	}

	before := e.Text(path)
	var applied suggestApplied
	suggestExecute(t, e, "graft.applySuggestion", map[string]any{"uri": fakeeditor.URI(path), "id": id}, &applied)
	if applied.Applied || applied.FailureReason == "" {
		t.Errorf("a stale suggestion was applied: %+v", applied)
	}
	if e.Text(path) != before || len(e.AppliedEdits()) != 0 {
		t.Error("a stale suggestion changed the buffer")
	}
}

func TestSuggestUnopenedFile(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	path := filepath.Join(dir, "main.go")
	var reply suggestResult
	suggestExecute(t, e, "graft.suggest", map[string]any{"text": suggestAnswer}, &reply)
	r := suggestRange(t, suggestMainGo, "\treturn 41", e.Encoding())
	if _, err := e.WaitDiagnostics(fakeeditor.URI(path), suggestDiag(r, protocol.DiagnosticSeverityHint), suggestWait); err != nil {
		t.Fatal(err)
	}
	l := suggestList(t, e, path)
	if len(l) != 1 || l[0].Version != nil || l[0].State != "pending" || l[0].Path != "main.go" {
		t.Fatalf("graft.suggestions: %+v, want one pending on the disk (no version)", l)
	}

	// Opened with unsaved lines above: the buffer wins, and the
	// suggestion moves.
	buffer := "// unsaved\n// lines\n" + suggestMainGo
	if err := e.Open(path, "go", buffer); err != nil {
		t.Fatal(err)
	}
	moved := suggestRange(t, buffer, "\treturn 41", e.Encoding())
	if _, err := e.WaitDiagnostics(fakeeditor.URI(path), suggestDiag(moved, protocol.DiagnosticSeverityHint), suggestWait); err != nil {
		t.Fatal(err)
	}
	var applied suggestApplied
	suggestExecute(t, e, "graft.applySuggestion", map[string]any{"uri": fakeeditor.URI(path)}, &applied)
	if !applied.Applied {
		t.Fatalf("apply: %+v", applied)
	}
	if got, want := e.Text(path), strings.Replace(buffer, "return 41", "return 42", 1); got != want {
		t.Errorf("buffer:\n%s\nwant:\n%s", got, want)
	}
	if disk, _ := os.ReadFile(path); string(disk) != suggestMainGo {
		t.Errorf("the disk was written:\n%s", disk)
	}
}

func TestSuggestRefusesFileOperations(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	var reply suggestResult
	suggestExecute(t, e, "graft.suggest", map[string]any{"edits": []any{
		map[string]any{"command": "create", "path": "new.go", "file_text": "package main\n"},
		suggestEditX,
	}}, &reply)
	if len(reply.Blocks) != 2 {
		t.Fatalf("reply %+v", reply)
	}
	if b := reply.Blocks[0]; b.Status != "failed" || !strings.Contains(b.Message, "graft.apply") || b.ID != "" {
		t.Errorf("create: %+v, want failed, pointing to graft.apply", b)
	}
	if b := reply.Blocks[1]; b.Status != "applied" || b.ID == "" {
		t.Errorf("edit: %+v, want a suggestion", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.go")); err == nil {
		t.Error("new.go was created")
	}
	// In the words of graft.apply's summary and of the editors' status bars.
	wantMessage(t, e, "Graft: 1 suggested, 1 failed: block 1 (new.go): ")
}

// wantMessage waits for the server to show a message that starts with prefix.
func wantMessage(t *testing.T, e *fakeeditor.Editor, prefix string) {
	t.Helper()
	if _, err := e.WaitMessage(func(m fakeeditor.ShowMessage) bool { return strings.HasPrefix(m.Message, prefix) }, suggestWait); err != nil {
		t.Errorf("no message %q...: %v; shown: %+v", prefix, err, e.Messages())
	}
}

func TestSuggestAtomic(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	var reply suggestResult
	suggestExecute(t, e, "graft.suggest", map[string]any{"atomic": true, "edits": []any{
		suggestEditX,
		map[string]any{"path": "main.go", "old_string": "not in the file at all", "new_string": "x"},
	}}, &reply)
	if len(reply.Suggestions) != 0 || reply.Blocks[0].Status != "skipped" || reply.Blocks[1].Status != "failed" {
		t.Errorf("atomic with a failing block: %+v, want nothing suggested", reply)
	}
	wantMessage(t, e, "Graft: 0 suggested, 1 failed, 1 skipped: block 2 (main.go): ")
	if l := suggestList(t, e, ""); len(l) != 0 {
		t.Errorf("suggestions %+v", l)
	}
}

func TestSuggestCodeLenses(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	path := filepath.Join(dir, "main.go")
	if err := e.Open(path, "go", suggestMainGo); err != nil {
		t.Fatal(err)
	}
	var reply suggestResult
	suggestExecute(t, e, "graft.suggest", map[string]any{"text": suggestAnswer, "edits": []any{suggestEditX}}, &reply)
	ctx, cancel := context.WithTimeout(context.Background(), suggestWait)
	defer cancel()
	var lenses []protocol.CodeLens
	if err := e.Call(ctx, "textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": fakeeditor.URI(path)}}, &lenses); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lenses {
		b, _ := json.Marshal(l.Command.Arguments)
		got = append(got, l.Command.Command+" "+string(b))
	}
	if len(lenses) != 6 {
		t.Fatalf("lenses %v, want Accept and Reject over each of 2 hunks, and Accept all and Reject all", got)
	}
	for i, l := range lenses {
		want := []uint32{0, 0, 3, 3, 8, 8}[i]
		if line := l.Range.Start.Line; line != want {
			t.Errorf("lens %d (%s) on line %d, want %d (0: the file, 3: x := 1, 8: return 41)", i, l.Command.Title, line, want)
		}
	}
	var applied suggestApplied
	for _, l := range lenses {
		if l.Command.Command == "graft.accept" && l.Range.Start.Line == 3 {
			suggestRun(t, e, l.Command, &applied)
		}
	}
	if !applied.Applied || e.Text(path) != strings.Replace(suggestMainGo, "x := 1", "x := 2", 1) {
		t.Errorf("applying from a lens: %+v\n%s", applied, e.Text(path))
	}
}

// TestSuggestNotAppliedOverAnEditInFlight changes the buffer while the
// edit of a suggestion is on its way to the editor: the editor refuses
// the edit, made for the version before, and the suggestion stays.
func TestSuggestNotAppliedOverAnEditInFlight(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo})
	path := filepath.Join(dir, "main.go")
	opt := fakeeditor.VSCode(dir)
	typed := false
	opt.BeforeApplyEdit = func(e *fakeeditor.Editor, _ json.RawMessage) {
		if !typed {
			typed = true
			if err := e.Edit(path, &protocol.Range{}, "// typed meanwhile\n"); err != nil {
				t.Error(err)
			}
		}
	}
	e, _ := fakeeditor.StartReady(t, opt)
	if err := e.Open(path, "go", suggestMainGo); err != nil {
		t.Fatal(err)
	}
	var reply suggestResult
	suggestExecute(t, e, "graft.suggest", map[string]any{"edits": []any{suggestEditX}}, &reply)
	if len(reply.Suggestions) != 1 {
		t.Fatalf("reply %+v", reply)
	}
	var applied suggestApplied
	suggestExecute(t, e, "graft.applySuggestion", map[string]any{"uri": fakeeditor.URI(path), "id": reply.Suggestions[0].ID}, &applied)
	if applied.Applied {
		t.Fatalf("an edit for an older version was applied: %+v", applied)
	}
	if got, want := e.Text(path), "// typed meanwhile\n"+suggestMainGo; got != want {
		t.Fatalf("buffer:\n%s\nwant:\n%s", got, want)
	}
	// Still pending, it follows the typing and applies at the next try.
	moved := suggestRange(t, e.Text(path), "x := 1", e.Encoding())
	if _, err := e.WaitDiagnostics(fakeeditor.URI(path), suggestDiag(moved, protocol.DiagnosticSeverityHint), suggestWait); err != nil {
		t.Fatal(err)
	}
	suggestExecute(t, e, "graft.applySuggestion", map[string]any{"uri": fakeeditor.URI(path), "id": reply.Suggestions[0].ID}, &applied)
	if want := "// typed meanwhile\n" + strings.Replace(suggestMainGo, "x := 1", "x := 2", 1); !applied.Applied || e.Text(path) != want {
		t.Fatalf("second try: %+v\n%s", applied, e.Text(path))
	}
}
