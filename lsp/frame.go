package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"go.uber.org/zap"
)

// The base protocol frames each message with header lines, an empty
// line and the body: "Content-Length: 52\r\n\r\n{...}". A frameReader
// splits its input into frames and finds its way back into step after
// input that is no frame: a stray byte, a Content-Length counted in
// characters, a count that is no number, a body without a header.
//
// It resynchronises on the header name: "Content-Length:", in any case,
// wherever it is read.
//
//   - A line holding the name begins a header block there (at its last
//     occurrence in the line). What comes before it on the line is junk.
//     A line that is neither a header ("Name: value", the name a token)
//     nor empty is junk too. Junk is skipped and logged.
//   - A block that a junk line or a second Content-Length interrupts
//     before its empty line is a broken message.
//   - After a block with a usable count (1 to maxMessage), the body is
//     that many bytes, unless a header line ("Content-Length:", at most
//     maxLengthValue bytes without a quote, a newline: text that valid
//     JSON never holds) shows up among them: the body ends where that
//     header begins. A body read to its count that is not JSON ends where
//     the name first occurs in it, or where a part of the name ends it,
//     and reading goes on from there.
//   - After a block without a usable count (none, zero, negative, not a
//     number, overflowing, too large), the body is the JSON object or
//     array that follows, scanned up to its closing bracket or to the
//     first byte that cannot continue it (reading goes on there, or at
//     the name when it is among the last bytes scanned).
//
// A broken message is answered with an error, with its id when the bytes
// read of it tell it. Nothing is rescanned more than a constant number
// of times, and nothing is buffered beyond one line of maxHeaderLine
// bytes and one body of maxMessage bytes.
//
// Whatever bytes come before it, a well-framed message whose body holds
// no raw newline ("Content-Length: n\r\n\r\n" and n bytes of JSON) is
// read whole: its header line is found wherever the bytes before leave
// the reader, and it cannot be taken into a broken body.
type frameReader struct {
	in *bufio.Reader
	// back holds bytes given back to the input, back[off:] to be read
	// before in's.
	back []byte
	off  int
	// n counts the bytes consumed, less those given back.
	n int64

	line []byte // the line being read
	cut  bool   // the line was longer than maxHeaderLine: only its tail is in line
	blk  headerBlock

	log     *zap.Logger
	skipped int64  // junk bytes not yet logged
	sample  []byte // their first bytes
}

const (
	// maxMessage bounds the size of one message the server reads: an
	// open 50 MB file fits, an absurd Content-Length does not exhaust
	// memory.
	maxMessage = 256 << 20
	// maxHeaderLine bounds a header line: a longer line is junk, but for
	// its last lineTail bytes, where the header that follows junk without
	// a newline begins.
	maxHeaderLine = 64 << 10
	lineTail      = 128
	// maxLengthValue bounds what follows "Content-Length:" on its line,
	// the '\r' included.
	maxLengthValue = 64
	// maxProbe bounds the bytes of a broken message kept to read its id.
	maxProbe = 64 << 10
	// maxSample bounds the junk quoted in the log.
	maxSample = 64
)

// lengthName is the header name the reader resynchronises on, in lower
// case.
var lengthName = []byte("content-length:")

// errFraming is wrapped by the errors of input that cannot be framed.
var errFraming = errors.New("cannot read the message frame")

// An inbound is a message body, or the bytes read of a broken message and
// why it is broken.
type inbound struct {
	body   []byte
	broken error // wraps errFraming
}

// A headerBlock is the header lines read of one message.
type headerBlock struct {
	open    bool  // a header line was read: an empty line ends the block
	counted bool  // one of them is a Content-Length
	length  int   // the usable count, or 0
	bad     error // why a Content-Length cannot be used
}

// count takes the value of a Content-Length header: all of the line
// after the colon but its '\n'.
func (b *headerBlock) count(value []byte) {
	*b = headerBlock{open: true, counted: true}
	if len(value) > maxLengthValue {
		b.bad = fmt.Errorf("%w: Content-Length value of %d bytes", errFraming, len(value))
		return
	}
	v := bytes.TrimSpace(value)
	n, err := strconv.ParseInt(string(v), 10, 64)
	switch {
	case err != nil:
		b.bad = fmt.Errorf("%w: Content-Length %q is no byte count", errFraming, v)
	case n <= 0:
		b.bad = fmt.Errorf("%w: Content-Length %d", errFraming, n)
	case n > maxMessage:
		b.bad = fmt.Errorf("%w: Content-Length %d exceeds %d", errFraming, n, maxMessage)
	default:
		b.length = int(n)
	}
}

