package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graft-editor/graft/mcpserver"
)

// FuzzTransport feeds any bytes, line by line, to a server in this
// process over a Transport whose limit is itself fuzzed: it must keep
// serving until its input ends (a request sent after them all is
// answered), answer every line that is a request with an id with that
// id, write nothing but JSON-RPC messages, and end when its input ends.
func FuzzTransport(f *testing.F) {
	call := func(id, tool, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	}
	seeds := []string{
		"not JSON\n",
		"[]\n",
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"b","method":"tools/list"},{"jsonrpc":"2.0","method":"x"}]` + "\n",
		strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + "\n",
		strings.Repeat("[", 1300) + "\n",
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":4,"method":"ping"} {"jsonrpc":"2.0","id":5,"method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":1.5,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":1e300,"method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":null,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":6}` + "\n",
		`{"jsonrpc":"1.0","id":7,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":{},"method":"ping"}` + "\n",
		`{"jsonrpc":"2.0","id":8,"result":{}}` + "\n" + `{"jsonrpc":"2.0","id":[],"error":{"code":1,"message":"x"}}` + "\n",
		`{"jsonrpc":"2.0","id":9,"method":"no/such"}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}` + "\n",
		call("10", "edit", `{"path":"a.txt","old_string":"one","new_string":"two"}`) + "\r\n" + call(`"11"`, "preview_edits", `{"text":"a.txt\n<<<<<<< SEARCH\none\n=======\n1\n>>>>>>> REPLACE\n"}`) + "\n",
		call("12", "apply_edits", `{"text":"`+strings.Repeat("x", 1300)+`"}`) + "\n" + `{"jsonrpc":"2.0","id":13,"method":"ping"}` + "\n",
		`{"method":"tools/call","params":{"name":"preview_edits","arguments":{"text":"` + strings.Repeat(`\"`, 700) + `"}},"jsonrpc":"2.0","id":"late"}` + "\n",
		strings.Repeat("x", 1300) + "\n\n \n" + `{"jsonrpc":"2.0","id":14,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":15,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n",
		`{"jsonrpc":"2.0","id":16,"method":"tools/call","params":[1]}` + "\n" + `{"jsonrpc":"2.0","id":17,"method":"tools/call"}` + "\n",
		`"x"` + "\n" + `42` + "\n" + `null` + "\n" + `{"hello":"world"}` + "\n",
	}
	for i, s := range seeds {
		f.Add(uint16(i*397), []byte(s))
	}
	dir := writeFiles(f, filepath.Join(f.TempDir(), "root"), map[string]string{"a.txt": "one\ntwo\n"})
	srv, err := mcpserver.New(mcpserver.Options{Root: dir, Editor: mcpserver.EditorNever})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { srv.Close() })

	f.Fuzz(func(t *testing.T, limitSel uint16, input []byte) {
		limit := 256 + int(limitSel)%1024
		if len(input) == 0 || input[len(input)-1] != '\n' {
			input = append(input, '\n')
		}
		want := expectedIDs(input, limit)

		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() {
			done <- srv.Run(ctx, &mcpserver.Transport{Reader: inR, Writer: outW, MaxMessage: limit})
		}()
		replies := newReplyLog()
		go replies.read(outR)
		// One deadline for the whole input, or a run of missing
		// answers would take one timeout each.
		deadline := time.NewTimer(20 * time.Second)
		defer deadline.Stop()

		write := func(data []byte) {
			t.Helper()
			wrote := make(chan error, 1)
			go func() {
				_, err := inW.Write(data)
				wrote <- err
			}()
			select {
			case err := <-wrote:
				if err != nil {
					t.Fatalf("the transport stopped reading: %v", err)
				}
			case err := <-done:
				t.Fatalf("the server ended before its input did: %v", err)
			case <-deadline.C:
				t.Fatal("the transport reads no more")
			}
		}
		await := func(key string) {
			t.Helper()
			select {
			case <-replies.await(key):
			case err := <-done:
				t.Fatalf("the server ended before its input did: %v", err)
			case <-deadline.C:
				t.Fatalf("no answer to the request with id %s", key)
			}
		}

		write([]byte(`{"jsonrpc":"2.0","id":"graft-fuzz-init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
		await(idKey(json.RawMessage(`"graft-fuzz-init"`)))
		write(input)
		write([]byte(`{"jsonrpc":"2.0","id":"graft-fuzz-after","method":"ping"}` + "\n"))
		await(idKey(json.RawMessage(`"graft-fuzz-after"`)))
		for key := range want {
			await(key)
		}

		inW.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("the server ended with %v at the end of its input", err)
			}
		case <-deadline.C:
			t.Fatal("the server did not end with its input")
		}
		for _, bad := range replies.wait() {
			t.Errorf("the server wrote %s", bad)
		}
	})
}

// A replyLog collects the ids of the responses a server writes, and the
// lines it writes that are not JSON-RPC messages.
type replyLog struct {
	mu      sync.Mutex
	seen    map[string]bool
	waiting map[string]chan struct{}
	bad     []string
	ended   chan struct{}
}

func newReplyLog() *replyLog {
	return &replyLog{seen: map[string]bool{}, waiting: map[string]chan struct{}{}, ended: make(chan struct{})}
}

// read reads the server's output until it ends, checking that each line
// is a JSON-RPC message.
func (l *replyLog) read(r io.Reader) {
	defer close(l.ended)
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			var msg map[string]json.RawMessage
			if json.Unmarshal(line, &msg) != nil || string(msg["jsonrpc"]) != `"2.0"` {
				l.complain(fmt.Sprintf("a line that is not JSON-RPC: %.300s", line))
			}
			id, hasID := msg["id"]
			_, hasMethod := msg["method"]
			switch {
			case !hasID && !hasMethod:
				l.complain(fmt.Sprintf("a response without an id: %.300s", line))
			case hasID && !hasMethod:
				l.add(idKey(id))
			}
		}
		if err != nil {
			io.Copy(io.Discard, r)
			return
		}
	}
}

