package corpus_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/internal/corpus"
)

func TestSummaries(t *testing.T) {
	for _, tt := range []struct {
		name string
		outs []engine.Outcome
		want []string
	}{
		{"none", nil, nil},
		{
			"a match says its strategy, score and lines",
			[]engine.Outcome{{Status: engine.StatusApplied, Match: &engine.Match{Strategy: "line-trimmed", Score: 0.875, StartLine: 3, EndLine: 5}}},
			[]string{"edit 1 applied: line-trimmed 0.88 lines 3-5"},
		},
		{
			"an error says its first line",
			[]engine.Outcome{
				{Status: engine.StatusFailed, Err: errors.New("not found\ncandidate at lines 2-4")},
				{Status: engine.StatusSkipped, Err: errors.New("skipped")},
			},
			[]string{"edit 1 failed: not found", "edit 2 skipped: skipped"},
		},
		{
			"an outcome with neither says nothing, and the next keeps its number",
			[]engine.Outcome{{}, {Status: engine.StatusApplied, Match: &engine.Match{Strategy: "exact", Score: 1, StartLine: 1, EndLine: 1}}},
			[]string{"edit 2 applied: exact 1.00 lines 1-1"},
		},
	} {
		if got := corpus.Summaries(tt.outs); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Summaries = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestClip(t *testing.T) {
	for _, tt := range []struct {
		name   string
		s      string
		n      int
		prefix string
		want   string
	}{
		{"short text kept whole", "a\nb\n", 2, "  ", "  a\n  b\n"},
		{"a missing final newline added", "a\nb", 5, "| ", "| a\n| b\n"},
		{"long text cut, the rest counted", "a\nb\nc\nd\n", 2, "  ", "  a\n  b\n  ... (2 more lines)\n"},
		{"trailing blank lines dropped", "a\n\n\n", 1, "", "a\n"},
	} {
		if got := corpus.Clip(tt.s, tt.n, tt.prefix); got != tt.want {
			t.Errorf("%s: Clip(%q, %d, %q) = %q, want %q", tt.name, tt.s, tt.n, tt.prefix, got, tt.want)
		}
	}
}
