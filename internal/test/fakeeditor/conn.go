package fakeeditor

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/segmentio/encoding/json"
)

// JSON-RPC 2.0 and LSP error codes.
const (
	CodeParseError           = -32700
	CodeInvalidRequest       = -32600
	CodeMethodNotFound       = -32601
	CodeInvalidParams        = -32602
	CodeInternalError        = -32603
	CodeServerNotInitialized = -32002
	CodeRequestFailed        = -32803
	CodeServerCancelled      = -32802
	CodeContentModified      = -32801
	CodeRequestCancelled     = -32800
)

// ResponseError is the error object of a JSON-RPC error reply.
type ResponseError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error implements error.
func (e *ResponseError) Error() string {
	if len(e.Data) > 0 {
		return fmt.Sprintf("jsonrpc error %d: %s (data %s)", e.Code, e.Message, e.Data)
	}
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// Response is a reply as it arrived: its id as raw JSON (null for a reply
// to a message the peer could not parse), and either a result or an error.
type Response struct {
	ID     json.RawMessage
	Result json.RawMessage
	Error  *ResponseError
}

// Request is a request or notification from the peer. ID is nil for a
// notification.
type Request struct {
	ID     json.RawMessage
	Method string
	Params json.RawMessage
}

// Handler answers the peer's requests and takes its notifications. It runs
// on the connection's reader goroutine, one message at a time in arrival
// order, so it must not wait for a reply from the peer. For a request, an
// error of type *ResponseError is sent as is; any other error becomes an
// InternalError reply, but ErrNoReply, which leaves the request
// unanswered. For a notification the result is ignored.
type Handler func(req *Request) (result any, err error)

// ErrNoReply, returned by a Handler, leaves the request without a reply,
// as a peer that hangs on it.
var ErrNoReply = errors.New("no reply")

// wireMessage is any JSON-RPC 2.0 message.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *ResponseError  `json:"error,omitempty"`
}

// Conn is a JSON-RPC 2.0 connection with LSP's Content-Length framing. Its
// request ids are integers counting up from 1. A reader goroutine, started by
// NewConn, dispatches replies to their callers and the peer's requests and
// notifications to the Handler.
type Conn struct {
	w       io.Writer
	handler Handler

	wmu sync.Mutex // one framed message or raw write at a time

	mu        sync.Mutex
	nextID    int64
	pending   map[int64]chan Response
	unmatched []Response
	arrived   chan struct{} // closed and replaced when unmatched grows
	err       error         // why the reader stopped
	done      chan struct{}
}

// NewConn starts a connection reading from r and writing to w.
func NewConn(r io.Reader, w io.Writer, h Handler) *Conn {
	c := &Conn{
		w:       w,
		handler: h,
		pending: make(map[int64]chan Response),
		arrived: make(chan struct{}),
		done:    make(chan struct{}),
	}
	go c.read(bufio.NewReader(r))
	return c
}

// Frame returns body with its Content-Length header, as sent on the wire.
func Frame(body []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(body))
	b.Write(body)
	return b.Bytes()
}

// MaxFrame is the largest message body ReadFrame accepts.
const MaxFrame = 256 << 20

// ReadFrame reads one framed message body from r. It accepts other headers
// (Content-Type) and requires Content-Length.
func ReadFrame(r *bufio.Reader) ([]byte, error) {
	length := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if err == io.EOF && line == "" && length < 0 {
				return nil, io.EOF
			}
			return nil, fmt.Errorf("reading header: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("malformed header line %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				return nil, fmt.Errorf("bad Content-Length %q", value)
			}
			length = n
		}
	}
	if length < 0 {
		return nil, errors.New("message without Content-Length")
	}
	if length > MaxFrame {
		return nil, fmt.Errorf("Content-Length %d exceeds %d", length, MaxFrame)
	}
	// Grow with the data that arrives, not with what the header claims.
	var body bytes.Buffer
	body.Grow(min(length, 1<<20))
	if n, err := io.CopyN(&body, r, int64(length)); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("reading %d-byte body (got %d): %w", length, n, err)
	}
	return body.Bytes(), nil
}

// WriteRaw writes b to the peer exactly as given, in one write that never
// interleaves with framed messages. Use Frame to add a header to a body.
func (c *Conn) WriteRaw(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(b)
	return err
}

func (c *Conn) write(m *wireMessage) error {
	m.JSONRPC = "2.0"
	body, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encoding %s message: %w", m.Method, err)
	}
	return c.WriteRaw(Frame(body))
}

// encodeParams turns params into raw JSON; a json.RawMessage is used
// verbatim and nil means no params.
func encodeParams(params any) (json.RawMessage, error) {
	switch p := params.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return p, nil
	}
	b, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("encoding params: %w", err)
	}
	return b, nil
}

