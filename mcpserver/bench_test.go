package mcpserver_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/internal/test/testenv"
)

// BenchmarkMCPEdit times an edit round trip as an agent sees it: a call of
// the edit tool over stdio to the built graft mcp, against a 5,000-line
// file, from the request to the result, the file read, resolved, written
// atomically under the root's lock. It reports the median and the 99th
// percentile; the target is a p50 of at most 5 ms.
func BenchmarkMCPEdit(b *testing.B) {
	var file strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&file, "\tvalue%04d := compute(%d, \"item %d\")\n", i, i, i)
	}
	dir := writeFiles(b, b.TempDir(), map[string]string{"big.go": file.String()})
	s := startIn(b, dir)
	// Two edits that undo each other, in the middle of the file, so that
	// every round applies.
	old := "\tvalue2500 := compute(2500, \"item 2500\")\n"
	new := "\tvalue2500 := recompute(2500, \"item 2500\")\n"
	edits := [2]map[string]any{
		{"path": "big.go", "old_string": old, "new_string": new},
		{"path": "big.go", "old_string": new, "new_string": old},
	}
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res := s.call("edit", edits[i%2])
		times = append(times, time.Since(start))
		if res.IsError {
			b.Fatalf("edit refused:\n%s", text(res))
		}
	}
	b.StopTimer()
	testenv.ReportLatency(b, times)
	want := file.String()
	if b.N%2 == 1 {
		want = strings.Replace(want, old, new, 1)
	}
	if got := readFile(b, dir, "big.go"); got != want {
		b.Errorf("big.go is not what the edits made")
	}
}
