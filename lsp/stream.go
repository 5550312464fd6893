package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// maxProbe bounds the bytes of a message read to find its id.
const maxProbe = 64 << 10

// maxMessage bounds the size of one message the server reads: an open
// 50 MB file fits, an absurd Content-Length does not exhaust memory.
const maxMessage = 256 << 20

// A stream is the server's end of the base protocol: Content-Length
// framed JSON-RPC messages. Unlike jsonrpc2.NewStream, whose read errors
// end the connection, it answers a message it cannot decode with a
// JSON-RPC error and goes on reading: the server never dies of one bad
// message. Only the end of the input, or input that can no longer be
// framed, ends it.
type stream struct {
	in  *bufio.Reader
	out io.Writer
	c   io.Closer
	log *zap.Logger

	mu sync.Mutex // serializes writes
}

var _ jsonrpc2.Stream = (*stream)(nil)

// newStream returns a stream over rwc.
func newStream(rwc io.ReadWriteCloser, log *zap.Logger) *stream {
	return &stream{in: bufio.NewReader(rwc), out: rwc, c: rwc, log: log}
}

// errFraming is wrapped by the errors of input that cannot be framed.
var errFraming = errors.New("cannot read the message frame")

// Read returns the next message. A body that is not a JSON-RPC message
// is answered with an error reply and skipped.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		data, n, err := s.readFrame()
		if errors.Is(err, errFraming) {
			s.log.Warn("unreadable message frame", zap.Error(err))
			if werr := s.replyError(nil, err); werr != nil {
				return nil, n, werr
			}
			continue
		}
		if err != nil {
			return nil, n, err
		}
		msg, err := jsonrpc2.DecodeMessage(data)
		if err == nil {
			return msg, n, nil
		}
		s.log.Warn("undecodable message", zap.Error(err), zap.Int("bytes", len(data)))
		if werr := s.replyError(data, err); werr != nil {
			return nil, n, werr
		}
	}
}

// readFrame reads the headers and the body of one message. Unknown
// headers are ignored, as the specification allows. A frame that cannot
// be read but leaves the input in step (a header line without a colon, a
// missing or oversized Content-Length) is an error wrapping errFraming,
// after which reading goes on; any other error ends the input.
func (s *stream) readFrame() ([]byte, int64, error) {
	var total int64
	length := -1
	var bad error
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			if errors.Is(err, io.EOF) && total == 0 {
				return nil, total, io.EOF
			}
			return nil, total, fmt.Errorf("read header: %w", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if length < 0 && bad == nil && total <= 2 {
				// Blank lines between messages are harmless.
				total = 0
				continue
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			bad = fmt.Errorf("%w: header line %q", errFraming, line)
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				bad = fmt.Errorf("%w: Content-Length %q", errFraming, value)
				continue
			}
			length = int(min(n, maxMessage+1))
			if n > maxMessage {
				bad = fmt.Errorf("%w: Content-Length %d exceeds %d", errFraming, n, maxMessage)
				length = int(n)
			}
		}
	}
	switch {
	case length < 0:
		if bad == nil {
			bad = fmt.Errorf("%w: no Content-Length header", errFraming)
		}
		return nil, total, bad
	case bad != nil:
		// Skip the body, so that the next frame is read in step.
		n, err := io.CopyN(io.Discard, s.in, int64(length))
		total += n
		if err != nil {
			return nil, total, fmt.Errorf("read body: %w", err)
		}
		return nil, total, bad
	}
	data, err := io.ReadAll(io.LimitReader(s.in, int64(length)))
	total += int64(len(data))
	if err != nil {
		return nil, total, fmt.Errorf("read body: %w", err)
	}
	if len(data) < length {
		return nil, total, fmt.Errorf("read body: %w", io.ErrUnexpectedEOF)
	}
	return data, total, nil
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
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshal message: %w", err)
	}
	return int64(len(data)), s.write(data)
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
