package lsp_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// BenchmarkChangeCPU measures the CPU time a didChange costs the server,
// the process's whole time from /proc, readers and scheduler included:
// lines appended one by one to a Go buffer that holds no answer, a line
// every 5ms, as a chat plugin or a person typing sends them, with pauses
// in which the server sleeps. Reported per change (cpu-ms/change).
// -stream.pace sets another pace: at a model's, a line every 200ms, each
// change finds the server idle, and costs it about twice as much.
func BenchmarkChangeCPU(b *testing.B) {
	const changes = 200
	pace := 5 * time.Millisecond
	if *streamPace > 0 {
		pace = *streamPace
	}
	dir := b.TempDir()
	e, _ := fakeeditor.StartReady(b, fakeeditor.VSCode(dir))
	lines := strings.SplitAfter(benchTarget(0), "\n")[:changes]
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		path := filepath.Join(dir, "typed.go")
		if err := e.Open(path, "go", ""); err != nil {
			b.Fatal(err)
		}
		before := serverCPU(b, e.Pid())
		for n, line := range lines {
			at := protocol.Position{Line: uint32(n)}
			if err := e.Edit(path, &protocol.Range{Start: at, End: at}, line); err != nil {
				b.Fatal(err)
			}
			time.Sleep(pace)
		}
		// A request answered after the last change: every change is in.
		var actions []protocol.CodeAction
		params := protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: fakeeditor.URI(path)}}
		if err := e.Call(context.Background(), "textDocument/codeAction", params, &actions); err != nil {
			b.Fatal(err)
		}
		cpu += serverCPU(b, e.Pid()) - before
		if err := e.Close(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N*changes), "cpu-ms/change")
}
