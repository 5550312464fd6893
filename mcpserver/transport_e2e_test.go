package mcpserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graft-editor/graft/internal/test/testenv"
	"github.com/graft-editor/graft/mcpserver"
)

// The lines no client of an SDK would send, sent to the built graft mcp
// as they are: each is answered as JSON-RPC says, or served, and graft
// mcp goes on serving the next line.

// A rawClient drives the built graft mcp over its standard input and
// output one line at a time, as no SDK client can: it sends any bytes,
// and reads replies of any length.
type rawClient struct {
	t     testing.TB
	dir   string // the workspace root, holding a.txt
	in    io.WriteCloser
	lines chan []byte // the lines of standard output; closed when graft mcp ends
	exit  error       // how graft mcp ended, once lines is closed
}

// rawFile is a.txt of a rawClient's root.
const rawFile = "one\ntwo\n"

// startRaw starts graft mcp --root on a root holding a.txt, writing its
// standard error to stderr (the test log when nil), and initializes the
// session.
func startRaw(t testing.TB, stderr *os.File) *rawClient {
	t.Helper()
	dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": rawFile})
	cmd := exec.Command(testenv.Build(t), "mcp", "--root", dir, "--editor", "never")
	cmd.Dir = dir
	if stderr != nil {
		cmd.Stderr = stderr
	} else {
		cmd.Stderr = &testWriter{t}
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &rawClient{t: t, dir: dir, in: in, lines: make(chan []byte, 16)}
	go func() {
		br := bufio.NewReaderSize(out, 1<<20)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				c.lines <- line
			}
			if err != nil {
				break
			}
		}
		c.exit = cmd.Wait()
		close(c.lines)
	}()
	t.Cleanup(func() {
		in.Close()
		timer := time.NewTimer(10 * time.Second)
		defer timer.Stop()
		for {
			select {
			case _, ok := <-c.lines:
				if !ok {
					return
				}
			case <-timer.C:
				cmd.Process.Kill()
				timer.Reset(10 * time.Second)
			}
		}
	})
	c.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := c.reply(30 * time.Second); string(r.ID) != `"init"` || r.Error != nil {
		t.Fatalf("initialize: %s", r.raw)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return c
}

// send writes line and a newline.
func (c *rawClient) send(line string) { c.sendBytes([]byte(line)) }

// sendBytes writes line and a newline.
func (c *rawClient) sendBytes(line []byte) {
	c.t.Helper()
	if _, err := c.in.Write(line); err != nil {
		c.t.Fatalf("graft mcp stopped reading: %v", err)
	}
	if _, err := c.in.Write([]byte("\n")); err != nil {
		c.t.Fatalf("graft mcp stopped reading: %v", err)
	}
}

// A rawReply is a line graft mcp wrote.
type rawReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
	raw string // the line, cut short
}

// reply returns the next line graft mcp writes, and fails the test when
// none comes within timeout.
func (c *rawClient) reply(timeout time.Duration) *rawReply {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatalf("graft mcp ended without answering: %v", c.exit)
		}
		r := &rawReply{raw: string(line[:min(len(line), 300)])}
		if err := json.Unmarshal(line, r); err != nil {
			c.t.Fatalf("graft mcp wrote a line that is not JSON: %v\n%s", err, r.raw)
		}
		if r.JSONRPC != "2.0" || (r.ID == nil && r.Method == "") {
			c.t.Fatalf("graft mcp wrote a line that is not a JSON-RPC response: %s", r.raw)
		}
		return r
	case <-time.After(timeout):
		c.t.Fatalf("no answer from graft mcp in %v", timeout)
		return nil
	}
}

// A toolResult is the result of a tools/call.
type toolResult struct {
	IsError bool `json:"isError"`
	Content []struct {
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent *mcpserver.Report `json:"structuredContent"`
}

// toolResult decodes the result of a tools/call reply.
func (r *rawReply) toolResult(t testing.TB) *toolResult {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("an error, not a result: %s", r.raw)
	}
	var res toolResult
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatalf("result: %v\n%s", err, r.raw)
	}
	return &res
}

