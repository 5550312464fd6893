//go:build !purego

package engine

import (
	"slices"
	"unsafe"
)

// feedLinesAVX2 appends to starts and ends, from their first element on,
// the lines that end in a line feed among the blocks of 64 bytes from
// text, up to blocks of them, base being the offset of text in the
// document and at the start of the line being read, in split_amd64.s. It
// returns how many lines it wrote, the start of the line then being
// read, whether the bytes it read have a '\r', and how many blocks it
// read: fewer than blocks when the next has more line feeds than starts
// and ends have room for.
//
//go:noescape
func feedLinesAVX2(text *byte, blocks, base, at int, starts, ends []int) (n, next int, cr bool, done int)

// feedLines appends to start and end the lines of text[from:to] that end
// in a line feed among its whole blocks of 64 bytes, from the line that
// starts at from, and returns them, the start of the line then being
// read, the next byte to read, and whether the bytes read have a '\r'.
// With AVX2 (and BMI1 and POPCNT, which every processor with AVX2 has)
// the line feeds are found and the lines taken from their bits in one
// pass, the room for them grown as it fills, rather than counted first.
func feedLines(text string, from, to int, start, end []int) (_, _ []int, at, i int, cr bool) {
	if !useAVX2 || !useBMI {
		return feedLinesGo(text, from, to, start, end)
	}
	at, i = from, from
	for blocks := (to - from) / 64; blocks > 0; {
		if room := min(cap(start)-len(start), cap(end)-len(end)); room < 64 {
			// Room for a block's worth of lines at least, and for a
			// line every 32 bytes of the rest.
			more := max(64, (to-i)/32)
			start, end = slices.Grow(start, more), slices.Grow(end, more)
		}
		room := min(cap(start)-len(start), cap(end)-len(end))
		ls, le := len(start), len(end)
		n, next, c, done := feedLinesAVX2(unsafe.StringData(text[i:]), blocks, i, at, start[ls:ls+room], end[le:le+room])
		start, end = start[:ls+n], end[:le+n]
		at, i, cr = next, i+64*done, cr || c
		blocks -= done
	}
	return start, end, at, i, cr
}
