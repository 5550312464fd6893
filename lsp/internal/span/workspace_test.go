package span_test

import (
	"strings"
	"testing"

	"github.com/graft-editor/graft/lsp/internal/span"
	"github.com/graft-editor/graft/workspace"
)

// texts have every kind of line break, and lines long enough to fill
// several of a buffer's chunks.
var texts = []string{
	"", "\n", "\r", "\r\n", "\n\r", "\r\r\n\n", "no break",
	"a😀b\r\n世界\rc\u0301\n\n😀",
	strings.Repeat("line é😀\r\n", 700) + strings.Repeat("x\ry\n", 700),
}

// The workspace counts lines as the Mapper does: a Mapper made from a
// snapshot's line starts is the Mapper of its text, and Offset finds in a
// buffer's text what the Mapper finds in the same text.
func TestMapperAgreesWithWorkspace(t *testing.T) {
	encodings := []span.Encoding{span.UTF16, span.UTF8, span.UTF32}
	for _, text := range texts {
		want := span.NewMapper(text)
		b := workspace.NewBuffer("/w/f", text, 1)
		snap, err := b.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		got := span.NewMapperLines(snap.Text, snap.LineStarts())
		if got.Lines() != want.Lines() {
			t.Fatalf("%.20q: %d lines from the snapshot, %d from the Mapper", text, got.Lines(), want.Lines())
		}
		err = b.ChangeFunc(2, 1, func(_ int, buf workspace.Text) (workspace.Change, error) {
			if buf.Lines() != want.Lines() {
				t.Fatalf("%.20q: %d lines in the buffer, %d in the Mapper", text, buf.Lines(), want.Lines())
			}
			for line := range want.Lines() + 2 {
				for _, ch := range []int{0, 1, 2, 3, 5, 100} {
					for _, enc := range encodings {
						p := span.Position{Line: line, Character: ch}
						off, err := want.Offset(p, enc)
						if off2, err2 := got.Offset(p, enc); off2 != off || (err2 == nil) != (err == nil) {
							t.Fatalf("%.20q: Offset(%v, %v) = %d, %v from the snapshot; %d, %v from the text", text, p, enc, off2, err2, off, err)
						}
						if off2, err2 := span.Offset(buf, p, enc); off2 != off || (err2 == nil) != (err == nil) {
							t.Fatalf("%.20q: Offset(%v, %v) = %d, %v in the buffer; %d, %v in the Mapper", text, p, enc, off2, err2, off, err)
						}
					}
				}
			}
			return workspace.Change{}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
