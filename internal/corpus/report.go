package corpus

import (
	"fmt"
	"strings"

	"github.com/graft-editor/graft/engine"
)

// Summaries says what happened to each edit of outs, a phrase each: its
// status and the strategy, score and lines of its match, or the first line
// of its error. An outcome with neither says nothing.
func Summaries(outs []engine.Outcome) []string {
	var parts []string
	for i, o := range outs {
		switch {
		case o.Match != nil:
			parts = append(parts, fmt.Sprintf("edit %d %s: %s %.2f lines %d-%d", i+1, o.Status, o.Match.Strategy, o.Match.Score, o.Match.StartLine, o.Match.EndLine))
		case o.Err != nil:
			msg, _, _ := strings.Cut(o.Err.Error(), "\n")
			parts = append(parts, fmt.Sprintf("edit %d %s: %s", i+1, o.Status, msg))
		}
	}
	return parts
}

// Clip keeps the first n lines of s, each after prefix, and says how many
// more there were; every line it returns ends in "\n".
func Clip(s string, n int, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append(lines[:n], fmt.Sprintf("... (%d more lines)", len(lines)-n))
	}
	return prefix + strings.Join(lines, "\n"+prefix) + "\n"
}
