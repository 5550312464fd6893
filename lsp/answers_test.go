package lsp

import (
	"slices"
	"testing"

	"github.com/graft-editor/graft/engine"
)

// TestAnswerApplyAllAction checks the "Apply all" action of an answer: it counts and
// sends the blocks not applied yet, says so when one is left, and is not
// offered when none is.
func TestAnswerApplyAllAction(t *testing.T) {
	const (
		applied = engine.StatusApplied
		already = engine.StatusAlreadyApplied
		failed  = engine.StatusFailed
	)
	for _, tc := range []struct {
		name   string
		states []engine.Status
		title  string
		blocks []int // nil: all
	}{
		{"none resolved yet", []engine.Status{"", "", ""}, "Apply all 3 edit blocks", nil},
		{"none applied", []engine.Status{applied, failed, applied}, "Apply all 3 edit blocks", nil},
		{"one applied", []engine.Status{already, failed, applied}, "Apply all 2 edit blocks", []int{1, 2}},
		{"one left", []engine.Status{already, applied, already}, "Apply the remaining edit block → a.go", []int{1}},
		{"none left", []engine.Status{already, already}, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blocks := make([]blockState, len(tc.states))
			for i, s := range tc.states {
				blocks[i] = blockState{path: "a.go", status: s}
			}
			ref := &answerRef{URI: "file:///answer.md", Version: 3}
			act, ok := applyAll(ref, blocks)
			if !ok {
				if tc.title != "" {
					t.Fatalf("not offered, want %q", tc.title)
				}
				return
			}
			if act.Title != tc.title {
				t.Errorf("title %q, want %q", act.Title, tc.title)
			}
			cp, _ := act.Command.Arguments[0].(commandParams)
			if act.Command.Command != cmdApply || cp.Answer != ref || !slices.Equal(cp.Blocks, tc.blocks) {
				t.Errorf("command %s %+v, want %s of blocks %v", act.Command.Command, cp, cmdApply, tc.blocks)
			}
		})
	}
}
