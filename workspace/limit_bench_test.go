package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
)

// atLimit writes dir/big.go, a file of MaxFileSize bytes of numbered Go
// lines, and returns a line of it from the middle, which occurs once.
func atLimit(b *testing.B, dir string) (middle string) {
	b.Helper()
	var s strings.Builder
	s.Grow(MaxFileSize)
	for i := 0; s.Len() < MaxFileSize; i++ {
		line := fmt.Sprintf("\tsum += weight(%d) * value[%d] // line %d\n", i%97, i, i)
		if s.Len()+len(line) > MaxFileSize {
			line = strings.Repeat("/", MaxFileSize-s.Len()-1) + "\n"
		}
		s.WriteString(line)
		if middle == "" && s.Len() >= MaxFileSize/2 {
			middle = line
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "big.go"), []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return middle
}

// perFile runs op b.N times and reports the bytes it allocates each time
// as a multiple of the file's size, "alloc/file": an upper bound on what
// it holds at its peak, which is at most all it allocates.
func perFile(b *testing.B, op func()) {
	b.Helper()
	b.SetBytes(MaxFileSize)
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n := 0
	for b.Loop() {
		op()
		n++
	}
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n)/MaxFileSize, "alloc/file")
}

// BenchmarkReadFileAtLimit reads a file of MaxFileSize bytes: what a file
// at the limit costs to read, in time and memory (its size once).
func BenchmarkReadFileAtLimit(b *testing.B) {
	dir := b.TempDir()
	atLimit(b, dir)
	root, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	perFile(b, func() {
		if _, err := root.ReadFile("big.go"); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkPlanAtLimit plans one block in a file of MaxFileSize bytes,
// and its diff, as graft apply --dry-run and preview_edits do: the read,
// the resolve, the new text and the diff.
func BenchmarkPlanAtLimit(b *testing.B) {
	dir := b.TempDir()
	middle := atLimit(b, dir)
	root, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	blocks := []dialect.Block{replace("big.go", middle, "\tsum += 0\n")}
	perFile(b, func() {
		res, err := Plan(context.Background(), root, blocks, PlanOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if res.Blocks[0].Status != engine.StatusApplied {
			b.Fatalf("block: %v", res.Blocks[0].Err)
		}
		if res.Files[0].Diff() == "" {
			b.Fatal("no diff")
		}
	})
}
