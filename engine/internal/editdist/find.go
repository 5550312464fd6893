package editdist

import "strings"

// This file holds approximate substring search: Myers' algorithm in its
// original setting ("A fast bit-vector algorithm for approximate string
// matching based on dynamic programming", 1999), where the pattern must be
// used whole but may start anywhere in the text. The only change from the
// distance computation in myers.go is row 0 of the matrix D: all zeros
// instead of 0, 1, 2, ..., so that the horizontal delta entering the top of
// each column is 0 instead of +1, and D[len(p)][j] becomes the distance of
// p to the closest substring of t ending at byte j.

// Find returns the substring of text closest to pattern in Levenshtein
// distance (pattern fully used, text free at both ends), if its distance is
// at most max: its byte range [start, end) in text and the distance.
//
// Among equally close substrings it returns the one whose end is leftmost,
// and among those ending there, the shortest, that is the one with the
// largest start. The result is unique, and dist equals
// Distance(pattern, text[start:end]). As leaving a byte out costs as much
// as replacing it, a pattern whose last byte differs from the text's is
// matched without that byte, and likewise at the start.
//
// If no substring is within max, ok is false and the other results are 0.
// An empty pattern matches the empty substring at 0 at distance 0. A
// pattern longer than text is at least len(pattern)-len(text) from every
// substring; the whole text, or a part of it, may still be within max. A
// negative max matches nothing.
//
// The scan costs ceil(len(pattern)/64) word steps per byte of text, and
// finding the start costs as much again for a text of len(pattern)+dist
// bytes.
func Find(pattern, text string, max int) (start, end, dist int, ok bool) {
	if max < 0 {
		return 0, 0, 0, false
	}
	if len(pattern) == 0 {
		return 0, 0, 0, true
	}
	// A distance of 0 is the least possible: the scan stops at the first.
	dist, end = lowest(pattern, text, true, 0)
	if dist > max {
		return 0, 0, 0, false
	}
	// No substring within dist of pattern is longer than len(pattern)+dist,
	// so the start lies in this window. In the matrix of the reversed
	// pattern against the reversed window, tied to its first byte (text's
	// byte before end), column j of the last row is the distance of pattern
	// to text[end-j:end]: the first column holding dist, the least there
	// is, gives the shortest substring.
	lo := end - len(pattern) - dist
	if lo < 0 {
		lo = 0
	}
	rp, rw := reversed(pattern, text[lo:end])
	_, n := lowest(rp, rw, false, dist)
	return end - n, end, dist, true
}

// lowest returns the least value along row len(p) of the matrix D of p,
// with len(p) > 0, against t, over its columns 0..len(t), and the first
// column holding it. If free, row 0 of D is all zeros, so that
// D[len(p)][j] is the distance of p to the closest substring of t ending
// at j; otherwise row 0 is 0, 1, 2, ..., and D[len(p)][j] is the distance
// of p to t[:j]. It stops at the first column whose value is at most
// floor, which callers pass as a lower bound of every value.
func lowest(p, t string, free bool, floor int) (score, col int) {
	top := byte(carryPlus)
	if free {
		top = 0
	}
	if len(p) <= wordBits {
		return lowestOneWord(p, t, top, floor)
	}
	return lowestBlocks(p, t, top, floor)
}

// lowestOneWord is lowest for a pattern of at most 64 bytes, with top the
// horizontal delta entering the top of every column, stored as in carries.
func lowestOneWord(p, t string, top byte, floor int) (score, col int) {
	var peq [256]uint64
	for i := 0; i < len(p); i++ {
		peq[p[i]] |= 1 << i
	}
	hp, hm := uncarry(top)
	last := uint(len(p) - 1)
	pv, mv := ^uint64(0), uint64(0)
	cur := len(p) // D[len(p)][0]
	score = cur
	for j := 0; j < len(t) && score > floor; j++ {
		var ph, mh uint64
		pv, mv, ph, mh = step(pv, mv, peq[t[j]], hp, hm)
		cur += int(ph>>last&1) - int(mh>>last&1)
		if cur < score {
			score, col = cur, j+1
		}
	}
	return score, col
}

// lowestBlocks is lowest for a pattern longer than 64 bytes: the blocks of
// 64 rows are computed one after another over every column of t, as blocks
// does over its band, and the last one records its bottom row.
func lowestBlocks(p, t string, top byte, floor int) (score, col int) {
	m, n := len(p), len(t)
	var stack [stackColumns]byte
	carries := newCarries(&stack, n, top)
	// Every column holds a candidate end, so the band is the whole matrix.
	r0, _ := groups(p, t, carries, band{kmin: -m, kmax: n, n: n})
	var peq [256]uint64
	for ; ; r0 += wordBits {
		r1 := min(r0+wordBits-1, m)
		rows := p[r0-1 : r1]
		for i := 0; i < len(rows); i++ {
			peq[rows[i]] |= 1 << i
		}
		if r1 == m {
			return lowestLastBlock(&peq, t, carries, uint(len(rows)-1), m, floor)
		}
		block(&peq, t, carries)
		for i := 0; i < len(rows); i++ {
			peq[rows[i]] = 0
		}
	}
}

// lowestLastBlock is block for the block holding the pattern's last row,
// at bit last, whose value in column 0 is score: it returns the least value
// along that row and the first column holding it, stopping at the first
// value at most floor.
func lowestLastBlock(peq *[256]uint64, t string, carries []byte, last uint, score, floor int) (least, col int) {
	carries = carries[:len(t)]
	pv, mv := ^uint64(0), uint64(0)
	least = score
	for j := 0; j < len(t) && least > floor; j++ {
		hp, hm := uncarry(carries[j])
		var ph, mh uint64
		pv, mv, ph, mh = step(pv, mv, peq[t[j]], hp, hm)
		score += int(ph>>last&1) - int(mh>>last&1)
		if score < least {
			least, col = score, j+1
		}
	}
	return least, col
}

// reversed returns a and b with their bytes in reverse order, in one
// allocation.
func reversed(a, b string) (ra, rb string) {
	var s strings.Builder
	s.Grow(len(a) + len(b))
	for i := len(a) - 1; i >= 0; i-- {
		s.WriteByte(a[i])
	}
	for i := len(b) - 1; i >= 0; i-- {
		s.WriteByte(b[i])
	}
	r := s.String()
	return r[:len(a)], r[len(a):]
}
