package engine

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The matcher compares lines under looser and looser views. The loosest,
// used for indexing and scoring, drops all white space and folds unicode
// punctuation to ASCII: models rewrite indentation, collapse or add spaces,
// and type curly quotes, but rarely change the code's other characters
// without meaning to.

// Levels name the views, from strict to loose; a region is reported with
// the loosest level any of its line pairs needed.
const (
	levelExact    = iota // the same bytes
	levelTrailing        // equal without trailing white space
	levelIndent          // equal without leading and trailing white space
	levelInnerWS         // equal once white space runs are collapsed or dropped
	levelUnicode         // equal once unicode punctuation is folded
	levelSimilar         // similar, not equal
)

// fold maps the unicode punctuation models type in place of ASCII to the
// ASCII they stand for; it returns "" for runes it leaves alone.
func fold(r rune) string {
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

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n'
}

// looseKey hashes the loose view of s (FNV-1a) without allocating, and
// returns its length in bytes and a signature: one bit for each byte value
// modulo 64 that occurs in it. Two views whose signatures differ in k bits
// are at least k/2 edits apart, a bound that costs nothing to check.
func looseKey(s string) (h uint64, n int, sig uint64) {
	h = keyOffset
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if isSpaceByte(c) {
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
		if f := fold(r); f != "" {
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

// viewKey returns what looseKey does of a line whose loose view is v, from
// v: the key and the signature of its bytes.
func viewKey(v string) (h uint64, sig uint64) {
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

// loose returns the loose view of s: no white space, punctuation folded.
// Bytes that are not UTF-8 are kept as they are, as looseKey and looseMap
// keep them.
func loose(s string) string {
	// An ASCII line is its bytes less white space: copied in one pass,
	// and not at all when it has none. Its spaces are counted eight bytes
	// at a time, as appendLoose copies them.
	spaces, i := 0, 0
	for ; i+8 <= len(s); i += 8 {
		x := load64(s, i)
		if x&highBits != 0 {
			return looseRunes(s)
		}
		spaces += 8 - bits.OnesCount64(solid(x))
	}
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return looseRunes(s)
		case isSpaceByte(c):
			spaces++
		}
	}
	if spaces == 0 {
		return s
	}
	return string(appendLoose(make([]byte, 0, len(s)-spaces), s))
}

// appendLoose appends the loose view of s to dst: eight bytes of ASCII at
// a time while there are (see solid), the bytes of each word that are not
// white space taken by the bits of their mask, and all eight at once
// when none is.
func appendLoose(dst []byte, s string) []byte {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := load64(s, i)
		if x&highBits != 0 {
			break // beyond ASCII: byte by byte from here
		}
		m := solid(x)
		if m == highBits {
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
			return append(dst, looseRunes(s[i:])...)
		}
		if !isSpaceByte(c) {
			dst = append(dst, c)
		}
	}
	return dst
}

// looseRunes is loose for a line with bytes beyond ASCII.
func looseRunes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch f := fold(r); {
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

// looseMap returns the loose view of text together with, for every byte
// of it, the offset in text of the rune it came from.
func looseMap(text string) (string, []int32) {
	var b strings.Builder
	b.Grow(len(text))
	src := make([]int32, 0, len(text))
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if !isSpaceByte(c) {
				b.WriteByte(c)
				src = append(src, int32(i))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch f := fold(r); {
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

// collapse returns s with runs of white space turned into one space and
// the ends trimmed, unicode punctuation kept.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// level returns the strictest view under which a (the model's line) and b
// (the file's line) are equal, or levelSimilar.
func level(a, b string) int {
	switch {
	case a == b:
		return levelExact
	case strings.TrimRight(a, " \t\r") == strings.TrimRight(b, " \t\r"):
		return levelTrailing
	case strings.TrimSpace(a) == strings.TrimSpace(b):
		return levelIndent
	}
	if equalNoSpace(a, b) || collapse(a) == collapse(b) {
		return levelInnerWS
	}
	if loose(a) == loose(b) {
		return levelUnicode
	}
	return levelSimilar
}

// equalNoSpace reports whether a and b are the same runes once white
// space is dropped, without building either: the equality of the strings
// strings.Map makes of them by dropping it (an invalid byte reads as
// utf8.RuneError, as strings.Map writes it).
func equalNoSpace(a, b string) bool {
	i, j := 0, 0
	for {
		var ra, rb rune
		ra, i = nextNonSpace(a, i)
		rb, j = nextNonSpace(b, j)
		if ra != rb {
			return false
		}
		if ra < 0 {
			return true
		}
	}
}

// nextNonSpace returns the first rune of s from offset i on that is not
// white space, and the offset after it, or -1 when there is none.
func nextNonSpace(s string, i int) (rune, int) {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			// (ASCII white space is isSpaceByte's, as unicode.IsSpace says.)
			i++
			if !isSpaceByte(c) {
				return rune(c), i
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if !unicode.IsSpace(r) {
			return r, i
		}
	}
	return -1, i
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// indentOf returns the leading spaces and tabs of s.
func indentOf(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[:i]
}

// splitLines splits LF text into lines; a final "\n" does not start
// another line, and "" has no lines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(s, "\n")
}

// isElision reports whether a line of the model's text stands for lines
// it left out: "...", "…", or a comment such as "// ... existing code ...".
func isElision(s string) bool {
	// Every elision has "..." once "…" is spelled so: most lines go no
	// further, and most have no '.' and no first byte of "…" either,
	// which costs less to know.
	if strings.IndexByte(s, '.') < 0 && strings.IndexByte(s, "\u2026"[0]) < 0 ||
		!strings.Contains(s, "...") && !strings.Contains(s, "\u2026") {
		return false
	}
	t := strings.TrimSpace(s)
	if t == "" || len(t) > 80 {
		return false
	}
	comment := false
	for _, p := range [][2]string{{"<!--", "-->"}, {"/*", "*/"}, {"{/*", "*/}"}, {"(*", "*)"}} {
		if strings.HasPrefix(t, p[0]) && strings.HasSuffix(t, p[1]) && len(t) >= len(p[0])+len(p[1]) {
			t, comment = strings.TrimSpace(t[len(p[0]):len(t)-len(p[1])]), true
			break
		}
	}
	for _, p := range []string{"//", "#", "--", ";;", ";", "%", "'", "rem "} {
		if !comment && strings.HasPrefix(t, p) {
			t, comment = strings.TrimSpace(t[len(p):]), true
			break
		}
	}
	t = strings.ReplaceAll(t, "\u2026", "...")
	if !comment && !strings.HasPrefix(t, "...") {
		return false // code that ends in "etc..." elides nothing
	}
	if strings.Trim(t, ".") == "" {
		return len(t) >= 3
	}
	if !strings.HasPrefix(t, "...") && !strings.HasSuffix(t, "...") {
		return false
	}
	words := strings.ToLower(strings.Trim(t, ". "))
	for _, w := range []string{"existing", "unchanged", "rest", "remaining", "same", "omitted", "other", "previous", "more", "code", "lines", "as before", "etc"} {
		if strings.Contains(words, w) {
			return true
		}
	}
	return false
}

// foldText replaces the unicode punctuation of s by its ASCII, and
// no-break spaces by spaces, but for the runes in keep (those the file
// itself uses): for new lines of a model that typed curly quotes into code
// whose copy needed folding to match.
func foldText(s string, keep map[rune]bool) string {
	var b strings.Builder
	for _, r := range s {
		switch f := fold(r); {
		case keep[r]:
			b.WriteRune(r)
		case f != "":
			b.WriteString(f)
		case r == '\u00a0' || r == '\u202f' || r == '\u2007':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
