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
		// numbers are the blocks' numbers as a person counts them; nil:
		// one block each.
		numbers []int
	}{
		{"none resolved yet", []engine.Status{"", "", ""}, "Apply all 3 edit blocks", nil, nil},
		{"none applied", []engine.Status{applied, failed, applied}, "Apply all 3 edit blocks", nil, nil},
		{"one applied", []engine.Status{already, failed, applied}, "Apply all 2 edit blocks", []int{1, 2}, nil},
		{"one left", []engine.Status{already, applied, already}, "Apply the remaining edit block → a.go", []int{1}, nil},
		{"none left", []engine.Status{already, already}, "", nil, nil},
		{"a patch of three files and a block", []engine.Status{"", "", "", ""}, "Apply all 2 edit blocks", nil, []int{1, 1, 1, 2}},
		{"the patch left", []engine.Status{applied, applied, failed, already}, "Apply the remaining edit block", []int{0, 1, 2}, []int{1, 1, 1, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			blocks := make([]blockState, len(tc.states))
			for i, s := range tc.states {
				blocks[i] = blockState{span: engine.Span{StartLine: 10*i + 1, EndLine: 10*i + 8}, path: "a.go", status: s, number: i + 1}
				if tc.numbers != nil {
					blocks[i].number = tc.numbers[i]
				}
			}
			ref := &answerRef{URI: "file:///answer.md", Version: 3, blocks: blocks}
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
			if act.Command.Command != cmdApply || cp.Answer.URI != ref.URI || cp.Answer.Version != ref.Version || !slices.Equal(cp.Blocks, tc.blocks) {
				t.Errorf("command %s %+v, want %s of blocks %v", act.Command.Command, cp, cmdApply, tc.blocks)
			}
			// It says where the blocks it applies start.
			var starts []int
			for i := range blocks {
				if tc.blocks == nil || slices.Contains(tc.blocks, i) {
					starts = append(starts, 10*i+1)
				}
			}
			if !slices.Equal(cp.Answer.Starts, starts) {
				t.Errorf("starts %v, want %v", cp.Answer.Starts, starts)
			}
		})
	}
}
