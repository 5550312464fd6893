package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxMessage is the longest message, in bytes, that a Transport
// reads unless told otherwise: one line, its newline not counted. It
// holds a 50 MB answer for apply_edits or preview_edits with room for
// its JSON escapes, and bounds what one message can make graft mcp hold
// in memory. A longer line is answered with an error and skipped.
const DefaultMaxMessage = 64 << 20

// maxDepth is the deepest nesting of objects and arrays a message may
// have: the SDK's own limit (its internal/json.defaultMaxDepth), checked
// here so that a deeper message is answered with a parse error rather
// than decoded by the SDK into an error that ends the session.
const maxDepth = 1000

// maxExactID is the largest magnitude of a numeric request id that the
// SDK gives back unchanged: it reads ids as float64 and answers with
// them as int64, so 1.5 would be answered as 1, and 2^53+1 as 2^53.
const maxExactID = 1 << 53

// A Transport connects a Server to one client over a pair of streams:
// newline-delimited JSON-RPC, one message a line, as the MCP stdio
// transport defines it.
//
// Unlike the SDK's mcp.IOTransport, whose connection ends at the first
// line it cannot decode, a Transport answers a line it cannot use with a
// JSON-RPC error and goes on reading: text that is not JSON or is nested
// too deep is a parse error (-32700, id null); JSON that is not a
// JSON-RPC request, including a batch (MCP 2025-06-18 removed them) and
// an empty array, is an invalid request (-32600); a line longer than
// MaxMessage is an invalid request that names the limit, answered with
// the request's id when it is a plain top-level member of the line. Such
// a line is skipped as it is read, never held whole in memory. Only the
// end of the input, an error reading it, or an error writing the output
// ends the connection.
type Transport struct {
	// Reader is the client's input: graft mcp's standard input.
	Reader io.ReadCloser
	// Writer takes the server's messages: graft mcp's standard output.
	Writer io.WriteCloser
	// MaxMessage is the longest line read as a message, in bytes, its
	// newline not counted; 0 or less means DefaultMaxMessage.
	MaxMessage int
	// Logger is told of each line skipped; nil discards it.
	Logger *slog.Logger
}

var _ mcp.Transport = (*Transport)(nil)

// Connect implements mcp.Transport: it starts reading Reader.
func (t *Transport) Connect(context.Context) (mcp.Connection, error) {
	if t.Reader == nil || t.Writer == nil {
		return nil, errors.New("mcp transport: a Reader and a Writer are required")
	}
	limit := t.MaxMessage
	if limit <= 0 {
		limit = DefaultMaxMessage
	}
	log := t.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &conn{
		in:       t.Reader,
		out:      t.Writer,
		limit:    limit,
		log:      log,
		incoming: make(chan jsonrpc.Message),
		readDone: make(chan struct{}),
		closed:   make(chan struct{}),
	}
	go c.readLoop()
	return c, nil
}

// A conn is the connection of a Transport.
type conn struct {
	in    io.ReadCloser
	out   io.WriteCloser
	limit int
	log   *slog.Logger

	// incoming takes the messages of readLoop to Read. readDone is
	// closed when readLoop ends, with readErr saying why.
	incoming chan jsonrpc.Message
	readDone chan struct{}
	readErr  error

	writeMu sync.Mutex // serializes writes, so that lines never mix

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error

	skipped int // lines skipped so far, to bound how many are logged
}

var _ mcp.Connection = (*conn)(nil)

// maxLogged is the number of skipped lines logged one by one: a client
// that sends nothing but garbage must not flood standard error, which a
// client that does not read it would let fill up and block graft mcp.
const maxLogged = 20

