package fakeeditor

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

// echoPeer is the other end of a Conn for framing tests: it answers "echo"
// with its params, "fail" with an error, never answers "hang", and on
// "ask" sends the client a "ping" request and answers "ask" with the
// client's reply. Every frame it reads goes to got.
type echoPeer struct {
	w   io.Writer
	got chan wireMessage
}

func startEchoPeer(t *testing.T) (*Conn, *echoPeer, func()) {
	t.Helper()
	c2pR, c2pW := io.Pipe()
	p2cR, p2cW := io.Pipe()
	p := &echoPeer{w: p2cW, got: make(chan wireMessage, 100)}
	handler := func(req *Request) (any, error) {
		if req.Method == "ping" {
			return map[string]string{"pong": string(req.Params)}, nil
		}
		if req.ID == nil {
			return nil, nil
		}
		return nil, &ResponseError{Code: CodeMethodNotFound, Message: req.Method}
	}
	c := NewConn(p2cR, c2pW, handler)
	go func() {
		r := bufio.NewReader(c2pR)
		var pending []byte // id of the "ask" request waiting for the ping reply
		for {
			body, err := ReadFrame(r)
			if err != nil {
				return
			}
			var m wireMessage
			if err := json.Unmarshal(body, &m); err != nil {
				p.send(&wireMessage{ID: json.RawMessage("null"), Error: &ResponseError{Code: CodeParseError, Message: err.Error()}})
				continue
			}
			p.got <- m
			switch m.Method {
			case "echo":
				p.send(&wireMessage{ID: m.ID, Result: m.Params})
			case "fail":
				p.send(&wireMessage{ID: m.ID, Error: &ResponseError{Code: CodeInvalidParams, Message: "bad", Data: json.RawMessage(`{"why":1}`)}})
			case "ask":
				pending = m.ID
				p.send(&wireMessage{ID: json.RawMessage(`"s1"`), Method: "ping", Params: json.RawMessage(`[1]`)})
			case "":
				if string(m.ID) == `"s1"` {
					p.send(&wireMessage{ID: pending, Result: m.Result})
				}
			}
		}
	}()
	return c, p, func() { c2pW.Close(); p2cW.Close(); c2pR.Close() }
}

func (p *echoPeer) send(m *wireMessage) {
	m.JSONRPC = "2.0"
	b, _ := json.Marshal(m)
	p.w.Write(Frame(b))
}

func (p *echoPeer) next(t *testing.T) wireMessage {
	t.Helper()
	select {
	case m := <-p.got:
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("peer received nothing")
		return wireMessage{}
	}
}

func TestConnCall(t *testing.T) {
	c, _, stop := startEchoPeer(t)
	defer stop()
	ctx := context.Background()

	var got map[string]any
	if err := c.Call(ctx, "echo", map[string]any{"a": "😀", "n": 2}, &got); err != nil {
		t.Fatal(err)
	}
	if got["a"] != "😀" || got["n"] != 2.0 {
		t.Errorf("echo result = %v", got)
	}

	err := c.Call(ctx, "fail", nil, nil)
	var re *ResponseError
	if !errors.As(err, &re) || re.Code != CodeInvalidParams || re.Message != "bad" || string(re.Data) != `{"why":1}` {
		t.Errorf("fail error = %#v, want InvalidParams with data", err)
	}

	var pong map[string]string
	if err := c.Call(ctx, "ask", nil, &pong); err != nil {
		t.Fatal(err)
	}
	if pong["pong"] != "[1]" {
		t.Errorf("client's answer to the peer's request = %v", pong)
	}
}

