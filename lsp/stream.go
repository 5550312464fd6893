package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// A stream is the server's end of the base protocol: Content-Length
// framed JSON-RPC messages. Unlike jsonrpc2.NewStream, whose read errors
// end the connection, it answers a message it cannot read with a
// JSON-RPC error and goes on reading, resynchronised on the next header
// when the framing was broken (see frameReader): the server never dies
// of bad input, nor goes deaf to the messages after it. Only the end of
// the input ends it.
type stream struct {
	in  *frameReader
	out io.Writer
	c   io.Closer
	log *zap.Logger

	mu sync.Mutex // serializes writes
}

var _ jsonrpc2.Stream = (*stream)(nil)

// newStream returns a stream over rwc.
func newStream(rwc io.ReadWriteCloser, log *zap.Logger) *stream {
	return &stream{in: newFrameReader(rwc, log), out: rwc, c: rwc, log: log}
}

// Read returns the next message. A frame that cannot be read, or a body
// that is not a JSON-RPC message, is answered with an error reply and
// skipped.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	start := s.in.n
	for {
		if err := ctx.Err(); err != nil {
			return nil, s.in.n - start, err
		}
		f, err := s.in.next()
		if err != nil {
			return nil, s.in.n - start, err
		}
		if f.broken != nil {
			s.log.Warn("unreadable message frame", zap.Error(f.broken), zap.Int("bytes", len(f.body)))
			if werr := s.replyError(f.body, f.broken); werr != nil {
				return nil, s.in.n - start, werr
			}
			continue
		}
		msg, err := jsonrpc2.DecodeMessage(f.body)
		if err == nil && !endsObject(f.body) {
			// The decoder ignores what follows the object, most often
			// the start of the next header, taken in by a count too
			// large: that cannot end with '}'.
			err = errors.New("bytes after the JSON object")
		}
		if err == nil {
			return msg, s.in.n - start, nil
		}
		// A count too large takes in the start of the next message.
		body := s.in.resume(f.body)
		if len(body) < len(f.body) {
			err = fmt.Errorf("%w: Content-Length %d runs into the next message: %v", errFraming, len(f.body), err)
		}
		s.log.Warn("undecodable message", zap.Error(err), zap.Int("bytes", len(f.body)), zap.Int("given back", len(f.body)-len(body)))
		if werr := s.replyError(body, err); werr != nil {
			return nil, s.in.n - start, werr
		}
	}
}

// endsObject reports whether body ends, but for white space, with '}'.
func endsObject(body []byte) bool {
	body = bytes.TrimRight(body, " \t\r\n")
	return len(body) > 0 && body[len(body)-1] == '}'
}

// replyError answers a message that could not be read: a parse error
// for a broken frame or what is not JSON, an invalid request for JSON
// that is not a JSON-RPC message. The reply carries the message's id
// when data, what was read of it, tells it (see probeID), so that the
// editor's request ends; else a null id. A notification gets no reply.
func (s *stream) replyError(data []byte, cause error) error {
	code, msg := jsonrpc2.ParseError, "parse error: "
	if !errors.Is(cause, errFraming) && json.Valid(data) {
		code, msg = jsonrpc2.InvalidRequest, "invalid request: "
	}
	id := probeID(data)
	if id == nil {
		var probe struct {
			ID     json.RawMessage `json:"id"`
			Method json.RawMessage `json:"method"`
		}
		if json.Unmarshal(data, &probe) == nil && len(probe.ID) == 0 && len(probe.Method) > 0 {
			// A notification that cannot be read gets no reply.
			return nil
		}
		id = json.RawMessage("null")
	}
	reply, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc2.Error `json:"error"`
	}{"2.0", id, &jsonrpc2.Error{Code: code, Message: msg + cause.Error()}})
	if err != nil {
		return err
	}
	return s.write(reply)
}

// probeID returns the id of the message data begins, or nil: the value
// of the "id" member of the object data begins, read from its first
// maxProbe bytes, when it is a number or a string and the bytes before
// it are JSON. The value must be followed by ',' or '}': the end of
// truncated input does not tell that a number ends there.
func probeID(data []byte) json.RawMessage {
	data = data[:min(len(data), maxProbe)]
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key != "id" {
			continue
		}
		rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")
		if len(rest) == 0 || (rest[0] != ',' && rest[0] != '}') || !validID(v) {
			return nil
		}
		return v
	}
	return nil
}

// validID reports whether raw is a JSON-RPC id: a number or a string.
func validID(raw json.RawMessage) bool {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return false
	}
	switch v.(type) {
	case float64, string:
		return true
	}
	return false
}

// Write writes msg as one framed message.
// The reply to a cancelled request is written all the same: the
// client waits for it.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := marshalMessage(msg)
	if err != nil {
		return 0, fmt.Errorf("marshal message: %w", err)
	}
	return int64(len(data)), s.write(data)
}

// marshalMessage returns msg as JSON. jsonrpc2 has marshalled the params
// of a notification and the result of a response already, and its own
// MarshalJSON marshals them again inside the envelope, checking and
// copying what is most of the message (a publication's diagnostics, an
// apply's edit) once more: those two are written around what it
// marshalled. Other messages marshal themselves, to compact JSON: through
// json.Marshal, that would be checked and compacted again.
func marshalMessage(msg jsonrpc2.Message) ([]byte, error) {
	switch m := msg.(type) {
	case *jsonrpc2.Notification:
		if params := m.Params(); len(params) > 0 {
			method, err := json.Marshal(m.Method())
			if err != nil {
				return nil, err
			}
			return envelope(`{"jsonrpc":"2.0","method":`, method, `,"params":`, params), nil
		}
	case *jsonrpc2.Response:
		if result := m.Result(); m.Err() == nil && len(result) > 0 {
			id := m.ID()
			idJSON, err := json.Marshal(&id)
			if err != nil {
				return nil, err
			}
			return envelope(`{"jsonrpc":"2.0","id":`, idJSON, `,"result":`, result), nil
		}
	}
	if m, ok := msg.(json.Marshaler); ok {
		return m.MarshalJSON()
	}
	return json.Marshal(msg)
}

// envelope returns the JSON object that open, a, sep and b make, closed.
func envelope(open string, a []byte, sep string, b []byte) []byte {
	out := make([]byte, 0, len(open)+len(a)+len(sep)+len(b)+1)
	out = append(out, open...)
	out = append(out, a...)
	out = append(out, sep...)
	out = append(out, b...)
	return append(out, '}')
}

// write frames data and writes it in one call, so that no other message
// can come between the header and the body.
func (s *stream) write(data []byte) error {
	buf := make([]byte, 0, len(data)+32)
	buf = append(buf, "Content-Length: "...)
	buf = strconv.AppendInt(buf, int64(len(data)), 10)
	buf = append(buf, "\r\n\r\n"...)
	buf = append(buf, data...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.out.Write(buf); err != nil {
		return fmt.Errorf("write message: %w", err)
	}
	return nil
}

// Close closes the connection.
func (s *stream) Close() error { return s.c.Close() }
