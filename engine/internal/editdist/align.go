package editdist

// maxAlignCells is the largest len(a)·len(b) that Align accepts: its table
// then takes about a megabyte.
const maxAlignCells = 1 << 20

// Align returns, for two strings, a monotone mapping of every byte offset
// 0..len(a) of a to an offset of b along one optimal Levenshtein alignment,
// so that callers can carry a position in a, such as the start of a changed
// part, over to b.
//
// The mapping m has len(a)+1 entries, with m[0] = 0 (when a is not empty)
// and m[len(a)] = len(b). For i < len(a), b[m[i]:m[i+1]] is what a[i]
// became: the bytes of b inserted just before a[i], followed by the byte
// a[i] was kept as or replaced with, if it was not deleted; the bytes
// inserted after the last byte of a go with that byte. If a is not empty,
// the distances of its bytes to their parts of b sum to Distance(a, b).
//
// The alignment keeps the common prefix and suffix of a and b in place:
// m[i] = i for offsets i < len(a) up to the end of the prefix, and
// m[len(a)-k] = len(b)-k for k below the length of the suffix.
//
// Align is a plain dynamic program, O(len(a)·len(b)) in time and space,
// meant for fragments of a few hundred bytes: it returns nil if
// len(a)·len(b) exceeds 1<<20.
func Align(a, b string) []int {
	if len(b) > 0 && len(a) > maxAlignCells/len(b) {
		return nil
	}
	// An optimal alignment of the strings without their common ends,
	// with those ends matched byte for byte, is an optimal alignment of
	// the strings; it keeps equal ends in place where another optimal
	// alignment might slide a repeated byte, and it shrinks the table.
	pre, suf := CommonEnds(a, b)
	x, y := a[pre:len(a)-suf], b[pre:len(b)-suf]

	m := make([]int, len(a)+1)
	for i := range pre {
		m[i] = i
	}
	firstColumns(x, y, m[pre:pre+len(x)+1])
	for i := pre; i <= pre+len(x); i++ {
		m[i] += pre
	}
	for i := len(a) - suf + 1; i <= len(a); i++ {
		m[i] = i - len(a) + len(b)
	}
	m[len(a)] = len(b)
	return m
}

// Moves into a cell of the table of firstColumns, from the cell above and
// to the left, above, or to the left.
const (
	moveDiagonal = iota // a byte of x kept or replaced by a byte of y
	moveDown            // a byte of x deleted
	moveRight           // a byte of y inserted
)

// firstColumns fills first[i], for each row i of the matrix D of x against
// y, with the first column of that row on one optimal path from (0, 0) to
// (len(x), len(y)). Tracing the path back from its end, it prefers keeping
// or replacing a byte to deleting one, and deleting to inserting.
func firstColumns(x, y string, first []int) {
	w := len(y) + 1
	moves := make([]byte, (len(x)+1)*w)
	prev := make([]int, w)
	cur := make([]int, w)
	for j := range prev {
		prev[j] = j
		moves[j] = moveRight
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		moves[i*w] = moveDown
		for j := 1; j <= len(y); j++ {
			d, move := prev[j-1], byte(moveDiagonal)
			if x[i-1] != y[j-1] {
				d++
			}
			if v := prev[j] + 1; v < d {
				d, move = v, moveDown
			}
			if v := cur[j-1] + 1; v < d {
				d, move = v, moveRight
			}
			cur[j] = d
			moves[i*w+j] = move
		}
		prev, cur = cur, prev
	}
	i, j := len(x), len(y)
	for {
		first[i] = j
		if i == 0 && j == 0 {
			return
		}
		switch moves[i*w+j] {
		case moveDiagonal:
			i, j = i-1, j-1
		case moveDown:
			i--
		default:
			j--
		}
	}
}
