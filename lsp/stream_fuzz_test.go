package lsp

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// FuzzStreamRaw feeds the stream arbitrary bytes, not framed, then one
// well-framed request, the input arriving chunk bytes at a time (all at
// once for 0). Whatever the bytes, nothing of the request may be lost:
// the stream must read it, as the last message before the end of the
// input, without hanging, and every reply it writes must be a framed
// JSON-RPC error reply. What the bytes before it hold may be lost, each
// broken message answered with an error.
func FuzzStreamRaw(f *testing.F) {
	b5 := `{"jsonrpc":"2.0","id":5,"method":"graft/test"}`
	for _, seed := range []string{
		"",
		"0",
		"}",
		"\r\n",
		b5,
		b5 + "\n",
		frame(b5),
		"hello\r\n\r\n",
		"a:b\r\n\r\n",
		"Content-Type: x\r\n",
		"Content-Length: 5\r\n",
		"Content-Length: 5\r\nhello\r\n\r\n",
		"content-length:",
		"Content-Length: 1",
		"Content-Length: 3\r\n\r\n",
		"Content-Length: 1000\r\n\r\n" + b5,
		"Content-Length: 60\r\n\r\n" + b5,
		"Content-Length: 40\r\n\r\n" + b5,
		"Content-Length: -5\r\n\r\n" + b5,
		"Content-Length: abc\r\n\r\n" + b5,
		"Content-Length: 99999999999999999999\r\n\r\n" + b5,
		"Content-Length: 268435457\r\n\r\n" + b5,
		"Content-Length: 0\r\n\r\n" + b5,
		"Content-Length: 0\r\n\r\n",
		"Content-Length: x\r\n\r\n{\"a\":\"",
		"Content-Length: x\r\n\r\n{\"a\":\"\\",
		"Content-Length: x\r\n\r\n{\"a\":\"\\u",
		"Content-Length: x\r\n\r\n[[[[",
		"Content-Length: 10\r\n\r\n\"abc",
		"Content-Length:" + strings.Repeat(" ", maxLengthValue) + "5\r\n\r\n" + b5,
		strings.Repeat("x", maxHeaderLine+3),
	} {
		f.Add([]byte(seed), uint8(0))
		f.Add([]byte(seed), uint8(1))
		f.Add([]byte(seed), uint8(13))
	}
	probe := frame(`{"jsonrpc":"2.0","id":"probe","method":"graft/probe","params":{"text":"Content-Length: 9"}}`)
	f.Fuzz(func(t *testing.T, junk []byte, chunk uint8) {
		in := append(bytes.Clone(junk), probe...)
		release := make(chan struct{})
		close(release)
		out := &lockedBuffer{}
		s := newStream(testConn{&stallReader{data: in, n: int(chunk), release: release}, out}, zap.NewNop())
		type result struct {
			last jsonrpc2.Message
			err  error
		}
		done := make(chan result, 1)
		go func() {
			var last jsonrpc2.Message
			for {
				msg, _, err := s.Read(context.Background())
				if err != nil {
					done <- result{last, err}
					return
				}
				last = msg
			}
		}()
		var r result
		select {
		case r = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("the stream hangs on %q", junk)
		}
		if r.err != io.EOF {
			t.Errorf("at the end of the input: %v, want io.EOF", r.err)
		}
		call, ok := r.last.(*jsonrpc2.Call)
		if !ok || call.Method() != "graft/probe" || messageID(t, call) != `"probe"` {
			t.Fatalf("after %q the last message read is %#v, not the request", junk, r.last)
		}
		errorReplies(t, out.Bytes())
	})
}
