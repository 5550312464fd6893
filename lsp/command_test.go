package lsp

import (
	"maps"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/workspace"
)

// TestShownCounts counts blocks as the person sees them: the files of
// one apply-patch are one block, with the status of its worst file.
func TestShownCounts(t *testing.T) {
	t.Parallel()
	block := func(number int, status engine.Status) workspace.BlockResult {
		return workspace.BlockResult{Number: number, Status: status}
	}
	applied, already, failed, skipped := engine.StatusApplied, engine.StatusAlreadyApplied, engine.StatusFailed, engine.StatusSkipped
	tests := []struct {
		name   string
		blocks []workspace.BlockResult
		want   map[engine.Status]int
	}{
		{"one block per file", []workspace.BlockResult{block(1, applied), block(2, failed)},
			map[engine.Status]int{applied: 1, failed: 1}},
		{"a patch of two files and a failed block", []workspace.BlockResult{block(1, applied), block(1, applied), block(2, failed)},
			map[engine.Status]int{applied: 1, failed: 1}},
		{"a patch one of whose files failed", []workspace.BlockResult{block(1, applied), block(1, failed), block(2, applied)},
			map[engine.Status]int{applied: 1, failed: 1}},
		{"a patch applied and already applied", []workspace.BlockResult{block(1, already), block(1, applied)},
			map[engine.Status]int{applied: 1}},
		{"a patch skipped after a failure", []workspace.BlockResult{block(1, failed), block(2, skipped), block(2, applied)},
			map[engine.Status]int{failed: 1, skipped: 1}},
		{"blocks without numbers", []workspace.BlockResult{block(0, applied), block(0, applied)},
			map[engine.Status]int{applied: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := shownCounts(tc.blocks); !maps.Equal(got, tc.want) {
				t.Errorf("shownCounts = %v, want %v", got, tc.want)
			}
		})
	}
}