// readLoop reads the input line by line until it ends, answers each line
// it cannot use, and hands the others to Read. It runs in a goroutine of
// its own, so that Close can interrupt a Read that waits for input.
func (c *conn) readLoop() {
	defer close(c.readDone)
	lr := newLineReader(c.in, c.limit)
	for {
		ln, err := lr.next()
		if err != nil {
			c.readErr = err
			return
		}
		msg, bad := c.decode(ln)
		if bad != nil {
			c.logSkipped(ln, bad)
			if bad.reply == nil {
				continue
			}
			if err := c.writeLine(bad.reply); err != nil {
				c.readErr = fmt.Errorf("answering a message that cannot be read: %w", err)
				return
			}
			continue
		}
		if msg == nil {
			continue // a blank line
		}
		select {
		case c.incoming <- msg:
		case <-c.closed:
			c.readErr = mcp.ErrConnectionClosed
			return
		}
	}
}

// logSkipped tells the logger of a line skipped, for the first maxLogged
// of them.
func (c *conn) logSkipped(ln *line, bad *badLine) {
	c.skipped++
	switch {
	case c.skipped <= maxLogged:
		c.log.Warn("skipping a message that cannot be served", "reason", bad.reason, "bytes", ln.size, "answered", bad.reply != nil)
	case c.skipped == maxLogged+1:
		c.log.Warn("skipping more messages that cannot be served; not logging each")
	}
}

// Read implements mcp.Connection: it returns the next message of the
// input that is a JSON-RPC request, notification or response.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case msg := <-c.incoming:
		return msg, nil
	case <-c.readDone:
		return nil, c.readErr
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write implements mcp.Connection: it writes msg as one line.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encoding a message: %w", err)
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && !resp.ID.IsValid() {
		// The SDK answers a request whose id is already in use
		// without an id; a response must have one.
		if data, err = withNullID(data); err != nil {
			return err
		}
	}
	return c.writeLine(data)
}

// withNullID returns the encoded response data with "id": null.
func withNullID(data []byte) ([]byte, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, fmt.Errorf("adding a null id to a response: %w", err)
	}
	fields["id"] = json.RawMessage("null")
	data, err := json.Marshal(fields)
	if err != nil {
		return nil, fmt.Errorf("adding a null id to a response: %w", err)
	}
	return data, nil
}

// writeLine writes data and a newline in one write; data may be
// appended to.
func (c *conn) writeLine(data []byte) error {
	select {
	case <-c.closed:
		return mcp.ErrConnectionClosed
	default:
	}
	// data is the caller's to give: the SDK's encoder leaves room for
	// the newline, and no copy of a reply of megabytes is made.
	data = append(data, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.out.Write(data); err != nil {
		return fmt.Errorf("writing a message: %w", err)
	}
	return nil
}

// Close implements mcp.Connection: it closes both streams, which ends a
// Read waiting for input.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closed)
		if err := errors.Join(c.in.Close(), c.out.Close()); err != nil {
			c.closeErr = fmt.Errorf("closing the mcp transport: %w", err)
		}
	})
	return c.closeErr
}

// SessionID implements mcp.Connection: a stream has no session id.
func (c *conn) SessionID() string { return "" }

// A badLine is a line that is not served: why, and the error reply to
// write, if any.
type badLine struct {
	reason string
	reply  []byte // nil: nothing to answer (a response, a notification)
}

