package editdist

// This file holds Myers' bit-parallel algorithm for the Levenshtein
// distance, in the formulation of Hyyrö ("Explaining and extending the
// bit-parallel approximate string matching algorithm of Myers", 2001), and
// its blocked variant for patterns longer than a machine word (Hyyrö, "A
// bit-vector algorithm for computing Levenshtein and Damerau edit
// distances", 2003).
//
// The dynamic-programming matrix D has a row i for each prefix of the
// pattern p (the shorter string) and a column j for each prefix of the text
// t. Instead of D, the algorithm keeps, for one column, the vertical deltas
// D[i][j] - D[i-1][j] (each -1, 0 or +1) as two bit vectors, Pv and Mv, and
// computes the next column from them and the match mask of t[j] with a
// handful of word operations: 64 rows per operation.

const wordBits = 64

// Horizontal deltas D[i][j] - D[i][j-1] leaving one block at its bottom row
// and entering the next at its top, stored one byte per column.
const (
	carryPlus  = 1 << iota // the delta is +1
	carryMinus             // the delta is -1
)

// stackColumns is the longest text whose carries are kept on the stack.
const stackColumns = 1024

// newCarries returns the carries of n columns, each top: in stack, the
// caller's, when they fit there, so that a short text allocates nothing.
func newCarries(stack *[stackColumns]byte, n int, top byte) []byte {
	var carries []byte
	if n <= len(stack) {
		carries = stack[:n]
	} else {
		carries = make([]byte, n)
	}
	for j := range carries {
		carries[j] = top
	}
	return carries
}

// bounded returns the distance between p and t, where len(p) <= len(t) and
// len(t)-len(p) <= limit, if it is at most limit, and otherwise some value
// greater than limit.
func bounded(p, t string, limit int) int {
	switch {
	case len(p) == 0:
		return len(t)
	case len(p) <= wordBits:
		return oneWord(p, t, limit)
	}
	return blocks(p, t, limit)
}

// oneWord is bounded for a pattern of at most 64 bytes: one word holds a
// whole column, and each byte of t costs a few word operations.
func oneWord(p, t string, limit int) int {
	var peq [256]uint64 // peq[c] has bit i set when p[i] == c
	for i := 0; i < len(p); i++ {
		peq[p[i]] |= 1 << i
	}
	return oneWordMasks(&peq, uint(len(p)-1), len(p), t, limit)
}

// oneWordMasks is oneWord for a pattern of m bytes given by its match
// masks peq; last is m-1.
func oneWordMasks(peq *[256]uint64, last uint, m int, t string, limit int) int {
	pv, mv := ^uint64(0), uint64(0)
	score := m // D[len(p)][j]
	// D[len(p)][len(t)] >= score - (len(t)-1-j), since a horizontal delta
	// is at least -1: once that exceeds limit, so does the answer.
	cutoff := limit + len(t) - 1
	for j := 0; j < len(t); j++ {
		var ph, mh uint64
		// Row 0 of D is 0, 1, 2, ...: the delta entering the top is +1.
		pv, mv, ph, mh = step(pv, mv, peq[t[j]], 1, 0)
		score += int(ph>>last&1) - int(mh>>last&1)
		if score+j > cutoff {
			return score + j - (len(t) - 1)
		}
	}
	return score
}

// blocks is bounded for a pattern longer than 64 bytes, cut into blocks of
// 64 rows computed one after another, each over the columns of t where it
// meets the band of diagonals that can hold an answer of at most limit.
//
// A cell (i, j) on an edit path of cost c lies on a diagonal k = j-i with
// |k| + |d-k| <= c, where d = len(t)-len(p): reaching it costs at least |k|
// and leaving it at least |d-k|. So only diagonals kmin <= k <= kmax below
// matter. Cells outside the band are taken at values no smaller than their
// true ones (a block starts with vertical deltas of +1, and where the block
// above has stopped, the horizontal deltas entering from it are +1), so
// every computed value is at least the true one, and exact along any path
// of cost at most limit. The work is about (limit/64+2)·len(p) word steps,
// and never more than ceil(len(p)/64)·len(t).
func blocks(p, t string, limit int) int {
	m, n := len(p), len(t)
	d := n - m
	b := band{kmin: -((limit - d) / 2), kmax: d + (limit-d)/2, n: n}

	var stack [stackColumns]byte
	carries := newCarries(&stack, n, carryPlus) // row 0 of D is 0, 1, 2, ...

	// base is the computed D[r0-1][jlo-1], for the rows from r0 on, whose
	// blocks start at column jlo (rows and columns 1-based, as in D).
	r0, base := 1, 0
	if b.kmax-b.kmin >= 4*wordBits {
		r0, base = groups(p, t, carries, b)
	}
	var peq [256]uint64
	for ; ; r0 += wordBits {
		r1 := min(r0+wordBits-1, m)
		jlo, jhi := b.columns(r0, r1)
		rows := p[r0-1 : r1]
		for i := 0; i < len(rows); i++ {
			peq[rows[i]] |= 1 << i
		}
		if r1 == m {
			// The last block: sum the deltas along row m.
			return base + len(rows) + lastBlock(&peq, t[jlo-1:jhi], carries[jlo-1:jhi], uint(len(rows)-1))
		}
		block(&peq, t[jlo-1:jhi], carries[jlo-1:jhi])
		for i := 0; i < len(rows); i++ {
			peq[rows[i]] = 0
		}
		base = carryDown(base, len(rows), carries, jlo, b.next(r1))
	}
}

