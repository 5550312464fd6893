package lsp_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// choiceDupGo has the same two lines in two functions: at lines 4-5 and
// 9-10.
const choiceDupGo = "package calc\n\nfunc helper() {\n\tx := 1\n\t_ = x\n}\n\nfunc other() {\n\tx := 1\n\t_ = x\n}\n"

// choiceAnswer changes those lines, without saying which.
const choiceAnswer = "dup.go\n<<<<<<< SEARCH\n\tx := 1\n\t_ = x\n=======\n\tx := 2\n\t_ = x\n>>>>>>> REPLACE\n"

// choiceReply is the reply to graft.suggest and graft.choose, as far as
// these tests read it.
type choiceReply struct {
	Blocks []struct {
		Status string `json:"status"`
		Reason string `json:"reason"`
		ID     string `json:"id"`
		Places []struct {
			Place     int            `json:"place"`
			Range     protocol.Range `json:"range"`
			StartLine int            `json:"startLine"`
			EndLine   int            `json:"endLine"`
			First     string         `json:"first"`
		} `json:"places"`
	} `json:"blocks"`
	Hunks []struct {
		ID      string         `json:"id"`
		Range   protocol.Range `json:"range"`
		OldText string         `json:"oldText"`
		NewText string         `json:"newText"`
		Block   string         `json:"block"`
	} `json:"hunks"`
}

// choiceStart opens dup.go in a new server and suggests choiceAnswer.
func choiceStart(t *testing.T) (*fakeeditor.Editor, string, choiceReply) {
	t.Helper()
	dir := suggestWorkspace(t, map[string]string{"dup.go": choiceDupGo})
	opt := fakeeditor.VSCode(dir)
	opt.CodeLens = true
	e, _ := fakeeditor.StartReady(t, opt)
	path := filepath.Join(dir, "dup.go")
	if err := e.Open(path, "go", choiceDupGo); err != nil {
		t.Fatal(err)
	}
	var reply choiceReply
	suggestExecute(t, e, "graft.suggest", map[string]any{"text": choiceAnswer}, &reply)
	return e, path, reply
}

// ambiguousAt is the diagnostics condition of the places of a choice:
// information diagnostics coded ambiguous, on the lines given (0-based).
func ambiguousAt(lines ...uint32) func([]protocol.Diagnostic) bool {
	return func(ds []protocol.Diagnostic) bool {
		if len(ds) != len(lines) {
			return false
		}
		for i, d := range ds {
			if d.Code != "ambiguous" || d.Severity != protocol.DiagnosticSeverityInformation || d.Range.Start.Line != lines[i] {
				return false
			}
		}
		return true
	}
}