// newFrameReader returns a reader of r that logs junk to log.
func newFrameReader(r io.Reader, log *zap.Logger) *frameReader {
	return &frameReader{in: bufio.NewReaderSize(r, 64<<10), log: log}
}

// next returns the next frame. Its errors are those of the input; at the
// end of the input between messages it is io.EOF.
func (r *frameReader) next() (inbound, error) {
	defer r.logSkipped()
	for {
		line, err := r.readLine()
		if err != nil {
			clean := len(line) == 0 && !r.blk.open
			r.skip(line)
			r.blk = headerBlock{}
			if clean && errors.Is(err, io.EOF) {
				return inbound{}, io.EOF
			}
			return inbound{}, fmt.Errorf("read header: %w", err)
		}
		text := line[:len(line)-1]
		if i := lastIndexFold(text, lengthName); i >= 0 {
			if f, ok := r.lengthHeader(text[:i], text[i+len(lengthName):]); ok {
				return f, nil
			}
			continue
		}
		if !r.cut && len(bytes.TrimSpace(text)) == 0 {
			if !r.blk.open {
				continue // blank lines between messages are harmless
			}
			return r.readBody()
		}
		if name, value, ok := bytes.Cut(text, []byte(":")); ok && !r.cut && isToken(bytes.TrimSpace(name)) {
			if equalFold(bytes.TrimSpace(name), lengthName[:len(lengthName)-1]) {
				// "Content-Length :", white space before the colon.
				if f, ok := r.lengthHeader(nil, value); ok {
					return f, nil
				}
				continue
			}
			r.blk.open = true // other headers are ignored
			continue
		}
		if r.blk.open {
			r.blk = headerBlock{}
			return inbound{body: bytes.Clone(text), broken: fmt.Errorf("%w: no header line: %q", errFraming, clip(text))}, nil
		}
		r.skip(line)
	}
}

// lengthHeader takes a Content-Length header preceded on its line by
// junk: it begins a new block. The block it interrupts, if it is one,
// is returned as a broken frame, the junk as what was read of its body.
func (r *frameReader) lengthHeader(junk, value []byte) (inbound, bool) {
	var f inbound
	broken := r.blk.open && (len(junk) > 0 || r.blk.counted)
	if broken {
		f = inbound{body: bytes.Clone(junk), broken: fmt.Errorf("%w: header without the empty line that ends it", errFraming)}
	} else {
		r.skip(junk)
	}
	r.logSkipped()
	r.blk.count(value)
	return f, broken
}

// readBody reads the body of the block an empty line just ended.
func (r *frameReader) readBody() (inbound, error) {
	b := r.blk
	r.blk = headerBlock{}
	if b.length == 0 {
		probe, err := r.scanValue()
		if err != nil {
			return inbound{}, fmt.Errorf("read body: %w", err)
		}
		if b.bad == nil {
			b.bad = fmt.Errorf("%w: no Content-Length header", errFraming)
		}
		return inbound{body: probe, broken: b.bad}, nil
	}
	body := make([]byte, 0, min(b.length, 64<<10))
	for len(body) < b.length {
		c, err := r.chunk()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return inbound{}, fmt.Errorf("read body: %w", err)
		}
		c = c[:min(len(c), b.length-len(body))]
		if at := findHeader(body, c); at >= 0 {
			if at >= len(body) {
				k := at - len(body)
				body = append(body, c[:k]...)
				r.discard(k)
			} else {
				r.unread(bytes.Clone(body[at:]))
				body = body[:at]
			}
			return inbound{body: body, broken: fmt.Errorf("%w: a header line within the %d bytes of Content-Length %d", errFraming, len(body), b.length)}, nil
		}
		if cap(body)-len(body) < len(c) {
			// Double, as far as the count: append grows a large slice
			// by a quarter, copying a large body many times over.
			grown := make([]byte, len(body), min(b.length, max(2*cap(body), len(body)+len(c))))
			copy(grown, body)
			body = grown
		}
		body = append(body, c...)
		r.discard(len(c))
	}
	return inbound{body: body}, nil
}

// resume takes back a body that turned out not to be a message: when it
// is not JSON, what of it may begin the next message (the first
// occurrence of the header name, or a beginning of it at its end) is
// given back to the input, and the rest returned.
func (r *frameReader) resume(body []byte) []byte {
	if json.Valid(body) {
		return body
	}
	k := resumeAt(body)
	r.unread(body[k:])
	return body[:k]
}

