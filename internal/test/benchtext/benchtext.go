// Package benchtext makes the text that the benchmarks of several
// packages share, so that their figures can be set side by side: a change
// to a buffer, to the position mapper and through the server's didChange
// are each measured on the same lines.
package benchtext

import (
	"fmt"
	"strings"
)

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

// GoFuncs returns the text of file number file of an answer's targets: n
// Go functions of five lines, f<file>_0 to f<file>_<n-1>, each with its
// own constants, so that a block that quotes one finds it once.
func GoFuncs(file, n int) string {
	var b strings.Builder
	for k := range n {
		fmt.Fprintf(&b, "func f%d_%d(x int) int {\n\ty := x * %d\n\treturn y + %d\n}\n\n", file, k, k, file)
	}
	return b.String()
}

// Answer returns an answer in markdown of blocks search-replace blocks
// over files targets, f0.go on, of funcs functions each as GoFuncs writes
// them: blocks/files a target, each changing one function, spread over
// the file. With fuzzy, each block quotes its whole function with a line
// as a model misremembers it (a comment the file does not have), so that
// it resolves fuzzily, as agents' blocks often do; otherwise it quotes
// two lines as they are.
func Answer(files, funcs, blocks int, fuzzy bool) string {
	var b strings.Builder
	b.WriteString("Here are the changes.\n\n")
	per := blocks / files
	for file := range files {
		for j := range per {
			k := (2*j + 1) * funcs / (2 * per)
			if fuzzy {
				fmt.Fprintf(&b, "f%d.go\n```go\n<<<<<<< SEARCH\nfunc f%d_%d(x int) int {\n\ty := x * %d\n\treturn y + %d // the sum\n}\n=======\nfunc f%d_%d(x int) int {\n\ty := x * %d\n\treturn y - %d\n}\n>>>>>>> REPLACE\n```\n\n",
					file, file, k, k, file, file, k, k, file)
				continue
			}
			fmt.Fprintf(&b, "f%d.go\n```go\n<<<<<<< SEARCH\n\ty := x * %d\n\treturn y + %d\n=======\n\ty := x * %d\n\treturn y - %d\n>>>>>>> REPLACE\n```\n\n",
				file, k, file, k, file)
		}
	}
	return b.String()
}
