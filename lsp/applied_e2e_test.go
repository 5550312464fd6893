package lsp_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// These tests drive the built graft serve over an answer buffer whose
// blocks all edit one file, shapes.go: each block's diagnostic shows its
// own state, and a block whose change stands in the file already (the
// answer, or this block, was applied) is shown applied, with nothing left
// to apply.

// shapesGo is the file the answers edit.
const shapesGo = `package shapes

func Area(w, h int) int {
	return w * h
}

func Perimeter(w, h int) int {
	return 2 * (w + h)
}

func Name() string {
	return "rect"
}
`

// The blocks of the answers, each a search and its replacement.
var (
	// shapesArea rewrites a line.
	shapesArea = [2]string{
		"func Area(w, h int) int {\n\treturn w * h\n}\n",
		"func Area(w, h int) int {\n\treturn h * w\n}\n",
	}
	// shapesSides inserts a function after Name: its replacement keeps
	// its search, which an answer applied twice would find again.
	shapesSides = [2]string{
		"func Name() string {\n\treturn \"rect\"\n}\n",
		"func Name() string {\n\treturn \"rect\"\n}\n\nfunc Sides() int {\n\treturn 4\n}\n",
	}
	// shapesPerimeter rewrites a line.
	shapesPerimeter = [2]string{
		"func Perimeter(w, h int) int {\n\treturn 2 * (w + h)\n}\n",
		"func Perimeter(w, h int) int {\n\treturn 2*w + 2*h\n}\n",
	}
	// shapesVolume quotes a function shapes.go does not have.
	shapesVolume = [2]string{
		"func Volume(w, h, d int) int {\n\treturn w * h * d\n}\n",
		"func Volume(w, h, d int) int {\n\treturn d * h * w\n}\n",
	}
)

// shapesAnswer returns an answer with one SEARCH/REPLACE block for
// shapes.go per change.
func shapesAnswer(changes ...[2]string) string {
	var b strings.Builder
	b.WriteString("Here are the changes.\n")
	for _, c := range changes {
		fmt.Fprintf(&b, "\nshapes.go\n```go\n<<<<<<< SEARCH\n%s=======\n%s>>>>>>> REPLACE\n```\n", c[0], c[1])
	}
	return b.String()
}

// shapesWith returns shapesGo with changes made.
func shapesWith(changes ...[2]string) string {
	text := shapesGo
	for _, c := range changes {
		text = strings.Replace(text, c[0], c[1], 1)
	}
	return text
}

// blockLines returns the 0-based line of each block's SEARCH marker in
// answer, where its diagnostic and its lenses start.
func blockLines(answer string) []uint32 {
	var out []uint32
	for i, l := range strings.Split(answer, "\n") {
		if l == "<<<<<<< SEARCH" {
			out = append(out, uint32(i))
		}
	}
	return out
}

// shapesOpen starts an editor of flavor opt on a workspace holding
// shapes.go and answer.md, opens both, and returns their paths.
func shapesOpen(t *testing.T, opt func(...string) fakeeditor.Options, answer string) (e *fakeeditor.Editor, shapes, ans string) {
	t.Helper()
	dir := writeFiles(t, t.TempDir(), map[string]string{"shapes.go": shapesGo, "answer.md": answer})
	e, _ = fakeeditor.StartReady(t, opt(dir))
	return e, answerOpen(t, e, dir, "shapes.go"), answerOpen(t, e, dir, "answer.md")
}

// diagCodes returns a predicate that holds for diagnostics whose codes
// are codes, in order.
func diagCodes(codes ...string) func([]protocol.Diagnostic) bool {
	return func(ds []protocol.Diagnostic) bool {
		if len(ds) != len(codes) {
			return false
		}
		for i, d := range ds {
			if fmt.Sprint(d.Code) != codes[i] {
				return false
			}
		}
		return true
	}
}

