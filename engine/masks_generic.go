//go:build !amd64 || purego

package engine

// solidBlocks sets solid[k] to the bits of the bytes that are not ASCII
// white space (see isSpaceByte) among the 64 bytes of text from 64k on,
// and high[k] to the bits of those beyond ASCII, and reports whether
// there is any; a byte's bit in solid is meaningless when it is beyond
// ASCII. text has at least 64*len(solid) bytes, high as many words.
func solidBlocks(text string, solid, high []uint64) (beyond bool) {
	return solidBlocksGo(text, solid, high)
}
