package lsp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
)

// answerWait bounds every wait for the server in these tests.
const answerWait = 10 * time.Second

// answerWorkspace writes the files of testdata/answers/NAME.txtar into a
// new directory and returns it.
func answerWorkspace(t testing.TB, name string) string {
	t.Helper()
	dir := t.TempDir()
	testenv.WriteTxtar(t, filepath.Join("testdata", "answers", name+".txtar"), dir)
	return dir
}

// answerOpen opens dir/name in the editor with its content on disk.
func answerOpen(t testing.TB, e *fakeeditor.Editor, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Open(path, fakeeditor.LanguageID(path), string(data)); err != nil {
		t.Fatal(err)
	}
	return path
}

// answerRead returns the content of the file at path.
func answerRead(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// wantDiag is what one block's diagnostic must say.
type wantDiag struct {
	// lines are the block's first and last lines in the answer, 0-based.
	lines    [2]uint32
	severity protocol.DiagnosticSeverity
	code     string
	// message is how the message starts; contains is more it holds.
	message, contains string
	// related are the locations of the candidates: file and 0-based lines.
	related []wantLocation
}

type wantLocation struct {
	file  string
	lines [2]uint32
}

// mixedDiags are the diagnostics of testdata/answers/mixed.txtar as it is.
var mixedDiags = []wantDiag{
	{lines: [2]uint32{4, 12}, severity: protocol.DiagnosticSeverityHint, code: "exact",
		message: "applies exactly: calc.go lines 4-6"},
	{lines: [2]uint32{18, 26}, severity: protocol.DiagnosticSeverityInformation, code: "indentation-flexible",
		message: "applies fuzzily: calc.go lines 9-11, indentation-flexible, 100% similar"},
	{lines: [2]uint32{30, 33}, severity: protocol.DiagnosticSeverityHint, code: "exact",
		message: "applies exactly: mul.go line 3"},
	{lines: [2]uint32{38, 38}, severity: protocol.DiagnosticSeverityError, code: "conflict",
		message:  "conflict at line 6: the edit changes a line that differs in the file from the model's copy (mul.go)",
		contains: "candidate at lines 4-7 (86% similar)",
		related:  []wantLocation{{"mul.go", [2]uint32{3, 6}}}},
	{lines: [2]uint32{43, 49}, severity: protocol.DiagnosticSeverityError, code: "ambiguous",
		message: "ambiguous: the search text occurs 2 times (lines 4-5, lines 9-10)",
		related: []wantLocation{{"dup.go", [2]uint32{3, 4}}, {"dup.go", [2]uint32{8, 9}}}},
}

// checkDiags compares diags with want, block by block: each diagnostic
// covers its block's lines of the answer text to the end of the last one
// (in UTF-16), says the fate of the block first, and points at the
// candidates of a failed block in their files when related is true.
func checkDiags(t *testing.T, dir, answer string, diags []protocol.Diagnostic, want []wantDiag, related bool) {
	t.Helper()
	if len(diags) != len(want) {
		t.Fatalf("%d diagnostics, want %d: %+v", len(diags), len(want), diags)
	}
	lines := strings.Split(answer, "\n")
	for i, w := range want {
		d := diags[i]
		end := uint32(len(utf16.Encode([]rune(lines[w.lines[1]]))))
		wantRange := protocol.Range{
			Start: protocol.Position{Line: w.lines[0]},
			End:   protocol.Position{Line: w.lines[1], Character: end},
		}
		if d.Range != wantRange {
			t.Errorf("block %d: range %v, want %v", i+1, d.Range, wantRange)
		}
		if d.Severity != w.severity {
			t.Errorf("block %d: severity %v, want %v (%q)", i+1, d.Severity, w.severity, d.Message)
		}
		if d.Code != w.code {
			t.Errorf("block %d: code %v, want %q", i+1, d.Code, w.code)
		}
		if d.Source != "graft" {
			t.Errorf("block %d: source %q, want graft", i+1, d.Source)
		}
		if !strings.HasPrefix(d.Message, w.message) || !strings.Contains(d.Message, w.contains) {
			t.Errorf("block %d: message %q, want it to start with %q and hold %q", i+1, d.Message, w.message, w.contains)
		}
		var wantRel []wantLocation
		if related {
			wantRel = w.related
		}
		if len(d.RelatedInformation) != len(wantRel) {
			t.Errorf("block %d: related information %+v, want %d locations", i+1, d.RelatedInformation, len(wantRel))
			continue
		}
		for k, r := range wantRel {
			got := d.RelatedInformation[k]
			if got.Location.URI != protocol.DocumentURI(fakeeditor.URI(filepath.Join(dir, r.file))) {
				t.Errorf("block %d: related %d in %s, want %s", i+1, k, got.Location.URI, r.file)
			}
			if got.Location.Range.Start != (protocol.Position{Line: r.lines[0]}) || got.Location.Range.End.Line != r.lines[1] {
				t.Errorf("block %d: related %d at %v, want lines %d-%d", i+1, k, got.Location.Range, r.lines[0], r.lines[1])
			}
			if !strings.Contains(got.Message, "candidate") {
				t.Errorf("block %d: related %d says %q, want it to name the candidate", i+1, k, got.Message)
			}
		}
	}
}

// waitRequest reports whether the server sent a request for method. When
// want is true it waits for one, up to answerWait; when false it lets the
// server run a moment before it looks.
func waitRequest(e *fakeeditor.Editor, method string, want bool) bool {
	sent := func() bool {
		return slices.ContainsFunc(e.ServerRequests(), func(r fakeeditor.ServerRequest) bool { return r.Method == method })
	}
	if !want {
		time.Sleep(100 * time.Millisecond)
		return sent()
	}
	for deadline := time.Now().Add(answerWait); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if sent() {
			return true
		}
	}
	return false
}

