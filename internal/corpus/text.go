package corpus

import (
	"strings"
)

// A form is how a text is stored: its line endings, byte order mark and
// final newline. The cases keep these in File and Want alike, so a
// resolver that loses them gets the case wrong.
type form struct {
	crlf      bool
	bom       bool
	noFinalNL bool
}

// render writes lines in the form.
func (f form) render(lines []string) string {
	eol := "\n"
	if f.crlf {
		eol = "\r\n"
	}
	var b strings.Builder
	if f.bom {
		b.WriteString("\ufeff")
	}
	for i, line := range lines {
		b.WriteString(line)
		if i < len(lines)-1 || !f.noFinalNL {
			b.WriteString(eol)
		}
	}
	return b.String()
}

// String names the parts of the form that differ from a plain LF file.
func (f form) String() string {
	var parts []string
	if f.crlf {
		parts = append(parts, "crlf")
	}
	if f.bom {
		parts = append(parts, "bom")
	}
	if f.noFinalNL {
		parts = append(parts, "no-final-newline")
	}
	return strings.Join(parts, "+")
}

// A tokKind classifies a token of a line of code.
type tokKind uint8

const (
	tokIdent tokKind = iota
	tokNumber
	tokString
)

// A token is an identifier, number or string literal of a line: the bytes
// [start, end).
type token struct {
	kind       tokKind
	start, end int
}

// scan finds the tokens of a line of code, up to its comment: a lexer
// just good enough to rename a word or change a literal the way a person
// would, for every language of the catalog.
func scan(l *lang, line string) []token {
	toks, _ := scanLine(l, line)
	return toks
}

// scanLine is scan that also returns where the line's comment starts
// (len(line) when it has none, or when a literal does not close).
func scanLine(l *lang, line string) ([]token, int) {
	var toks []token
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case l.comment != "" && strings.HasPrefix(line[i:], l.comment),
			l.comment == "//" && strings.HasPrefix(line[i:], "/*"):
			return toks, i
		case strings.IndexByte(l.quotes, c) >= 0:
			j := closingQuote(line, i)
			if j < 0 {
				return toks, len(line)
			}
			toks = append(toks, token{tokString, i, j + 1})
			i = j + 1
		case isIdentStart(c):
			j := i + 1
			for j < len(line) && isIdentByte(line[j]) {
				j++
			}
			toks = append(toks, token{tokIdent, i, j})
			i = j
		case c >= '0' && c <= '9':
			j := i + 1
			for j < len(line) && (isIdentByte(line[j]) || line[j] == '.') {
				j++
			}
			toks = append(toks, token{tokNumber, i, j})
			i = j
		default:
			i++
		}
	}
	return toks, len(line)
}

// closingQuote returns the index of the quote that closes the literal
// opened at line[i], or -1 when it does not close on this line.
func closingQuote(line string, i int) int {
	q := line[i]
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case '\\':
			if q != '`' {
				j++
			}
		case q:
			return j
		}
	}
	return -1
}

func isIdentStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// indentOf returns the leading blanks of a line.
func indentOf(line string) string {
	return line[:len(line)-len(strings.TrimLeft(line, " \t"))]
}

// replaceWord replaces every whole-word occurrence of word in s.
func replaceWord(s, word, with string) string {
	var b strings.Builder
	for {
		i := indexWord(s, word)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(with)
		s = s[i+len(word):]
	}
}

// indexWord returns the index of the first whole-word occurrence of word
// in s, or -1.
func indexWord(s, word string) int {
	for at := 0; ; {
		i := strings.Index(s[at:], word)
		if i < 0 {
			return -1
		}
		i += at
		end := i + len(word)
		if (i == 0 || !isIdentByte(s[i-1])) && (end == len(s) || !isIdentByte(s[end])) {
			return i
		}
		at = i + 1
	}
}

// countWord counts the whole-word occurrences of word in s.
func countWord(s, word string) int {
	n := 0
	for {
		i := indexWord(s, word)
		if i < 0 {
			return n
		}
		n++
		s = s[i+len(word):]
	}
}

// likeness is the similarity of two blocks of the same length, line by
// line, weighted by the lines' lengths: what a resolver that weighs bytes
// would see.
func likeness(a, b []string) float64 {
	var same, total float64
	for i := range a {
		w := float64(max(len(a[i]), len(b[i]), 1))
		same += w * similarity(a[i], b[i])
		total += w
	}
	return same / total
}

// similarity is 1 minus the edit distance of a and b over the length of
// the longer, in bytes. The generator uses it on short lines only, to make
// sure a trap's text really is foreign.
func similarity(a, b string) float64 {
	if a == b {
		return 1
	}
	n := max(len(a), len(b))
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return 1 - float64(prev[len(b)])/float64(n)
}