// groups is the start of blocks for a band at least 256 columns wide: it
// computes the blocks four at a time while row len(p) lies beyond them, and
// returns the first row left and the computed D above it, as blocks keeps
// them. One block's steps depend on each other, four blocks' steps do not,
// so the processor runs them side by side, about 1.5 times as fast. All
// four run over the columns of the group (a block computed over more
// columns than its own is still exact within the band), which would cost
// more than it saves in a band narrower than the group is tall.
func groups(p, t string, carries []byte, b band) (r0, base int) {
	var peq [256][4]uint64
	for r0 = 1; len(p)-r0 >= 4*wordBits; r0 += 4 * wordBits {
		r1 := r0 + 4*wordBits - 1
		jlo, jhi := b.columns(r0, r1)
		rows := p[r0-1 : r1]
		for i := 0; i < len(rows); i++ {
			peq[rows[i]][i/wordBits] |= 1 << (i % wordBits)
		}
		block4(&peq, t[jlo-1:jhi], carries[jlo-1:jhi])
		for i := 0; i < len(rows); i++ {
			peq[rows[i]] = [4]uint64{}
		}
		base = carryDown(base, len(rows), carries, jlo, b.next(r1))
	}
	return r0, base
}

// A band is the diagonals kmin <= j-i <= kmax of the matrix D of a text of
// n bytes.
type band struct {
	kmin, kmax, n int
}

// columns returns the first and last columns where the rows r0..r1 meet
// the band.
func (b band) columns(r0, r1 int) (jlo, jhi int) {
	return max(1, r0+b.kmin), min(b.n, r1+b.kmax)
}

// next returns the first column where row r1+1 meets the band, which is
// never beyond the last where row r1 does.
func (b band) next(r1 int) int {
	return max(1, r1+1+b.kmin)
}

// carryDown returns the computed D[r1][next-1], given base, the computed
// D[r0-1][jlo-1], the number of rows r0..r1, and carries, where the rows'
// blocks, started at column jlo, left the deltas along row r1.
func carryDown(base, rows int, carries []byte, jlo, next int) int {
	base += rows // the blocks start with vertical deltas of +1
	for _, c := range carries[jlo-1 : next-1] {
		hp, hm := uncarry(c)
		base += int(hp) - int(hm)
	}
	return base
}

// carry returns the byte that stores the horizontal delta leaving a block
// at its bottom row, bit 63 of the vectors ph and mh that step returns.
func carry(ph, mh uint64) byte {
	return byte(ph>>63)*carryPlus | byte(mh>>63)*carryMinus
}

// uncarry returns the horizontal delta stored in c as step takes it: hp is
// 1 if it is +1, hm is 1 if it is -1.
func uncarry(c byte) (hp, hm uint64) {
	return uint64(c & carryPlus), uint64(c & carryMinus >> 1)
}

// step advances a block of 64 rows by one column. Given the vertical deltas
// of the previous column (pv, mv: bit i is set where the delta at row i+1 of
// the block is +1, -1), the rows matching this column's byte (eq), and the
// horizontal delta entering the block's top (hp, hm: 1 where it is +1, -1),
// it returns the vertical deltas of this column and its horizontal deltas
// (ph, mh), of which bit 63 leaves the block's bottom.
func step(pv, mv, eq, hp, hm uint64) (npv, nmv, ph, mh uint64) {
	xv := eq | mv
	eq |= hm
	xh := (((eq & pv) + pv) ^ pv) | eq
	ph = mv | ^(xh | pv)
	mh = pv & xh
	sph := ph<<1 | hp
	smh := mh<<1 | hm
	return smh | ^(xv | sph), sph & xv, ph, mh
}

// block advances one full block of 64 rows, with match masks peq, over the
// columns t, reading the horizontal deltas entering its top from carries
// and writing those leaving its bottom in their place.
func block(peq *[256]uint64, t string, carries []byte) {
	carries = carries[:len(t)]
	pv, mv := ^uint64(0), uint64(0)
	for j := 0; j < len(t); j++ {
		hp, hm := uncarry(carries[j])
		var ph, mh uint64
		pv, mv, ph, mh = step(pv, mv, peq[t[j]], hp, hm)
		carries[j] = carry(ph, mh)
	}
}

// block4 is block for four consecutive blocks at once, the first one's
// match masks in peq[c][0], the next one's in peq[c][1], and so on.
func block4(peq *[256][4]uint64, t string, carries []byte) {
	carries = carries[:len(t)]
	pv0, mv0 := ^uint64(0), uint64(0)
	pv1, mv1 := ^uint64(0), uint64(0)
	pv2, mv2 := ^uint64(0), uint64(0)
	pv3, mv3 := ^uint64(0), uint64(0)
	for j := 0; j < len(t); j++ {
		hp, hm := uncarry(carries[j])
		eq := &peq[t[j]]
		var ph, mh uint64
		pv0, mv0, ph, mh = step(pv0, mv0, eq[0], hp, hm)
		pv1, mv1, ph, mh = step(pv1, mv1, eq[1], ph>>63, mh>>63)
		pv2, mv2, ph, mh = step(pv2, mv2, eq[2], ph>>63, mh>>63)
		pv3, mv3, ph, mh = step(pv3, mv3, eq[3], ph>>63, mh>>63)
		carries[j] = carry(ph, mh)
	}
}

// lastBlock is block for the block holding the pattern's last row, at bit
// last: it returns the sum of the horizontal deltas along that row.
func lastBlock(peq *[256]uint64, t string, carries []byte, last uint) int {
	carries = carries[:len(t)]
	pv, mv := ^uint64(0), uint64(0)
	sum := 0
	for j := 0; j < len(t); j++ {
		hp, hm := uncarry(carries[j])
		var ph, mh uint64
		pv, mv, ph, mh = step(pv, mv, peq[t[j]], hp, hm)
		sum += int(ph>>last&1) - int(mh>>last&1)
	}
	return sum
}
