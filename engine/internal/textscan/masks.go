// Package textscan reads text 64 bytes at a time: it turns each 64 bytes
// into a word of bits, one for each byte that is a line feed, or not ASCII
// white space, or beyond ASCII, the first byte's in the lowest bit, and
// splits a text into lines from the bits of its line feeds.
//
// A short line then costs a few word operations rather than a call to
// strings.IndexByte, and the branch on where the bytes of a kind fall,
// which a processor cannot predict, is taken once for every 64 bytes
// rather than for every line. The words are computed eight bytes at a
// time in plain Go; the tests hold them to a byte at a time.
package textscan

import "strings"

// HighBits is the top bit of every byte of a word.
const HighBits = 0x8080808080808080

// IsSpace reports whether c is ASCII white space: ' ', '\t', '\n', '\v',
// '\f' or '\r', the bytes below utf8.RuneSelf that unicode.IsSpace
// accepts.
func IsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n'
}

// feedBlocks sets feeds[k] to the bits of the line feeds ('\n') of the 64
// bytes of text from 64k on, and reports whether any of those bytes is a
// '\r'. text has at least 64*len(feeds) bytes.
func feedBlocks(text string, feeds []uint64) (cr bool) {
	for k := range feeds {
		feeds[k] = feeds64(text[64*k:])
	}
	return strings.IndexByte(text[:64*len(feeds)], '\r') >= 0
}

// SolidBlocks sets solid[k] to the bits of the bytes that are not ASCII
// white space (see [IsSpace]) among the 64 bytes of text from 64k on, and
// high[k] to the bits of those beyond ASCII, and reports whether there is
// any; a byte's bit in solid is meaningless when it is beyond ASCII. text
// has at least 64*len(solid) bytes, high as many words.
func SolidBlocks(text string, solid, high []uint64) (beyond bool) {
	high = high[:len(solid)]
	var any uint64
	for k := range solid {
		var b uint64
		solid[k], b = solid64(text[64*k:])
		high[k] = 0
		if b != 0 {
			high[k] = beyond64(text[64*k:])
			any |= high[k]
		}
	}
	return any != 0
}

// Load64 returns the eight bytes of s from i on, the first in the lowest
// bits.
func Load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Solid returns the top bit of each byte of x, eight bytes of text as
// [Load64] returns them, that is ASCII and not white space (see
// [IsSpace]); the top bit of a byte beyond ASCII is meaningless.
func Solid(x uint64) uint64 {
	const ones = 0x0101010101010101
	// Every sum is of bytes below 0x80, so none carries from one byte
	// into the next: the top bit of each byte of a sum says what that
	// byte is. A byte is solid when it is not ' ' (its top bit in
	// low^' ' + 0x7f) and is below 0x09 or above 0x0d (in low + 0x77,
	// and in low + 0x72).
	low := x &^ HighBits
	notBlank := low ^ ' '*ones + 0x7f*ones
	notControl := ^(low + 0x77*ones) | (low + 0x72*ones)
	return notBlank & notControl & HighBits
}

// feeds64 returns a bit for each of the 64 bytes of w that is a line
// feed, the first byte's in the lowest bit (see gather). The eight words
// are written out: the compiler does not unroll loops.
func feeds64(w string) uint64 {
	w = w[:64]
	return gather(newlines(Load64(w, 0))) | gather(newlines(Load64(w, 8)))<<8 |
		gather(newlines(Load64(w, 16)))<<16 | gather(newlines(Load64(w, 24)))<<24 |
		gather(newlines(Load64(w, 32)))<<32 | gather(newlines(Load64(w, 40)))<<40 |
		gather(newlines(Load64(w, 48)))<<48 | gather(newlines(Load64(w, 56)))<<56
}

// newlines returns the top bit of each byte of x that is a line feed.
func newlines(x uint64) uint64 {
	const ones = 0x0101010101010101
	// y has a zero byte where x has a '\n'. The sum cannot carry from one
	// byte into the next: its top bit is set for each byte whose low seven
	// bits are not all zero, and y's own top bit covers the others.
	y := x ^ '\n'*ones
	return ^((y&(0x7f*ones) + 0x7f*ones) | y) & HighBits
}

// solid64 returns a bit for each of the 64 bytes of w that is not ASCII
// white space, the first byte's in the lowest bit, and, in the top bit of
// each byte, whether any of the eight bytes at that place in a word is
// beyond ASCII (its bit is then meaningless). The eight words are written
// out: the compiler does not unroll loops.
func solid64(w string) (m, beyond uint64) {
	w = w[:64]
	x0, x1, x2, x3 := Load64(w, 0), Load64(w, 8), Load64(w, 16), Load64(w, 24)
	x4, x5, x6, x7 := Load64(w, 32), Load64(w, 40), Load64(w, 48), Load64(w, 56)
	m = gather(Solid(x0)) | gather(Solid(x1))<<8 | gather(Solid(x2))<<16 | gather(Solid(x3))<<24 |
		gather(Solid(x4))<<32 | gather(Solid(x5))<<40 | gather(Solid(x6))<<48 | gather(Solid(x7))<<56
	return m, (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7) & HighBits
}

// beyond64 returns a bit for each of the 64 bytes of w that is beyond
// ASCII, the first byte's in the lowest bit.
func beyond64(w string) uint64 {
	w = w[:64]
	return gather(Load64(w, 0)&HighBits) | gather(Load64(w, 8)&HighBits)<<8 |
		gather(Load64(w, 16)&HighBits)<<16 | gather(Load64(w, 24)&HighBits)<<24 |
		gather(Load64(w, 32)&HighBits)<<32 | gather(Load64(w, 40)&HighBits)<<40 |
		gather(Load64(w, 48)&HighBits)<<48 | gather(Load64(w, 56)&HighBits)<<56
}

// gather returns the top bits of the eight bytes of x, which has no other
// bit set, as the low eight bits, byte j's in bit j: multiplying by the
// constant moves bit 8j+7 to bit 56+j, and no two of the partial products
// meet, so none carries.
func gather(x uint64) uint64 {
	return x >> 7 * 0x0102040810204080 >> 56
}
