package engine

import "strings"

// postings lists the lines of each loose key of a document, in order:
// what makes a tally cost the search's lines rather than the file's once
// a Document serves several searches.
//
// It is an open-addressing table from key to a stretch of one array of
// line numbers, built in two passes over the keys, where a map of slices
// costs an allocation per distinct line and more as they grow.
type postings struct {
	shift uint     // a key's home slot is its mixed hash >> shift
	keys  []uint64 // the key in each slot
	start []int32  // where the slot's lines start in lines
	count []int32  // how many lines have the slot's key
	lines []int32
}

// newPostings lists the lines of keys, the key of each line.
func newPostings(keys []uint64) *postings {
	shift := uint(64 - 1)
	for 1<<(64-shift) < 2*len(keys) {
		shift--
	}
	size := 1 << (64 - shift)
	p := &postings{
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
func (p *postings) home(k uint64) int {
	return int((k * mix) >> p.shift)
}

// of returns the lines whose key is k, in order; the result is shared and
// must not be changed.
func (p *postings) of(k uint64) []int32 {
	mask := len(p.keys) - 1
	for h := p.home(k); p.count[h] > 0; h = (h + 1) & mask {
		if p.keys[h] == k {
			return p.lines[p.start[h] : p.start[h]+p.count[h]]
		}
	}
	return nil
}

// occurrences returns what the function occurrences returns for the
// document's lf view, sub and limit, found through the postings rather
// than by a search of the whole text: every place of sub holds the lines
// sub has between two of its line feeds as whole lines of the file, with
// their loose keys, so the lines with the key of the rarest of them are
// the only places to compare. It reports false, having looked at nothing
// of the text, when the postings cannot say (sub has no such line) or it
// would cost more than a search of the text (the rarest such line is
// there too often).
func (ix *index) occurrences(sub string, limit int) ([]int, bool) {
	d := ix.d
	first, last := strings.IndexByte(sub, '\n'), strings.LastIndexByte(sub, '\n')
	if ix.post == nil || first == last {
		return nil, false
	}
	var rarest []int32
	at := -1 // the offset in sub of the rarest line
	for from := first + 1; from <= last; {
		end := from + strings.IndexByte(sub[from:], '\n')
		k, _, _ := looseKey(sub[from:end])
		lines := ix.post.of(k)
		if len(lines) == 0 {
			return nil, true // a line of sub is not in the file
		}
		if at < 0 || len(lines) < len(rarest) {
			rarest, at = lines, from
		}
		from = end + 1
	}
	if len(rarest)*len(sub) > len(d.lf) {
		return nil, false
	}
	var found []int
	for _, f := range rarest {
		start := d.lfOffset(int(f)) - at
		if start >= 0 && start+len(sub) <= len(d.lf) && d.lf[start:start+len(sub)] == sub {
			found = append(found, start)
			if len(found) == limit {
				break
			}
		}
	}
	return found, true
}
