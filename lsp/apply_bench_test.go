package lsp_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/lsp/lsptest"
)

// shutdown ends the server as an editor does: shutdown, exit, and a
// clean exit status.
func shutdown(tb testing.TB, e *lsptest.Editor) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.Shutdown(ctx); err != nil {
		tb.Fatalf("shutdown: %v", err)
	}
	if err := e.Exit(); err != nil {
		tb.Fatalf("exit: %v", err)
	}
	if code, err := e.Wait(10 * time.Second); err != nil || code != 0 {
		tb.Fatalf("exit status %d, %v", code, err)
	}
}

// BenchmarkApplyRoundTrip times graft.apply over stdio as an editor sees
// it: a 20-block answer against a 5,000-line open buffer, from the request
// to the reply (the edit sent, applied by the editor, and its didChange
// read by the server before the reply comes). It reports the median and
// the 99th percentile; the target is a p50 of at most 10 ms.
func BenchmarkApplyRoundTrip(b *testing.B) {
	var text strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&text, "\tvalue%04d := compute(%d, \"item %d\")\n", i, i, i)
	}
	dir := writeFiles(b, b.TempDir(), map[string]string{"big.go": text.String()})
	e, _ := lsptest.StartReady(b, lsptest.VSCode(dir))
	path := filepath.Join(dir, "big.go")
	if err := e.Open(path, "go", text.String()); err != nil {
		b.Fatal(err)
	}
	// Two answers that undo each other, so that every round applies.
	answers := [2][]map[string]any{}
	for k := range 20 {
		line := k * 250
		old := fmt.Sprintf("value%04d := compute(%d,", line, line)
		new := fmt.Sprintf("value%04d := recompute(%d,", line, line)
		answers[0] = append(answers[0], map[string]any{"filePath": "big.go", "oldString": old, "newString": new})
		answers[1] = append(answers[1], map[string]any{"filePath": "big.go", "oldString": new, "newString": old})
	}
	var times []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		var r applyReply
		if err := execute(b, e, "graft.apply", map[string]any{"edits": answers[i%2]}, &r); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		if !r.Applied {
			b.Fatalf("round %d not applied: %+v", i, r)
		}
	}
	b.StopTimer()
	shutdown(b, e)
	lsptest.ReportLatency(b, times)
}
