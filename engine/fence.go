package engine

import "strings"

// unfence reads a search and a replacement that are each wrapped whole in
// a markdown code fence, as some models write the two sections of a block,
// as the text inside the fences. It is a reading like the others: the
// literal one comes first and wins when the file holds the fences (a
// markdown file, a test fixture), so the fences are dropped only when the
// file does not have them and the text inside them is found.
func unfence(old, new string) (string, string, bool) {
	uo, ok := insideFence(old)
	if !ok || strings.TrimSpace(uo) == "" {
		return "", "", false
	}
	un, ok := insideFence(new)
	if !ok {
		return "", "", false
	}
	return uo, un, true
}

// insideFence returns the lines of s between its first and its last line
// when those open and close one code fence: three or more "`" or "~",
// optionally indented, the opening one followed by an info string or
// nothing, the closing one bare, of the same character and at least as
// long, and no line between them closing the fence before.
func insideFence(s string) (string, bool) {
	lines := splitLines(s)
	if len(lines) < 2 {
		return "", false
	}
	char, n, info, ok := fenceLine(lines[0])
	if !ok || char == '`' && strings.ContainsRune(info, '`') {
		return "", false
	}
	closes := func(line string) bool {
		c, m, rest, ok := fenceLine(line)
		return ok && c == char && m >= n && rest == ""
	}
	last := len(lines) - 1
	if !closes(lines[last]) {
		return "", false
	}
	for _, line := range lines[1:last] {
		if closes(line) {
			return "", false
		}
	}
	if last == 1 {
		return "", true
	}
	return strings.Join(lines[1:last], "\n") + "\n", true
}

// fenceLine splits a line that starts a code fence into its character, the
// length of its run and the rest of the line, trimmed.
func fenceLine(line string) (char byte, n int, rest string, ok bool) {
	t := strings.TrimLeft(line, " \t")
	if t == "" || t[0] != '`' && t[0] != '~' {
		return 0, 0, "", false
	}
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return 0, 0, "", false
	}
	return t[0], n, strings.TrimSpace(t[n:]), true
}
