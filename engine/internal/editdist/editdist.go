// Package editdist computes the Levenshtein distance between two strings,
// byte by byte, with unit costs for insertion, deletion and substitution.
// It also finds the substring of a text closest to a pattern ([Find]), and
// carries offsets of one string over to another along an optimal alignment
// ([Align]).
//
// The fuzzy matcher compares normalized lines of code, so bytes (not runes)
// are the unit: a multi-byte character that differs counts once per byte.
//
// This package is written by hand rather than taken from a library because
// its cost is the matcher's cost bound, the product's edge: the distance of
// two lines of up to 64 bytes costs one machine word per byte of the other
// line (Myers' bit-parallel algorithm in Hyyrö's formulation), longer lines
// cost one word per 64 bytes of the shorter line per byte of the longer
// (Hyyrö's blocked variant), and [Bounded] restricts the work to the
// diagonal band that can hold an answer within its bound (Ukkonen's cut-off),
// so that a small bound costs little more than a scan of the two strings.
package editdist

import "math"

// Distance returns the Levenshtein distance between a and b: the least
// number of single-byte insertions, deletions and substitutions that turn
// a into b.
func Distance(a, b string) int {
	p, t := trim(a, b)
	// Every answer is at most len(t), so a band of that width is exact.
	return bounded(p, t, len(t))
}

// Bounded returns Distance(a, b) if it is at most max, and otherwise some
// value greater than max; callers should only compare the result with max.
// It returns at once when the lengths alone differ by more than max, and
// otherwise costs O((max/64+1)·min(len(a), len(b)) + len(a) + len(b)).
func Bounded(a, b string, max int) int {
	d, max, done := bound(a, b, max)
	if done {
		return d
	}
	p, t := trim(a, b)
	return bounded(p, t, max)
}

// bound returns Bounded(a, b, max) when the lengths alone decide it
// (done), and otherwise the bound to compute the distance with.
func bound(a, b string, max int) (d, limit int, done bool) {
	if max < 0 {
		// Every distance exceeds a negative bound.
		max = 0
	}
	diff := len(a) - len(b)
	if diff < 0 {
		diff = -diff
	}
	if diff > max {
		// The length difference is a lower bound of the distance.
		return diff, 0, true
	}
	// No distance exceeds len(a)+len(b), and a smaller bound keeps the
	// arithmetic below from overflowing.
	max = min(max, len(a)+len(b))
	if max == 0 {
		if a == b {
			return 0, 0, true
		}
		return 1, 0, true
	}
	return 0, max, false
}

// Similarity returns 1 - Distance(a, b)/max(len(a), len(b)), a number in
// [0, 1] that is 1 for equal strings, including two empty ones.
func Similarity(a, b string) float64 {
	n := max(len(a), len(b))
	if n == 0 {
		return 1
	}
	return similarity(Distance(a, b), n)
}

// AtLeast returns Similarity(a, b) and true if it is at least min, and
// 0 and false otherwise. It bounds the distance by the most that a
// similarity of min allows, so dissimilar strings are rejected at the cost
// of [Bounded] rather than [Distance].
func AtLeast(a, b string, min float64) (float64, bool) {
	if !(min <= 1) { // also rejects NaN
		return 0, false
	}
	n := max(len(a), len(b))
	if n == 0 {
		return 1, true
	}
	// A similarity of at least min means a distance of at most (1-min)·n.
	// One more allows for rounding, so that the comparison below, made
	// exactly as Similarity computes, decides.
	limit := n
	if x := (1 - min) * float64(n); x < float64(n) {
		limit = int(math.Floor(x)) + 1
	}
	d := Bounded(a, b, limit)
	if d > limit {
		return 0, false
	}
	s := similarity(d, n)
	if s < min {
		return 0, false
	}
	return s, true
}

// similarity is the similarity of two strings at distance d whose longer
// one has n > 0 bytes.
func similarity(d, n int) float64 {
	return 1 - float64(d)/float64(n)
}

// trim drops the common prefix and suffix of a and b, which leaves the
// distance unchanged, and returns the rest ordered by length, shorter first.
func trim(a, b string) (short, long string) {
	pre, suf := CommonEnds(a, b)
	a, b = a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(a) > len(b) {
		return b, a
	}
	return a, b
}

// CommonEnds returns the lengths of the longest common prefix of a and b
// and of the longest common suffix of what follows it, in bytes.
func CommonEnds(a, b string) (pre, suf int) {
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}
