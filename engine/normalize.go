package engine

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/graft-editor/graft/engine/internal/loose"
	"github.com/graft-editor/graft/engine/internal/textscan"
)

// The matcher compares lines under looser and looser views. The loosest,
// used for indexing and scoring, is package loose's: it drops all white
// space and folds unicode punctuation to ASCII.

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
	if loose.View(a) == loose.View(b) {
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
			// (ASCII white space is textscan.IsSpace's, as unicode.IsSpace says.)
			i++
			if !textscan.IsSpace(c) {
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

// spreads reports whether after, what follows the "..." opening the line
// t, reads as code that spreads a name (JavaScript's ...props, Go's
// ...): a name right after the dots with code punctuation after it, or
// a lone word that the line does not close with dots, as prose that
// elides would.
func spreads(after, t string) bool {
	if after == "" {
		return false
	}
	if strings.IndexByte("([{", after[0]) >= 0 {
		return true // ...(cond && { key: value }), ...[a, b]
	}
	if r := after[0]; r == '_' || r == '$' || unicode.IsLetter(rune(r)) {
		if strings.ContainsAny(after, ",;:(){}[]=") {
			return true
		}
	}
	return !strings.HasSuffix(t, "...") && !strings.Contains(strings.TrimSpace(after), " ")
}

// maxElisionDots is the longest run of dots alone that reads as an
// elision.
const maxElisionDots = 8

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
		// An ellipsis, or a few more dots; a ruler of dozens of dots
		// ("//......" across the page) is a line of the file's own.
		return len(t) >= 3 && len(t) <= maxElisionDots
	}
	if !strings.HasPrefix(t, "...") && !strings.HasSuffix(t, "...") {
		return false
	}
	if after, ok := strings.CutPrefix(t, "..."); ok && !comment && spreads(after, t) {
		// Code that spreads a name (...existingData, ...rest) elides
		// nothing.
		return false
	}
	// The words that say what is left out: in a comment, anywhere; in a
	// line of code, as words ("rest" in "pet_restrictions" says nothing).
	words := strings.ToLower(strings.Trim(t, ". "))
	pad := ""
	if !comment {
		words = " " + strings.Join(strings.FieldsFunc(words, func(r rune) bool { return !unicode.IsLetter(r) }), " ") + " "
		pad = " "
	}
	for _, w := range []string{"existing", "unchanged", "rest", "remaining", "same", "omitted", "other", "previous", "more", "code", "lines", "as before", "etc"} {
		if strings.Contains(words, pad+w+pad) {
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
		switch f := loose.Fold(r); {
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
