package lsp_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// The shape of BenchmarkAnswerDiagnostics: an answer of answerBlocks
// search-replace blocks over answerFiles open buffers of targetLines lines
// each.
const (
	answerFiles  = 10
	answerBlocks = 50
	targetLines  = 5000
)

// benchTarget returns a Go file of targetLines lines: functions of five
// lines, each with its own constants.
func benchTarget(file int) string {
	var b strings.Builder
	for k := 0; k < targetLines/5; k++ {
		fmt.Fprintf(&b, "func f%d_%d(x int) int {\n\ty := x * %d\n\treturn y + %d\n}\n\n", file, k, k, file)
	}
	return b.String()
}

// benchAnswer returns an answer in markdown whose blocks each change one
// function of the targets, answerBlocks/answerFiles per file, spread over
// the file.
func benchAnswer() string {
	var b strings.Builder
	b.WriteString("Here are the changes.\n\n")
	per := answerBlocks / answerFiles
	for file := 0; file < answerFiles; file++ {
		for j := 0; j < per; j++ {
			k := (2*j + 1) * (targetLines / 5) / (2 * per)
			fmt.Fprintf(&b, "f%d.go\n```go\n<<<<<<< SEARCH\n\ty := x * %d\n\treturn y + %d\n=======\n\ty := x * %d\n\treturn y - %d\n>>>>>>> REPLACE\n```\n\n",
				file, k, file, k, file)
		}
	}
	return b.String()
}

// BenchmarkAnswerDiagnostics measures the time from a didChange of an
// answer buffer of 50 blocks over 5,000-line open buffers to the
// publishDiagnostics that follows, over stdio with the built binary. Each
// change inserts or removes a line above the blocks, so that every
// diagnostic moves and the new ones are told from the old. The server
// runs with a 1ms debounce, so that what is measured is the work; "as
// shipped" adds the default debounce, which an editor's user waits too.
func BenchmarkAnswerDiagnostics(b *testing.B) {
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"debounce=1ms", []string{"--debounce", "1ms"}},
		{"as-shipped", nil},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			opt := fakeeditor.VSCode(dir)
			opt.Args = bc.args
			e, _ := fakeeditor.StartReady(b, opt)
			for file := 0; file < answerFiles; file++ {
				path := filepath.Join(dir, fmt.Sprintf("f%d.go", file))
				text := benchTarget(file)
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					b.Fatal(err)
				}
				if err := e.Open(path, "go", text); err != nil {
					b.Fatal(err)
				}
			}
			answer := filepath.Join(dir, "answer.md")
			if err := e.Open(answer, "markdown", benchAnswer()); err != nil {
				b.Fatal(err)
			}
			u := fakeeditor.URI(answer)
			const first = 4 // the line of the first block's SEARCH, 0-based
			at := func(line uint32) func([]protocol.Diagnostic) bool {
				return func(d []protocol.Diagnostic) bool {
					return len(d) == answerBlocks && d[0].Range.Start.Line == line
				}
			}
			diags, err := e.WaitDiagnostics(u, at(first), time.Minute)
			if err != nil {
				b.Fatal(err)
			}
			for i, d := range diags {
				if d.Severity != protocol.DiagnosticSeverityHint {
					b.Fatalf("block %d: %q, want it to apply exactly", i+1, d.Message)
				}
			}

			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				top := protocol.Range{}
				want := uint32(first + 1)
				text := "\n"
				if i%2 == 1 {
					top.End.Line = 1
					want, text = first, ""
				}
				if err := e.Edit(answer, &top, text); err != nil {
					b.Fatal(err)
				}
				if _, err := e.WaitDiagnostics(u, at(want), time.Minute); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}
}
