package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// stallReader reads data, n bytes at a time (all of it when n is 0), then
// blocks as a pipe whose writer waits, until release is closed; then it
// is at its end.
type stallReader struct {
	data    []byte
	n       int
	release chan struct{}
}

func (r *stallReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		<-r.release
		return 0, io.EOF
	}
	k := len(p)
	if r.n > 0 {
		k = min(k, r.n)
	}
	k = copy(p[:k], r.data)
	r.data = r.data[k:]
	return k, nil
}

// lockedBuffer is a bytes.Buffer safe for a writer and a reader.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.b.Bytes())
}

// testConn is the connection of a stream under test.
type testConn struct {
	io.Reader
	io.Writer
}

func (testConn) Close() error { return nil }

// errorReply is an error reply as the tests see it.
type errorReply struct {
	id   string // raw JSON
	code int64
}

// errorReplies decodes the error replies framed in out.
func errorReplies(t *testing.T, out []byte) []errorReply {
	t.Helper()
	var got []errorReply
	in := bufio.NewReader(bytes.NewReader(out))
	for {
		body, err := readMessage(in)
		if errors.Is(err, io.EOF) {
			return got
		}
		if err != nil {
			t.Fatalf("reply frames %q: %v", out, err)
		}
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *struct {
				Code int64 `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &m); err != nil || m.JSONRPC != "2.0" || m.Error == nil || len(m.ID) == 0 {
			t.Fatalf("reply %s is no JSON-RPC error reply (%v)", body, err)
		}
		got = append(got, errorReply{string(m.ID), m.Error.Code})
	}
}

// messageID returns the id of msg as raw JSON, or "" for a notification.
func messageID(t *testing.T, msg jsonrpc2.Message) string {
	t.Helper()
	b, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	json.Unmarshal(b, &m)
	return string(m.ID)
}

// request returns a framed request with id.
func request(id int) string {
	return frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"graft/test"}`, id))
}

// withLength frames body with the Content-Length header value given.
func withLength(value, body string) string {
	return "Content-Length: " + value + "\r\n\r\n" + body
}

