package engine

import "unicode/utf8"

// The bag distance of two strings is the larger of the number of bytes of
// one that the other lacks and the reverse, the strings counted as
// multisets of bytes, their order aside. An insertion, deletion or
// substitution changes each of those numbers by at most one, so the bag
// distance never exceeds the edit distance: a line whose bag distance to
// a search line exceeds the edit distance scan allows need not be
// compared byte by byte. Lines of code in another language (a Python
// function looked for in a Go file) are mostly turned away so, at the
// cost of counting each line's bytes once for all the search lines.

// A byteCount is how often a byte occurs in a search line's loose view.
type byteCount struct {
	c byte
	k int
}

// bag returns the bytes of ASCII of the line's loose view, each with its
// count, computed once.
func (l *sline) bag() []byteCount {
	if l.counts == nil {
		var count [utf8.RuneSelf]int
		for i := 0; i < len(l.loose); i++ {
			if c := l.loose[i]; c < utf8.RuneSelf {
				count[c]++
			}
		}
		l.counts = []byteCount{}
		for c, k := range count {
			if k > 0 {
				l.counts = append(l.counts, byteCount{byte(c), k})
			}
		}
	}
	return l.counts
}

// A lineBag counts the bytes of one line of ASCII at a time, white space
// included: the bags of search lines hold none, so it is never matched.
type lineBag [utf8.RuneSelf]uint8

// maxBagLine is the longest line a lineBag counts: no count can wrap.
const maxBagLine = 255

// fill counts the bytes of s, and reports false when s cannot be counted:
// it has a byte beyond ASCII, whose loose view may fold it, or is longer
// than maxBagLine.
func (b *lineBag) fill(s string) bool {
	if len(s) > maxBagLine {
		return false
	}
	clear(b[:])
	var all byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		all |= c
		b[c&(utf8.RuneSelf-1)]++
	}
	return all < utf8.RuneSelf
}

// bagDistance returns the bag distance between search line l and the line
// of n loose bytes counted in b.
func (b *lineBag) bagDistance(l *sline, n int) int {
	common := 0
	for _, bc := range l.bag() {
		common += min(int(b[bc.c]), bc.k)
	}
	return max(l.n, n) - common
}
