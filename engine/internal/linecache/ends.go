package linecache

import (
	"math/bits"
	"sort"
	"unsafe"

	"github.com/graft-editor/graft/engine/internal/textscan"
)

// The ends of a line, of a line of ASCII, are the first and last bytes of
// its loose view and its length, as first<<24 | last<<16 | length, or one
// of the values below: they are worked out once for every line (see
// Ends), so that a pass that looks for lines of given views costs a
// look-up per line. A line of ASCII has a length of 1 or more and a first
// byte below 0x80, so its ends are neither 0 nor have the top bit set:
// none is one of these values (a line of two NUL bytes would be
// EndsBlank, were that 2).
const (
	EndsNotYet  = 0            // not looked at yet
	EndsUnknown = 1<<31 | iota // a byte beyond ASCII, or a very long line: hash it
	EndsBlank                  // white space only
)

// PackEnds returns the ends of a line of ASCII whose loose view has the
// given first and last bytes and length, below 0xffff.
func PackEnds(first, last byte, n int) uint32 {
	return uint32(first)<<24 | uint32(last)<<16 | uint32(n)
}

// The ends of a line (see EndsNotYet) are worked out for all the lines
// of the text in one pass over their bytes, rather than in a call per
// line: the pass turns every 64 bytes into a word of bits, one for each
// byte that is not white space (and, in a text with bytes beyond ASCII,
// a word of bits for those), and a line's ends are read from the bits of
// its bytes: for a line of up to 64 bytes, a few word operations and no
// loop. The bits of the 64 bytes from any offset are two words of the
// map shifted and joined (see bitsFrom), so a line that crosses from one
// word of the map to the next costs no more.

// Ends returns the ends of every line (see EndsNotYet), working out those
// not known yet, once: before a pass that looks at every line's ends. The
// result is shared and must not be changed.
func (c *Cache) Ends() []uint32 {
	c.endsAll()
	return c.ends
}

// endsAll works out the ends of every line whose ends are not known yet.
func (c *Cache) endsAll() {
	if c.endsKnown {
		return
	}
	ends := c.ends
	if !c.endsSome {
		// None is known: no need to look for the lines that are not.
		c.endsRun(0, len(ends))
		c.endsKnown = true
		return
	}
	for i := 0; i < len(ends); {
		if ends[i] != EndsNotYet {
			i++
			continue
		}
		r := i + 1
		for r < len(ends) && ends[r] == EndsNotYet {
			r++
		}
		c.endsRun(i, r)
		i = r
	}
	c.endsKnown = true
}

// endsRun works out the ends of lines [i, r), in pieces of as many lines
// as fit in endsChunk bytes, and at least one.
func (c *Cache) endsRun(i, r int) {
	for i < r {
		limit := c.start[i] + endsChunk
		j := i + 1 + sort.Search(r-i-1, func(k int) bool { return c.end[i+1+k] > limit })
		c.endsRange(i, j)
		i = j
	}
	c.endsSome = true
}

// endsChunk is how many bytes endsRange maps at a time, in words on the
// stack rather than in an allocation as large as the text.
const endsChunk = 4096

// endsRange works out the ends of lines [lo, hi), lo < hi.
func (c *Cache) endsRange(lo, hi int) {
	from, to := c.start[lo], c.end[hi-1]
	var solid, high [endsChunk/64 + 2]uint64
	bm := newByteMap(c.text, from, to, solid[:], high[:])
	ends, starts, stops := c.ends[lo:hi], c.start[lo:hi], c.end[lo:hi]
	if bm.high == nil {
		asciiEnds(ends, starts, stops, from, bm.text, bm.solid)
	}
	// The lines with a byte beyond ASCII, and the lines longer than 64
	// bytes, which asciiEnds leaves unknown, apart: a loop with a call
	// in it keeps fewer of its values in registers.
	for j, e := range ends {
		if e == EndsNotYet {
			ends[j] = bm.ends(starts[j]-from, stops[j]-from)
		}
	}
}

