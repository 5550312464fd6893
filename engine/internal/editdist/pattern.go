package editdist

// A Pattern is a string prepared to be compared with many others: the
// match masks of the bit-parallel algorithm are built once, not once per
// comparison. The zero Pattern is not usable; call [NewPattern].
type Pattern struct {
	p   string
	peq *[256]uint64 // nil when p is longer than a word or empty
}

// NewPattern prepares p for [Pattern.Bounded].
func NewPattern(p string) *Pattern {
	pt := &Pattern{p: p}
	if len(p) > 0 && len(p) <= wordBits {
		pt.peq = new([256]uint64)
		for i := 0; i < len(p); i++ {
			pt.peq[p[i]] |= 1 << i
		}
	}
	return pt
}

// Bounded returns Bounded(p, t, max) for the pattern's string p: the
// distance if it is at most max, and otherwise some value greater than
// max.
func (pt *Pattern) Bounded(t string, max int) int {
	p := pt.p
	if pt.peq == nil || len(t) == 0 {
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
	return oneWordMasks(pt.peq, uint(len(p)-1), len(p), t, max)
}
