//go:build !purego

package engine

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// useBMI says whether the processor has the bit instructions of BMI1 and
// BMI2 and POPCNT, which asciiEndsBMI needs. (Every processor with AVX2
// has them.)
var useBMI = cpu.X86.HasBMI1 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT

// asciiEndsBMI is asciiEnds for lines of any length, in ends_amd64.s.
// text is the text the map is of, solid the map, with a word more than
// the text's bytes need, as newByteMap leaves it.
//
//go:noescape
func asciiEndsBMI(ends []uint32, starts, stops []int, from int, text *byte, solid *uint64)

// asciiEnds works out the ends of the lines [starts[j]-from, stops[j]-from)
// of text, which has no byte beyond ASCII, from solid, its map, and
// reports whether it did for all of them: in Go, it leaves the lines
// longer than 64 bytes endsNotYet.
func asciiEnds(ends []uint32, starts, stops []int, from int, text string, solid []uint64) (all bool) {
	if useBMI && len(starts) > 0 {
		_, _ = ends[len(starts)-1], stops[len(starts)-1]
		asciiEndsBMI(ends, starts, stops, from, unsafe.StringData(text), unsafe.SliceData(solid))
		return true
	}
	asciiEndsGo(ends, starts, stops, from, text, solid)
	return false
}
