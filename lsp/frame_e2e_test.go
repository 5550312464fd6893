package lsp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// previewRequest is a graft.preview request with id, as an editor frames
// its body.
func previewRequest(id int, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"workspace/executeCommand","params":{"command":"graft.preview","arguments":[{"text":%q}]}}`, id, text)
}

// lengthHeader is a header block whose Content-Length is value.
func lengthHeader(value any) string {
	return fmt.Sprintf("Content-Length: %v\r\n\r\n", value)
}

// TestBrokenFramesDoNotDeafen writes bytes that break the base protocol's
// framing to graft serve, then a request as an editor does: the server
// must answer it within seconds, and answer the broken message with an
// error carrying its id when the bytes tell it. Before the reader
// resynchronised on the next header, the request was never answered.
func TestBrokenFramesDoNotDeafen(t *testing.T) {
	accented := previewRequest(901, "héllo wörld ✓ — ünïcödé")
	short := previewRequest(906, "")
	long := previewRequest(907, "")
	tests := []struct {
		name string
		raw  string
		id   string // the id of the broken message's error reply; "" for no reply
		junk bool   // junk is logged
	}{
		{"stray 0 without a newline", "0", "", true},
		{"count in characters", lengthHeader(utf8.RuneCountInString(accented)) + accented, "901", true},
		{"negative count", lengthHeader(-5) + previewRequest(902, ""), "902", false},
		{"count not a number", lengthHeader("abc") + previewRequest(903, ""), "903", false},
		{"overflowing count", lengthHeader("99999999999999999999") + previewRequest(904, ""), "904", false},
		{"zero count", lengthHeader(0) + previewRequest(905, ""), "905", false},
		{"header glued to leftover bytes", "}", "", true},
		{"count one short", lengthHeader(len(short)-1) + short, "906", true},
		{"count running into the next header", lengthHeader(len(long)+30) + long, "907", false},
		{"count far too large", lengthHeader(100000) + previewRequest(908, ""), "908", false},
		{"body without a header", previewRequest(909, ""), "", true},
		{"header without its empty line", "Content-Length: 40\r\n" + previewRequest(910, ""), "910", false},
		{"overlong line", strings.Repeat("x", 100<<10), "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(t.TempDir()))
			if err := e.WriteRaw([]byte(tt.raw)); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			err := e.Command(ctx, "graft.preview", map[string]any{"text": ""}, nil)
			var re *fakeeditor.ResponseError
			if err != nil && !errors.As(err, &re) {
				t.Fatalf("request after %q: %v: the server went deaf", clipped(tt.raw), err)
			}
			if tt.id != "" {
				r, err := e.Conn().WaitUnmatched(func(r fakeeditor.Response) bool { return string(r.ID) == tt.id }, 5*time.Second)
				if err != nil {
					t.Errorf("no error reply with id %s: %v; replies %+v", tt.id, err, e.Conn().Unmatched())
				} else if r.Error == nil || r.Error.Code != fakeeditor.CodeParseError {
					t.Errorf("reply to the broken message: %+v, want a parse error", r)
				}
			}
			if tt.id == "" {
				if got := e.Conn().Unmatched(); len(got) > 0 {
					t.Errorf("replies to junk: %+v", got)
				}
			}
			shutdownExit(t, e)
			if logged := strings.Contains(e.Stderr(), "skipped input that is no message"); logged != tt.junk {
				t.Errorf("junk logged %v, want %v:\n%s", logged, tt.junk, e.Stderr())
			}
		})
	}
}

// clipped returns the start of s, for messages.
func clipped(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
