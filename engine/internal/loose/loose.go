// Package loose computes the loose view of a line of code, under which
// the matcher finds and scores lines: the line without any white space,
// its unicode punctuation folded to the ASCII it stands for. Models
// rewrite indentation, collapse or add spaces and type curly quotes, but
// rarely change the code's other characters without meaning to.
//
// A view has a key, its FNV-1a hash, and a signature, one bit for each
// byte value modulo 64 that occurs in it: two views whose signatures
// differ in k bits are at least k/2 edits apart, a bound that costs
// nothing to check. Bytes that are not UTF-8 are kept as they are.
package loose

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/graft-editor/graft/engine/internal/textscan"
)

// Fold returns the ASCII that r, unicode punctuation models type in place
// of ASCII, stands for, and "" for the runes it leaves alone.
func Fold(r rune) string {
	switch r {
	case '\u2018', '\u2019', '\u201a', '\u201b', '\u2032', '\u00b4', '\u02bc':
		return "'"
	case '\u201c', '\u201d', '\u201e', '\u201f', '\u2033', '\u00ab', '\u00bb':
		return `"`
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212', '\ufe58', '\ufe63', '\uff0d':
		return "-"
	case '\u2026':
		return "..."
	case '\u2022':
		return "*"
	}
	return ""
}

// Key hashes the loose view of s without building it, and returns its
// length in bytes and its signature (see the package comment).
func Key(s string) (h uint64, n int, sig uint64) {
	h = keyOffset
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if textscan.IsSpace(c) {
				continue
			}
			h, sig = keyByte(h, sig, c)
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if unicode.IsSpace(r) {
			continue
		}
		if f := Fold(r); f != "" {
			for j := 0; j < len(f); j++ {
				h, sig = keyByte(h, sig, f[j])
			}
			n += len(f)
			continue
		}
		for j := i - size; j < i; j++ {
			h, sig = keyByte(h, sig, s[j])
		}
		n += size
	}
	return h, n, sig
}

// ViewKey returns what [Key] does of a line whose loose view is v, from v:
// the key and the signature of its bytes.
func ViewKey(v string) (h uint64, sig uint64) {
	h = keyOffset
	for i := 0; i < len(v); i++ {
		h, sig = keyByte(h, sig, v[i])
	}
	return h, sig
}

// keyOffset is the key of an empty loose view, FNV-1a's offset basis.
const keyOffset = 14695981039346656037

// keyByte adds byte c of a loose view to its key h (FNV-1a) and its
// signature sig.
func keyByte(h, sig uint64, c byte) (uint64, uint64) {
	const prime = 1099511628211
	return (h ^ uint64(c)) * prime, sig | 1<<(c&63)
}

// View returns the loose view of s.
func View(s string) string {
	// An ASCII line is its bytes less white space: copied in one pass,
	// and not at all when it has none. Its spaces are counted eight bytes
	// at a time, as AppendView copies them.
	spaces, i := 0, 0
	for ; i+8 <= len(s); i += 8 {
		x := textscan.Load64(s, i)
		if x&textscan.HighBits != 0 {
			return viewRunes(s)
		}
		spaces += 8 - bits.OnesCount64(textscan.Solid(x))
	}
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return viewRunes(s)
		case textscan.IsSpace(c):
			spaces++
		}
	}
	if spaces == 0 {
		return s
	}
	return string(AppendView(make([]byte, 0, len(s)-spaces), s))
}

// AppendView appends the loose view of s to dst and returns it: eight
// bytes of ASCII at a time while there are (see [textscan.Solid]), the
// bytes of each word that are not white space taken by the bits of their
// mask, and all eight at once when none is.
func AppendView(dst []byte, s string) []byte {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := textscan.Load64(s, i)
		if x&textscan.HighBits != 0 {
			break // beyond ASCII: byte by byte from here
		}
		m := textscan.Solid(x)
		if m == textscan.HighBits {
			dst = append(dst, s[i:i+8]...)
			continue
		}
		for ; m != 0; m &= m - 1 {
			dst = append(dst, s[i+bits.TrailingZeros64(m)/8])
		}
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return append(dst, viewRunes(s[i:])...)
		}
		if !textscan.IsSpace(c) {
			dst = append(dst, c)
		}
	}
	return dst
}

// viewRunes is View for a line with bytes beyond ASCII.
func viewRunes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch f := Fold(r); {
		case unicode.IsSpace(r):
		case f != "":
			b.WriteString(f)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Map returns the loose view of text together with, for every byte of
// it, the offset in text of the rune it came from.
func Map(text string) (string, []int32) {
	var b strings.Builder
	b.Grow(len(text))
	src := make([]int32, 0, len(text))
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if !textscan.IsSpace(c) {
				b.WriteByte(c)
				src = append(src, int32(i))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch f := Fold(r); {
		case unicode.IsSpace(r):
		case f != "":
			b.WriteString(f)
			for range len(f) {
				src = append(src, int32(i))
			}
		default:
			b.WriteString(text[i : i+size])
			for range size {
				src = append(src, int32(i))
			}
		}
		i += size
	}
	return b.String(), src
}