func TestConnIDsAndCancel(t *testing.T) {
	c, p, stop := startEchoPeer(t)
	defer stop()
	id1, ch1 := c.Go("echo", 1)
	r := <-ch1
	if m := p.next(t); string(m.ID) != "1" || id1 != 1 {
		t.Errorf("first request id %s (Go returned %d), want 1", m.ID, id1)
	}
	if string(r.Result) != "1" || string(r.ID) != "1" {
		t.Errorf("reply = %+v", r)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := c.Call(ctx, "hang", nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Call on a hung request = %v, want deadline exceeded", err)
	}
	if m := p.next(t); m.Method != "hang" || string(m.ID) != "2" {
		t.Errorf("got %+v, want the hang request with id 2", m)
	}
	m := p.next(t)
	if m.Method != "$/cancelRequest" || m.ID != nil || string(m.Params) != `{"id":2}` {
		t.Errorf("got %s %s %s, want $/cancelRequest {\"id\":2} notification", m.Method, m.ID, m.Params)
	}
}

func TestConnWriteRaw(t *testing.T) {
	c, p, stop := startEchoPeer(t)
	defer stop()
	if err := c.WriteRaw(Frame([]byte(`{"jsonrpc":"2.0","id":`))); err != nil {
		t.Fatal(err)
	}
	r, err := c.WaitUnmatched(func(r Response) bool { return r.Error != nil && r.Error.Code == CodeParseError }, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if string(r.ID) != "null" {
		t.Errorf("parse error reply id = %s, want null", r.ID)
	}
	// A raw request with an id of the test's choosing gets its reply.
	c.WriteRaw(Frame([]byte(`{"jsonrpc":"2.0","id":77,"method":"echo","params":"x"}`)))
	if m := p.next(t); m.Method != "echo" {
		t.Fatalf("peer got %+v", m)
	}
	r, err = c.WaitUnmatched(func(r Response) bool { return string(r.ID) == "77" }, 5*time.Second)
	if err != nil || string(r.Result) != `"x"` {
		t.Errorf("reply to raw request = %+v, %v", r, err)
	}
}

func TestReadFrame(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    string
		wantErr bool
	}{
		{"plain", "Content-Length: 2\r\n\r\n{}", "{}", false},
		{"content type and case", "content-length: 3\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n[1]", "[1]", false},
		{"utf-8 body counts bytes", "Content-Length: 6\r\n\r\n\"😀\"", `"😀"`, false},
		{"no length", "Content-Type: x\r\n\r\n{}", "", true},
		{"bad length", "Content-Length: x\r\n\r\n{}", "", true},
		{"short body", "Content-Length: 9\r\n\r\n{}", "", true},
		{"header without colon", "Content-Length 2\r\n\r\n{}", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ReadFrame(bufio.NewReader(strings.NewReader(tt.in)))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if string(got) != tt.want {
				t.Errorf("body = %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := ReadFrame(bufio.NewReader(strings.NewReader(""))); err != io.EOF {
		t.Errorf("empty input: %v, want io.EOF", err)
	}
}

func TestConnClosed(t *testing.T) {
	c, _, stop := startEchoPeer(t)
	_, ch := c.Go("hang", nil)
	stop()
	select {
	case r := <-ch:
		if r.Error == nil {
			t.Errorf("pending request after close: %+v, want an error", r)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("pending request not released when the connection closed")
	}
	<-c.Done()
	if err := c.Call(context.Background(), "echo", 1, nil); err == nil {
		t.Error("Call on a closed connection succeeded")
	}
}

func FuzzReadFrame(f *testing.F) {
	for _, s := range []string{"Content-Length: 2\r\n\r\n{}", "Content-Length: -1\r\n\r\n", "a:b\r\n\r\n", "Content-Length: 99999999999999999999\r\n\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		body, err := ReadFrame(bufio.NewReader(strings.NewReader(in)))
		if err != nil {
			return
		}
		// A frame read back from Frame is the same body.
		again, err := ReadFrame(bufio.NewReader(strings.NewReader(string(Frame(body)))))
		if err != nil || string(again) != string(body) {
			t.Fatalf("Frame/ReadFrame round trip of %q: %q, %v", body, again, err)
		}
	})
}
