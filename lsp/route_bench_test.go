package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
)

// BenchmarkRouteRoundTrip times one str-replace edit routed over the
// editor link, as graft apply --editor and graft mcp send it: from the
// connection to the reply, through the server's queue, workspace/applyEdit
// to the editor and its didChange, against a 5,000-line open buffer. It
// reports the median and the 99th percentile.
func BenchmarkRouteRoundTrip(b *testing.B) {
	var text strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&text, "\tvalue%04d := compute(%d, \"item %d\")\n", i, i, i)
	}
	dir := writeFiles(b, b.TempDir(), map[string]string{"big.go": text.String()})
	short, err := os.MkdirTemp("", "gl") // a socket path fits in 108 bytes
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(short)
	sockets := filepath.Join(short, "graft")
	b.Setenv(editorlink.DirEnv, sockets)
	opt := fakeeditor.VSCode(dir)
	opt.Env = os.Environ()
	e, _ := fakeeditor.StartReady(b, opt)
	path := filepath.Join(dir, "big.go")
	if err := e.Open(path, "go", text.String()); err != nil {
		b.Fatal(err)
	}
	socket, err := editorlink.SocketPath(sockets, dir)
	if err != nil {
		b.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if c, err := net.Dial("unix", socket); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			b.Fatal("no editor link socket")
		}
	}
	// Two edits that undo each other, so that every round applies.
	old, new := `value2500 := compute(2500,`, `value2500 := recompute(2500,`
	edits := [2]json.RawMessage{}
	edits[0], _ = json.Marshal(map[string]any{"filePath": "big.go", "oldString": old, "newString": new})
	edits[1], _ = json.Marshal(map[string]any{"filePath": "big.go", "oldString": new, "newString": old})
	ctx := context.Background()
	var times []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		rep, err := editorlink.Send(ctx, dir, nil, &editorlink.Request{Edits: []json.RawMessage{edits[i%2]}})
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		if !rep.Applied {
			b.Fatalf("round %d not applied: %+v", i, rep)
		}
	}
	b.StopTimer()
	shutdown(b, e)
	testenv.ReportLatency(b, times)
}