// diagsLike returns a predicate that holds for n diagnostics whose block k
// has severity sev.
func diagsLike(n, k int, sev protocol.DiagnosticSeverity) func([]protocol.Diagnostic) bool {
	return func(d []protocol.Diagnostic) bool { return len(d) == n && d[k].Severity == sev }
}

func TestAnswerDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  func(folders ...string) fakeeditor.Options
	}{
		{"vscode", fakeeditor.VSCode},
		{"neovim-0.7.2", fakeeditor.Neovim072},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := answerWorkspace(t, "mixed")
			e, _ := fakeeditor.StartReady(t, tc.opt(dir))
			answer := answerOpen(t, e, dir, "answer.md")
			diags, err := e.WaitDiagnostics(fakeeditor.URI(answer), func(d []protocol.Diagnostic) bool { return len(d) > 0 }, answerWait)
			if err != nil {
				t.Fatal(err)
			}
			// Both editors advertise relatedInformation.
			checkDiags(t, dir, e.Text(answer), diags, mixedDiags, true)
			if pd, _ := e.Diagnostics(fakeeditor.URI(answer)); pd.Version != nil && *pd.Version != 1 {
				t.Errorf("diagnostics for version %d, want 1", *pd.Version)
			}
			// Only an editor that shows lenses and can refresh them is
			// asked to, once the blocks' fate is known.
			if wantRefresh := tc.name == "vscode"; waitRequest(e, "workspace/codeLens/refresh", wantRefresh) != wantRefresh {
				t.Errorf("workspace/codeLens/refresh sent: %v, want %v", !wantRefresh, wantRefresh)
			}
			if bad := e.BadNotifications(); len(bad) > 0 {
				t.Errorf("notifications the editor could not read: %q", bad)
			}
		})
	}
}

func TestAnswerWithoutRelatedInformation(t *testing.T) {
	dir := answerWorkspace(t, "mixed")
	opt := fakeeditor.VSCode(dir)
	// An editor that says nothing of publishDiagnostics: no related
	// information.
	opt.Capabilities = map[string]any{
		"workspace":    map[string]any{"applyEdit": true, "workspaceEdit": map[string]any{"documentChanges": true}},
		"textDocument": map[string]any{"codeAction": map[string]any{}},
	}
	e, _ := fakeeditor.StartReady(t, opt)
	answer := answerOpen(t, e, dir, "answer.md")
	diags, err := e.WaitDiagnostics(fakeeditor.URI(answer), func(d []protocol.Diagnostic) bool { return len(d) > 0 }, answerWait)
	if err != nil {
		t.Fatal(err)
	}
	// The candidates are in the message instead.
	checkDiags(t, dir, e.Text(answer), diags, mixedDiags, false)
}

