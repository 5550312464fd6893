package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/internal/test/benchtext"
)

// BenchmarkAnswerRefreshes measures, inside the process and without the
// protocol, what the refreshes of an answer's diagnostics cost while it
// streams in, as the answer grows: answers of 50 to 400 blocks over ten
// open 5,000-line buffers, appended a line at a time, refreshed after
// every line or after every 30 lines (about what the debounce lets
// through at a chat plugin's pace), against one refresh of the whole
// answer. Reported: the refreshes' time (stream-ms), the full refresh's
// (full-ms), and their ratio. A refresh that costs the same whatever the
// answer's length keeps the ratio flat as the answer grows;
// BenchmarkAnswerStream measures the server itself, at 50 blocks.
func BenchmarkAnswerRefreshes(b *testing.B) {
	for _, every := range []int{1, 30} {
		for _, blocks := range []int{50, 100, 200, 400} {
			b.Run(fmt.Sprintf("every=%d/blocks=%d", every, blocks), func(b *testing.B) {
				benchmarkAnswerRefreshes(b, blocks, every)
			})
		}
	}
}

// benchmarkAnswerRefreshes is BenchmarkAnswerRefreshes for an answer of
// the given number of blocks, refreshed after every so many lines.
func benchmarkAnswerRefreshes(b *testing.B, blocks, every int) {
	dir := b.TempDir()
	p := newInProcess(b, dir)
	for file := range 10 {
		path := filepath.Join(dir, fmt.Sprintf("f%d.go", file))
		text := benchtext.GoFuncs(file, 1000)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
		p.open(path, "go", text)
	}
	answer := benchtext.Answer(10, 1000, blocks, false)
	lines := strings.SplitAfter(answer, "\n")
	lines = lines[:len(lines)-1]
	var stream, full time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		streamed := filepath.Join(dir, fmt.Sprintf("stream%d.md", i))
		p.open(streamed, "markdown", "")
		for n, line := range lines {
			p.change(streamed, n, n, line)
			if (n+1)%every == 0 || n == len(lines)-1 {
				_, _, took := p.refresh(streamed)
				stream += took
			}
		}
		whole := filepath.Join(dir, fmt.Sprintf("whole%d.md", i))
		p.open(whole, "markdown", answer)
		_, _, took := p.refresh(whole)
		full += took
		p.close(streamed)
		p.close(whole)
	}
	b.ReportMetric(float64(stream.Microseconds())/1000/float64(b.N), "stream-ms")
	b.ReportMetric(float64(full.Microseconds())/1000/float64(b.N), "full-ms")
	b.ReportMetric(float64(stream)/float64(full), "stream/full")
}
