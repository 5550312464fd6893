package engine

import (
	"slices"
	"strconv"
	"strings"
)

// A reading is one way to understand the model's edit: the text it
// searches for, the text it puts in its place, and the strategies needed
// to read it that way. The literal reading comes first; the others undo a
// mistake that affects the search and the replacement alike.
type reading struct {
	old, new string
	hint     int      // 1-based line hint, 0 for none
	tags     []string // strategies this reading stands for
	literal  bool     // the text as the model wrote it
	// strict limits the reading to exact and white-space-blind matches:
	// the literal reading of a search that also reads as numbered lines,
	// which is in the file only if its numbers are (a table of signals).
	strict bool
	// escaped says the reading interprets the escapes of a search that was
	// escaped once too often; its replacement is read the same way.
	escaped bool
}

// readings returns the ways to read an edit, the literal one first. When
// every line of the search carries a line-number prefix, the literal
// reading is only matched strictly: writing pasted numbers into the file
// is never right, but a file may hold numbered lines itself.
func readings(old, new string, hint int) []reading {
	var rs []reading
	if o, n, first, ok := stripLineNumbers(old, new); ok && strings.TrimSpace(o) != "" {
		// Text that only looks numbered may still be in the file as it is.
		rs = append(rs, reading{old: old, new: new, hint: hint, literal: true, strict: true})
		h := hint
		if h == 0 {
			h = first
		}
		rs = append(rs, reading{old: o, new: n, hint: h, tags: []string{"line-numbers"}})
		if uo, un, ok := unescapeEdit(o, n); ok {
			rs = append(rs, reading{old: uo, new: un, hint: h, tags: []string{"line-numbers", "escape-normalized"}, escaped: true})
		} else if uo, un, ok := unescapeQuotes(o, n); ok {
			rs = append(rs, reading{old: uo, new: un, hint: h, tags: []string{"line-numbers", "escape-normalized"}, escaped: true})
		}
		return rs
	}
	rs = append(rs, reading{old: old, new: new, hint: hint, literal: true})
	if uo, un, ok := unfence(old, new); ok {
		rs = append(rs, reading{old: uo, new: un, hint: hint, tags: []string{"unfenced"}})
	}
	if uo, un, ok := unescapeEdit(old, new); ok {
		rs = append(rs, reading{old: uo, new: un, hint: hint, tags: []string{"escape-normalized"}, escaped: true})
	} else if uo, un, ok := unescapeQuotes(old, new); ok {
		rs = append(rs, reading{old: uo, new: un, hint: hint, tags: []string{"escape-normalized"}, escaped: true})
	}
	if to, tn, ok := trimBoundary(old, new); ok {
		rs = append(rs, reading{old: to, new: tn, hint: hint, tags: []string{"trimmed-boundary"}})
	}
	return rs
}

// trimBoundary reads a one-line search padded with white space or line
// breaks as the fragment inside the padding. The replacement loses the
// same padding, or its own when it does not have the search's.
func trimBoundary(old, new string) (string, string, bool) {
	t := strings.TrimSpace(old)
	if t == old || t == "" || strings.Contains(t, "\n") {
		return "", "", false
	}
	i := strings.Index(old, t)
	lead, trail := old[:i], old[i+len(t):]
	if strings.HasPrefix(new, lead) && strings.HasSuffix(new[len(lead):], trail) {
		return t, new[len(lead) : len(new)-len(trail)], true
	}
	return t, strings.TrimSpace(new), true
}

// A lineNumberStyle recognizes one way tools print line numbers before
// code, and returns the number and the code.
type lineNumberStyle func(line string) (n int, code string, ok bool)

var lineNumberStyles = []lineNumberStyle{
	numberedBy(" | "), // "  42 | code", as editors and Roo show files
	numberedBy("| "),
	numberedBy("|"),
	numberedBy("\t"),     // "    42\tcode", as cat -n prints
	numberedBy("\u2192"), // "    42→code", as some read tools print
	numberedBy(": "),     // "42: code"
	numberedBy(":"),
}

// numberedBy recognizes a line number, optionally indented, followed by
// sep. A numbered blank line may lack the separator's trailing space.
func numberedBy(sep string) lineNumberStyle {
	return func(line string) (int, string, bool) {
		t := strings.TrimLeft(line, " ")
		i := 0
		for i < len(t) && '0' <= t[i] && t[i] <= '9' {
			i++
		}
		if i == 0 || i > 7 {
			return 0, "", false
		}
		rest, ok := strings.CutPrefix(t[i:], sep)
		if !ok {
			if strings.TrimRight(t[i:], " \t") != strings.TrimRight(sep, " \t") {
				return 0, "", false
			}
			rest = ""
		}
		n, err := strconv.Atoi(t[:i])
		return n, rest, err == nil
	}
}