func TestAnswerRefreshesWhenATargetChanges(t *testing.T) {
	dir := answerWorkspace(t, "mixed")
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	answer := answerOpen(t, e, dir, "answer.md")
	mul := answerOpen(t, e, dir, "mul.go")
	u := fakeeditor.URI(answer)
	if _, err := e.WaitDiagnostics(u, diagsLike(5, 3, protocol.DiagnosticSeverityError), answerWait); err != nil {
		t.Fatal(err)
	}
	// The person makes mul.go what the model read: block 4 now applies
	// exactly, in the buffer; the file on disk is not what counts.
	disk := answerRead(t, mul)
	rng := protocol.Range{Start: protocol.Position{Line: 4}, End: protocol.Position{Line: 6}}
	if err := e.Edit(mul, &rng, "\treturn a * b\n"); err != nil {
		t.Fatal(err)
	}
	diags, err := e.WaitDiagnostics(u, diagsLike(5, 3, protocol.DiagnosticSeverityHint), answerWait)
	if err != nil {
		t.Fatal(err)
	}
	if want := "applies exactly: mul.go lines 4-6"; !strings.HasPrefix(diags[3].Message, want) {
		t.Errorf("block 4 after the change: %q, want %q", diags[3].Message, want)
	}
	if len(diags[3].RelatedInformation) != 0 {
		t.Errorf("block 4 applies, yet has related locations %+v", diags[3].RelatedInformation)
	}
	// The answer itself did not change: the diagnostics are for version 1.
	if pd, _ := e.Diagnostics(u); pd.Version == nil || *pd.Version != 1 {
		t.Errorf("diagnostics version %v, want 1", pd.Version)
	}
	if got := answerRead(t, mul); got != disk {
		t.Errorf("mul.go on disk changed:\n%s", got)
	}

	// Closing the target reads it from disk again: block 4 fails again.
	if err := e.Close(mul); err != nil {
		t.Fatal(err)
	}
	if _, err := e.WaitDiagnostics(u, diagsLike(5, 3, protocol.DiagnosticSeverityError), answerWait); err != nil {
		t.Fatal(err)
	}
}

// A file that no buffer holds is read from disk at each refresh that may
// change what its blocks do: a line added to the answer, even one that
// changes no block, shows the file as it is on disk now, for an editor
// that does not tell the server of changes there (see
// TestAnswerFollowsFilesOnDisk for one that does).
func TestAnswerRereadsFilesOnDisk(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.go": "package a\n\nfunc one() int { return 1 }\n"})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	answer := filepath.Join(dir, "answer.md")
	text := "a.go\n```go\n<<<<<<< SEARCH\nfunc one() int { return 1 }\n=======\nfunc one() int { return 11 }\n>>>>>>> REPLACE\n```\n"
	if err := e.Open(answer, "markdown", text); err != nil {
		t.Fatal(err)
	}
	u := fakeeditor.URI(answer)
	if _, err := e.WaitDiagnostics(u, diagsLike(1, 0, protocol.DiagnosticSeverityHint), answerWait); err != nil {
		t.Fatal(err)
	}
	// The file changes behind the server's back: the block's lines are
	// gone from it. A word of prose comes after the block.
	writeFiles(t, dir, map[string]string{"a.go": "package a\n\nfunc two() int { return 2 }\n"})
	end := protocol.Position{Line: uint32(strings.Count(text, "\n"))}
	if err := e.Edit(answer, &protocol.Range{Start: end, End: end}, "Done.\n"); err != nil {
		t.Fatal(err)
	}
	diags, err := e.WaitDiagnostics(u, diagsLike(1, 0, protocol.DiagnosticSeverityError), answerWait)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(diags[0].Message, "a.go") {
		t.Errorf("diagnostic %q does not name a.go", diags[0].Message)
	}
}

func TestAnswerRefreshesWhenEdited(t *testing.T) {
	dir := answerWorkspace(t, "mixed")
	e, _ := fakeeditor.StartReady(t, fakeeditor.Neovim072(dir))
	answer := answerOpen(t, e, dir, "answer.md")
	u := fakeeditor.URI(answer)
	if _, err := e.WaitDiagnostics(u, diagsLike(5, 4, protocol.DiagnosticSeverityError), answerWait); err != nil {
		t.Fatal(err)
	}
	// Quote the line that makes block 5 unique, in its search and its
	// replacement, as two incremental changes.
	for _, line := range []uint32{47, 44} {
		at := protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line}}
		if err := e.Edit(answer, &at, "func other() {\n"); err != nil {
			t.Fatal(err)
		}
	}
	diags, err := e.WaitDiagnostics(u, diagsLike(5, 4, protocol.DiagnosticSeverityHint), answerWait)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(mixedDiags)
	want[4] = wantDiag{lines: [2]uint32{43, 51}, severity: protocol.DiagnosticSeverityHint, code: "exact",
		message: "applies exactly: dup.go lines 8-10"}
	checkDiags(t, dir, e.Text(answer), diags, want, true)
	if pd, _ := e.Diagnostics(u); pd.Version == nil || *pd.Version != 3 {
		t.Errorf("diagnostics version %v, want 3", pd.Version)
	}

	// An answer whose blocks are all gone has no diagnostics left.
	if err := e.SetText(answer, "Never mind.\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.WaitDiagnostics(u, func(d []protocol.Diagnostic) bool { return len(d) == 0 }, answerWait); err != nil {
		t.Fatal(err)
	}
}

