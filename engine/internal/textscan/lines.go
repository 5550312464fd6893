package textscan

import (
	"math/bits"
	"slices"
	"strings"
)

// Lines appends to start and end the lines of text[from:to], which begins
// a line and ends one (or the text), and returns them with the number of
// lines that end in "\r\n". A line's start is the offset of its first
// byte, its end that of the first byte after its content, before "\r\n"
// or "\n"; a final line feed does not start another line.
//
// It finds the line feeds of 64 bytes at a time as the bits of a word
// (see feedBlocks), and takes the lines from their set bits. The same
// pass says whether the text has a "\r" at all.
func Lines(text string, from, to int, start, end []int) (_, _ []int, crlf int) {
	k0 := len(start)
	start, end, at, i, cr := feedLines(text, from, to, start, end)
	for ; i < to; i++ {
		switch text[i] {
		case '\n':
			start, end = append(start, at), append(end, i)
			at = i + 1
		case '\r':
			cr = true
		}
	}
	// Each line was taken to end at its line feed; a "\r" before it is
	// looked for now, and only in a text that has one.
	if cr {
		starts, ends := start[k0:], end[k0:]
		for j, e := range ends {
			if e > starts[j] && text[e-1] == '\r' {
				ends[j] = e - 1
				crlf++
			}
		}
	}
	if at < to {
		start = append(start, at)
		end = append(end, to)
	}
	return start, end, crlf
}

// feedLines appends to start and end the lines of text[from:to] that end
// in a line feed among its whole blocks of 64 bytes, from the line that
// starts at from, and returns them, the start of the line then being
// read, the next byte to read, and whether the bytes read have a '\r'.
// It counts the line feeds first, to make room for the lines, and finds
// those of splitChunk bytes at a time (see feedBlocks).
func feedLines(text string, from, to int, start, end []int) (_, _ []int, at, i int, cr bool) {
	n := strings.Count(text[from:to], "\n")
	start = slices.Grow(start, n+1)
	end = slices.Grow(end, n+1)
	k0 := len(start)
	starts, ends := start[k0:k0+n], end[k0:k0+n]
	k := 0
	at, i = from, from
	var feeds [splitChunk / 64]uint64
	for i+64 <= to {
		masks := feeds[:min((to-i)/64, len(feeds))]
		if feedBlocks(text[i:], masks) {
			cr = true
		}
		for _, m := range masks {
			for ; m != 0; m &= m - 1 {
				nl := i + bits.TrailingZeros64(m)
				starts[k], ends[k] = at, nl
				k, at = k+1, nl+1
			}
			i += 64
		}
	}
	return start[:k0+k], end[:k0+k], at, i, cr
}

// splitChunk is how many bytes feedLines finds the line feeds of in one
// call, into words on the stack.
const splitChunk = 4096