// scanValue consumes the JSON object or array that follows, after white
// space, without a count: up to its closing bracket, the first byte that
// cannot continue it, or maxMessage bytes. When it stops short, reading
// goes on where the header name occurs in the last lineTail bytes
// scanned, if it does. It returns the first maxProbe bytes scanned.
func (r *frameReader) scanValue() ([]byte, error) {
	var sc valueScan
	var probe, tail []byte
	total := 0
	for {
		c, err := r.chunk()
		if err != nil {
			return probe, err
		}
		n, done := sc.scan(c)
		stop := n < len(c)
		if total+n >= maxMessage {
			n, stop, done = maxMessage-total, true, false
		}
		probe = appendMax(probe, c[:n], maxProbe)
		tail = keepLast(tail, c[:n], lineTail)
		r.discard(n)
		total += n
		if done {
			return probe, nil
		}
		if stop {
			if k := resumeAt(tail); k < len(tail) {
				r.unread(bytes.Clone(tail[k:]))
			}
			return probe, nil
		}
	}
}

// A valueScan follows the brackets and strings of a JSON value as far
// as its bytes could be one.
type valueScan struct {
	started, inString, escaped bool
	depth                      int
}

// scan returns how many bytes of c continue the value, and whether the
// value ends with them.
func (s *valueScan) scan(c []byte) (int, bool) {
	for i, b := range c {
		switch {
		case !s.started:
			switch b {
			case ' ', '\t', '\r', '\n':
			case '{', '[':
				s.started, s.depth = true, 1
			default:
				return i, false
			}
		case s.escaped:
			switch b {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't', 'u':
				s.escaped = false
			default:
				return i, false
			}
		case s.inString:
			switch {
			case b == '\\':
				s.escaped = true
			case b == '"':
				s.inString = false
			case b < 0x20:
				return i, false
			}
		default:
			switch b {
			case '"':
				s.inString = true
			case '{', '[':
				s.depth++
			case '}', ']':
				s.depth--
				if s.depth == 0 {
					return i + 1, true
				}
			case ' ', '\t', '\r', '\n', ':', ',', '-', '+', '.',
				'0', '1', '2', '3', '4', '5', '6', '7', '8', '9',
				'a', 'e', 'E', 'f', 'l', 'n', 'r', 's', 't', 'u':
				// numbers, true, false, null
			default:
				return i, false
			}
		}
	}
	return len(c), false
}

// readLine reads a line through its '\n'. A line longer than
// maxHeaderLine is skipped but for its last lineTail bytes, and r.cut
// set. At the end of the input it returns the partial line and the
// error.
func (r *frameReader) readLine() ([]byte, error) {
	r.line, r.cut = r.line[:0], false
	for {
		c, err := r.chunk()
		if err != nil {
			return r.line, err
		}
		end := len(c)
		i := bytes.IndexByte(c, '\n')
		if i >= 0 {
			end = i + 1
		}
		switch {
		case len(r.line)+end <= maxHeaderLine:
			r.line = append(r.line, c[:end]...)
		case end >= lineTail:
			r.cut = true
			r.skip(r.line)
			r.skip(c[:end-lineTail])
			r.line = append(r.line[:0], c[end-lineTail:end]...)
		default:
			r.cut = true
			r.line = append(r.line, c[:end]...)
			k := len(r.line) - lineTail
			r.skip(r.line[:k])
			r.line = append(r.line[:0], r.line[k:]...)
		}
		r.discard(end)
		if i >= 0 {
			return r.line, nil
		}
	}
}

// chunk returns the next bytes of the input without consuming them: at
// least one unless err is not nil. They are valid until the next call
// of chunk, discard or unread.
func (r *frameReader) chunk() ([]byte, error) {
	if r.off < len(r.back) {
		return r.back[r.off:], nil
	}
	r.back, r.off = nil, 0
	if _, err := r.in.Peek(1); err != nil {
		return nil, err
	}
	return r.in.Peek(r.in.Buffered())
}

// discard consumes the first k bytes chunk returned.
func (r *frameReader) discard(k int) {
	r.n += int64(k)
	if r.off < len(r.back) {
		r.off += k
		return
	}
	r.in.Discard(k)
}