func TestAnswerDebouncesChanges(t *testing.T) {
	dir := answerWorkspace(t, "mixed")
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	answer := answerOpen(t, e, dir, "answer.md")
	u := fakeeditor.URI(answer)
	first, err := e.WaitPublished(u, func(pd fakeeditor.PublishedDiagnostics) bool { return len(pd.Diagnostics) == 5 }, answerWait)
	if err != nil {
		t.Fatal(err)
	}
	// Ten changes typed in a burst, each a line added above the blocks.
	const burst = 10
	for range burst {
		if err := e.Edit(answer, &protocol.Range{}, "\n"); err != nil {
			t.Fatal(err)
		}
	}
	last, err := e.WaitPublished(u, func(pd fakeeditor.PublishedDiagnostics) bool {
		return pd.Version != nil && *pd.Version == 1+burst
	}, answerWait)
	if err != nil {
		t.Fatal(err)
	}
	if got := last.Diagnostics[0].Range.Start.Line; got != 4+burst {
		t.Errorf("block 1 at line %d after the burst, want %d", got, 4+burst)
	}
	if n := last.Count - first.Count; n >= burst {
		t.Errorf("%d publications for a burst of %d changes: not debounced", n, burst)
	}
}

func TestAnswerClosedClearsDiagnostics(t *testing.T) {
	dir := answerWorkspace(t, "mixed")
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	answer := answerOpen(t, e, dir, "answer.md")
	u := fakeeditor.URI(answer)
	if _, err := e.WaitDiagnostics(u, func(d []protocol.Diagnostic) bool { return len(d) == 5 }, answerWait); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(answer); err != nil {
		t.Fatal(err)
	}
	if _, err := e.WaitDiagnostics(u, func(d []protocol.Diagnostic) bool { return len(d) == 0 }, answerWait); err != nil {
		t.Fatal(err)
	}
	if pd, _ := e.Diagnostics(u); pd.Null {
		t.Error("diagnostics cleared with null, want []")
	}
}

func TestAnswerNotForOtherLanguages(t *testing.T) {
	dir := answerWorkspace(t, "mixed")
	// A Go file that holds the very same text is code, not an answer.
	goFile := filepath.Join(dir, "answer_test.go")
	text := answerRead(t, filepath.Join(dir, "answer.md"))
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	if err := e.Open(goFile, "go", text); err != nil {
		t.Fatal(err)
	}
	answer := answerOpen(t, e, dir, "answer.md")
	// The answer, opened after, gets its diagnostics: the Go file would
	// have had its own by then.
	if _, err := e.WaitDiagnostics(fakeeditor.URI(answer), func(d []protocol.Diagnostic) bool { return len(d) == 5 }, answerWait); err != nil {
		t.Fatal(err)
	}
	if pd, ok := e.Diagnostics(fakeeditor.URI(goFile)); ok {
		t.Errorf("diagnostics published for a Go file: %+v", pd.Diagnostics)
	}
	if actions := answerActions(t, e, goFile, 4, 4); len(actions) != 0 {
		t.Errorf("code actions in a Go file: %+v", actions)
	}
	if lenses := answerLenses(t, e, goFile); len(lenses) != 0 {
		t.Errorf("code lenses in a Go file: %+v", lenses)
	}
}

func TestAnswerUntitledAnyLanguage(t *testing.T) {
	dir := answerWorkspace(t, "mixed")
	text := answerRead(t, filepath.Join(dir, "answer.md"))
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	// VS Code guesses the language of an unsaved buffer from what is
	// pasted in: an answer full of Go reads as Go. The buffer is no file,
	// so it is read as an answer all the same.
	for _, lang := range []string{"go", "python", "markdown"} {
		u := uri.URI("untitled:Untitled-" + lang)
		if err := e.OpenURI(u, lang, text); err != nil {
			t.Fatal(err)
		}
		diags, err := e.WaitDiagnostics(u, func(d []protocol.Diagnostic) bool { return len(d) > 0 }, answerWait)
		if err != nil {
			t.Fatalf("an untitled %s buffer holding an answer: %v", lang, err)
		}
		checkDiags(t, dir, text, diags, mixedDiags, true)
	}
}