// text is the text content of a tool result.
func (res *toolResult) text() string {
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// toolCall is the line of a tools/call with id, tool and arguments.
func toolCall(t testing.TB, id any, tool string, args any) []byte {
	t.Helper()
	line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	if err != nil {
		t.Fatal(err)
	}
	return line
}

// followUp sends an edit of a.txt, as an agent would next, and checks
// that graft mcp answers it and makes it.
func (c *rawClient) followUp(timeout time.Duration) {
	c.t.Helper()
	c.sendBytes(toolCall(c.t, "after", "edit", map[string]any{"path": "a.txt", "old_string": "two\n", "new_string": "three\n"}))
	r := c.reply(timeout)
	if string(r.ID) != `"after"` {
		c.t.Fatalf("the edit after: a reply with id %s, want \"after\": %s", r.ID, r.raw)
	}
	res := r.toolResult(c.t)
	if res.IsError || res.StructuredContent == nil || res.StructuredContent.Applied != 1 {
		c.t.Fatalf("the edit after was not applied: %s", r.raw)
	}
	if got := readFile(c.t, c.dir, "a.txt"); got != "one\nthree\n" {
		c.t.Fatalf("a.txt after the edit after: %q", got)
	}
}

// generated returns a text of at least n bytes of numbered lines, each
// with a tab and quotes, which JSON escapes.
func generated(n int) string {
	var b strings.Builder
	b.Grow(n + 64)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "\tline %d of the generated text, with \"quotes\"\n", i)
	}
	return b.String()
}

// wantError is an error reply graft mcp must write.
type wantError struct {
	id   string // the reply's id, as JSON
	code int64  // its code; 0: any
	says string // in its message
}