// unread gives back p, the last bytes consumed, to be read again. p must
// not change afterwards.
func (r *frameReader) unread(p []byte) {
	if len(p) == 0 {
		return
	}
	r.n -= int64(len(p))
	switch {
	case r.off >= len(p) && bytes.Equal(r.back[r.off-len(p):r.off], p):
		r.off -= len(p) // they came from back: no copy
	case r.off < len(r.back):
		r.back = append(p[:len(p):len(p)], r.back[r.off:]...)
		r.off = 0
	default:
		r.back, r.off = p, 0
	}
}

// skip counts junk, to be logged.
func (r *frameReader) skip(junk []byte) {
	r.skipped += int64(len(junk))
	r.sample = appendMax(r.sample, junk, maxSample)
}

// logSkipped logs the junk skipped since it was last called.
func (r *frameReader) logSkipped() {
	if r.skipped == 0 {
		return
	}
	r.log.Warn("skipped input that is no message", zap.Int64("bytes", r.skipped), zap.ByteString("start", r.sample))
	r.skipped, r.sample = 0, r.sample[:0]
}

// findHeader returns where a header line begins in body followed by c,
// among those that end with a '\n' in c, or -1. A header line is the
// header name followed by at most maxLengthValue bytes without a quote
// or a newline, then a newline: valid JSON never holds one, as the name
// can only be in a string, and a string cannot hold a raw newline.
func findHeader(body, c []byte) int {
	var win [len("content-length:") + maxLengthValue]byte
	for from := 0; ; {
		j := bytes.IndexByte(c[from:], '\n')
		if j < 0 {
			return -1
		}
		j += from
		from = j + 1
		end := len(body) + j // the newline, in body followed by c
		start := max(0, end-len(win))
		n := 0
		if start < len(body) {
			n = copy(win[:], body[start:])
		}
		n += copy(win[n:], c[max(0, start-len(body)):j])
		w := win[:n]
		if q := bytes.LastIndexAny(w, "\"\n"); q >= 0 {
			w, start = w[q+1:], start+q+1
		}
		if i := lastIndexFold(w, lengthName); i >= 0 {
			return start + i
		}
	}
}

// resumeAt returns where the next message may begin in b, bytes that
// are not one: at the first occurrence of the header name, or at a
// beginning of it that ends b; or len(b).
func resumeAt(b []byte) int {
	if i := indexFold(b, lengthName); i >= 0 {
		return i
	}
	for k := min(len(lengthName)-1, len(b)); k > 0; k-- {
		if equalFold(b[len(b)-k:], lengthName[:k]) {
			return len(b) - k
		}
	}
	return len(b)
}

// indexFold returns the index of the first occurrence of name, in
// ASCII lower case, in s, ignoring ASCII case; or -1.
func indexFold(s, name []byte) int {
	for i := 0; i+len(name) <= len(s); i++ {
		j := bytes.IndexAny(s[i:len(s)-len(name)+1], "Cc")
		if j < 0 {
			return -1
		}
		i += j
		if equalFold(s[i:i+len(name)], name) {
			return i
		}
	}
	return -1
}

// lastIndexFold is indexFold for the last occurrence.
func lastIndexFold(s, name []byte) int {
	for end := len(s) - len(name) + 1; end > 0; {
		i := bytes.LastIndexAny(s[:end], "Cc")
		if i < 0 {
			return -1
		}
		if equalFold(s[i:i+len(name)], name) {
			return i
		}
		end = i
	}
	return -1
}

// equalFold reports whether s is lower, which is in ASCII lower case,
// ignoring ASCII case.
func equalFold(s, lower []byte) bool {
	if len(s) != len(lower) {
		return false
	}
	for i, b := range s {
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b != lower[i] {
			return false
		}
	}
	return true
}

// isToken reports whether s is a header name: an RFC 9110 token.
func isToken(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	for _, b := range s {
		switch {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		case bytes.IndexByte([]byte("!#$%&'*+-.^_`|~"), b) >= 0:
		default:
			return false
		}
	}
	return true
}

// appendMax appends to dst as much of b as keeps it within max bytes.
func appendMax(dst, b []byte, max int) []byte {
	return append(dst, b[:min(len(b), max-len(dst))]...)
}

// keepLast appends b to tail, keeping the last n bytes.
func keepLast(tail, b []byte, n int) []byte {
	if len(b) >= n {
		return append(tail[:0], b[len(b)-n:]...)
	}
	tail = append(tail, b...)
	if k := len(tail) - n; k > 0 {
		tail = append(tail[:0], tail[k:]...)
	}
	return tail
}

// clip returns b, or its first maxSample bytes.
func clip(b []byte) []byte { return b[:min(len(b), maxSample)] }