// A block after a failed block of the same file shows its own state in
// the answer's diagnostics, not "skipped"; graft.apply still skips it, so
// that a file is never half changed around a block that failed.
func TestAnswerBlockAfterAFailureShowsItsOwnState(t *testing.T) {
	for _, tc := range []struct {
		name  string
		third [2]string
		// code and message are what block 3's diagnostic says.
		code, message string
		severity      protocol.DiagnosticSeverity
	}{
		{"it applies", shapesPerimeter, "exact", "applies exactly: shapes.go lines 7-9", protocol.DiagnosticSeverityHint},
		{"it fails on its own", [2]string{"func Perimeter(w int) int {\n\treturn 4 * w\n}\n", "func Perimeter(w int) int {\n\treturn w * 4\n}\n"},
			"ambiguous", "ambiguous: the search resembles lines 7-9 and lines 3-5", protocol.DiagnosticSeverityError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			answer := shapesAnswer(shapesArea, shapesVolume, tc.third)
			e, shapes, ans := shapesOpen(t, fakeeditor.VSCode, answer)
			diags, err := e.WaitDiagnostics(fakeeditor.URI(ans), diagCodes("exact", "below-threshold", tc.code), answerWait)
			if err != nil {
				t.Fatal(err)
			}
			if d := diags[1]; d.Severity != protocol.DiagnosticSeverityError {
				t.Errorf("block 2: %v %q, want an error", d.Severity, d.Message)
			}
			if d := diags[2]; d.Severity != tc.severity || !strings.HasPrefix(d.Message, tc.message) || strings.Contains(d.Message, "skipped") {
				t.Errorf("block 3: %v %q, want %v starting %q", d.Severity, d.Message, tc.severity, tc.message)
			}

			// Applying them all protects the file: block 3 is skipped.
			lines := blockLines(answer)
			var reply applyReply
			if _, err := answerRunInto(t, e, answerAction(t, answerActions(t, e, ans, lines[0], lines[0]), "Apply all 3 edit blocks"), &reply); err != nil {
				t.Fatal(err)
			}
			if got := statuses(reply.Blocks); got != "applied,failed,skipped" {
				t.Errorf("apply all: statuses %s, want applied,failed,skipped", got)
			}
			if got, want := e.Text(shapes), shapesWith(shapesArea); got != want {
				t.Errorf("shapes.go after apply all:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// answerRunInto executes cmd as answerRun does and decodes its reply into
// v.
func answerRunInto(t testing.TB, e *fakeeditor.Editor, cmd *protocol.Command, v any) (string, error) {
	t.Helper()
	reply, err := answerRun(t, e, cmd)
	if err != nil {
		return "", err
	}
	return string(reply), json.Unmarshal(reply, v)
}

// lensTitles returns the titles of lenses by the 0-based line they are on.
func lensTitles(t testing.TB, lenses []protocol.CodeLens) map[uint32][]string {
	t.Helper()
	out := map[uint32][]string{}
	for _, l := range lenses {
		if l.Command == nil {
			t.Fatalf("lens without a command: %+v", l)
		}
		out[l.Range.Start.Line] = append(out[l.Range.Start.Line], l.Command.Title)
	}
	return out
}

// An answer applied block by block and then whole: the blocks already
// applied are shown applied (a hint, an "Applied" lens, no Apply action),
// "Apply all" applies only the others, and nothing is applied twice.
func TestAnswerAppliedBlocks(t *testing.T) {
	for _, opt := range []func(...string) fakeeditor.Options{fakeeditor.VSCode, fakeeditor.Neovim072} {
		t.Run(opt().Flavor.String(), func(t *testing.T) {
			answer := shapesAnswer(shapesArea, shapesSides, shapesPerimeter)
			lines := blockLines(answer)
			e, shapes, ans := shapesOpen(t, opt, answer)
			u := fakeeditor.URI(ans)
			if _, err := e.WaitDiagnostics(u, diagCodes("exact", "exact", "exact"), answerWait); err != nil {
				t.Fatal(err)
			}

			// Block 1, from its code action.
			if _, err := answerRun(t, e, answerAction(t, answerActions(t, e, ans, lines[0], lines[0]), "Apply edit block → shapes.go")); err != nil {
				t.Fatal(err)
			}
			if got, want := e.Text(shapes), shapesWith(shapesArea); got != want {
				t.Fatalf("shapes.go after block 1:\n%s\nwant:\n%s", got, want)
			}
			diags, err := e.WaitDiagnostics(u, diagCodes("already-applied", "exact", "exact"), answerWait)
			if err != nil {
				t.Fatal(err)
			}
			if d := diags[0]; d.Severity != protocol.DiagnosticSeverityHint || !strings.HasPrefix(d.Message, "already applied: shapes.go lines 3-5\n") {
				t.Errorf("block 1: %v %q, want a hint saying it is applied at lines 3-5", d.Severity, d.Message)
			}
			lenses := lensTitles(t, answerLenses(t, e, ans))
			for k, want := range [][]string{{"Applied → shapes.go"}, {"Apply → shapes.go", "Preview"}, {"Apply → shapes.go", "Preview"}} {
				if got := lenses[lines[k]]; !slices.Equal(got, want) {
					t.Errorf("block %d lenses %q, want %q", k+1, got, want)
				}
			}
			if got, want := actionTitles(answerActions(t, e, ans, lines[0], lines[0])), []string{"Preview edit block → shapes.go", "Apply all 2 edit blocks"}; !slices.Equal(got, want) {
				t.Errorf("actions on block 1: %q, want %q", got, want)
			}

			// Apply all: the two blocks left, each once.
			var reply applyReply
			if _, err := answerRunInto(t, e, answerAction(t, answerActions(t, e, ans, 0, 0), "Apply all 2 edit blocks"), &reply); err != nil {
				t.Fatal(err)
			}
			if got := statuses(reply.Blocks); !reply.Applied || got != "applied,applied" {
				t.Fatalf("apply all: applied %v, statuses %s, want true, applied,applied", reply.Applied, got)
			}
			// Numbered as the answer numbers them.
			if i, j := reply.Blocks[0].Index, reply.Blocks[1].Index; i != 1 || j != 2 {
				t.Errorf("apply all: blocks %d and %d, want 1 and 2 (blocks 2 and 3 of the answer)", i, j)
			}
			got := e.Text(shapes)
			if want := shapesWith(shapesArea, shapesSides, shapesPerimeter); got != want {
				t.Errorf("shapes.go after apply all:\n%s\nwant:\n%s", got, want)
			}
			for _, code := range []string{"return h * w", "func Sides() int {", "return 2*w + 2*h", "func Name() string {"} {
				if n := strings.Count(got, code); n != 1 {
					t.Errorf("%q %d times in shapes.go, want once:\n%s", code, n, got)
				}
			}

			// Every block stands now: nothing is left to apply.
			diags, err = e.WaitDiagnostics(u, diagCodes("already-applied", "already-applied", "already-applied"), answerWait)
			if err != nil {
				t.Fatal(err)
			}
			for k, d := range diags {
				if d.Severity != protocol.DiagnosticSeverityHint {
					t.Errorf("block %d: severity %v, want a hint", k+1, d.Severity)
				}
			}
			last := uint32(strings.Count(answer, "\n"))
			for _, a := range answerActions(t, e, ans, 0, last) {
				if strings.HasPrefix(a.Title, "Apply") {
					t.Errorf("action %q offered with every block applied", a.Title)
				}
			}
			lenses = lensTitles(t, answerLenses(t, e, ans))
			for k, l := range lines {
				if got := lenses[l]; !slices.Equal(got, []string{"Applied → shapes.go"}) {
					t.Errorf("block %d lenses %q, want only Applied", k+1, got)
				}
			}
			// The Applied lens says where the change stands, and changes
			// nothing.
			before := len(e.AppliedEdits())
			for _, l := range answerLenses(t, e, ans) {
				if l.Range.Start.Line == lines[1] {
					if _, err := answerRun(t, e, l.Command); err != nil {
						t.Fatal(err)
					}
				}
			}
			shown := func(m fakeeditor.ShowMessage) bool {
				return m.Type == protocol.MessageTypeInfo &&
					strings.HasPrefix(m.Message, "Graft preview: edit block 2 → shapes.go is applied already: its change stands at lines 11-17")
			}
			if _, err := e.WaitMessage(shown, answerWait); err != nil {
				t.Error(err)
			}
			if n := len(e.AppliedEdits()); n != before {
				t.Errorf("the Applied lens sent %d workspace/applyEdit", n-before)
			}
		})
	}
}

// A pending suggestion whose change lands (graft.apply applies the same
// block, or the person makes the change by hand) goes as an applied one
// does: it leaves graft.suggestions, and its diagnostic and lenses are
// cleared; it is not shown as stale. Suggested again, the block is
// already applied and suggests nothing.
func TestSuggestionLandedGoesAsApplied(t *testing.T) {
	landed := strings.Replace(suggestMainGo, "x := 1", "x := 2", 1)
	for _, tc := range []struct {
		name string
		// suggest is the argument of graft.suggest.
		suggest map[string]any
		// land makes the suggestion's change.
		land func(t *testing.T, e *fakeeditor.Editor, path string)
		want string
	}{
		{
			name:    "graft.apply of the same edit",
			suggest: map[string]any{"edits": []any{suggestEditX}},
			land: func(t *testing.T, e *fakeeditor.Editor, path string) {
				var reply applyReply
				if err := execute(t, e, "graft.apply", map[string]any{"edits": []any{suggestEditX}}, &reply); err != nil || !reply.Applied {
					t.Fatalf("graft.apply: %+v, %v", reply, err)
				}
			},
			want: landed,
		},
		{
			name:    "graft.apply of the same answer",
			suggest: map[string]any{"text": suggestAnswer},
			land: func(t *testing.T, e *fakeeditor.Editor, path string) {
				var reply applyReply
				if err := execute(t, e, "graft.apply", map[string]any{"text": suggestAnswer}, &reply); err != nil || !reply.Applied {
					t.Fatalf("graft.apply: %+v, %v", reply, err)
				}
			},
			want: strings.Replace(suggestMainGo, "return 41", "return 42", 1),
		},
		{
			name:    "typed by hand",
			suggest: map[string]any{"edits": []any{suggestEditX}},
			land: func(t *testing.T, e *fakeeditor.Editor, path string) {
				r := suggestRange(t, suggestMainGo, "x := 1", e.Encoding())
				if err := e.Edit(path, &r, "x := 2"); err != nil {
					t.Fatal(err)
				}
			},
			want: landed,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := suggestWorkspace(t, map[string]string{"main.go": suggestMainGo})
			e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
			path := filepath.Join(dir, "main.go")
			u := fakeeditor.URI(path)
			if err := e.Open(path, "go", suggestMainGo); err != nil {
				t.Fatal(err)
			}
			var reply suggestResult
			suggestExecute(t, e, "graft.suggest", tc.suggest, &reply)
			if len(reply.Suggestions) != 1 {
				t.Fatalf("graft.suggest: %+v, want one suggestion", reply)
			}
			id := reply.Suggestions[0].ID
			if _, err := e.WaitDiagnostics(u, func(ds []protocol.Diagnostic) bool { return len(ds) == 1 }, suggestWait); err != nil {
				t.Fatal(err)
			}

			tc.land(t, e, path)
			if got := e.Text(path); got != tc.want {
				t.Fatalf("buffer:\n%s\nwant:\n%s", got, tc.want)
			}
			sent := len(e.AppliedEdits())
			// Applied at once, before the refresh after the change: it is
			// applied already, and nothing is sent. After the refresh it
			// is gone.
			var applied suggestApplied
			if err := suggestTryExecute(e, "graft.applySuggestion", map[string]any{"uri": u, "id": id}, &applied); err != nil {
				if !strings.Contains(err.Error(), "applied or dismissed") {
					t.Errorf("graft.applySuggestion of a landed suggestion: %v", err)
				}
			} else if !applied.Applied || len(applied.Blocks) != 1 || applied.Blocks[0].Status != "already-applied" {
				t.Errorf("graft.applySuggestion of a landed suggestion: %+v, want applied, already-applied", applied)
			}
			if n := len(e.AppliedEdits()); n != sent {
				t.Errorf("%d workspace/applyEdit sent for a suggestion that landed", n-sent)
			}
			if got := e.Text(path); got != tc.want {
				t.Errorf("buffer changed again:\n%s", got)
			}

			if _, err := e.WaitDiagnostics(u, suggestNone, suggestWait); err != nil {
				t.Errorf("a suggestion that landed stays shown: %v", err)
			}
			if l := suggestList(t, e, ""); len(l) != 0 {
				t.Errorf("graft.suggestions lists a suggestion that landed: %+v", l)
			}
			if l := answerLenses(t, e, path); len(l) != 0 {
				t.Errorf("lenses of a suggestion that landed: %+v", l)
			}
			if a := suggestActions(t, e, path, protocol.Range{End: protocol.Position{Line: 20}}); len(a) != 0 {
				t.Errorf("actions of a suggestion that landed: %q", suggestTitles(a))
			}

			// Suggested again, it is applied already: no suggestion.
			reply = suggestResult{}
			suggestExecute(t, e, "graft.suggest", tc.suggest, &reply)
			if len(reply.Suggestions) != 0 || len(reply.Blocks) != 1 || reply.Blocks[0].Status != "already-applied" || reply.Blocks[0].ID != "" {
				t.Errorf("graft.suggest of a change made: %+v, want the block already applied, no suggestion", reply)
			}
			if _, err := e.WaitMessage(func(m fakeeditor.ShowMessage) bool { return m.Message == "Graft: 0 suggested, 1 already applied" }, suggestWait); err != nil {
				t.Error(err)
			}
			if l := suggestList(t, e, ""); len(l) != 0 {
				t.Errorf("graft.suggestions after suggesting a change made: %+v", l)
			}
		})
	}
}

// graft.apply of an answer whose every block stands already: nothing is
// sent to the editor, the reply says applied (nothing failed), each block
// is already-applied where its change stands, and the person is told so.
func TestApplyAnswerAppliedAlready(t *testing.T) {
	answer := shapesAnswer(shapesArea, shapesSides, shapesPerimeter)
	for _, tc := range []struct {
		name   string
		params func(e *fakeeditor.Editor, ans string) map[string]any
	}{
		{"text", func(*fakeeditor.Editor, string) map[string]any { return map[string]any{"text": answer} }},
		{"answer buffer", func(e *fakeeditor.Editor, ans string) map[string]any {
			return map[string]any{"answer": map[string]any{"uri": fakeeditor.URI(ans), "version": e.Version(ans)}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, shapes, ans := shapesOpen(t, fakeeditor.Neovim072, answer)
			done := shapesWith(shapesArea, shapesSides, shapesPerimeter)
			if err := e.SetText(shapes, done); err != nil {
				t.Fatal(err)
			}
			var reply applyReply
			if err := execute(t, e, "graft.apply", tc.params(e, ans), &reply); err != nil {
				t.Fatal(err)
			}
			if got := statuses(reply.Blocks); !reply.Applied || reply.FailureReason != "" || got != "already-applied,already-applied,already-applied" {
				t.Errorf("reply: applied %v (%q), statuses %s; want applied, every block already-applied", reply.Applied, reply.FailureReason, got)
			}
			for k, want := range [][2]uint32{{2, 5}, {10, 17}, {6, 9}} {
				b := reply.Blocks[k]
				if b.Range == nil || b.Range.Start.Line != want[0] || b.Range.End.Line != want[1] {
					t.Errorf("block %d range %v, want lines %d-%d", k+1, b.Range, want[0], want[1])
				}
			}
			if n := len(e.AppliedEdits()); n != 0 {
				t.Errorf("%d workspace/applyEdit sent for an answer applied already", n)
			}
			if got := e.Text(shapes); got != done {
				t.Errorf("shapes.go changed:\n%s", got)
			}
			if _, err := e.WaitMessage(func(m fakeeditor.ShowMessage) bool {
				return m.Message == "Graft: 3 already applied" && m.Type == protocol.MessageTypeInfo
			}, answerWait); err != nil {
				t.Errorf("%v; shown: %+v", err, e.Messages())
			}
		})
	}
}
