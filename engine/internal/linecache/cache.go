// Package linecache holds what the matcher needs to know of each line of
// a text, each computed once, without allocating, the first time it is
// needed: the length and signature of the line's loose view (its
// measure, see package loose), its loose key, its ends (the first and
// last bytes of its loose view and its length, worked out for all lines
// in one pass), and its loose view itself.
//
// A search whose lines are found as they are hashes only the file lines
// that could be one of them; a search compared with every line
// approximately measures them all, which costs less than hashing them. A
// text edited keeps what was computed for the lines the edit left alone
// (see [Cache.Edited]).
//
// A Cache fills itself in as it is read, so it must not be used by
// several goroutines at once.
package linecache

import (
	"github.com/graft-editor/graft/engine/internal/loose"
)

// A Cache holds what is known of each line of a text.
type Cache struct {
	text       string
	start, end []int // the offsets of each line's content in text
	key        []uint64
	keyed      []bool   // whether key is known
	ends       []uint32 // see Ends
	n          []int32  // -1 for a line not measured yet
	sig        []uint64
	// hashed is set once every line is hashed, measured once every line
	// is measured, endsKnown once the ends of every line are known, and
	// endsSome once those of some line are.
	hashed, measured, endsKnown, endsSome bool
	views                                 pagedStrings // loose views computed so far, "" where not yet
}

// New returns the cache of the lines of text, line i being
// text[start[i]:end[i]] (its content, without its line ending). It knows
// nothing of any line yet. The cache keeps start and end, which must not
// change.
func New(text string, start, end []int) *Cache {
	count := len(start)
	c := &Cache{text: text, start: start, end: end[:count], key: make([]uint64, count), keyed: make([]bool, count), ends: make([]uint32, count), n: make([]int32, count), sig: make([]uint64, count)}
	c.unmeasured()
	return c
}

// unmeasured fills n with -1, by copies of doubling length rather than a
// store per line. With keyed false and ends EndsNotYet, as New allocates
// them, no line is known yet.
func (c *Cache) unmeasured() {
	if len(c.n) > 0 {
		c.n[0] = -1
		for k := 1; k < len(c.n); k *= 2 {
			copy(c.n[k:], c.n[:k])
		}
	}
}

// Edited returns the cache of text, whose lines are start and end as New
// takes them, which is c's text with its lines [a, b) replaced by lines
// [a, a+k): what c knows of the other lines is carried over, not computed
// again.
func (c *Cache) Edited(text string, start, end []int, a, b, k int) *Cache {
	count := len(start)
	nc := New(text, start, end)
	carryAround(nc.key, c.key, a, b, k)
	carryAround(nc.keyed, c.keyed, a, b, k)
	carryAround(nc.ends, c.ends, a, b, k)
	carryAround(nc.n, c.n, a, b, k)
	carryAround(nc.sig, c.sig, a, b, k)
	nc.endsSome = c.endsSome // the new lines [a, a+k) are unknown, as New left them
	c.views.each(func(i int, s string) {
		switch {
		case i < a:
			nc.views.set(i, count, s)
		case i >= b:
			nc.views.set(i+k-(b-a), count, s)
		}
	})
	return nc
}

// carryAround copies the elements of src before a, and from b on, to dst,
// whose elements [a, a+k) stand for src's [a, b).
func carryAround[T any](dst, src []T, a, b, k int) {
	copy(dst, src[:a])
	copy(dst[a+k:], src[b:])
}

// Lines returns the number of lines.
func (c *Cache) Lines() int { return len(c.key) }

// Line returns the content of line i, without its line ending.
func (c *Cache) Line(i int) string { return c.text[c.start[i]:c.end[i]] }

// hash computes the key of line i, and its measure, unless it is known.
func (c *Cache) hash(i int) {
	if !c.keyed[i] {
		k, n, sig := loose.Key(c.Line(i))
		c.key[i], c.n[i], c.sig[i], c.keyed[i] = k, int32(n), sig, true
	}
}

// measure computes the length and signature of line i's loose view,
// unless they are known: a line of ASCII without a hash.
func (c *Cache) measure(i int) {
	if c.n[i] >= 0 {
		return
	}
	switch e := c.ends[i]; e {
	case EndsBlank:
		c.n[i], c.sig[i] = 0, 0
	case EndsNotYet, EndsUnknown:
		if n, sig, ok := asciiMeasure(c.Line(i)); ok {
			c.n[i], c.sig[i] = int32(n), sig
		} else {
			c.hash(i)
		}
	default:
		// A line of ASCII whose length is known.
		c.n[i], c.sig[i] = int32(e&0xffff), loose.ASCIISig(c.Line(i))
	}
}

// asciiMeasure returns the length and the signature of the loose view of
// s as loose.Key does, and false when s has a byte beyond ASCII.
func asciiMeasure(s string) (n int, sig uint64, ok bool) {
	n, ok = loose.ASCIILen(s)
	if !ok {
		return 0, 0, false
	}
	return n, loose.ASCIISig(s), true
}