func (l *replyLog) complain(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bad = append(l.bad, s)
}

func (l *replyLog) add(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen[key] = true
	if ch, ok := l.waiting[key]; ok {
		close(ch)
		delete(l.waiting, key)
	}
}

// await returns a channel closed once a response with the id key came.
func (l *replyLog) await(key string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch := make(chan struct{})
	if l.seen[key] {
		close(ch)
		return ch
	}
	if old, ok := l.waiting[key]; ok {
		return old
	}
	l.waiting[key] = ch
	return ch
}

// wait waits for the output to end, and returns the lines that were not
// JSON-RPC messages.
func (l *replyLog) wait() []string {
	<-l.ended
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bad
}

// idKey is a JSON id as a map key: strings and numbers by their value,
// so that 1 and 1.0 are one id; "" when raw is neither.
func idKey(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return ""
}

// expectedIDs returns the ids (as idKey writes them) of the lines of
// input that a transport reading lines of at most limit bytes must
// answer: the requests with an id, and those of a batch, that are not
// nested too deep; and past the limit, those whose id is written
// plainly, so that it can be found without decoding. An id sent twice
// is left out: the SDK answers the second without it while the first is
// in flight.
func expectedIDs(input []byte, limit int) map[string]bool {
	count := map[string]int{}
	for line := range bytes.SplitSeq(input, []byte("\n")) {
		over := len(line) > limit
		line = bytes.TrimSpace(line)
		if len(line) == 0 || !json.Valid(line) {
			continue
		}
		if over {
			if key, ok := requestKey(line); ok && plainID(line) {
				count[key]++
			}
			continue
		}
		if nesting(line) > 1000 {
			continue
		}
		switch line[0] {
		case '{':
			if key, ok := requestKey(line); ok {
				count[key]++
			}
		case '[':
			var elems []json.RawMessage
			json.Unmarshal(line, &elems)
			for _, e := range elems {
				if key, ok := requestKey(e); ok {
					count[key]++
				}
			}
		}
	}
	want := map[string]bool{}
	for key, n := range count {
		if n == 1 {
			want[key] = true
		}
	}
	return want
}

// requestKey returns the id key of a JSON object that is a request with
// an id (or no message at all, but with an id): not a response, and not
// a subscription, which is answered only when it ends.
func requestKey(data []byte) (string, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil {
		return "", false
	}
	method, isRequest := fields["method"]
	_, result := fields["result"]
	_, rerr := fields["error"]
	if !isRequest && (result || rerr) {
		return "", false
	}
	if bytes.Equal(method, []byte(`"subscriptions/listen"`)) {
		return "", false
	}
	key := idKey(fields["id"])
	return key, key != ""
}

// plainID reports whether every top-level member of the object data
// named id is written "id", and its value is short: what a transport
// finds in a line too long to decode.
func plainID(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		return false
	}
	for dec.More() {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		raw := bytes.TrimLeft(data[start:dec.InputOffset()], " \t\r\n,")
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return false
		}
		if tok == "id" && (string(raw) != `"id"` || len(value) >= 256) {
			return false
		}
	}
	return true
}

// nesting is the depth of the objects and arrays of valid JSON.
func nesting(data []byte) int {
	depth, deepest := 0, 0
	inString, escaped := false, false
	for _, b := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString && b == '\\':
			escaped = true
		case inString && b == '"':
			inString = false
		case inString:
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			depth++
			deepest = max(deepest, depth)
		case b == '}' || b == ']':
			depth--
		}
	}
	return deepest
}

// TestExpectedIDs checks the fuzzer's oracle on lines whose answers are
// known.
func TestExpectedIDs(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":%s,"method":"ping","params":{"x":"` + strings.Repeat("x", 300) + `"}}`
	tests := []struct {
		line  string
		limit int
		want  []string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, 4096, []string{"1"}},
		{`{"jsonrpc":"2.0","id":1.0,"method":"ping"}`, 4096, []string{"1"}},
		{`{"jsonrpc":"2.0","id":"a","method":"ping"}`, 4096, []string{`"a"`}},
		{`{"jsonrpc":"2.0","id":1,"result":{}}`, 4096, nil},
		{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, 4096, nil},
		{`[{"id":2},{"id":3,"error":{}}]`, 4096, []string{"2"}},
		{`{"jsonrpc":"2.0","id":4,"method":"ping","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`, 4096, nil},
		{`{"jsonrpc":"2.0","id":4,"method":"ping","params":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}`, 256, []string{"4"}},
		{fmt.Sprintf(long, "5"), 256, []string{"5"}},
		{fmt.Sprintf(long, "5"), 4096, []string{"5"}},
		{strings.Replace(fmt.Sprintf(long, "6"), `"id"`, `"\u0069d"`, 1), 256, nil},
		{strings.Replace(fmt.Sprintf(long, "6"), `"id"`, `"\u0069d"`, 1), 4096, []string{"6"}},
		{`{"jsonrpc":"2.0","id":7,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":7,"method":"ping"}`, 4096, nil},
	}
	for _, tt := range tests {
		got := expectedIDs([]byte(tt.line), tt.limit)
		if len(got) != len(tt.want) {
			t.Errorf("%.80s: %v, want %v", tt.line, got, tt.want)
			continue
		}
		for _, w := range tt.want {
			if !got[w] {
				t.Errorf("%.80s: %v, want %v", tt.line, got, tt.want)
			}
		}
	}
}
