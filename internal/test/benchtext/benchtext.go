// Package benchtext makes the text that the benchmarks of several
// packages share, so that their figures can be set side by side: a change
// to a buffer, to the position mapper and through the server's didChange
// are each measured on the same lines.
package benchtext

import "strings"

// GoLines returns a text of n lines of Go, about 40 bytes each, one in ten
// a comment with characters beyond ASCII.
func GoLines(n int) string {
	var sb strings.Builder
	for i := range n {
		if i%10 == 0 {
			sb.WriteString("\t// ünïcode 世界 comment line 😀 here\n")
		} else {
			sb.WriteString("\tx := computeSomething(a, b, c) + 42\n")
		}
	}
	return sb.String()
}
