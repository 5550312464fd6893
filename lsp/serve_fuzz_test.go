package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
)

// pipeConn joins a reader and a writer into the connection Serve takes.
type pipeConn struct {
	io.Reader
	io.Writer
	close func()
}

func (c pipeConn) Close() error { c.close(); return nil }

// frame frames body as the base protocol does.
func frame(body string) string {
	return "Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}

// FuzzServe sends the server any message body after initialize: whatever
// it holds, the server must not die, and must still answer the request
// that follows it.
func FuzzServe(f *testing.F) {
	for _, seed := range []string{
		`{bad}`,
		`[]`,
		`{}`,
		`null`,
		`{"jsonrpc":"2.0","id":7}`,
		`{"jsonrpc":"2.0","id":{"x":1},"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/a.md","languageId":"markdown","version":1,"text":"a.txt\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///w/a.md","version":2},"contentChanges":[{"range":{"start":{"line":9,"character":99},"end":{"line":0,"character":0}},"text":"z"}]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"workspace/executeCommand","params":{"command":"graft.apply","arguments":[{"text":"a.txt\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n"}]}}`,
		`{"jsonrpc":"2.0","id":4,"method":"workspace/executeCommand","params":{"command":"graft.suggest","arguments":[{"edits":[{"path":"../x","old_string":"a","new_string":"b"}]}]}}`,
		`{"jsonrpc":"2.0","id":5,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"untitled:1"},"range":{"start":{"line":-1,"character":0},"end":{"line":0,"character":0}}}}`,
		`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1.5e300}}`,
		`{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":[null,{"uri":"a.go","type":2},{"uri":"file:///w/../a.go","type":9}]}}`,
		`{"jsonrpc":"2.0","method":"workspace/didChangeWatchedFiles","params":{"changes":{}}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		if strings.Contains(body, "exit") {
			t.Skip("exit ends the server, as it should")
		}
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		go func() {
			err := Serve(ctx, pipeConn{inR, outW, func() { inR.Close(); outW.Close() }}, Options{Debounce: time.Millisecond, VerifyDelay: time.Millisecond})
			outW.Close() // a server that stopped answers nothing more
			done <- err
		}()
		go func() {
			io.WriteString(inW, frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file:///nonexistent-graft-fuzz","capabilities":{"workspace":{"applyEdit":false}}}}`))
			io.WriteString(inW, frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`))
			io.WriteString(inW, frame(body))
			io.WriteString(inW, frame(`{"jsonrpc":"2.0","id":"probe","method":"textDocument/codeLens","params":{"textDocument":{"uri":"file:///nowhere.md"}}}`))
		}()
		in := bufio.NewReader(outR)
		for {
			msg, err := readMessage(in)
			if err != nil {
				t.Fatalf("no answer to the request after %q: %v", body, err)
			}
			var m struct {
				ID json.RawMessage `json:"id"`
			}
			json.Unmarshal(msg, &m)
			if string(m.ID) == `"probe"` {
				break
			}
		}
		cancel()
		inW.Close()
		outR.Close()
		<-done
	})
}

// readMessage reads one framed message.
func readMessage(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("no Content-Length")
	}
	buf := make([]byte, n)
	_, err := io.ReadFull(r, buf)
	return buf, err
}
