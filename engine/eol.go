package engine

import (
	"strings"
)

// endings returns text, whose lines end in "\n", with the line endings it
// needs to replace the bytes [start, end) of d's text. In a document whose
// lines all end alike (or mostly, the rest being the file's to keep), that
// is the document's ending. In a document that mixes "\r\n" and "\n", each
// line keeps its own: a line of text that stands where a line of the
// region stood (the same line, or one the change rewrote) takes that
// line's ending, and a line the change added takes the ending of the line
// before it.
func (d *document) endings(start, end int, text string) string {
	if !d.mixed || !strings.Contains(text, "\n") {
		return d.withEOL(text)
	}
	old := splitEOL(d.text[start:end])
	oldLF := make([]string, len(old))
	for i, l := range old {
		oldLF[i] = l.text
		if l.eol != "" {
			oldLF[i] += "\n"
		}
	}
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	// eolOf returns the ending of region line k, or of the nearest line
	// of the document when the region has none there.
	before := d.endingBefore(start)
	eolOf := func(k int) string {
		switch {
		case k >= 0 && k < len(old) && old[k].eol != "":
			return old[k].eol
		case k < 0 && before != "":
			return before
		}
		return d.eol()
	}
	var b strings.Builder
	b.Grow(len(text) + len(lines))
	put := func(line, eol string) {
		if content, ok := strings.CutSuffix(line, "\n"); ok {
			b.WriteString(content)
			b.WriteString(eol)
			return
		}
		b.WriteString(line) // the last line, without an ending
	}
	a, n := 0, 0 // the next line of old and of lines
	for _, df := range diff(oldLF, lines) {
		for ; a < df.Start; a, n = a+1, n+1 {
			put(lines[n], eolOf(a))
		}
		for i := 0; n < df.ReplEnd; i, n = i+1, n+1 {
			k := df.Start + i
			switch {
			case k < df.End:
			case df.End > df.Start:
				k = df.End - 1 // an added line ends as the last rewritten one
			default:
				k = df.Start - 1 // as the line before it
			}
			put(lines[n], eolOf(k))
		}
		a = df.End
	}
	for ; n < len(lines); a, n = a+1, n+1 {
		put(lines[n], eolOf(a))
	}
	return b.String()
}

// An eolLine is a line and its ending ("\r\n", "\n", or "" for a last
// line without one).
type eolLine struct{ text, eol string }

// splitEOL splits s into its lines and their endings.
func splitEOL(s string) []eolLine {
	var out []eolLine
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, eolLine{text: s})
			break
		}
		l := eolLine{text: s[:i], eol: "\n"}
		if i > 0 && s[i-1] == '\r' {
			l = eolLine{text: s[:i-1], eol: "\r\n"}
		}
		out = append(out, l)
		s = s[i+1:]
	}
	return out
}