// A block whose lines occur in two places is offered, in graft.suggest's
// reply and as code actions and lenses on each place, for the person to
// choose where it goes; nothing is suggested, nor sent, before. The place
// chosen becomes a pending hunk there, exactly that change, and the other
// place is left as it is.
func TestSuggestChoosePlace(t *testing.T) {
	e, path, reply := choiceStart(t)
	if len(reply.Blocks) != 1 {
		t.Fatalf("reply: %+v", reply)
	}
	b := reply.Blocks[0]
	if b.Status != "failed" || b.Reason != "ambiguous" || b.ID == "" || len(b.Places) != 2 || len(reply.Hunks) != 0 {
		t.Fatalf("the ambiguous block in the reply: %+v, hunks %+v; want failed, ambiguous, an id and two places, no hunk", b, reply.Hunks)
	}
	for i, want := range [][2]int{{4, 5}, {9, 10}} {
		if p := b.Places[i]; p.Place != i+1 || p.StartLine != want[0] || p.EndLine != want[1] || p.First != "x := 1" || p.Range.Start.Line != uint32(want[0]-1) {
			t.Errorf("place %d: %+v, want lines %d-%d", i+1, p, want[0], want[1])
		}
	}
	u := fakeeditor.URI(path)
	if _, err := e.WaitDiagnostics(u, ambiguousAt(3, 8), suggestWait); err != nil {
		t.Fatal(err)
	}

	// On the second place: that place first, then the other, then reject.
	actions := suggestActions(t, e, path, protocol.Range{Start: protocol.Position{Line: 8}, End: protocol.Position{Line: 8}})
	titles := suggestTitles(actions)
	want := []string{"Suggest at lines 9-10: `x := 1`", "Suggest at lines 4-5: `x := 1`", "Reject suggestion (choose no place)"}
	if strings.Join(titles, "\n") != strings.Join(want, "\n") {
		t.Fatalf("actions on the second place:\n%s\nwant:\n%s", strings.Join(titles, "\n"), strings.Join(want, "\n"))
	}
	if !actions[0].IsPreferred {
		t.Errorf("the place under the cursor is not the preferred action")
	}
	ctx, cancel := context.WithTimeout(context.Background(), suggestWait)
	defer cancel()
	lenses, err := e.CodeLenses(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var lensTitles []string
	for _, l := range lenses {
		lensTitles = append(lensTitles, l.Command.Title)
	}
	if got := strings.Join(lensTitles, ", "); got != "Suggest here (place 1 of 2), Reject, Suggest here (place 2 of 2), Reject" {
		t.Errorf("lenses: %s", got)
	}
	if err := suggestTryExecute(e, "graft.accept", map[string]any{"id": b.ID}, nil); err == nil || !strings.Contains(err.Error(), "choose one first") {
		t.Errorf("graft.accept of the suggestion before a place is chosen: %v, want refused", err)
	}
	if got := e.Text(path); got != choiceDupGo || len(e.AppliedEdits()) > 0 {
		t.Fatalf("dup.go changed before a place was chosen:\n%s", got)
	}

	var chosen choiceReply
	suggestRun(t, e, actions[0].Command, &chosen)
	if len(chosen.Hunks) != 1 {
		t.Fatalf("the choice made %d hunks: %+v", len(chosen.Hunks), chosen.Hunks)
	}
	h := chosen.Hunks[0]
	if h.Block != b.ID || h.Range.Start.Line != 8 || h.Range.End.Line != 9 || h.OldText != "\tx := 1\n" || h.NewText != "\tx := 2\n" {
		t.Errorf("the hunk of the place chosen: %+v; want %s's, line 9, x := 1 into x := 2", h, b.ID)
	}
	if list := suggestList(t, e, ""); len(list) != 1 || list[0].ID != h.ID {
		t.Errorf("graft.suggestions: %+v, want the one hunk %s", list, h.ID)
	}
	// The other place is no longer offered; the hunk is shown as any.
	if _, err := e.WaitDiagnostics(u, func(ds []protocol.Diagnostic) bool {
		return len(ds) == 1 && ds[0].Code == "suggestion" && ds[0].Range.Start.Line == 8
	}, suggestWait); err != nil {
		t.Fatal(err)
	}
	if got := e.Text(path); got != choiceDupGo || len(e.AppliedEdits()) > 0 {
		t.Fatalf("dup.go changed before the hunk was accepted:\n%s", got)
	}
	if err := suggestTryExecute(e, "graft.choose", map[string]any{"id": b.ID, "place": 1}, nil); err == nil {
		t.Errorf("the other place could be chosen after the choice was made")
	}

	var accepted suggestApplied
	suggestExecute(t, e, "graft.accept", map[string]any{"id": h.ID}, &accepted)
	if !accepted.Applied {
		t.Fatalf("accept: %+v", accepted)
	}
	if got, want := e.Text(path), strings.Replace(choiceDupGo, "other() {\n\tx := 1", "other() {\n\tx := 2", 1); got != want {
		t.Errorf("dup.go after the hunk was accepted:\n%s\nwant:\n%s", got, want)
	}
}

// A place whose lines change after it was offered is no longer offered,
// and choosing it (from actions the editor asked for before) is refused
// with the reason, nothing suggested; a place that only moved is chosen
// where it is now.
func TestSuggestChoosePlaceChanged(t *testing.T) {
	e, path, reply := choiceStart(t)
	if len(reply.Blocks) != 1 || len(reply.Blocks[0].Places) != 2 {
		t.Fatalf("reply: %+v", reply)
	}
	u := fakeeditor.URI(path)
	if _, err := e.WaitDiagnostics(u, ambiguousAt(3, 8), suggestWait); err != nil {
		t.Fatal(err)
	}
	stale := suggestActions(t, e, path, protocol.Range{Start: protocol.Position{Line: 3}, End: protocol.Position{Line: 3}})
	first := suggestAction(t, stale, "Suggest at lines 4-5")
	second := suggestAction(t, stale, "Suggest at lines 9-10")

	// The first place's line changes, and a line comes in above both.
	line3 := protocol.Range{Start: protocol.Position{Line: 3, Character: 6}, End: protocol.Position{Line: 3, Character: 7}}
	if err := e.Edit(path, &line3, "10"); err != nil {
		t.Fatal(err)
	}
	top := protocol.Range{}
	if err := e.Edit(path, &top, "// top\n"); err != nil {
		t.Fatal(err)
	}
	edited := "// top\n" + strings.Replace(choiceDupGo, "x := 1", "x := 10", 1)
	if got := e.Text(path); got != edited {
		t.Fatalf("dup.go after the edits:\n%s", got)
	}
	ds, err := e.WaitDiagnostics(u, ambiguousAt(9), suggestWait)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ds[0].Message, "lines 10-11") {
		t.Errorf("the place left: %q, want it at lines 10-11", ds[0].Message)
	}

	err = suggestTryExecute(e, first.Command.Command, first.Command.Arguments[0], nil)
	if err == nil || !strings.Contains(err.Error(), "no longer stands") || !strings.Contains(err.Error(), "nothing suggested") {
		t.Fatalf("the choice of the place that changed: %v, want refused as no longer standing", err)
	}
	if list := suggestList(t, e, ""); len(list) != 0 {
		t.Errorf("the refused choice suggested %+v", list)
	}

	var chosen choiceReply
	suggestRun(t, e, second.Command, &chosen)
	if len(chosen.Hunks) != 1 || chosen.Hunks[0].Range.Start.Line != 9 || chosen.Hunks[0].OldText != "\tx := 1\n" {
		t.Fatalf("the place that moved, chosen: %+v; want a hunk at line 10", chosen.Hunks)
	}
	var accepted suggestApplied
	suggestExecute(t, e, "graft.accept", map[string]any{"id": chosen.Hunks[0].ID}, &accepted)
	if got, want := e.Text(path), strings.Replace(edited, "other() {\n\tx := 1", "other() {\n\tx := 2", 1); got != want {
		t.Errorf("dup.go after the hunk was accepted:\n%s\nwant:\n%s", got, want)
	}
}

