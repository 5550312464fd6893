package editdist

import "math/bits"

// A Pattern is a string prepared to be compared with many others: the
// match masks of the bit-parallel algorithm are built once, not once per
// comparison. The zero Pattern is not usable; call [NewPattern].
type Pattern struct {
	p    string
	fits bool // p is at most a word long, and not empty
	// The match mask of byte c is masks[slot[c]]: each distinct byte of p
	// has a slot from 1 on, every other byte slot 0, whose mask is empty.
	// (A table of 256 masks would take 2 KB per pattern; a search line
	// has few distinct bytes.)
	slot  [256]uint8
	masks [wordBits + 1]uint64
}

// NewPattern prepares p for [Pattern.Bounded].
func NewPattern(p string) *Pattern {
	pt := new(Pattern)
	pt.Reset(p)
	return pt
}

// Reset prepares the pattern for p, as [NewPattern] does, in the memory
// of a pattern done with: a caller that prepares many patterns in turn
// need not allocate one for each.
func (pt *Pattern) Reset(p string) {
	*pt = Pattern{p: p, fits: len(p) > 0 && len(p) <= wordBits}
	if pt.fits {
		next := uint8(0)
		for i := 0; i < len(p); i++ {
			c := p[i]
			if pt.slot[c] == 0 {
				next++
				pt.slot[c] = next
			}
			pt.masks[pt.slot[c]] |= 1 << i
		}
	}
}

// Bounded returns Bounded(p, t, max) for the pattern's string p: the
// distance if it is at most max, and otherwise some value greater than
// max.
func (pt *Pattern) Bounded(t string, max int) int {
	p := pt.p
	if !pt.fits || len(t) == 0 {
		return Bounded(p, t, max)
	}
	d, max, done := bound(p, t, max)
	if done {
		return d
	}
	// The distance of p to t, computed with p as the pattern whichever is
	// longer: the column recurrence holds for any text, and so does the
	// cut-off of oneWord, which only assumes that a horizontal delta is at
	// least -1.
	var peq [256]uint64 // the masks of p's bytes, the others empty
	for i := 0; i < len(p); i++ {
		peq[p[i]] = pt.masks[pt.slot[p[i]]]
	}
	return oneWordMasks(&peq, uint(len(p)-1), len(p), t, max)
}

// Byte classes for [Pattern.BoundedSkipping].
const (
	Keep  byte = iota // the byte is part of the text
	Skip              // the byte is left out of the text
	Abort             // the text cannot be read byte by byte: give up
)

// BoundedSkipping is Bounded for the text t with the bytes of class Skip
// left out, of which n remain, without building that text: a caller that
// compares one pattern with many lines under a view that drops white space
// need not build the view of each line. It returns ok=false, having
// computed nothing, when the pattern is longer than a word or empty, and
// as soon as it meets a byte of class Abort (a byte the view would do
// more with than keep or drop).
func (pt *Pattern) BoundedSkipping(t string, n int, class *[256]byte, max int) (d int, ok bool) {
	if !pt.fits || n == 0 {
		return 0, false
	}
	m := len(pt.p)
	if max < 0 {
		max = 0
	}
	if diff := m - n; diff > max || -diff > max {
		return abs(diff), true
	}
	pv, mv := ^uint64(0), uint64(0) // the column of D at the j-th byte kept
	// D never decreases along a diagonal, so D[m][n] is at least the cell
	// of column j on the diagonal that ends there, at row j+m-n: row 0's
	// j plus the vertical deltas down to that row, two counts of bits.
	// Once that exceeds max, so does the answer. (It is the least of
	// D[i][j] + |(m-i) - (n-j)| over the column, so it is never below the
	// bound of oneWordMasks.) A line unlike the pattern is turned away
	// after about half its bytes; the bound is looked at every fourth
	// byte, which costs less than it saves.
	j := 0
	for k := 0; k < len(t); k++ {
		c := t[k]
		if cl := class[c]; cl != Keep {
			if cl == Skip {
				continue
			}
			return 0, false
		}
		pv, mv, _, _ = step(pv, mv, pt.masks[pt.slot[c]], 1, 0)
		j++
		if row := j + m - n; j&3 == 0 && row > 0 && row <= m {
			if d := j + deltas(pv, mv, row); d > max {
				return d, true
			}
		}
	}
	return j + deltas(pv, mv, m), true
}

// Masks sets peq to the match masks of the pattern's string p: bit i of
// peq[c] is set when p[i] is c. It returns false, leaving peq as it was,
// when the pattern is longer than a word or empty.
func (pt *Pattern) Masks(peq *[256]uint64) bool {
	if !pt.fits {
		return false
	}
	clear(peq[:])
	for i := 0; i < len(pt.p); i++ {
		peq[pt.p[i]] = pt.masks[pt.slot[pt.p[i]]]
	}
	return true
}

// LCSBound returns a lower bound of the edit distance between a string p
// of m bytes (0 < m <= 64), whose match masks are peq (see
// [Pattern.Masks]), and the n bytes of t that are kept, the other bytes
// of t being bytes p does not have: max(m, n) less the length of the
// longest common subsequence of the two, as an alignment with d edits
// matches at least max(m, n) - d bytes of the longer string. It stops
// once the bound must exceed max, and then returns some value greater
// than max.
//
// The common subsequence is computed a column at a time, one bit per
// byte of p (Allison and Dix; Hyyrö, "Bit-parallel LCS-length
// computation revisited", 2004), in a chain of three word operations per
// byte of t against about ten for the distance (see [Pattern.Bounded]),
// and a byte of t that p does not have, kept or not, leaves the column
// as it is: a caller that rejects most of the lines it compares rejects
// them for less with this bound first.
func LCSBound(peq *[256]uint64, m int, t string, n, max int) int {
	longer := m
	if n > longer {
		longer = n
	}
	// The zero bits of v's low m bits count the longest common
	// subsequence of p and the bytes of t read so far.
	v := ^uint64(0)
	keep := ^uint64(0) >> (wordBits - uint(m))
	for k := 0; k < len(t); k++ {
		u := v & peq[t[k]]
		v = (v + u) | (v - u)
		// Each byte read from here on adds at most one to the common
		// subsequence: once even that leaves the bound above max, stop.
		if k&7 == 7 {
			lcs := m - bits.OnesCount64(v&keep)
			if d := longer - (lcs + len(t) - k - 1); d > max {
				return d
			}
		}
	}
	return longer - (m - bits.OnesCount64(v&keep))
}

// deltas returns the sum of the vertical deltas pv, mv of rows 1 to row
// (0 < row <= 64): D[row][j] - D[0][j] in their column j.
func deltas(pv, mv uint64, row int) int {
	below := ^uint64(0) >> (wordBits - uint(row))
	return bits.OnesCount64(pv&below) - bits.OnesCount64(mv&below)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