func TestStreamResync(t *testing.T) {
	const (
		parse   = int64(jsonrpc2.ParseError)
		invalid = int64(jsonrpc2.InvalidRequest)
	)
	accented := `{"jsonrpc":"2.0","id":3,"method":"graft/test","params":{"text":"héllo wörld ✓"}}`
	body := func(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"graft/test"}`, id) }
	b5 := body(5)
	tests := []struct {
		name    string
		in      string
		msgs    []string     // ids of the messages read, in order
		replies []errorReply // error replies written, in order
		junk    bool         // skipped input is logged
	}{
		{"well framed", request(1) + request(2), []string{"1", "2"}, nil, false},
		{"blank lines between messages", "\r\n" + request(1) + "\r\n\n" + request(2), []string{"1", "2"}, nil, false},
		{"other headers", "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + request(1), []string{"1"}, nil, false},
		{"header name in lower case", "content-length: " + fmt.Sprint(len(b5)) + "\r\n\r\n" + b5, []string{"5"}, nil, false},
		{"white space before the colon", "Content-Length : " + fmt.Sprint(len(b5)) + "\r\n\r\n" + b5, []string{"5"}, nil, false},
		{"lines ended by LF alone", "Content-Length: " + fmt.Sprint(len(b5)) + "\n\n" + b5, []string{"5"}, nil, false},
		{"header name in a string of the body", frame(`{"jsonrpc":"2.0","id":6,"method":"m","params":{"t":"Content-Length: 5\r\n"}}`) + request(99),
			[]string{"6", "99"}, nil, false},
		{"header name in a string before a newline of the body", frame("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"m\",\n\"params\":{\"t\":\"Content-Length:\",\n\"u\":1}}") + request(99),
			[]string{"6", "99"}, nil, false},

		{"stray 0", "0" + request(99), []string{"99"}, nil, true},
		{"stray byte between messages", request(1) + "}" + request(2), []string{"1", "2"}, nil, true},
		{"body without a header", body(7) + request(99), []string{"99"}, nil, true},
		{"body without a header, then a newline", body(7) + "\n" + request(99), []string{"99"}, nil, true},
		{"line without a colon", "hello\r\n\r\n" + request(99), []string{"99"}, nil, true},
		{"overlong line", strings.Repeat("x", 3*maxHeaderLine+7) + request(99), []string{"99"}, nil, true},
		{"overlong line, then a newline", strings.Repeat("x", maxHeaderLine+1) + "\n" + request(99), []string{"99"}, nil, true},
		{"overlong line of colons", strings.Repeat("a:", maxHeaderLine) + "\r\n\r\n" + request(99), []string{"99"}, nil, true},

		{"count in characters", withLength(fmt.Sprint(utf8.RuneCountInString(accented)), accented) + request(99),
			[]string{"99"}, []errorReply{{"3", parse}}, true},
		{"count one short", withLength(fmt.Sprint(len(b5)-1), b5) + request(99), []string{"99"}, []errorReply{{"5", parse}}, true},
		{"count reaching into the next header line", withLength(fmt.Sprint(len(b5)+30), b5) + request(99),
			[]string{"99"}, []errorReply{{"5", parse}}, false},
		{"count far too large", withLength("100000", b5) + request(99), []string{"99"}, []errorReply{{"5", parse}}, false},
		{"count ending in the next header name", withLength(fmt.Sprint(len(b5)+5), b5) + request(99),
			[]string{"99"}, []errorReply{{"5", parse}}, false},
		{"count ending in the next header value", withLength(fmt.Sprint(len(b5)+17), b5) + request(99),
			[]string{"99"}, []errorReply{{"5", parse}}, false},
		{"count ending at the next header", withLength(fmt.Sprint(len(b5)+1), b5) + request(99),
			[]string{"99"}, []errorReply{{"5", parse}}, false},
		{"bytes after the object", frame(b5+"xyz") + request(99), []string{"99"}, []errorReply{{"5", parse}}, false},
		{"white space after the object", frame(b5+" \r\n") + request(99), []string{"5", "99"}, nil, false},

		{"negative count", withLength("-5", b5) + request(99), []string{"99"}, []errorReply{{"5", parse}}, false},
		{"count not a number", withLength("abc", b5) + request(99), []string{"99"}, []errorReply{{"5", parse}}, false},
		{"overflowing count", withLength("99999999999999999999", b5) + request(99), []string{"99"}, []errorReply{{"5", parse}}, false},
		{"count above the maximum", withLength(fmt.Sprint(maxMessage+1), b5) + request(99), []string{"99"}, []errorReply{{"5", parse}}, false},
		{"zero count", withLength("0", b5) + request(99), []string{"99"}, []errorReply{{"5", parse}}, false},
		{"zero count, no body", withLength("0", "") + request(99), []string{"99"}, []errorReply{{"null", parse}}, false},
		{"count value too long", withLength(strings.Repeat(" ", maxLengthValue)+"5", b5) + request(99),
			[]string{"99"}, []errorReply{{"5", parse}}, false},
		{"no count", "Content-Type: x\r\n\r\n" + b5 + request(99), []string{"99"}, []errorReply{{"5", parse}}, false},
		{"bad count, truncated body", withLength("x", `{"jsonrpc":"2.0","id":5,"method":"m","params":{"a":"`) + request(99),
			[]string{"99"}, []errorReply{{"5", parse}}, false},
		{"bad count, body in an escape", withLength("x", `{"id":5,"a":"\`) + request(99),
			[]string{"99"}, []errorReply{{"5", parse}}, false},
		{"bad count, body not JSON", withLength("x", "hello") + request(99), []string{"99"}, []errorReply{{"null", parse}}, true},
		{"bad count, notification", withLength("0", `{"jsonrpc":"2.0","method":"initialized","params":{}}`) + request(99),
			[]string{"99"}, nil, false},

		{"header without its empty line", "Content-Length: 40\r\n" + b5 + request(99), []string{"99"}, []errorReply{{"5", parse}}, false},
		{"junk line among the headers", "Content-Length: 5\r\nhello\r\n\r\n" + request(99), []string{"99"}, []errorReply{{"null", parse}}, false},
		{"two counts", "Content-Length: 3\r\n" + request(99), []string{"99"}, []errorReply{{"null", parse}}, false},

		{"truncated JSON", frame(`{"jsonrpc":"2.0","id":4,"method":`) + request(99), []string{"99"}, []errorReply{{"4", parse}}, false},
		{"truncated in the id", frame(`{"jsonrpc":"2.0","id":4`) + request(99), []string{"99"}, []errorReply{{"null", parse}}, false},
		{"JSON that is no message", frame(`{"foo":1}`) + request(99), []string{"99"}, []errorReply{{"null", invalid}}, false},
	}
	feeds := []struct {
		name string
		n    int
	}{{"whole", 0}, {"byte by byte", 1}, {"7 bytes at a time", 7}}
	for _, tt := range tests {
		for _, feed := range feeds {
			t.Run(tt.name+"/"+feed.name, func(t *testing.T) {
				logs, recorded := observer.New(zap.WarnLevel)
				out := &lockedBuffer{}
				in := &stallReader{data: []byte(tt.in), n: feed.n, release: make(chan struct{})}
				s := newStream(testConn{in, out}, zap.New(logs))

				type result struct {
					msg jsonrpc2.Message
					err error
				}
				results := make(chan result)
				go func() {
					for {
						msg, _, err := s.Read(context.Background())
						results <- result{msg, err}
						if err != nil {
							return
						}
					}
				}()
				var got []string
				for range tt.msgs {
					select {
					case r := <-results:
						if r.err != nil {
							t.Fatalf("read error %v after messages %q, want %q", r.err, got, tt.msgs)
						}
						got = append(got, messageID(t, r.msg))
					case <-time.After(5 * time.Second):
						t.Fatalf("no message after %q, want %q: the stream waits for input that may never come", got, tt.msgs)
					}
				}
				close(in.release)
				r := <-results
				if r.err == nil {
					t.Fatalf("message %s after %q, want only %q", messageID(t, r.msg), got, tt.msgs)
				}
				if !errors.Is(r.err, io.EOF) {
					t.Errorf("at the end: %v, want EOF", r.err)
				}
				if fmt.Sprint(got) != fmt.Sprint(tt.msgs) {
					t.Errorf("messages %q, want %q", got, tt.msgs)
				}
				if replies := errorReplies(t, out.Bytes()); fmt.Sprint(replies) != fmt.Sprint(tt.replies) {
					t.Errorf("error replies %v, want %v", replies, tt.replies)
				}
				if junk := recorded.FilterMessage("skipped input that is no message").Len() > 0; junk != tt.junk {
					t.Errorf("junk logged: %v, want %v; log: %v", junk, tt.junk, recorded.All())
				}
			})
		}
	}
}

func TestStreamEnd(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		clean bool // io.EOF itself
		eof   bool // an error that is io.EOF
	}{
		{"nothing", "", true, true},
		{"after a message", request(1), true, true},
		{"after blank lines", request(1) + "\r\n\r\n", true, true},
		{"in a header line", request(1) + "Content-Len", false, true},
		{"after junk", request(1) + "xyz\r\n", true, true},
		{"in a header block", request(1) + "Content-Length: 5\r\n", false, true},
		{"in a body", request(1) + "Content-Length: 5\r\n\r\n{}", false, false},
		{"in a body without a count", request(1) + "Content-Length: x\r\n\r\n{", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStream(testConn{strings.NewReader(tt.in), io.Discard}, zap.NewNop())
			var err error
			for err == nil {
				_, _, err = s.Read(context.Background())
			}
			if (err == io.EOF) != tt.clean || errors.Is(err, io.EOF) != tt.eof {
				t.Errorf("%v; want io.EOF %v, an EOF %v", err, tt.clean, tt.eof)
			}
		})
	}
}

func TestProbeID(t *testing.T) {
	tests := []struct {
		data, id string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"m"}`, "1"},
		{`{"jsonrpc":"2.0","id":"a b","method":`, `"a b"`},
		{`{"jsonrpc":"2.0","method":"m","params":{"id":3},"id":4}`, "4"},
		{` {"id": 5 , "x`, "5"},
		{`{"id":5}`, "5"},
		{`{"id":12`, ""},
		{`{"id":"ab`, ""},
		{`{"id":null,"method":"m"}`, ""},
		{`{"id":{"x":1},"method":"m"}`, ""},
		{`{"params":{"text":"abc`, ""},
		{`[{"id":1}]`, ""},
		{`{"jsonrpc":"2.0" "id":1}`, ""},
		{`not json`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		if got := string(probeID([]byte(tt.data))); got != tt.id {
			t.Errorf("probeID(%q) = %q, want %q", tt.data, got, tt.id)
		}
	}
}

func TestFindHeader(t *testing.T) {
	tests := []struct {
		body, c string
		want    int
	}{
		{"", "{}", -1},
		{"", "Content-Length: 5\r\n", 0},
		{"", "xx content-LENGTH:5\n", 3},
		{"{}Content-Len", "gth: 52\r\n\r\n{", 2},
		{"{}Content-Length: 52\r", "\n", 2},
		{"{}Content-Length: 52\r\n", "", -1}, // the newline must be in c
		{"", `"Content-Length:",` + "\n", -1},
		{"", "Content-Length: \"5\r\n", -1},
		{"", "Content-Length:" + strings.Repeat(" ", maxLengthValue) + "\n", 0},
		{"", "Content-Length:" + strings.Repeat(" ", maxLengthValue+1) + "\n", -1},
		{"", "a\nb\nContent-Length: 1\r\nContent-Length: 2\r\n", 4},
	}
	for _, tt := range tests {
		if got := findHeader([]byte(tt.body), []byte(tt.c)); got != tt.want {
			t.Errorf("findHeader(%q, %q) = %d, want %d", tt.body, tt.c, got, tt.want)
		}
	}
}

func TestResumeAt(t *testing.T) {
	tests := []struct {
		b    string
		want int
	}{
		{"", 0},
		{"abx", 3},
		{"abc", 2},
		{`{"a":1}Content-Length: 5`, 7},
		{`{"a":"CONTENT-LENGTH:"}x Content-Length: 5`, 6},
		{`{"a":1}Conte`, 7},
		{`{"a":1}c`, 7},
		{`{"a":1}Content-Length`, 7},
		{`{"a":1}Content-`, 7},
		{`{"a":1}ntent`, 12},
	}
	for _, tt := range tests {
		if got := resumeAt([]byte(tt.b)); got != tt.want {
			t.Errorf("resumeAt(%q) = %d, want %d", tt.b, got, tt.want)
		}
	}
}

// TestMarshalMessage checks that each message the server writes says what
// jsonrpc2's own marshalling says: the notifications and responses that
// are written around the params and result marshalled once, and the
// others.
func TestMarshalMessage(t *testing.T) {
	must := func(m jsonrpc2.Message, err error) jsonrpc2.Message {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	diags := map[string]any{"uri": "file:///a.md", "version": 3, "diagnostics": []any{map[string]any{"message": "<a> & \"b\"\n", "data": map[string]int{"block": 1}}}}
	for _, tc := range []struct {
		name string
		msg  jsonrpc2.Message
	}{
		{"notification", must(jsonrpc2.NewNotification("textDocument/publishDiagnostics", diags))},
		{"notification without params", must(jsonrpc2.NewNotification("exit", nil))},
		{"response", must(jsonrpc2.NewResponse(jsonrpc2.NewNumberID(7), diags, nil))},
		{"response with a string id", must(jsonrpc2.NewResponse(jsonrpc2.NewStringID("a\"b"), []int{1, 2}, nil))},
		{"null result", must(jsonrpc2.NewResponse(jsonrpc2.NewNumberID(8), nil, nil))},
		{"error", must(jsonrpc2.NewResponse(jsonrpc2.NewNumberID(9), nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "bad")))},
		{"call", must(jsonrpc2.NewCall(jsonrpc2.NewNumberID(10), "workspace/applyEdit", diags))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := marshalMessage(tc.msg)
			if err != nil {
				t.Fatal(err)
			}
			want, err := tc.msg.(json.Marshaler).MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatalf("%s: %v", got, err)
			}
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(g) != fmt.Sprint(w) {
				t.Errorf("got  %s\nwant %s", got, want)
			}
			back, err := jsonrpc2.DecodeMessage(got)
			if err != nil {
				t.Fatalf("jsonrpc2 cannot read %s: %v", got, err)
			}
			if fmt.Sprintf("%T", back) != fmt.Sprintf("%T", tc.msg) {
				t.Errorf("read back as %T, want %T", back, tc.msg)
			}
		})
	}
}