func TestTransportKeepsServing(t *testing.T) {
	big := sync.OnceValue(func() string { return generated(50_000_000) })
	over := mcpserver.DefaultMaxMessage + 1<<20
	oversize := func(head, tail string) func(testing.TB, *rawClient) []byte {
		return func(testing.TB, *rawClient) []byte {
			line := make([]byte, 0, len(head)+over+len(tail))
			line = append(line, head...)
			line = append(line, bytes.Repeat([]byte("x"), over)...)
			return append(line, tail...)
		}
	}
	text := func(s string) func(testing.TB, *rawClient) []byte {
		return func(testing.TB, *rawClient) []byte { return []byte(s) }
	}
	const (
		parseError     = -32700
		invalidRequest = -32600
		methodNotFound = -32601
		invalidParams  = -32602
	)
	limitText := fmt.Sprintf("more than the %d (%d MiB)", mcpserver.DefaultMaxMessage, mcpserver.DefaultMaxMessage>>20)
	tests := []struct {
		name string
		big  bool // a message of megabytes: not with -short
		line func(testing.TB, *rawClient) []byte
		// want are the error replies to the line, in order; none
		// when it is served or needs no reply.
		want []wantError
		// served checks the reply to a line that is served.
		served func(testing.TB, *rawClient, *rawReply)
	}{{
		name: "a line that is not JSON",
		line: text("this is not JSON"),
		want: []wantError{{"null", parseError, "parse error: invalid character"}},
	}, {
		name: "JSON cut short",
		line: text(`{"jsonrpc":"2.0","id":7,"method":"tools/list"`),
		want: []wantError{{"null", parseError, "unexpected end of JSON input"}},
	}, {
		name: "two messages on one line",
		line: text(`{"jsonrpc":"2.0","id":1,"method":"ping"} {"jsonrpc":"2.0","id":2,"method":"ping"}`),
		want: []wantError{{"null", parseError, "after top-level value"}},
	}, {
		name: "an empty array",
		line: text(`[]`),
		want: []wantError{{"null", invalidRequest, "empty array"}},
	}, {
		name: "a batch of requests: each refused with its id",
		line: text(`[{"jsonrpc":"2.0","id":11,"method":"ping"},{"jsonrpc":"2.0","id":"twelve","method":"tools/list"}]`),
		want: []wantError{{"11", invalidRequest, "batches are not supported"}, {`"twelve"`, invalidRequest, "batches are not supported"}},
	}, {
		name: "a batch of notifications",
		line: text(`[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`),
		want: []wantError{{"null", invalidRequest, "batches are not supported"}},
	}, {
		name: "arrays nested 100,000 deep",
		line: text(strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)),
		want: []wantError{{"null", parseError, "nested deeper than 1000 levels"}},
	}, {
		name: "arrays nested 100,000 deep, never closed",
		line: text(strings.Repeat("[", 100_000)),
		want: []wantError{{"null", parseError, "nested deeper than 1000 levels"}},
	}, {
		name: "a tool call nested 2,000 deep in its arguments",
		line: text(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"edit","arguments":{"path":` +
			strings.Repeat(`{"a":`, 2000) + "1" + strings.Repeat("}", 2000) + `}}}`),
		want: []wantError{{"null", parseError, "nested deeper than 1000 levels"}},
	}, {
		name: "a JSON string",
		line: text(`"tools/list"`),
		want: []wantError{{"null", invalidRequest, "not a JSON-RPC message"}},
	}, {
		name: "an object that is not JSON-RPC",
		line: text(`{"hello":"world"}`),
		want: []wantError{{"null", invalidRequest, "version tag"}},
	}, {
		name: "another JSON-RPC version",
		line: text(`{"jsonrpc":"1.0","id":13,"method":"ping"}`),
		want: []wantError{{"13", invalidRequest, `version tag "1.0"`}},
	}, {
		name: "an id that is an object",
		line: text(`{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}`),
		want: []wantError{{"null", invalidRequest, "invalid ID type"}},
	}, {
		name: "an id with a fraction, which the SDK would answer as another",
		line: text(`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`),
		want: []wantError{{"1.5", invalidRequest, "whole number"}},
	}, {
		name: "a null id",
		line: text(`{"jsonrpc":"2.0","id":null,"method":"ping"}`),
		want: []wantError{{"null", invalidRequest, "string or a number"}},
	}, {
		name: "a request without its method",
		line: text(`{"jsonrpc":"2.0","id":14,"params":{}}`),
		want: []wantError{{"14", invalidRequest, "no method"}},
	}, {
		name: "an unknown method",
		line: text(`{"jsonrpc":"2.0","id":15,"method":"no/such/method"}`),
		want: []wantError{{"15", methodNotFound, "no/such/method"}},
	}, {
		name: "params that are not an object",
		line: text(`{"jsonrpc":"2.0","id":16,"method":"tools/call","params":[1,2]}`),
		want: []wantError{{"16", invalidParams, "invalid params"}},
	}, {
		name: "a tool call without params",
		line: text(`{"jsonrpc":"2.0","id":17,"method":"tools/call"}`),
		want: []wantError{{"17", invalidRequest, "params"}},
	}, {
		name: "an unknown tool",
		line: text(`{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}`),
		want: []wantError{{"18", invalidParams, "no_such_tool"}},
	}, {
		name: "tool arguments of the wrong type: a tool error",
		line: text(`{"jsonrpc":"2.0","id":19,"method":"tools/call","params":{"name":"edit","arguments":{"path":1,"old_string":"a","new_string":"b"}}}`),
		served: func(t testing.TB, c *rawClient, r *rawReply) {
			if res := r.toolResult(t); !res.IsError || !strings.Contains(res.text(), "path") {
				t.Errorf("not a tool error about path: %s", r.raw)
			}
		},
	}, {
		name: "initialize again",
		line: text(`{"jsonrpc":"2.0","id":20,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`),
		want: []wantError{{"20", 0, "initialize"}},
	}, {
		name: "a notification that fails",
		line: text(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":"not an object"}`),
	}, {
		name: "an unknown notification",
		line: text(`{"jsonrpc":"2.0","method":"no/such/notification","params":{}}`),
	}, {
		name: "a request as a notification",
		line: text(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"preview_edits","arguments":{"text":"a.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n"}}}`),
	}, {
		name: "a response to no request",
		line: text(`{"jsonrpc":"2.0","id":99,"result":{}}`),
	}, {
		name: "a response that cannot be read: never answered",
		line: text(`{"jsonrpc":"2.0","id":{},"error":{"code":1,"message":"no"}}`),
	}, {
		name: "blank lines",
		line: text("\n  \r\n\t"),
	}, {
		name: "an edit with a 20 MB new_string is served",
		big:  true,
		line: func(t testing.TB, c *rawClient) []byte {
			return toolCall(t, 30, "edit", map[string]any{"path": "big.txt", "old_string": "", "new_string": big()[:20_000_000]})
		},
		served: func(t testing.TB, c *rawClient, r *rawReply) {
			if res := r.toolResult(t); res.IsError || res.StructuredContent.Applied != 1 {
				t.Errorf("not applied: %s", r.raw)
			}
			if info, err := os.Stat(c.dir + "/big.txt"); err != nil || info.Size() != 20_000_000 {
				t.Errorf("big.txt: %v, %v", info, err)
			}
		},
	}, {
		name: "preview_edits of a 50 MB answer is served",
		big:  true,
		line: func(t testing.TB, c *rawClient) []byte {
			return toolCall(t, 31, "preview_edits", map[string]any{"text": "a.txt\n<<<<<<< SEARCH\none\n=======\n" + big() + ">>>>>>> REPLACE\n"})
		},
		served: func(t testing.TB, c *rawClient, r *rawReply) {
			res := r.toolResult(t)
			if res.IsError || res.StructuredContent.Applied != 1 {
				t.Errorf("not applied: %s", r.raw)
			}
			if txt := res.text(); len(txt) < 50_000_000 || !strings.Contains(txt, "+++ b/a.txt\n@@ -1,2 +1,") {
				t.Errorf("the diff is not in the text (%d bytes): %.300s", len(txt), txt)
			}
			if got := readFile(t, c.dir, "a.txt"); got != rawFile {
				t.Errorf("preview_edits changed a.txt")
			}
		},
	}, {
		name: "a line past the limit, its id first",
		big:  true,
		line: oversize(`{"jsonrpc":"2.0","id":32,"method":"tools/call","params":{"name":"preview_edits","arguments":{"text":"`, `"}}}`),
		want: []wantError{{"32", invalidRequest, limitText}},
	}, {
		name: "a line past the limit, its id last",
		big:  true,
		line: oversize(`{"method":"tools/call","params":{"name":"apply_edits","arguments":{"text":"`, `"}},"jsonrpc":"2.0","id":"thirty-three"}`),
		want: []wantError{{`"thirty-three"`, invalidRequest, limitText}},
	}, {
		name: "a line past the limit that is not JSON",
		big:  true,
		line: oversize("", ""),
		want: []wantError{{"null", invalidRequest, limitText}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.big && testing.Short() {
				t.Skip("a message of megabytes")
			}
			timeout := 30 * time.Second
			if tt.big {
				timeout = 3 * time.Minute
			}
			c := startRaw(t, nil)
			c.sendBytes(tt.line(t, c))
			for _, w := range tt.want {
				r := c.reply(timeout)
				switch {
				case r.Error == nil:
					t.Fatalf("a result, want an error with id %s: %s", w.id, r.raw)
				case string(r.ID) != w.id:
					t.Errorf("id %s, want %s: %s", r.ID, w.id, r.raw)
				case w.code != 0 && r.Error.Code != w.code:
					t.Errorf("code %d, want %d: %s", r.Error.Code, w.code, r.raw)
				case !strings.Contains(r.Error.Message, w.says):
					t.Errorf("the message does not say %q: %s", w.says, r.raw)
				}
			}
			if tt.served != nil {
				tt.served(t, c, c.reply(timeout))
			}
			c.followUp(timeout)
		})
	}
}

// TestTransportStderrClosed: a client that closes graft mcp's standard
// error must not end it when it logs a line it skips: Go ends a program
// that writes to a broken pipe on descriptor 2 unless it handles
// SIGPIPE.
func TestTransportStderrClosed(t *testing.T) {
	tests := []struct {
		name string
		line string
		want string // the reply's id
	}{
		{"a line graft mcp skips", "not JSON", "null"},
		{"a request the SDK logs", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close()
			c := startRaw(t, w)
			w.Close()
			c.send(tt.line)
			if reply := c.reply(30 * time.Second); string(reply.ID) != tt.want || reply.Error == nil {
				t.Errorf("reply %s, want an error with id %s", reply.raw, tt.want)
			}
			c.followUp(30 * time.Second)
		})
	}
}
