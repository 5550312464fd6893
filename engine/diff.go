package engine

import "github.com/aymanbagabas/go-udiff/lcs"

// diff returns the edits that turn a into b, as lcs.DiffLines does. Most
// edits a model makes change one stretch of lines (or of a line's
// tokens): a and b then differ only between their common ends, and when
// that stretch cannot slide, the edit is known from the ends alone, without
// a search for the longest common subsequence and what it allocates.
func diff(a, b []string) []lcs.Diff {
	d, ok := stretch(a, b)
	switch {
	case !ok:
		return lcs.DiffLines(a, b)
	case d.Start == d.End && d.ReplStart == d.ReplEnd:
		return nil // a and b are the same
	}
	return []lcs.Diff{d}
}

// sameEnds returns how many items a and b share at their start, p, and
// at their end after that, q.
func sameEnds[E comparable](a, b []E) (p, q int) {
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	return p, q
}

// stretch returns the edit that replaces the stretch of a between its
// common start and end with b's, and false when that may not be the
// edit lcs.DiffLines finds: the stretches are both longer than an item,
// or one may slide (see slides).
func stretch(a, b []string) (lcs.Diff, bool) {
	p, q := sameEnds(a, b)
	am, bm := a[p:len(a)-q], b[p:len(b)-q]
	if len(am) > 1 && len(bm) > 0 || len(bm) > 1 && len(am) > 0 || slides(am, bm, a, p, q) {
		return lcs.Diff{}, false
	}
	return lcs.Diff{Start: p, End: p + len(am), ReplStart: p, ReplEnd: p + len(bm)}, true
}

// slides reports whether the stretch between a's common start (p items)
// and common end (q items), am in a and bm in b, may stand elsewhere in
// an edit as short: some item of it is the item just before or just after
// it. Otherwise the edit that replaces am with bm is the only shortest
// one: the common subsequence it keeps could take in an item of the
// stretch only in place of one of those.
func slides(am, bm, a []string, p, q int) bool {
	for _, side := range [][]string{am, bm} {
		for _, x := range side {
			if p > 0 && x == a[p-1] || q > 0 && x == a[len(a)-q] {
				return true
			}
		}
	}
	return false
}

// maxSlide bounds how far slideSpan looks either way.
const maxSlide = 64

// slideSpan returns the leftmost and the rightmost of the places where d,
// an insertion or a deletion of the diff from a to b, may stand as well,
// at most maxSlide away either way: a shortest diff is not unique where
// the items d inserts or deletes repeat those beside it (a "}" added
// before a "}"). d may move over the items kept between the edits beside
// it, items [loA, hiA) of a and [loB, hiB) of b. Which of the places is
// meant is the caller's to weigh.
func slideSpan(d lcs.Diff, a, b []string, loA, loB, hiA, hiB int) (lo, hi lcs.Diff) {
	shift := func(z lcs.Diff, by int) lcs.Diff {
		return lcs.Diff{Start: z.Start + by, End: z.End + by, ReplStart: z.ReplStart + by, ReplEnd: z.ReplEnd + by}
	}
	// Moved by one, the kept pair beside d trades places with the item of
	// d at its other end: they must be the same.
	lo, hi = d, d
	for step := 0; step < maxSlide && lo.Start > loA && lo.ReplStart > loB && a[lo.End-1] == b[lo.ReplEnd-1]; step++ {
		lo = shift(lo, -1)
	}
	for step := 0; step < maxSlide && hi.End < hiA && hi.ReplEnd < hiB && a[hi.Start] == b[hi.ReplStart]; step++ {
		hi = shift(hi, 1)
	}
	return lo, hi
}
