//go:build !purego

package engine

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useAVX2 says whether the processor and the system run AVX2, which the
// vector versions of solidBlocks and feedLines need.
var useAVX2 = cpu.X86.HasAVX2

// solidBlocksAVX2 is solidBlocks for the len(solid) blocks of 64 bytes
// from text, at least one, in masks_amd64.s.
//
//go:noescape
func solidBlocksAVX2(text *byte, solid, high []uint64) (beyond bool)

// solidBlocks sets solid[k] to the bits of the bytes that are not ASCII
// white space (see isSpaceByte) among the 64 bytes of text from 64k on,
// and high[k] to the bits of those beyond ASCII, and reports whether
// there is any; a byte's bit in solid is meaningless when it is beyond
// ASCII. text has at least 64*len(solid) bytes, high as many words.
func solidBlocks(text string, solid, high []uint64) (beyond bool) {
	_ = text[:64*len(solid)]
	high = high[:len(solid)]
	if useAVX2 && len(solid) > 0 {
		return solidBlocksAVX2(unsafe.StringData(text), solid, high)
	}
	return solidBlocksGo(text, solid, high)
}
