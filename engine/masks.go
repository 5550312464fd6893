package engine

import "strings"

// The passes over every byte of a text (finding its line feeds, and which
// of its bytes are white space or beyond ASCII) turn each 64 bytes into a
// word of bits, the first byte's in the lowest bit, many words in one
// call, eight bytes at a time, by the functions below. They are held to
// one byte at a time by TestBlockMasks and FuzzBlockMasks, and the lines
// to those plainSplit finds by TestSplitAt.

// feedBlocks sets feeds[k] to the bits of the line feeds ('\n') of the 64
// bytes of text from 64k on, and reports whether any of those bytes is a
// '\r'. text has at least 64*len(feeds) bytes.
func feedBlocks(text string, feeds []uint64) (cr bool) {
	for k := range feeds {
		feeds[k] = feeds64(text[64*k:])
	}
	return strings.IndexByte(text[:64*len(feeds)], '\r') >= 0
}

// solidBlocks sets solid[k] to the bits of the bytes that are not ASCII
// white space (see isSpaceByte) among the 64 bytes of text from 64k on,
// and high[k] to the bits of those beyond ASCII, and reports whether
// there is any; a byte's bit in solid is meaningless when it is beyond
// ASCII. text has at least 64*len(solid) bytes, high as many words.
func solidBlocks(text string, solid, high []uint64) (beyond bool) {
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

// feeds64 returns a bit for each of the 64 bytes of w that is a line
// feed, the first byte's in the lowest bit (see gather). The eight words
// are written out: the compiler does not unroll loops.
func feeds64(w string) uint64 {
	w = w[:64]
	return gather(newlines(load64(w, 0))) | gather(newlines(load64(w, 8)))<<8 |
		gather(newlines(load64(w, 16)))<<16 | gather(newlines(load64(w, 24)))<<24 |
		gather(newlines(load64(w, 32)))<<32 | gather(newlines(load64(w, 40)))<<40 |
		gather(newlines(load64(w, 48)))<<48 | gather(newlines(load64(w, 56)))<<56
}

// newlines returns the top bit of each byte of x that is a line feed.
func newlines(x uint64) uint64 {
	const ones = 0x0101010101010101
	// y has a zero byte where x has a '\n'. The sum cannot carry from one
	// byte into the next: its top bit is set for each byte whose low seven
	// bits are not all zero, and y's own top bit covers the others.
	y := x ^ '\n'*ones
	return ^((y&(0x7f*ones) + 0x7f*ones) | y) & highBits
}

// solid64 returns a bit for each of the 64 bytes of w that is not ASCII
// white space, the first byte's in the lowest bit, and, in the top bit of
// each byte, whether any of the eight bytes at that place in a word is
// beyond ASCII (its bit is then meaningless). The eight words are written
// out: the compiler does not unroll loops.
func solid64(w string) (m, beyond uint64) {
	w = w[:64]
	x0, x1, x2, x3 := load64(w, 0), load64(w, 8), load64(w, 16), load64(w, 24)
	x4, x5, x6, x7 := load64(w, 32), load64(w, 40), load64(w, 48), load64(w, 56)
	m = gather(solid(x0)) | gather(solid(x1))<<8 | gather(solid(x2))<<16 | gather(solid(x3))<<24 |
		gather(solid(x4))<<32 | gather(solid(x5))<<40 | gather(solid(x6))<<48 | gather(solid(x7))<<56
	return m, (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7) & highBits
}

// beyond64 returns a bit for each of the 64 bytes of w that is beyond
// ASCII, the first byte's in the lowest bit.
func beyond64(w string) uint64 {
	w = w[:64]
	return gather(load64(w, 0)&highBits) | gather(load64(w, 8)&highBits)<<8 |
		gather(load64(w, 16)&highBits)<<16 | gather(load64(w, 24)&highBits)<<24 |
		gather(load64(w, 32)&highBits)<<32 | gather(load64(w, 40)&highBits)<<40 |
		gather(load64(w, 48)&highBits)<<48 | gather(load64(w, 56)&highBits)<<56
}
