package lsp_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
)

// BenchmarkHunksFollow times what following the buffer costs a pending
// suggestion of many hunks, each resolved on its own: in a 5,000-line
// open buffer, one block of 1,000 lines that changes every 20th line (50
// hunks, or 1 for hunks=1), the person types a line at the top, and
// graft.suggestions lists the hunks resolved against that version. It
// reports the median and the 99th percentile of the listing.
func BenchmarkHunksFollow(b *testing.B) {
	for _, n := range []int{1, 50} {
		b.Run(fmt.Sprintf("hunks=%d", n), func(b *testing.B) {
			var text strings.Builder
			for i := range 5000 {
				fmt.Fprintf(&text, "\tvalue%04d := compute(%d, \"item %d\")\n", i, i, i)
			}
			lines := strings.SplitAfter(text.String(), "\n")
			old := strings.Join(lines[2000:3000], "")
			for k := range n {
				i := 2000 + k*20
				lines[i] = strings.Replace(lines[i], "compute", "recompute", 1)
			}
			answer := "big.go\n<<<<<<< SEARCH\n" + old + "=======\n" + strings.Join(lines[2000:3000], "") + ">>>>>>> REPLACE\n"
			dir := writeFiles(b, b.TempDir(), map[string]string{"big.go": text.String()})
			e, _ := fakeeditor.StartReady(b, fakeeditor.VSCode(dir))
			path := filepath.Join(dir, "big.go")
			if err := e.Open(path, "go", text.String()); err != nil {
				b.Fatal(err)
			}
			var reply hunksSuggested
			if err := execute(b, e, "graft.suggest", map[string]any{"text": answer}, &reply); err != nil || len(reply.Hunks) != n {
				b.Fatalf("graft.suggest: %d hunks, %v; want %d", len(reply.Hunks), err, n)
			}
			var times []time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if err := e.Edit(path, &protocol.Range{}, fmt.Sprintf("// typed %d\n", i)); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				var list []hunk
				if err := execute(b, e, "graft.suggestions", nil, &list); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(start))
				if len(list) != n || list[0].State != "pending" || list[0].Range.Start.Line != uint32(2000+i+1) {
					b.Fatalf("round %d: %d hunks, first %+v", i, len(list), list[0])
				}
			}
			b.StopTimer()
			shutdown(b, e)
			testenv.ReportLatency(b, times)
		})
	}
}