// answerActions asks for the code actions on lines from-to of path.
func answerActions(t testing.TB, e *fakeeditor.Editor, path string, from, to uint32) []fakeeditor.CodeAction {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), answerWait)
	defer cancel()
	rng := protocol.Range{Start: protocol.Position{Line: from}, End: protocol.Position{Line: to}}
	actions, err := e.CodeActions(ctx, path, rng)
	if err != nil {
		t.Fatalf("codeAction: %v", err)
	}
	return actions
}

// answerLenses asks for the code lenses of path.
func answerLenses(t testing.TB, e *fakeeditor.Editor, path string) []protocol.CodeLens {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), answerWait)
	defer cancel()
	lenses, err := e.CodeLenses(ctx, path)
	if err != nil {
		t.Fatalf("codeLens: %v", err)
	}
	return lenses
}

// answerRun executes cmd as an editor does when the person picks it, and
// returns the reply.
func answerRun(t testing.TB, e *fakeeditor.Editor, cmd *protocol.Command) (json.RawMessage, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), answerWait)
	defer cancel()
	var reply json.RawMessage
	err := e.Execute(ctx, cmd, &reply)
	return reply, err
}

// actionTitles returns the titles of actions.
func actionTitles(actions []fakeeditor.CodeAction) []string {
	var out []string
	for _, a := range actions {
		out = append(out, a.Title)
	}
	return out
}

// answerAction returns the command of the action titled title.
func answerAction(t testing.TB, actions []fakeeditor.CodeAction, title string) *protocol.Command {
	t.Helper()
	for _, a := range actions {
		if a.Title == title {
			return a.Command
		}
	}
	t.Fatalf("no action %q among %q", title, actionTitles(actions))
	return nil
}

// The texts of the workspace files once blocks apply.
const (
	calcBuffer = "// Package calc is open in the editor.\n"
	calcAdd    = "func Add(a, b int) int {\n\treturn b + a\n}\n"
	calcSub    = "func Sub(a, b int) int {\n\treturn a - b - 0\n}\n"
)

func TestAnswerCodeActions(t *testing.T) {
	dir := answerWorkspace(t, "mixed")
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	answer := answerOpen(t, e, dir, "answer.md")
	calc := answerOpen(t, e, dir, "calc.go")
	disk := answerRead(t, calc)
	// The buffer differs from the disk: it is what the block applies to.
	at := protocol.Range{}
	if err := e.Edit(calc, &at, calcBuffer); err != nil {
		t.Fatal(err)
	}
	if _, err := e.WaitDiagnostics(fakeeditor.URI(answer), diagsLike(5, 3, protocol.DiagnosticSeverityError), answerWait); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name     string
		from, to uint32
		want     []string
	}{
		{"in block 1", 6, 6, []string{"Apply edit block → calc.go", "Preview edit block → calc.go", "Apply all 5 edit blocks"}},
		{"on the first line of block 2", 18, 18, []string{"Apply edit block → calc.go", "Preview edit block → calc.go", "Apply all 5 edit blocks"}},
		{"over blocks 3 and 4", 33, 38, []string{
			"Apply edit block 3 → mul.go", "Preview edit block 3 → mul.go",
			"Preview edit block 4 → mul.go", "Apply all 5 edit blocks"}},
		{"in the ambiguous block 5", 45, 45, []string{
			"Apply edit block at lines 4-5 → dup.go: `x := 1`", "Apply edit block at lines 9-10 → dup.go: `x := 1`",
			"Preview edit block → dup.go", "Apply all 5 edit blocks"}},
		{"between blocks", 15, 16, []string{"Apply all 5 edit blocks"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			actions := answerActions(t, e, answer, tc.from, tc.to)
			if got := actionTitles(actions); !slices.Equal(got, tc.want) {
				t.Errorf("titles %q, want %q", got, tc.want)
			}
			for _, a := range actions {
				if a.Kind != string(protocol.RefactorRewrite) {
					t.Errorf("%q has kind %q, want %q", a.Title, a.Kind, protocol.RefactorRewrite)
				}
			}
		})
	}

	// Preview of the failed block shows why, and changes nothing.
	reply, err := answerRun(t, e, answerAction(t, answerActions(t, e, answer, 38, 38), "Preview edit block → mul.go"))
	if err != nil {
		t.Fatal(err)
	}
	var preview struct {
		Diff   string `json:"diff"`
		Blocks []struct {
			Index   int    `json:"index"`
			Status  string `json:"status"`
			Message string `json:"message"`
		} `json:"blocks"`
	}
	if err := json.Unmarshal(reply, &preview); err != nil {
		t.Fatal(err)
	}
	if len(preview.Blocks) != 1 || preview.Blocks[0].Status != "failed" || !strings.HasPrefix(preview.Blocks[0].Message, "conflict") || preview.Diff != "" {
		t.Errorf("preview of block 4: %s", reply)
	}
	// The reply of a command picked from a menu reaches no one: the
	// person is shown why the block will not apply.
	why := "Graft preview: edit block 4 → mul.go will not apply: conflict at line 6"
	if m, err := e.WaitMessage(func(m fakeeditor.ShowMessage) bool { return strings.HasPrefix(m.Message, why) }, answerWait); err != nil {
		t.Error(err)
	} else if m.Type != protocol.MessageTypeWarning {
		t.Errorf("preview of a failed block shown as %v, want a warning", m.Type)
	}

	// Apply block 1: exactly that block lands in the buffer, nothing else.
	if _, err := answerRun(t, e, answerAction(t, answerActions(t, e, answer, 6, 6), "Apply edit block → calc.go")); err != nil {
		t.Fatal(err)
	}
	want := calcBuffer + strings.Replace(disk, "func Add(a, b int) int {\n\treturn a + b\n}\n", calcAdd, 1)
	if got := e.Text(calc); got != want {
		t.Errorf("calc.go buffer after applying block 1:\n%s\nwant:\n%s", got, want)
	}
	if got := answerRead(t, calc); got != disk {
		t.Errorf("calc.go on disk changed:\n%s", got)
	}
	if n := len(e.AppliedEdits()); n != 1 {
		t.Errorf("%d workspace/applyEdit requests, want 1", n)
	}
	// Once applied, block 1 is shown applied: its change stands in the
	// buffer.
	applied := func(d []protocol.Diagnostic) bool {
		return len(d) == 5 && d[0].Code == "already-applied"
	}
	diags, err := e.WaitDiagnostics(fakeeditor.URI(answer), applied, answerWait)
	if err != nil {
		t.Fatal(err)
	}
	if d := diags[0]; d.Severity != protocol.DiagnosticSeverityHint || !strings.HasPrefix(d.Message, "already applied: calc.go lines 5-7\n") {
		t.Errorf("block 1 once applied: %v %q, want a hint saying it is applied at lines 5-7", d.Severity, d.Message)
	}
}