// decode returns the message ln holds, or why it cannot be served. A
// blank line is neither: nil and nil.
func (c *conn) decode(ln *line) (jsonrpc.Message, *badLine) {
	sc := &ln.scan
	if ln.over && sc.first != 0 {
		reason := fmt.Sprintf("message too large: %d bytes, more than the %d (%s) graft mcp reads in one message; "+
			"split the edits into several smaller calls", ln.size, c.limit, sizeText(c.limit))
		if sc.first == '{' && sc.has(keyResult|keyError) && !sc.has(keyMethod) {
			return nil, &badLine{reason: "a response " + reason} // never answer a response
		}
		id := json.RawMessage(nil)
		if sc.first == '{' {
			id = sc.idOrNil()
		}
		data, _ := json.Marshal(map[string]int64{"limit": int64(c.limit), "size": ln.size})
		return nil, reject(id, jsonrpc.CodeInvalidRequest, reason, data)
	}
	data := bytes.TrimSpace(ln.data)
	if len(data) == 0 {
		return nil, nil
	}
	if sc.maxDepth > maxDepth {
		return nil, reject(nil, jsonrpc.CodeParseError, fmt.Sprintf("parse error: JSON nested deeper than %d levels", maxDepth), nil)
	}
	if !json.Valid(data) {
		var v struct{}
		err := json.Unmarshal(data, &v) // for the syntax error's text
		reason := "parse error: not one JSON value on a line"
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			reason = fmt.Sprintf("parse error: %v (at byte %d); send one JSON-RPC message a line", syn, syn.Offset)
		}
		return nil, reject(nil, jsonrpc.CodeParseError, reason, nil)
	}
	switch data[0] {
	case '[':
		return nil, c.batch(data)
	case '{':
	default:
		return nil, reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC message (a JSON object)", nil)
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err != nil {
		return nil, invalidObject(data, fmt.Sprintf("invalid request: %v", err))
	}
	switch msg := msg.(type) {
	case *jsonrpc.Request:
		switch {
		case msg.IsCall() && !exactID(sc.id):
			return nil, reject(sc.idOrNil(), jsonrpc.CodeInvalidRequest,
				"invalid request: a numeric id must be a whole number of at most 2^53", nil)
		case !msg.IsCall() && sc.has(keyID):
			return nil, reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: the id must be a string or a number", nil)
		}
	case *jsonrpc.Response:
		if msg.Result == nil && msg.Error == nil {
			// Neither a response nor a request: a request without
			// its method, most likely.
			return nil, reject(sc.idOrNil(), jsonrpc.CodeInvalidRequest,
				"invalid request: no method (nor a result or error, as a response would have)", nil)
		}
	}
	return msg, nil
}

// batch is the answer to a JSON array: MCP 2025-06-18 removed JSON-RPC
// batches, so each request in it is refused, each with its id, so that
// the client is not left waiting for them; when none has an id, a single
// error with a null id says why.
func (c *conn) batch(data []byte) *badLine {
	var elems []json.RawMessage
	if err := json.Unmarshal(data, &elems); err != nil || len(elems) == 0 {
		return reject(nil, jsonrpc.CodeInvalidRequest, "invalid request: an empty array", nil)
	}
	const reason = "invalid request: JSON-RPC batches are not supported (MCP 2025-06-18 removed them); send each message on a line of its own"
	var replies [][]byte
	for _, e := range elems {
		if id, ok := requestID(e); ok {
			replies = append(replies, reject(id, jsonrpc.CodeInvalidRequest, reason, nil).reply)
		}
	}
	if len(replies) == 0 {
		return reject(nil, jsonrpc.CodeInvalidRequest, reason, nil)
	}
	return &badLine{reason: reason, reply: bytes.Join(replies, []byte("\n"))}
}

// invalidObject is the answer to a JSON object that is not a JSON-RPC
// message: an invalid request, with its id when it has a usable one, or
// nothing when it looks like a response: answering a response that
// cannot be read could start an endless exchange of errors.
func invalidObject(data []byte, reason string) *badLine {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return reject(nil, jsonrpc.CodeInvalidRequest, reason, nil)
	}
	_, method := fields["method"]
	_, result := fields["result"]
	_, rerr := fields["error"]
	if !method && (result || rerr) {
		return &badLine{reason: "a response: " + reason}
	}
	id := fields["id"]
	if !usableID(id) {
		id = nil
	}
	return reject(id, jsonrpc.CodeInvalidRequest, reason, nil)
}

// requestID returns the id of a batch element that asks for an answer:
// an object with a usable id that is not a response.
func requestID(elem json.RawMessage) (json.RawMessage, bool) {
	var fields map[string]json.RawMessage
	if json.Unmarshal(elem, &fields) != nil {
		return nil, false
	}
	_, method := fields["method"]
	_, result := fields["result"]
	_, rerr := fields["error"]
	if !method && (result || rerr) {
		return nil, false
	}
	id := fields["id"]
	return id, usableID(id)
}

