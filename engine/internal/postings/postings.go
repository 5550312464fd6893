// Package postings lists the lines of each key of a text, in order: what
// makes finding a search's lines cost the search's size rather than the
// file's once a file serves several searches.
package postings

// A Table lists the lines of each key. It is an open-addressing table
// from key to a stretch of one array of line numbers, built in two passes
// over the keys, where a map of slices costs an allocation per distinct
// line and more as they grow.
type Table struct {
	shift uint     // a key's home slot is its mixed hash >> shift
	keys  []uint64 // the key in each slot
	start []int32  // where the slot's lines start in lines
	count []int32  // how many lines have the slot's key
	lines []int32
}

// mix spreads a key over the top bits of a word when multiplied by it
// (Fibonacci hashing): a key's home slot is taken from those bits.
const mix = 0x9e3779b97f4a7c15

// New lists the lines of keys, keys[i] being the key of line i.
func New(keys []uint64) *Table {
	shift := uint(64 - 1)
	for 1<<(64-shift) < 2*len(keys) {
		shift--
	}
	size := 1 << (64 - shift)
	p := &Table{
		shift: shift,
		keys:  make([]uint64, size),
		start: make([]int32, size),
		count: make([]int32, size),
		lines: make([]int32, len(keys)),
	}
	// First pass: the slot of each line, and the count of each slot.
	slot := make([]int32, len(keys))
	for i, k := range keys {
		h := p.home(k)
		for p.count[h] > 0 && p.keys[h] != k {
			h = (h + 1) & (size - 1)
		}
		p.keys[h] = k
		p.count[h]++
		slot[i] = int32(h)
	}
	// Each slot's stretch of lines, then the lines in order.
	next := int32(0)
	for h, c := range p.count {
		if c > 0 {
			p.start[h] = next
			next += c
		}
	}
	fill := make([]int32, size) // the lines placed in each slot so far
	for i, h := range slot {
		p.lines[p.start[h]+fill[h]] = int32(i)
		fill[h]++
	}
	return p
}

// home is the first slot where key k is looked for.
func (p *Table) home(k uint64) int {
	return int((k * mix) >> p.shift)
}

// Of returns the lines whose key is k, in order; the result is shared and
// must not be changed.
func (p *Table) Of(k uint64) []int32 {
	mask := len(p.keys) - 1
	for h := p.home(k); p.count[h] > 0; h = (h + 1) & mask {
		if p.keys[h] == k {
			return p.lines[p.start[h] : p.start[h]+p.count[h]]
		}
	}
	return nil
}