func TestAnswerApplyAll(t *testing.T) {
	dir := answerWorkspace(t, "mixed")
	e, _ := fakeeditor.StartReady(t, fakeeditor.Neovim072(dir))
	answer := answerOpen(t, e, dir, "answer.md")
	calc := answerOpen(t, e, dir, "calc.go")
	before := map[string]string{}
	for _, f := range []string{"calc.go", "mul.go", "dup.go"} {
		before[f] = answerRead(t, filepath.Join(dir, f))
	}
	// The actions are offered before the diagnostics are in: Apply all is
	// there at once.
	reply, err := answerRun(t, e, answerAction(t, answerActions(t, e, answer, 0, 0), "Apply all 5 edit blocks"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Applied bool `json:"applied"`
		Blocks  []struct {
			Status string `json:"status"`
		} `json:"blocks"`
	}
	if err := json.Unmarshal(reply, &res); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range res.Blocks {
		got = append(got, b.Status)
	}
	if want := []string{"applied", "applied", "applied", "failed", "failed"}; !res.Applied || !slices.Equal(got, want) {
		t.Errorf("apply all: applied %v, statuses %q, want true, %q", res.Applied, got, want)
	}
	wantCalc := strings.Replace(strings.Replace(before["calc.go"],
		"func Add(a, b int) int {\n\treturn a + b\n}\n", calcAdd, 1),
		"func Sub(a, b int) int {\n\treturn a - b\n}\n", calcSub, 1)
	if got := e.Text(calc); got != wantCalc {
		t.Errorf("calc.go buffer:\n%s\nwant:\n%s", got, wantCalc)
	}
	if got := answerRead(t, calc); got != before["calc.go"] {
		t.Errorf("calc.go, open, changed on disk:\n%s", got)
	}
	// mul.go was not open: the editor loaded it into a buffer to change
	// it, and did not save it. Block 3 applied there, block 4 did not.
	mul := filepath.Join(dir, "mul.go")
	wantMul := strings.Replace(before["mul.go"], "// Mul returns the product of a and b.", "// Mul returns a times b.", 1)
	if got := e.Text(mul); got != wantMul {
		t.Errorf("mul.go buffer:\n%s\nwant:\n%s", got, wantMul)
	}
	for _, f := range []string{"calc.go", "mul.go", "dup.go"} {
		if got := answerRead(t, filepath.Join(dir, f)); got != before[f] {
			t.Errorf("%s changed on disk:\n%s", f, got)
		}
	}
	if e.IsOpen(filepath.Join(dir, "dup.go")) {
		t.Errorf("dup.go was edited though its block is ambiguous:\n%s", e.Text(filepath.Join(dir, "dup.go")))
	}
}

// An action applies nothing when the answer is not as it was when the
// server offered it: a later version, whose block 1 is another block; or
// the same version read differently, its block found elsewhere than the
// action says (the action carries where each of its blocks starts). The
// action as offered still applies.
func TestAnswerActionRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		// spoil makes the answer, or the action, not what they were.
		spoil   func(t *testing.T, e *fakeeditor.Editor, answer string, apply *protocol.Command) *protocol.Command
		wantErr string
	}{
		{"the answer changed", func(t *testing.T, e *fakeeditor.Editor, answer string, apply *protocol.Command) *protocol.Command {
			at := protocol.Range{}
			if err := e.Edit(answer, &at, "calc.go\n```\n<<<<<<< SEARCH\npackage calc\n=======\npackage calculator\n>>>>>>> REPLACE\n```\n"); err != nil {
				t.Fatal(err)
			}
			return apply
		}, "changed since"},
		{"its block read elsewhere", func(t *testing.T, e *fakeeditor.Editor, answer string, apply *protocol.Command) *protocol.Command {
			raw, err := json.Marshal(apply.Arguments[0])
			if err != nil {
				t.Fatal(err)
			}
			var args map[string]any
			if err := json.Unmarshal(raw, &args); err != nil {
				t.Fatal(err)
			}
			ref := args["answer"].(map[string]any)
			starts, ok := ref["starts"].([]any)
			if !ok || len(starts) != 1 || starts[0].(float64) < 1 {
				t.Fatalf("the action's answer %v does not say where its block starts", ref)
			}
			ref["starts"] = []any{starts[0].(float64) + 1}
			moved := *apply
			moved.Arguments = []any{args}
			return &moved
		}, "does not read as it did"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := answerWorkspace(t, "mixed")
			e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
			answer := answerOpen(t, e, dir, "answer.md")
			calc := answerOpen(t, e, dir, "calc.go")
			apply := answerAction(t, answerActions(t, e, answer, 6, 6), "Apply edit block → calc.go")
			_, err := answerRun(t, e, tc.spoil(t, e, answer, apply))
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("applying the action: %v, want an error saying %q", err, tc.wantErr)
			}
			if n := len(e.AppliedEdits()); n != 0 {
				t.Errorf("%d workspace/applyEdit requests, want none", n)
			}
			if got, want := e.Text(calc), answerRead(t, calc); got != want {
				t.Errorf("calc.go buffer changed:\n%s", got)
			}
		})
	}
	// Offered and run as it is, the action applies.
	dir := answerWorkspace(t, "mixed")
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	answer := answerOpen(t, e, dir, "answer.md")
	calc := answerOpen(t, e, dir, "calc.go")
	if _, err := answerRun(t, e, answerAction(t, answerActions(t, e, answer, 6, 6), "Apply edit block → calc.go")); err != nil {
		t.Fatal(err)
	}
	if e.Text(calc) == answerRead(t, calc) {
		t.Error("the action as offered changed nothing")
	}
}