// reject returns a badLine answered with an error reply: id null when id
// is nil.
func reject(id json.RawMessage, code int64, reason string, data json.RawMessage) *badLine {
	if id == nil {
		id = json.RawMessage("null")
	}
	type wireError struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}
	e := &jsonrpc.Error{Code: code, Message: reason, Data: data}
	reply, err := json.Marshal(wireError{"2.0", id, e})
	if err != nil {
		// Only an id that is not JSON could fail, and every id here
		// comes from valid JSON; still, a null one is better than none.
		reply, _ = json.Marshal(wireError{"2.0", json.RawMessage("null"), e})
	}
	return &badLine{reason: reason, reply: reply}
}

// usableID reports whether raw, valid JSON, is an id a reply can carry:
// a string or a number.
func usableID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	switch b := raw[0]; {
	case b == '"', b == '-', b >= '0' && b <= '9':
		return true
	}
	return false
}

// exactID reports whether a request's raw id, as the scanner found it,
// comes back unchanged from the SDK: a string, or a whole number of at
// most 2^53. An id the scanner did not find (nil) is the SDK's to judge.
func exactID(raw json.RawMessage) bool {
	if len(raw) == 0 || raw[0] == '"' {
		return true
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return err == nil && f == float64(int64(f)) && f >= -maxExactID && f <= maxExactID
}

// sizeText writes n bytes in MiB when it is a whole number of them.
func sizeText(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// A line is one line of input.
type line struct {
	data []byte // the line, its newline included; nil when over
	size int64  // its length, its newline not counted
	over bool   // longer than the limit: skipped as it was read
	scan scanner
}

// A lineReader reads lines of at most limit bytes, and skips the rest of
// a longer one as it reads it, keeping what a scanner learns of it.
type lineReader struct {
	br    *bufio.Reader
	limit int
	eof   bool
}

func newLineReader(r io.Reader, limit int) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10), limit: limit}
}

// next returns the next line, or io.EOF at the end of the input.
func (lr *lineReader) next() (*line, error) {
	if lr.eof {
		return nil, io.EOF
	}
	ln := &line{}
	var data []byte
	for {
		chunk, err := lr.br.ReadSlice('\n')
		ln.scan.feed(chunk)
		ln.size += int64(len(chunk))
		if !ln.over {
			if len(data)+len(chunk) > lr.limit+1 { // +1: the newline
				ln.over, data = true, nil
			} else {
				data = append(data, chunk...)
			}
		}
		switch {
		case err == nil:
			ln.size-- // the newline
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			lr.eof = true
			if ln.size == 0 {
				return nil, io.EOF
			}
		default:
			return nil, fmt.Errorf("reading a message: %w", err)
		}
		break
	}
	if ln.size > int64(lr.limit) {
		ln.over, data = true, nil
	}
	ln.data = data
	return ln, nil
}

// The top-level members of a message a scanner notes.
const (
	keyID = 1 << iota
	keyMethod
	keyResult
	keyError
)

// A scanner reads a line a piece at a time, holding nothing but a few
// bytes of it, and notes how deep its objects and arrays nest and, when
// it is an object, which of the members id, method, result and error it
// has and the raw value of its id. It does not check that the line is
// JSON, and it matches member names as they are written, not as escapes
// would decode them: it finds cheaply what the line says plainly.
type scanner struct {
	first    byte // the first byte that is not white space; 0 when none yet
	depth    int
	maxDepth int

	inString, escaped bool

	expectKey bool // in the top-level object, the next string is a member name
	inKey     bool // the string being read is a top-level member name
	key       [8]byte
	keyLen    int // len of the name read, up to len(key)+1
	member    int // the key bit of the member whose value comes next, or 0
	keys      int // the key bits of the members seen

	idState int // what is known of the value of "id": see idNone and on
	idBuf   []byte
	id      json.RawMessage // the last complete id; nil when none
}