// Go sends a request and returns its id and a channel that receives its
// reply (or, if the connection ends first, a Response whose Error says so).
func (c *Conn) Go(method string, params any) (int64, <-chan Response) {
	ch := make(chan Response, 1)
	raw, err := encodeParams(params)
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	if err == nil {
		err = c.err
	}
	if err != nil {
		c.mu.Unlock()
		ch <- Response{Error: &ResponseError{Code: CodeInternalError, Message: err.Error()}}
		return id, ch
	}
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.write(&wireMessage{ID: json.RawMessage(strconv.FormatInt(id, 10)), Method: method, Params: raw}); err != nil {
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		ch <- Response{Error: &ResponseError{Code: CodeInternalError, Message: "writing request: " + err.Error()}}
	}
	return id, ch
}

// Call sends a request and waits for its reply, decoding its result into
// result (unless result is nil). An error reply is returned as a
// *ResponseError. When ctx ends first, Call sends $/cancelRequest for the
// request, as editors do, and returns ctx's error.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	id, ch := c.Go(method, params)
	select {
	case r := <-ch:
		if r.Error != nil {
			return r.Error
		}
		if result != nil {
			if err := json.Unmarshal(r.Result, result); err != nil {
				return fmt.Errorf("decoding %s result %s: %w", method, r.Result, err)
			}
		}
		return nil
	case <-ctx.Done():
		c.Cancel(id)
		return fmt.Errorf("%s (request %d): %w", method, id, ctx.Err())
	}
}

// Notify sends a notification.
func (c *Conn) Notify(method string, params any) error {
	raw, err := encodeParams(params)
	if err != nil {
		return err
	}
	return c.write(&wireMessage{Method: method, Params: raw})
}

// Cancel sends $/cancelRequest for the request with the numeric id.
func (c *Conn) Cancel(id int64) error {
	return c.Notify("$/cancelRequest", map[string]int64{"id": id})
}

// Done is closed when the reader stops: the peer closed its output or sent
// something that is not a framed message.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err says why the reader stopped (io.EOF when the peer closed its output),
// or nil while it runs.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Unmatched returns the replies that matched no pending request, in arrival
// order: replies with a null id (to a message the peer could not parse) and
// replies to requests written with WriteRaw.
func (c *Conn) Unmatched() []Response {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Response(nil), c.unmatched...)
}

// WaitUnmatched waits until a reply that matched no pending request
// satisfies ok, and returns it.
func (c *Conn) WaitUnmatched(ok func(Response) bool, timeout time.Duration) (Response, error) {
	deadline := time.After(timeout)
	seen := 0
	for {
		c.mu.Lock()
		list, arrived, done := c.unmatched[seen:], c.arrived, c.err != nil
		seen = len(c.unmatched)
		c.mu.Unlock()
		for _, r := range list {
			if ok(r) {
				return r, nil
			}
		}
		if done {
			return Response{}, fmt.Errorf("connection closed: %v", c.Err())
		}
		select {
		case <-arrived:
		case <-deadline:
			return Response{}, fmt.Errorf("no matching unmatched reply after %v (seen %d)", timeout, seen)
		}
	}
}

func (c *Conn) read(r *bufio.Reader) {
	var err error
	for {
		var body []byte
		body, err = ReadFrame(r)
		if err != nil {
			break
		}
		var m wireMessage
		if err = json.Unmarshal(body, &m); err != nil {
			err = fmt.Errorf("peer sent invalid JSON %q: %w", body, err)
			break
		}
		if m.JSONRPC != "2.0" {
			err = fmt.Errorf("peer sent a message without jsonrpc 2.0: %s", body)
			break
		}
		if m.Method != "" {
			c.dispatch(&m)
			continue
		}
		c.deliver(Response{ID: m.ID, Result: m.Result, Error: m.Error})
	}
	c.mu.Lock()
	c.err = err
	pending := c.pending
	c.pending = map[int64]chan Response{}
	close(c.arrived)
	c.arrived = make(chan struct{})
	c.mu.Unlock()
	for _, ch := range pending {
		ch <- Response{Error: &ResponseError{Code: CodeInternalError, Message: "connection closed: " + err.Error()}}
	}
	close(c.done)
}

func (c *Conn) deliver(r Response) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if id, err := strconv.ParseInt(string(r.ID), 10, 64); err == nil {
		if ch, ok := c.pending[id]; ok {
			delete(c.pending, id)
			ch <- r
			return
		}
	}
	c.unmatched = append(c.unmatched, r)
	close(c.arrived)
	c.arrived = make(chan struct{})
}

func (c *Conn) dispatch(m *wireMessage) {
	req := &Request{ID: m.ID, Method: m.Method, Params: m.Params}
	var result any
	var err error
	if c.handler != nil {
		result, err = c.handler(req)
	} else {
		err = &ResponseError{Code: CodeMethodNotFound, Message: "no handler: " + m.Method}
	}
	if m.ID == nil || errors.Is(err, ErrNoReply) {
		return
	}
	reply := &wireMessage{ID: m.ID}
	if err != nil {
		var re *ResponseError
		if !errors.As(err, &re) {
			re = &ResponseError{Code: CodeInternalError, Message: err.Error()}
		}
		reply.Error = re
	} else {
		raw, merr := encodeParams(result)
		if merr != nil {
			reply.Error = &ResponseError{Code: CodeInternalError, Message: merr.Error()}
		} else if raw == nil {
			raw = json.RawMessage("null")
		}
		reply.Result = raw
	}
	c.write(reply)
}
