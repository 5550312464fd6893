package textscan

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/graft-editor/graft/engine/internal/texttest"
)

// isSpace is IsSpace as unicode.IsSpace says it, for the bytes of ASCII.
func isSpace(c byte) bool { return c < 0x80 && unicode.IsSpace(rune(c)) }

// TestIsSpace checks IsSpace against unicode.IsSpace on every byte.
func TestIsSpace(t *testing.T) {
	for c := range 256 {
		if got, want := IsSpace(byte(c)), isSpace(byte(c)); got != want {
			t.Errorf("IsSpace(%#x) = %v, want %v", c, got, want)
		}
	}
}

// TestSolid checks the solid bytes of a word, each byte value at each
// place among solid bytes and among spaces, against isSpace.
func TestSolid(t *testing.T) {
	for c := range 0x80 {
		for _, fill := range []byte{'x', ' '} {
			for i := range 8 {
				b := []byte(strings.Repeat(string(fill), 8))
				b[i] = byte(c)
				got := Solid(Load64(string(b), 0))
				var want uint64
				for j, c := range b {
					if !isSpace(c) {
						want |= 0x80 << (8 * j)
					}
				}
				if got != want {
					t.Fatalf("Solid(%q) = %#x, want %#x", b, got, want)
				}
			}
		}
	}
}

// plainMasks is what feedBlocks and SolidBlocks compute for the 64 bytes
// of block, a byte at a time: the bits of its line feeds, of its bytes
// that are not white space, and of its bytes beyond ASCII.
func plainMasks(block string) (feeds, solid, high uint64) {
	for i := range 64 {
		c := block[i]
		if c == '\n' {
			feeds |= 1 << i
		}
		if !isSpace(c) {
			solid |= 1 << i
		}
		if c >= 0x80 {
			high |= 1 << i
		}
	}
	return feeds, solid, high
}

// checkBlockMasks holds feedBlocks and SolidBlocks to plainMasks on text,
// whose length is a multiple of 64.
func checkBlockMasks(t *testing.T, text string) {
	t.Helper()
	n := len(text) / 64
	feeds := make([]uint64, n)
	cr := feedBlocks(text, feeds)
	if want := strings.IndexByte(text, '\r') >= 0; cr != want {
		t.Fatalf("feedBlocks(%q) reports a '\\r': %v, want %v", text, cr, want)
	}
	for k := range n {
		if want, _, _ := plainMasks(text[64*k : 64*k+64]); feeds[k] != want {
			t.Fatalf("line feeds of block %d %q: %064b, want %064b", k, text[64*k:64*k+64], feeds[k], want)
		}
	}
	solid, high := make([]uint64, n), make([]uint64, n)
	beyond := SolidBlocks(text, solid, high)
	if want := strings.IndexFunc(text, func(r rune) bool { return r >= 0x80 }) >= 0; beyond != want {
		t.Fatalf("SolidBlocks(%q) reports a byte beyond ASCII: %v, want %v", text, beyond, want)
	}
	for k := range n {
		block := text[64*k : 64*k+64]
		_, wantSolid, wantHigh := plainMasks(block)
		// The bit in solid of a byte beyond ASCII is meaningless.
		if solid[k]&^wantHigh != wantSolid&^wantHigh || high[k] != wantHigh {
			t.Fatalf("masks of block %d %q:\nsolid %064b\nhigh  %064b\nwant\nsolid %064b\nhigh  %064b",
				k, block, solid[k], high[k], wantSolid, wantHigh)
		}
	}
}

// TestBlockMasks checks the masks of every byte value at every place of a
// block, and of random texts of code, white space and bytes beyond ASCII.
func TestBlockMasks(t *testing.T) {
	checkBlockMasks(t, "")
	for c := range 256 {
		// Byte c alone at each place, among solid bytes and among spaces.
		for _, fill := range []byte{'x', ' '} {
			b := []byte(strings.Repeat(string(fill), 64*64))
			for i := range 64 {
				b[64*i+i] = byte(c)
			}
			checkBlockMasks(t, string(b))
		}
	}
	rng := rand.New(rand.NewPCG(11, 12))
	pieces := []string{"a", "}", " ", "\t", "\n", "\r\n", "\v", "\f", "\r", "\x00", "\x08", "\x0e", "\x1f", "!", "\x7f", "\x80", "é", "\u00a0", "\xff", "    "}
	for range 2000 {
		s := texttest.Pieces(rng, pieces, rng.IntN(400))
		checkBlockMasks(t, s[:len(s)/64*64])
	}
}

// FuzzBlockMasks holds the masks of any text to plainMasks.
func FuzzBlockMasks(f *testing.F) {
	f.Add([]byte("\tif err != nil {\r\n\t\treturn é\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkBlockMasks(t, string(b[:len(b)/64*64]))
	})
}