func TestAnswerCodeLenses(t *testing.T) {
	dir := answerWorkspace(t, "mixed")
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	answer := answerOpen(t, e, dir, "answer.md")
	if _, err := e.WaitDiagnostics(fakeeditor.URI(answer), func(d []protocol.Diagnostic) bool { return len(d) == 5 }, answerWait); err != nil {
		t.Fatal(err)
	}
	type lens struct {
		line  uint32
		title string
	}
	var got []lens
	lenses := answerLenses(t, e, answer)
	for _, l := range lenses {
		if l.Command == nil {
			t.Fatalf("lens without a command: %+v", l)
		}
		got = append(got, lens{l.Range.Start.Line, l.Command.Title})
	}
	want := []lens{
		{4, "Apply → calc.go"}, {4, "Preview"},
		{18, "Apply → calc.go"}, {18, "Preview"},
		{30, "Apply → mul.go"}, {30, "Preview"},
		{38, "Preview (will not apply)"},
		{43, "Preview (will not apply)"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("lenses %v, want %v", got, want)
	}
	// The Preview lens of block 1 shows where it applies and the diff, and
	// changes nothing.
	if _, err := answerRun(t, e, lenses[1].Command); err != nil {
		t.Fatal(err)
	}
	shown := func(m fakeeditor.ShowMessage) bool {
		return strings.HasPrefix(m.Message, "Graft preview: edit block 1 → calc.go applies at lines 4-6 (exact, 100% similar)\n") &&
			strings.Contains(m.Message, "\n-\treturn a + b\n+\treturn b + a\n")
	}
	if _, err := e.WaitMessage(shown, answerWait); err != nil {
		t.Error(err)
	}
	if n := len(e.AppliedEdits()); n != 0 {
		t.Errorf("%d workspace/applyEdit requests after a preview, want none", n)
	}

	// The Apply lens of block 3 applies block 3, and only it.
	mul := filepath.Join(dir, "mul.go")
	disk := answerRead(t, mul)
	if _, err := answerRun(t, e, lenses[4].Command); err != nil {
		t.Fatal(err)
	}
	if got, want := e.Text(mul), strings.Replace(disk, "the product of a and b", "a times b", 1); got != want {
		t.Errorf("mul.go after the Apply lens of block 3:\n%s\nwant:\n%s", got, want)
	}
}

// A block refused because its lines occur in two places offers one action
// per place, for the person to choose; the one chosen applies there, and
// nothing is applied before the choice.
func TestAnswerChoosePlace(t *testing.T) {
	dir := answerWorkspace(t, "mixed")
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	answer := answerOpen(t, e, dir, "answer.md")
	if _, err := e.WaitDiagnostics(fakeeditor.URI(answer), func(d []protocol.Diagnostic) bool { return len(d) == 5 }, answerWait); err != nil {
		t.Fatal(err)
	}
	dup := filepath.Join(dir, "dup.go")
	before := answerRead(t, dup)
	// The dup.go block is lines 42-51 of the answer.
	actions := answerActions(t, e, answer, 43, 43)
	first := "Apply edit block at lines 4-5 → dup.go: `x := 1`"
	second := "Apply edit block at lines 9-10 → dup.go: `x := 1`"
	answerAction(t, actions, first)
	for _, a := range actions {
		if a.Title == "Apply edit block → dup.go" {
			t.Errorf("the ambiguous block is offered to apply without a place: %q", actionTitles(actions))
		}
	}
	if e.IsOpen(dup) {
		t.Fatalf("dup.go was opened, so edited, before a place was chosen")
	}
	if _, err := answerRun(t, e, answerAction(t, actions, second)); err != nil {
		t.Fatal(err)
	}
	want := "package calc\n\nfunc helper() {\n\tx := 1\n\t_ = x\n}\n\nfunc other() {\n\tx := 2\n\t_ = x\n}\n"
	if before != "package calc\n\nfunc helper() {\n\tx := 1\n\t_ = x\n}\n\nfunc other() {\n\tx := 1\n\t_ = x\n}\n" {
		t.Fatalf("dup.go is not what the test expects:\n%s", before)
	}
	waitText(t, e, dup, want)
	if got := answerRead(t, dup); got != before {
		t.Errorf("dup.go changed on disk:\n%s", got)
	}
}

// An answer that streams in (a chat buffer an agent's reply is appended
// to) ends, for a while, inside a block: that block waits to end, quietly,
// with no error, and is resolved once its closing marker comes.
func TestAnswerStreamingBlock(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc f() {\n\tx := 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	answer := filepath.Join(dir, "chat.md")
	u := fakeeditor.URI(answer)
	text := "Sure:\n\nmain.go\n```go\n<<<<<<< SEARCH\n\tx := 1\n=======\n\tx := 2\n"
	if err := e.Open(answer, "markdown", text); err != nil {
		t.Fatal(err)
	}
	diags, err := e.WaitDiagnostics(u, func(d []protocol.Diagnostic) bool { return len(d) == 1 }, answerWait)
	if err != nil {
		t.Fatal(err)
	}
	if d := diags[0]; d.Severity != protocol.DiagnosticSeverityInformation || d.Code != "unfinished" || !strings.HasPrefix(d.Message, "waiting for the block to end") {
		t.Errorf("diagnostic of the block being written: %+v, want information, unfinished, waiting for the block to end", d)
	}
	// The rest of the block streams in.
	end := protocol.Position{Line: 8}
	if err := e.Edit(answer, &protocol.Range{Start: end, End: end}, ">>>>>>> REPLACE\n```\n"); err != nil {
		t.Fatal(err)
	}
	diags, err = e.WaitDiagnostics(u, func(d []protocol.Diagnostic) bool { return len(d) == 1 && d[0].Code == "exact" }, answerWait)
	if err != nil {
		t.Fatal(err)
	}
	if d := diags[0]; d.Severity != protocol.DiagnosticSeverityHint || !strings.HasPrefix(d.Message, "applies exactly: main.go") {
		t.Errorf("diagnostic of the finished block: %+v", d)
	}
}
