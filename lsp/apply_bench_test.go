package lsp_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
)

// shutdown ends the server as an editor does: shutdown, exit, and a
// clean exit status.
func shutdown(tb testing.TB, e *fakeeditor.Editor) {
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
// the 99th percentile; the target is a p50 of at most 3 ms.
func BenchmarkApplyRoundTrip(b *testing.B) {
	var text strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&text, "\tvalue%04d := compute(%d, \"item %d\")\n", i, i, i)
	}
	dir := writeFiles(b, b.TempDir(), map[string]string{"big.go": text.String()})
	e, _ := fakeeditor.StartReady(b, fakeeditor.VSCode(dir))
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
	testenv.ReportLatency(b, times)
}

// BenchmarkStaleMissRoundTrip times graft.apply over stdio of a block that
// must consult the history and finds it no reason to refuse (a stale
// miss): a 6-line block with a typo in a line it keeps, found only
// fuzzily, on a
// 5,000-line open buffer whose past holds 12 versions (historyVersions),
// each the text one of graft's earlier edits replaced. The look-up
// resolves the block in every version, as the resolver does in the text,
// to tell whether it was read there. "exact" sends the same block without
// the typo, which never consults the history. Each round applies, undoing
// the last, and keeps one more version, so 12 stay. It reports the
// median and the 99th percentile.
func BenchmarkStaleMissRoundTrip(b *testing.B) {
	const lines = 5000
	var text strings.Builder
	for i := range lines {
		fmt.Fprintf(&text, "\tvalue%04d := compute(%d, \"item %d\")\n", i, i, i)
	}
	region := func(fn string, typo bool) string {
		var r strings.Builder
		for i := 2500; i < 2506; i++ {
			call := fn
			switch {
			case i == 2502 && typo: // a line no answer changes
				call = "comptue"
			case i == 2502:
				call = "compute"
			}
			fmt.Fprintf(&r, "\tvalue%04d := %s(%d, \"item %d\")\n", i, call, i, i)
		}
		return r.String()
	}
	for _, bc := range []struct {
		name string
		typo bool
	}{{"exact", false}, {"fuzzy-miss", true}} {
		b.Run(bc.name, func(b *testing.B) {
			dir := writeFiles(b, b.TempDir(), map[string]string{"big.go": text.String()})
			e, _ := fakeeditor.StartReady(b, fakeeditor.VSCode(dir))
			path := filepath.Join(dir, "big.go")
			if err := e.Open(path, "go", text.String()); err != nil {
				b.Fatal(err)
			}
			// Twelve edits far from the block leave twelve versions.
			for k := range 12 {
				old := fmt.Sprintf("value%04d := compute(", k*100)
				edit := map[string]any{"filePath": "big.go", "oldString": old, "newString": "\t" + old}
				var r applyReply
				if err := execute(b, e, "graft.apply", map[string]any{"edits": []any{edit}}, &r); err != nil || !r.Applied {
					b.Fatalf("edit %d: %v %+v", k, err, r)
				}
			}
			answers := [2]map[string]any{
				{"filePath": "big.go", "oldString": region("compute", bc.typo), "newString": region("recompute", false)},
				{"filePath": "big.go", "oldString": region("recompute", bc.typo), "newString": region("compute", false)},
			}
			var times []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				var r applyReply
				if err := execute(b, e, "graft.apply", map[string]any{"edits": []any{answers[i%2]}}, &r); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
				if !r.Applied || len(r.Blocks) != 1 || bc.typo == (r.Blocks[0].Strategy == "exact") {
					b.Fatalf("round %d: %+v", i, r)
				}
			}
			b.StopTimer()
			shutdown(b, e)
			testenv.ReportLatency(b, times)
		})
	}
}
