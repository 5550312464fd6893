package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/graft-editor/graft/internal/test/benchtext"
)

// BenchmarkWatchedFilesBurst measures what a burst of changes on the disk
// costs the server (a checkout, a build writing its output): 1,000 files
// changed in one workspace/didChangeWatchedFiles, none of them a file the
// open answer names (50 blocks over ten files on the disk), each looked
// up against the answer's files and the suggestions. Reported per file
// changed (ns/file).
func BenchmarkWatchedFilesBurst(b *testing.B) {
	dir := b.TempDir()
	p := newInProcess(b, dir)
	for file := range 10 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", file)), []byte(benchtext.GoFuncs(file, 1000)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	answer := filepath.Join(dir, "answer.md")
	p.open(answer, "markdown", benchtext.Answer(10, 1000, 50, false))
	if _, _, _ = p.refresh(answer); len(p.s.answers.docs[p.uri(answer)].targets) == 0 {
		b.Fatal("the answer names no file")
	}
	out := filepath.Join(dir, "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		b.Fatal(err)
	}
	const burst = 1000
	changes := make([]params, burst)
	for i := range changes {
		changes[i] = params{"uri": p.uri(filepath.Join(out, fmt.Sprintf("gen%d.go", i))), "type": 2}
	}
	b.ResetTimer()
	for b.Loop() {
		p.notify(p.s.didChangeWatchedFiles, params{"changes": changes})
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*burst), "ns/file")
}