// Rejecting a suggestion that waits for its place drops it: its places
// are no longer shown, and nothing changes.
func TestSuggestRejectChoice(t *testing.T) {
	e, path, reply := choiceStart(t)
	u := fakeeditor.URI(path)
	if _, err := e.WaitDiagnostics(u, ambiguousAt(3, 8), suggestWait); err != nil {
		t.Fatal(err)
	}
	actions := suggestActions(t, e, path, protocol.Range{Start: protocol.Position{Line: 3}, End: protocol.Position{Line: 3}})
	var rejected map[string]int
	suggestRun(t, e, suggestAction(t, actions, "Reject suggestion").Command, &rejected)
	if rejected["rejected"] != 1 {
		t.Errorf("reject: %v, want 1 rejected", rejected)
	}
	if _, err := e.WaitDiagnostics(u, suggestNone, suggestWait); err != nil {
		t.Fatal(err)
	}
	if err := suggestTryExecute(e, "graft.choose", map[string]any{"id": reply.Blocks[0].ID, "place": 1}, nil); err == nil {
		t.Errorf("a rejected suggestion's place could be chosen")
	}
	if got := e.Text(path); got != choiceDupGo || len(e.AppliedEdits()) > 0 {
		t.Errorf("dup.go changed:\n%s", got)
	}
}
