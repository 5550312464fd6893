package loose

import (
	"math/bits"
	"unicode/utf8"

	"github.com/graft-editor/graft/engine/internal/textscan"
)

// The loose view of a line of ASCII is the line less its white space:
// its length and signature, and whether it is a given view, are read from
// the line itself, eight bytes at a time where they can be, without
// building the view or hashing it.

// Len returns the length of the loose view of s, without hashing it when
// it is ASCII.
func Len(s string) int {
	if n, ok := ASCIILen(s); ok {
		return n
	}
	_, n, _ := Key(s)
	return n
}

// ASCIILen returns the length of the loose view of s, the bytes that are
// not white space, counted eight bytes at a time, and false when s has a
// byte beyond ASCII.
func ASCIILen(s string) (int, bool) {
	if len(s) < 8 {
		n := 0
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case c >= utf8.RuneSelf:
				return 0, false
			case !textscan.IsSpace(c):
				n++
			}
		}
		return n, true
	}
	n := 0
	for i := 0; i < len(s); i += 8 {
		// The last word is the last eight bytes, less those counted.
		skip := 0
		if i+8 > len(s) {
			skip, i = i+8-len(s), len(s)-8
		}
		c, ok := nonSpace(s[i : i+8])
		if !ok {
			return 0, false
		}
		n += bits.OnesCount64(c >> (8 * skip))
	}
	return n, true
}

// nonSpace returns the top bit of each byte of w that is not ASCII white
// space, and false when w has a byte beyond ASCII.
func nonSpace(w string) (uint64, bool) {
	x := textscan.Load64(w, 0)
	if x&textscan.HighBits != 0 {
		return 0, false
	}
	return textscan.Solid(x), true
}

// ASCIISig returns the signature of the loose view of s, a line of ASCII,
// as [Key] does.
func ASCIISig(s string) uint64 {
	var sig uint64
	for i := 0; i < len(s); i++ {
		sig |= sigBits[s[i]]
	}
	return sig
}

// sigBits is the bit of each byte in a signature: none for white space,
// and none for a byte beyond ASCII, which ASCIISig is not given.
var sigBits = func() (b [256]uint64) {
	for c := range utf8.RuneSelf {
		if !textscan.IsSpace(byte(c)) {
			_, b[c] = keyByte(0, 0, byte(c))
		}
	}
	return b
}()

// ASCIIEquals reports whether the loose view of s, a line of ASCII, is v,
// reading s once and stopping at the first byte that differs.
func ASCIIEquals(s, v string) bool {
	j := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if textscan.IsSpace(c) {
			continue
		}
		if j == len(v) || v[j] != c {
			return false
		}
		j++
	}
	return j == len(v)
}