// hashRange computes the keys of lines [from, to) not known yet.
func (c *Cache) hashRange(from, to int) {
	if c.hashed {
		return
	}
	for i := from; i < to; i++ {
		c.hash(i)
	}
}

// Keys returns the loose keys of lines [lo, hi), computing those not
// known yet; the result is shared and must not be changed.
func (c *Cache) Keys(lo, hi int) []uint64 {
	c.hashRange(lo, hi)
	return c.key[lo:hi]
}

// AllKeys returns the loose key of every line, computing those not known
// yet: before a pass that looks at every line's key. The result is shared
// and must not be changed.
func (c *Cache) AllKeys() []uint64 {
	if !c.hashed {
		c.hashRange(0, c.Lines())
		c.hashed, c.measured = true, true
	}
	return c.key
}

// MeasureAll measures every line not measured yet: before a pass that
// compares every line approximately.
func (c *Cache) MeasureAll() {
	if !c.measured {
		for i := range c.n {
			c.measure(i)
		}
		c.measured = true
	}
}

// Key returns the loose key of line i (see loose.Key).
func (c *Cache) Key(i int) uint64 {
	if !c.keyed[i] {
		c.hash(i)
	}
	return c.key[i]
}

// ViewLen returns the length of line i's loose view.
func (c *Cache) ViewLen(i int) int {
	if c.n[i] < 0 {
		c.measure(i)
	}
	return int(c.n[i])
}

// Measure returns the length and the signature of line i's loose view
// (see loose.Key).
func (c *Cache) Measure(i int) (n int, sig uint64) {
	if c.n[i] < 0 {
		c.measure(i)
	}
	return int(c.n[i]), c.sig[i]
}

// KnownEnds returns the ends of line i if they are known, and EndsNotYet
// if they are not worked out yet (see Ends).
func (c *Cache) KnownEnds(i int) uint32 { return c.ends[i] }

// PeekViewLen returns ViewLen(i), from the line's ends when they say it
// (see Ends), without measuring the line.
func (c *Cache) PeekViewLen(i int) int {
	if n := c.n[i]; n >= 0 {
		return int(n)
	}
	switch e := c.ends[i]; e {
	case EndsBlank:
		return 0
	case EndsNotYet, EndsUnknown:
		return c.ViewLen(i)
	default:
		return int(e & 0xffff)
	}
}

// Keyed reports whether the key of line i is known.
func (c *Cache) Keyed(i int) bool { return c.keyed[i] }

// SetKey records what the caller found line i to be: a line whose loose
// view has key key, length n and signature sig, as loose.Key returns
// them.
func (c *Cache) SetKey(i int, key uint64, n int, sig uint64) {
	c.key[i], c.n[i], c.sig[i], c.keyed[i] = key, int32(n), sig, true
}

// View returns the loose view of line i.
func (c *Cache) View(i int) string {
	if c.ViewLen(i) == 0 {
		return ""
	}
	if s := c.views.get(i); s != "" {
		return s
	}
	s := loose.View(c.Line(i))
	c.views.set(i, len(c.key), s)
	return s
}

// Blank reports whether line i is white space only.
func (c *Cache) Blank(i int) bool {
	switch c.ends[i] {
	case EndsBlank:
		return true
	case EndsNotYet, EndsUnknown:
		return c.ViewLen(i) == 0
	}
	return false // a line of ASCII that is not white space only
}

// KeyOrBlank returns the key of line i, or true when it is blank, with
// one pass over the line at most.
func (c *Cache) KeyOrBlank(i int) (uint64, bool) {
	if c.ends[i] == EndsBlank {
		return 0, true
	}
	c.hash(i)
	return c.key[i], c.n[i] == 0
}

// pagedStrings holds a string for some of n lines, in pages allocated as
// lines get one: a search looks at a few windows of a large file, or at
// all of a small one.
type pagedStrings struct{ pages [][]string }

const stringsPage = 256

// get returns the string of line i, or "".
func (p *pagedStrings) get(i int) string {
	if k := i / stringsPage; k < len(p.pages) && p.pages[k] != nil {
		return p.pages[k][i%stringsPage]
	}
	return ""
}

// set sets the string of line i of n.
func (p *pagedStrings) set(i, n int, s string) {
	if p.pages == nil {
		p.pages = make([][]string, (n+stringsPage-1)/stringsPage)
	}
	k := i / stringsPage
	if p.pages[k] == nil {
		p.pages[k] = make([]string, stringsPage)
	}
	p.pages[k][i%stringsPage] = s
}

// each calls f for every line with a string, in order.
func (p *pagedStrings) each(f func(i int, s string)) {
	for k, page := range p.pages {
		for j, s := range page {
			if s != "" {
				f(k*stringsPage+j, s)
			}
		}
	}
}