// stripLineNumbers removes line-number prefixes from old and new when
// every non-blank line of old has one in the same style, with numbers
// that increase. It returns the first number as a line hint.
func stripLineNumbers(old, new string) (string, string, int, bool) {
	oldLines := splitLines(old)
	if len(oldLines) == 0 {
		return "", "", 0, false
	}
	for _, style := range lineNumberStyles {
		out, first, ok := stripAll(oldLines, style, true)
		if !ok {
			continue
		}
		newOut, newFirst, _ := stripAll(splitLines(new), style, false)
		// One numbered line proves little ("12: {", a map entry): the
		// replacement must then be numbered from the same line, if at all.
		if numbered(oldLines) == 1 && newFirst != 0 && newFirst != first {
			return "", "", 0, false
		}
		return joinLines(out, old), joinLines(newOut, new), first, true
	}
	return "", "", 0, false
}

// numbered counts the non-blank lines.
func numbered(lines []string) int {
	n := 0
	for _, l := range lines {
		if !isBlank(l) {
			n++
		}
	}
	return n
}

// stripAll strips the style's prefix from lines. When strict, every
// non-blank line must carry one and the numbers must increase.
func stripAll(lines []string, style lineNumberStyle, strict bool) ([]string, int, bool) {
	var out []string // made at the first numbered line: most searches have none
	first, prev, numbered := 0, 0, 0
	for i, l := range lines {
		n, code, ok := style(l)
		if !ok {
			if strict && !isBlank(l) {
				return nil, 0, false
			}
			if out != nil {
				out[i] = l
			}
			continue
		}
		if strict && numbered > 0 && n <= prev {
			return nil, 0, false
		}
		if numbered == 0 {
			first = n
			out = make([]string, len(lines))
			copy(out, lines[:i])
		}
		prev = n
		numbered++
		out[i] = code
	}
	if numbered == 0 {
		if strict {
			return nil, 0, false
		}
		out = slices.Clone(lines)
	}
	return out, first, true
}

// joinLines joins lines, ending them with "\n" when like did.
func joinLines(lines []string, like string) string {
	if len(lines) == 0 {
		return ""
	}
	s := strings.Join(lines, "\n")
	if strings.HasSuffix(like, "\n") {
		s += "\n"
	}
	return s
}

// unescapeEdit interprets the escape sequences of a model that
// over-escaped its text (a literal `\n` where it meant a line break), in
// the search and the replacement together. It reports false when the
// search has nothing to interpret.
func unescapeEdit(old, new string) (string, string, bool) {
	if !strings.Contains(old, `\n`) && !strings.Contains(old, `\t`) && !strings.Contains(old, `\"`) && !strings.Contains(old, `\'`) {
		return "", "", false
	}
	// Code quotes "\n" inside string literals; a model that over-escaped
	// writes more of them than it writes line breaks.
	if strings.Count(old, `\n`) <= strings.Count(strings.TrimRight(old, "\n"), "\n") {
		return "", "", false
	}
	return unescape(old), unescape(new), true
}

// unescapeQuotes interprets the escaped quotes and backslashes of a model
// that quoted its lines inside a string once too often but kept their line
// breaks (\" for ", \\ for \, \$ for $, as a template literal or a shell
// string escapes it), in the search and the replacement
// together: the change is the one between the two read that way. Other
// escapes (\n in a string literal of the code) are left as they are. It
// reports false when the search has nothing to interpret.
func unescapeQuotes(old, new string) (string, string, bool) {
	uo := unescapeQuoteRunes(old)
	if uo == old {
		return "", "", false
	}
	return uo, unescapeQuoteRunes(new), true
}

func unescapeQuoteRunes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) && strings.IndexByte("\"'`\\$", s[i+1]) >= 0 {
			i++
			c = s[i]
		}
		b.WriteByte(c)
	}
	return b.String()
}

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			// A "\r\n" pair stands for one line break.
			if !strings.HasPrefix(s[i+1:], `\n`) {
				b.WriteByte('\n')
			}
		case '"', '\'', '`', '\\', '$':
			b.WriteByte(s[i])
		case '\n':
			b.WriteByte('\n')
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
