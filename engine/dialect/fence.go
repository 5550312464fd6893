package dialect

import "strings"

// A fence is the markdown code fence the parser is in, between blocks.
type fence struct {
	open bool
	line int // the index of the opening line
	char byte
	n    int // how many fence characters open it
	info string
}

// clone returns f with its info string copied, for a memo to keep across
// texts of an answer (see Block.Clone).
func (f fence) clone() fence {
	f.info = strings.Clone(f.info)
	return f
}

// fenceOf returns the parts of a code fence line: "```" or "~~~" or longer,
// and the info string after it.
func fenceOf(line string) (char byte, n int, info string, ok bool) {
	t := trimIndent(line)
	if t == "" || (t[0] != '`' && t[0] != '~') {
		return 0, 0, "", false
	}
	for n < len(t) && t[n] == t[0] {
		n++
	}
	info = strings.TrimSpace(t[n:])
	if n < 3 || (t[0] == '`' && strings.Contains(info, "`")) {
		return 0, 0, "", false
	}
	return t[0], n, info, true
}

// isFence reports whether line opens or closes a code fence.
func isFence(line string) bool {
	_, _, _, ok := fenceOf(line)
	return ok
}

// see follows a line between blocks, lines[i], and reports whether it is a
// fence line.
func (f *fence) see(i int, line string) bool {
	char, n, info, ok := fenceOf(line)
	switch {
	case !ok:
	case !f.open:
		*f = fence{open: true, line: i, char: char, n: n, info: info}
	case char == f.char && n >= f.n && info == "":
		f.open = false
	case char == f.char && n >= f.n:
		// A fence that opens like the open one: the model left that one
		// unclosed. Reading this one as its content would give the block
		// in it the file of the block before.
		*f = fence{open: true, line: i, char: char, n: n, info: info}
	}
	return ok
}

// trimIndent returns line without the spaces and tabs it begins with. It
// is strings.TrimLeft(line, " \t"), which sets up its set of characters
// at each call: every dialect trims every line of an answer.
func trimIndent(line string) string {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return line[i:]
}
