// Package jsonutf8 finds, in JSON as it came over the wire, the text that
// encoding/json would silently turn into U+FFFD when it decodes a string:
// bytes that are not UTF-8, and \u escapes of unpaired UTF-16 surrogates.
// Once a string is decoded the loss cannot be seen (a U+FFFD that the
// sender meant looks the same), so the check runs on the raw bytes before
// or beside the decoding.
//
// A U+FFFD that the sender wrote as such, as UTF-8 (EF BF BD) or as the
// escape \ufffd, is text like any other and passes.
package jsonutf8

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// An Error says where JSON holds text that is not UTF-8: the first bad
// byte, or the first unpaired surrogate escape.
type Error struct {
	// Offset is the byte offset of the bad byte, or of the backslash of
	// the escape, in the JSON.
	Offset int
	// Line is 1 plus the number of \n escapes before Offset: when the
	// JSON is one string, the line of its text that holds the bad byte.
	Line int
	// Byte is the bad byte; zero for an escape.
	Byte byte
	// Escape is the escape of an unpaired surrogate ("\udce9"); empty for
	// a byte.
	Escape string
}

func (e *Error) Error() string {
	if e.Escape != "" {
		return fmt.Sprintf("%s on line %d is half of a UTF-16 surrogate pair, not a character", e.Escape, e.Line)
	}
	return fmt.Sprintf("byte %#02x on line %d is not UTF-8", e.Byte, e.Line)
}

// Check returns nil when every string of the JSON raw decodes to the text
// it spells, and an *Error for the first place where encoding/json would
// put U+FFFD instead. raw need not be valid JSON: what is not JSON is
// checked as if it were, and never makes Check fail on its own.
//
// Check reads raw once with utf8.Valid and once more for the \u
// escapes, both at memory speed for text that holds few of them; only
// raw that fails goes through the slow scan that finds the line.
func Check(raw []byte) error {
	if utf8.Valid(raw) && unpaired(raw) < 0 {
		return nil
	}
	return locate(raw)
}

// unpaired returns the offset of the first \u escape of an unpaired
// surrogate in raw, or -1.
func unpaired(raw []byte) int {
	for i := 0; ; {
		k := indexU(raw, i)
		if k < 0 {
			return -1
		}
		i = k + 2
		if !escapes(raw, k) {
			continue // the u of "\\u": an escaped backslash, then u
		}
		n, ok := surrogate(raw, k)
		if !ok {
			continue
		}
		if n != 12 {
			return k
		}
		i = k + n
	}
}

// Eight bytes of a backslash, of a u; and the masks of hasZero.
const (
	backslashes = 0x5c5c5c5c5c5c5c5c
	us          = 0x7575757575757575
	ones        = 0x0101010101010101
	highs       = 0x8080808080808080
)

// hasZero reports whether one of the eight bytes of v is zero.
func hasZero(v uint64) bool { return (v-ones)&^v&highs != 0 }

// indexU returns the offset of the first "\u" in raw at or after i, or -1.
// It looks at eight bytes at a time: bytes.Index stops at every backslash,
// and source text is full of them (every line break is one).
func indexU(raw []byte, i int) int {
	for ; len(raw)-i >= 9; i += 8 {
		b := raw[i : i+9 : i+9]
		w := binary.LittleEndian.Uint64(b)     // byte j: raw[i+j]
		n := binary.LittleEndian.Uint64(b[1:]) // byte j: raw[i+j+1]
		if hasZero((w ^ backslashes) | (n ^ us)) {
			break // a backslash followed by a u starts in these eight bytes
		}
	}
	k := bytes.Index(raw[i:], []byte(`\u`))
	if k < 0 {
		return -1
	}
	return i + k
}

// escapes reports whether the backslash at raw[k] starts an escape: the
// backslashes right before it, each escaping the next, are even in
// number. (A backslash is found only inside a JSON string.)
func escapes(raw []byte, k int) bool {
	n := 0
	for j := k - 1; j >= 0 && raw[j] == '\\'; j-- {
		n++
	}
	return n%2 == 0
}

// surrogate looks at the escape \uXXXX at raw[k]: ok is false when it is
// no surrogate (or no escape: too short, not hex); otherwise n is 12 when
// it is a high surrogate followed by the escape of a low one, as encoding/json
// decodes a pair, and 6 when it is unpaired.
func surrogate(raw []byte, k int) (n int, ok bool) {
	r, ok := hex4(raw, k+2)
	if !ok || r < 0xd800 || r > 0xdfff {
		return 0, false
	}
	if r < 0xdc00 && k+12 <= len(raw) && raw[k+6] == '\\' && raw[k+7] == 'u' {
		if low, ok := hex4(raw, k+8); ok && low >= 0xdc00 && low <= 0xdfff {
			return 12, true
		}
	}
	return 6, true
}

// hex4 decodes the four hex digits at raw[i:].
func hex4(raw []byte, i int) (rune, bool) {
	if i+4 > len(raw) {
		return 0, false
	}
	var r rune
	for _, c := range raw[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// locate scans raw from its start for the first bad byte or unpaired
// surrogate escape, counting lines; nil when there is none.
func locate(raw []byte) error {
	line := 1
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw) && raw[i+1] < utf8.RuneSelf:
			switch raw[i+1] {
			case 'n':
				line++
			case 'u':
				if n, ok := surrogate(raw, i); ok {
					if n != 12 {
						return &Error{Offset: i, Line: line, Escape: string(raw[i : i+6])}
					}
					i += n
					continue
				}
			}
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size <= 1 {
				return &Error{Offset: i, Line: line, Byte: c}
			}
			i += size
		}
	}
	return nil
}

// Unquote decodes the JSON string lit (or null, which is "") as
// encoding/json does, but keeps what encoding/json would turn into U+FFFD:
// a byte that is not UTF-8 stays that byte, and the escape of an unpaired
// surrogate becomes the surrogate's three bytes in the form UTF-8 would
// give it (WTF-8), which are not UTF-8 either. The result is thus the
// sender's text, valid UTF-8 exactly when Check(lit) is nil; it is meant
// for the strings Check refused, where decoding them again is the price.
//
// lit must be a JSON string as a json.RawMessage holds it, without white
// space around; anything else is an error.
func Unquote(lit []byte) (string, error) {
	if string(lit) == "null" {
		return "", nil
	}
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", fmt.Errorf("not a JSON string: %.20q", lit)
	}
	body := lit[1 : len(lit)-1]
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		k := bytes.IndexByte(body[i:], '\\')
		if k < 0 {
			out = append(out, body[i:]...)
			break
		}
		out = append(out, body[i:i+k]...)
		i += k
		if i+1 >= len(body) {
			return "", fmt.Errorf("JSON string ends in a backslash")
		}
		switch c := body[i+1]; c {
		case '"', '\\', '/':
			out = append(out, c)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(body, i+2)
			if !ok {
				return "", fmt.Errorf("bad escape %.6q in a JSON string", body[i:])
			}
			n, isSurrogate := surrogate(body, i)
			switch {
			case !isSurrogate:
				out = utf8.AppendRune(out, r)
				i += 6
			case n == 12:
				low, _ := hex4(body, i+8)
				out = utf8.AppendRune(out, utf16.DecodeRune(r, low))
				i += 12
			default:
				// Unpaired: its three bytes as UTF-8 would encode it.
				out = append(out, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
				i += 6
			}
			continue
		default:
			return "", fmt.Errorf("bad escape %.2q in a JSON string", body[i:i+2])
		}
		i += 2
	}
	return string(out), nil
}