// asciiEnds works out the ends of the lines [starts[j]-from, stops[j]-from)
// of text, which has no byte beyond ASCII, from solid, its map, for the
// lines of up to 64 bytes: it leaves the ends of longer lines EndsNotYet. It is a loop of its own,
// with no more values live than it needs, which the compiler keeps in
// registers.
func asciiEnds(ends []uint32, starts, stops []int, from int, text string, solid []uint64) {
	stops = stops[:len(starts)]
	ends = ends[:len(starts)]
	for j, start := range starts {
		a, b := start-from, stops[j]-from
		if b-a > 64 {
			continue
		}
		x := bitsFrom(solid, a) & lowBits[b-a]
		e := uint32(EndsBlank)
		if x != 0 {
			first, last := a+bits.TrailingZeros64(x), a+63-bits.LeadingZeros64(x)
			e = PackEnds(text[first], text[last], bits.OnesCount64(x))
		}
		ends[j] = e
	}
}

// lowBits holds, for each n up to 64, a word with its n lowest bits set:
// a line's bits are kept by a load rather than by a shift, which the
// processors Go targets by default can do only by the count in one
// register.
var lowBits = func() (m [65]uint64) {
	for n := range m {
		m[n] = 1<<n - 1 // 1<<64 is 0: 64 bits are all
	}
	return m
}()

// A byteMap holds a bit for each byte of text[from:to], in words of 64
// bits, the first byte's in the lowest bit of the first word.
type byteMap struct {
	text  string   // text[from:to]: what the map is of
	solid []uint64 // the bytes that are not ASCII white space
	high  []uint64 // the bytes beyond ASCII; nil when there are none
}

// newByteMap returns the map of text[from:to], in solid and high when
// they have room for it, and otherwise in words it allocates.
func newByteMap(text string, from, to int, solid, high []uint64) byteMap {
	// Words enough for bitsFrom to read 64 bits from any offset up to
	// to-from (an empty line there), past the last byte.
	words := (to-from)/64 + 2
	if len(solid) < words || len(high) < words {
		solid, high = make([]uint64, words), make([]uint64, words)
	}
	bm := byteMap{text: text[from:to], solid: solid[:words]}
	// Each word maps the 64 bytes of text from its offset, past to when
	// there are: the bits of those are never read.
	n := 0
	if last := min(to, len(text)-63); last > from {
		n = (last - from + 63) / 64
	}
	beyond := textscan.SolidBlocks(text[from:], bm.solid[:n], high[:n])
	if o := from + 64*n; o < to {
		// The last bytes of text, less than 64, filled out.
		var b [64]byte
		copy(b[:], text[o:])
		if textscan.SolidBlocks(unsafe.String(&b[0], len(b)), bm.solid[n:n+1], high[n:n+1]) {
			beyond = true
		}
		n++
	}
	if beyond {
		bm.high = high[:words]
		clear(bm.high[n:])
	}
	return bm
}

// ends returns the ends of the line that is bytes [a, b) of the map's text
// (see EndsNotYet), 64 bytes at a time.
func (bm *byteMap) ends(a, b int) uint32 {
	n, first, last := 0, -1, -1
	for o := a; o < b; o += 64 {
		keep := ^uint64(0)
		if b-o < 64 {
			keep = 1<<(b-o) - 1
		}
		if bm.high != nil && bitsFrom(bm.high, o)&keep != 0 {
			return EndsUnknown
		}
		if x := bitsFrom(bm.solid, o) & keep; x != 0 {
			if first < 0 {
				first = o + bits.TrailingZeros64(x)
			}
			last = o + 63 - bits.LeadingZeros64(x)
			n += bits.OnesCount64(x)
		}
	}
	switch {
	case first < 0:
		return EndsBlank
	case n >= 0xffff:
		return EndsUnknown
	}
	return PackEnds(bm.text[first], bm.text[last], n)
}

// bitsFrom returns the 64 bits of m from bit o on.
func bitsFrom(m []uint64, o int) uint64 {
	w, s := uint(o)/64, uint(o)%64
	// For s = 0, the bits of the next word are shifted out: by 64, in two
	// shifts, as each shift is by less than 64 (which the compiler then
	// need not check).
	return m[w]>>s | m[w+1]<<(63-s)<<1
}
