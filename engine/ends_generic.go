//go:build !amd64 || purego

package engine

// asciiEnds works out the ends of the lines [starts[j]-from, stops[j]-from)
// of text, which has no byte beyond ASCII, from solid, its map, and
// reports whether it did for all of them: it leaves the lines longer than
// 64 bytes endsNotYet.
func asciiEnds(ends []uint32, starts, stops []int, from int, text string, solid []uint64) (all bool) {
	asciiEndsGo(ends, starts, stops, from, text, solid)
	return false
}