// The states of a scanner's reading of an id.
const (
	idNone    = iota // not reading an id
	idWait           // after "id": before its value
	idString         // in a string id
	idLiteral        // in a number or literal id
)

// maxIDBytes is the longest id a scanner keeps.
const maxIDBytes = 256

// has reports whether the scanner saw a member of each kind in keys.
func (s *scanner) has(keys int) bool { return s.keys&keys != 0 }

// idOrNil returns the id the scanner found when a reply can carry it.
func (s *scanner) idOrNil() json.RawMessage {
	if usableID(s.id) && json.Valid(s.id) {
		return s.id
	}
	return nil
}

// feed scans the next piece of the line.
func (s *scanner) feed(p []byte) {
	for _, b := range p {
		if s.inString {
			s.inStringByte(b)
			continue
		}
		if s.idState == idLiteral {
			switch b {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				s.endID()
			default:
				s.keepID(b)
				continue
			}
		}
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		if s.first == 0 {
			s.first = b
		}
		top := s.depth == 1 && s.first == '{'
		if top && s.idState == idWait {
			switch b {
			case '"':
				s.idState = idString
				s.idBuf = append(s.idBuf[:0], b)
			case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 't', 'f', 'n':
				s.idState = idLiteral
				s.idBuf = append(s.idBuf[:0], b)
			default: // an object or an array, or not JSON
				s.idState = idNone
				s.id = nil
			}
		}
		switch b {
		case '"':
			s.inString = true
			if top && s.expectKey {
				s.inKey, s.keyLen = true, 0
			}
		case '{', '[':
			s.depth++
			s.maxDepth = max(s.maxDepth, s.depth)
			s.expectKey = s.depth == 1 && b == '{' && s.first == '{'
		case '}', ']':
			if s.depth > 0 {
				s.depth--
			}
		case ':':
			if top {
				s.expectKey = false
				if s.member == keyID {
					s.idState = idWait
				}
			}
		case ',':
			if top {
				s.expectKey, s.member = true, 0
			}
		}
	}
}

// inStringByte scans a byte of a string.
func (s *scanner) inStringByte(b byte) {
	if s.idState == idString {
		s.keepID(b)
	}
	if s.escaped {
		s.escaped = false
		s.keepKey(b)
		return
	}
	switch b {
	case '\\':
		s.escaped = true
		s.keepKey(b)
	case '"':
		s.inString = false
		if s.inKey {
			s.inKey = false
			s.member = s.memberKey()
			s.keys |= s.member
		}
		if s.idState == idString {
			s.endID()
		}
	default:
		s.keepKey(b)
	}
}

// keepKey keeps a byte of a top-level member name.
func (s *scanner) keepKey(b byte) {
	if !s.inKey {
		return
	}
	if s.keyLen < len(s.key) {
		s.key[s.keyLen] = b
	}
	s.keyLen = min(s.keyLen+1, len(s.key)+1)
}

// memberKey is the key bit of the member name just read, or 0.
func (s *scanner) memberKey() int {
	if s.keyLen > len(s.key) {
		return 0
	}
	switch string(s.key[:s.keyLen]) {
	case "id":
		return keyID
	case "method":
		return keyMethod
	case "result":
		return keyResult
	case "error":
		return keyError
	}
	return 0
}

// keepID keeps a byte of an id, and gives up on one too long.
func (s *scanner) keepID(b byte) {
	if len(s.idBuf) >= maxIDBytes {
		s.idState, s.id = idNone, nil
		return
	}
	s.idBuf = append(s.idBuf, b)
}

// endID ends the id being read: the last one wins, as in decoding.
func (s *scanner) endID() {
	s.id = append(json.RawMessage(nil), s.idBuf...)
	s.idState = idNone
}
