// Package affix measures what two texts share at their start and at their
// end: the unchanged lines around an edit, the lines a streamed answer
// kept since it was last read.
package affix

// The strides at which Prefix and Suffix compare: a comparison of strings
// is a vectorized memcmp, so whole blocks go first, then smaller ones
// within the block that differs, then single bytes.
const (
	block = 4096
	chunk = 64
)

// Prefix returns the length of the longest common prefix of a and b.
func Prefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for _, stride := range [...]int{block, chunk, 1} {
		for i+stride <= n && a[i:i+stride] == b[i:i+stride] {
			i += stride
		}
	}
	return i
}

// Suffix returns the length of the longest common suffix of a and b.
func Suffix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for _, stride := range [...]int{block, chunk, 1} {
		for i+stride <= n && a[len(a)-i-stride:len(a)-i] == b[len(b)-i-stride:len(b)-i] {
			i += stride
		}
	}
	return i
}
