package corpus

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// A change is a plausible edit of a region: the del lines from index at
// are replaced by ins.
type change struct {
	at, del int
	ins     []string
	what    string // for the case's Variant: "rename buf", "insert log line", ...
}

// An entry is one line of a region and of its edited version, lined up:
// the unit every mistake of the model's copy works on.
type entry struct {
	op       byte   // '=' a line the edit keeps, '-' one it removes, '+' one it adds
	old, new string // the line in the region ('=' and '-') and in the edited region ('=' and '+')
	src      int    // index of the line in the region; -1 for added lines and lines the model made up
	touched  bool   // the model's copy of the line is damaged beyond whitespace
}

// inOld and inNew report on which side of the edit the entry stands.
func (e *entry) inOld() bool { return e.op != '+' }
func (e *entry) inNew() bool { return e.op != '-' }

// mapText applies f to the entry's line on both sides it stands on.
func (e *entry) mapText(f func(string) string) {
	if e.inOld() {
		e.old = f(e.old)
	}
	if e.inNew() {
		e.new = f(e.new)
	}
}

// entries lines region up with its version edited by c.
func (c change) entries(region []string) []entry {
	es := make([]entry, 0, len(region)+len(c.ins))
	for i, line := range region[:c.at] {
		es = append(es, entry{op: '=', old: line, new: line, src: i})
	}
	for i, line := range region[c.at : c.at+c.del] {
		es = append(es, entry{op: '-', old: line, src: c.at + i})
	}
	for _, line := range c.ins {
		es = append(es, entry{op: '+', new: line, src: -1})
	}
	for i, line := range region[c.at+c.del:] {
		es = append(es, entry{op: '=', old: line, new: line, src: c.at + c.del + i})
	}
	return es
}

// within reports whether the change touches only lines [lo, hi) of its
// region: the lines it removes, or for a pure insertion the lines around
// it.
func (c change) within(lo, hi int) bool {
	if c.del == 0 {
		return c.at-1 >= lo && c.at < hi
	}
	return c.at >= lo && c.at+c.del <= hi
}

// touchesAny reports whether the change removes, or inserts next to, a
// line for which marked holds.
func (c change) touchesAny(marked []bool) bool {
	from, to := c.at, c.at+c.del
	if c.del == 0 {
		from, to = c.at-1, c.at+1
	}
	for i := max(from, 0); i < min(to, len(marked)); i++ {
		if marked[i] {
			return true
		}
	}
	return false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sides returns the Old and New lines of entries.
func sides(es []entry) (old, new []string) {
	for _, e := range es {
		if e.inOld() {
			old = append(old, e.old)
		}
		if e.inNew() {
			new = append(new, e.new)
		}
	}
	return old, new
}

// The ways an edit changes a region, weighted by how often models make
// them.
const (
	editRename = iota
	editLiteral
	editInsert
	editDelete
	editSplit
)

// pickChange draws a plausible edit of region: an identifier renamed on
// one line, a literal changed, a log or guard statement inserted at the
// right indentation, a line deleted, or two lines replaced by three.
// Without canDelete the edit always adds text (a later edit may quote it).
func pickChange(rng *rand.Rand, s *source, region []string, canDelete bool) (change, bool) {
	weights := []int{editRename: 30, editLiteral: 20, editInsert: 25, editDelete: 10, editSplit: 15}
	if !canDelete {
		weights[editDelete] = 0
	}
	for range 8 {
		var c change
		var ok bool
		switch pickWeighted(rng, weights) {
		case editRename:
			c, ok = renameLine(rng, s.lang, region)
		case editLiteral:
			c, ok = literalLine(rng, s.lang, region)
		case editInsert:
			c, ok = insertLines(rng, s, region)
		case editDelete:
			c, ok = deleteLine(rng, s.lang, region)
		case editSplit:
			c, ok = splitLines(rng, s, region)
		}
		if ok {
			return c, true
		}
	}
	return change{}, false
}

// pickWeighted returns an index of weights drawn in proportion to them.
func pickWeighted(rng *rand.Rand, weights []int) int {
	total := 0
	for _, w := range weights {
		total += w
	}
	w := rng.IntN(total)
	for i, wi := range weights {
		if w -= wi; w < 0 {
			return i
		}
	}
	return len(weights) - 1
}

// renameLine renames an identifier on one line of region.
func renameLine(rng *rand.Rand, l *lang, region []string) (change, bool) {
	for _, i := range rng.Perm(len(region)) {
		if line, what, ok := rename(rng, l, region[i]); ok {
			return change{at: i, del: 1, ins: []string{line}, what: what}, true
		}
	}
	return change{}, false
}

// literalLine changes a number or string literal on one line of region.
func literalLine(rng *rand.Rand, l *lang, region []string) (change, bool) {
	for _, i := range rng.Perm(len(region)) {
		if line, what, ok := changeLiteral(rng, l, region[i]); ok {
			return change{at: i, del: 1, ins: []string{line}, what: what}, true
		}
	}
	return change{}, false
}

// rename renames one identifier of a line of code wherever it stands in
// the line's code (not in its comment).
func rename(rng *rand.Rand, l *lang, line string) (string, string, bool) {
	var names []string
	for _, t := range scan(l, line) {
		w := line[t.start:t.end]
		qualifier := t.end < len(line) && line[t.end] == '.'
		if t.kind == tokIdent && len(w) >= 2 && !qualifier && !l.isKeyword(w) && !slices.Contains(names, w) {
			names = append(names, w)
		}
	}
	if len(names) == 0 {
		return "", "", false
	}
	name := names[rng.IntN(len(names))]
	to := newName(rng, l, name)
	var b strings.Builder
	at := 0
	for _, t := range scan(l, line) {
		if t.kind == tokIdent && line[t.start:t.end] == name {
			b.WriteString(line[at:t.start])
			b.WriteString(to)
			at = t.end
		}
	}
	b.WriteString(line[at:])
	return b.String(), "rename " + name, true
}

// newName returns the name a model might give name when asked to rename
// it, in the naming style of the name and its language.
func newName(rng *rand.Rand, l *lang, name string) string {
	prefixes := [...]string{"new", "old", "tmp", "local", "next", "cur", "raw", "base"}
	suffixes := [...]string{"Val", "Count", "Len", "Buf", "Ptr", "List", "Err", "Out"}
	suffix := suffixes[rng.IntN(len(suffixes))]
	snake := l.name == "python" || l.name == "c" || l.name == "shell" || l.name == "perl" || l.name == "yaml"
	switch {
	case strings.ToUpper(name) == name:
		return name + "_" + strings.ToUpper(suffix)
	case snake || strings.Contains(name, "_"):
		return name + "_" + strings.ToLower(suffix)
	case rng.IntN(2) == 0:
		p := prefixes[rng.IntN(len(prefixes))]
		if name[0] >= 'A' && name[0] <= 'Z' {
			p = strings.ToUpper(p[:1]) + p[1:]
		}
		return p + strings.ToUpper(name[:1]) + name[1:]
	default:
		return name + suffix
	}
}

// changeLiteral changes one number or string literal of a line of code.
func changeLiteral(rng *rand.Rand, l *lang, line string) (string, string, bool) {
	var lits []token
	for _, t := range scan(l, line) {
		w := line[t.start:t.end]
		switch {
		case t.kind == tokNumber && isDecimal(w):
			lits = append(lits, t)
		case t.kind == tokString && w[0] != '\'' && !strings.HasSuffix(w[1:len(w)-1], `\`):
			lits = append(lits, t)
		}
	}
	if len(lits) == 0 {
		return "", "", false
	}
	t := lits[rng.IntN(len(lits))]
	w := line[t.start:t.end]
	var to string
	if t.kind == tokNumber {
		n, _ := strconv.Atoi(w)
		switch {
		case n > 1 && rng.IntN(2) == 0:
			to = strconv.Itoa(2 * n)
		default:
			to = strconv.Itoa(n + 1)
		}
	} else {
		suffixes := [...]string{" failed", ": %v", " (v2)", " for now"}
		q, body := w[:1], w[1:len(w)-1]
		if body == "" {
			body = "graft"
		} else {
			body += suffixes[rng.IntN(len(suffixes))]
		}
		to = q + body + q
	}
	return line[:t.start] + to + line[t.end:], "change literal " + w, true
}

// isDecimal reports whether w is a decimal number without leading zeros
// that an int holds.
func isDecimal(w string) bool {
	if len(w) > 9 || len(w) > 1 && w[0] == '0' {
		return false
	}
	for i := range len(w) {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}

// insertLines inserts a log or guard statement between two lines of
// region, indented as a person would indent it there.
func insertLines(rng *rand.Rand, s *source, region []string) (change, bool) {
	l := s.lang
	templates := append(append([][]string(nil), l.logs...), l.guards...)
	if len(templates) == 0 {
		return change{}, false
	}
	for _, i := range rng.Perm(len(region)) {
		if i == 0 {
			continue
		}
		base, unit, ok := insertionIndent(s, region, i)
		if !ok {
			continue
		}
		tmpl := templates[rng.IntN(len(templates))]
		name := nearbyName(rng, l, region[i-1]+" "+region[i])
		ins := instantiate(tmpl, base, unit, name)
		return change{at: i, ins: ins, what: "insert " + strings.TrimSpace(ins[0])}, true
	}
	return change{}, false
}

// insertionIndent returns the indentation a statement inserted before
// region[i] takes, and one level of indentation there, or false when no
// statement belongs there: inside an expression, a block comment, a type
// or a declaration block, at the top level of a language whose statements
// live in functions, or among lines whose indentation disagrees with the
// file's.
func insertionIndent(s *source, region []string, i int) (string, string, bool) {
	l := s.lang
	prev, next := region[i-1], region[i]
	p, n := strings.TrimSpace(prev), strings.TrimSpace(next)
	if p == "" && n == "" || strings.HasPrefix(p, "/*") || strings.HasPrefix(p, "*") {
		return "", "", false
	}
	if c := l.comment; c != "" && strings.HasPrefix(p, c) && strings.HasPrefix(n, c) {
		// Inside a comment.
		return "", "", false
	}
	for _, tail := range []string{",", `\`, "(", "[", "+", "&&", "||", "=", "|", "&", "-", "."} {
		if strings.HasSuffix(p, tail) && l.name != "yaml" {
			return "", "", false
		}
	}
	// One level is what the file uses; Go is indented with tabs whatever
	// its raw strings hold. A region with lines indented otherwise holds
	// text inside a literal, or mixes both: no place to insert.
	unit := s.unit
	if l.name == "go" {
		unit = "\t"
	}
	for _, line := range region {
		ind := indentOf(line)
		if unit == "\t" && strings.Contains(ind, " ") || unit != "\t" && strings.Contains(ind, "\t") {
			return "", "", false
		}
	}
	var base string
	switch {
	case l.opens(p) || (l.name == "go" || l.name == "c" || l.name == "js") && strings.HasSuffix(p, ":"):
		base = indentOf(prev) + unit
	case n != "" && !l.closes(n):
		base = indentOf(next)
	case p != "":
		base = indentOf(prev)
	default:
		return "", "", false
	}
	switch l.name {
	case "go", "c", "js":
		if base == "" || !inBody(l, region, i, base) {
			return "", "", false
		}
	}
	return base, unit, true
}

// inBody reports whether a statement at indentation base before region[i]
// stands in a function body: the nearest line above with less indentation
// opens a block of statements or, when the region shows no such line, a
// neighbour is a statement.
func inBody(l *lang, region []string, i int, base string) bool {
	for j := i - 1; j >= 0; j-- {
		t := strings.TrimSpace(region[j])
		if t == "" || len(indentOf(region[j])) >= len(base) || t == "{" {
			continue
		}
		return opensStatements(l, t)
	}
	return isStatement(l, strings.TrimSpace(region[i-1])) || isStatement(l, strings.TrimSpace(region[i]))
}

// opensStatements reports whether a trimmed line opens a block whose
// lines are statements: a function, a control statement, a case.
func opensStatements(l *lang, t string) bool {
	word, _, _ := strings.Cut(t, " ")
	if strings.HasSuffix(t, ":") {
		return word == "case" || word == "default" || word == "default:"
	}
	if !strings.HasSuffix(t, "{") && t != "{" {
		return false
	}
	switch word {
	case "if", "for", "switch", "else", "}", "while", "do", "try", "catch", "finally", "select", "go", "defer", "func", "function":
		return true
	case "type", "struct", "enum", "union", "typedef", "var", "const", "import":
		return false
	}
	switch l.name {
	case "go":
		return strings.Contains(t, "func(")
	case "js":
		return strings.Contains(t, "=>") || strings.Contains(t, "function")
	}
	// A C function's header.
	return strings.Contains(t, "(") && !strings.Contains(t, "=")
}

// isStatement reports whether a trimmed line is plainly a statement.
func isStatement(l *lang, t string) bool {
	for _, kw := range []string{"return", "if ", "for ", "defer ", "go ", "switch ", "while ", "} else"} {
		if strings.HasPrefix(t, kw) {
			return true
		}
	}
	if l.name == "go" {
		return strings.Contains(t, ":=")
	}
	return strings.HasSuffix(t, ";") && !strings.HasPrefix(t, "typedef") && !strings.HasPrefix(t, "struct") && !strings.HasPrefix(t, "#")
}

// nearbyName returns an identifier of code, for a statement that talks
// about it, or "state" when code has none.
func nearbyName(rng *rand.Rand, l *lang, code string) string {
	var names []string
	for _, t := range scan(l, code) {
		w := code[t.start:t.end]
		if t.kind == tokIdent && len(w) >= 2 && !l.isKeyword(w) {
			names = append(names, w)
		}
	}
	if len(names) == 0 {
		return "state"
	}
	return names[rng.IntN(len(names))]
}

// instantiate turns a template into lines at indentation base.
func instantiate(tmpl []string, base, unit, name string) []string {
	lines := make([]string, len(tmpl))
	for i, t := range tmpl {
		depth := len(t) - len(strings.TrimLeft(t, "\t"))
		lines[i] = base + strings.Repeat(unit, depth) + strings.ReplaceAll(t[depth:], "NAME", name)
	}
	return lines
}

// deleteLine deletes a statement inside region.
func deleteLine(rng *rand.Rand, l *lang, region []string) (change, bool) {
	for _, i := range rng.Perm(len(region)) {
		if i == 0 || i == len(region)-1 {
			continue
		}
		t := strings.TrimSpace(region[i])
		if t == "" || l.opens(t) || l.closes(t) || isBlank(region[i-1]) && isBlank(region[i+1]) {
			continue
		}
		return change{at: i, del: 1, what: "delete a line"}, true
	}
	return change{}, false
}

// splitLines replaces two neighbouring statements by three: both edited,
// and a log statement between them.
func splitLines(rng *rand.Rand, s *source, region []string) (change, bool) {
	l := s.lang
	if len(l.logs) == 0 {
		return change{}, false
	}
	for _, i := range rng.Perm(len(region) - 1) {
		a, b := region[i], region[i+1]
		ta, tb := strings.TrimSpace(a), strings.TrimSpace(b)
		if ta == "" || tb == "" || l.opens(ta) || l.closes(ta) || l.opens(tb) || l.closes(tb) || indentOf(a) != indentOf(b) {
			continue
		}
		_, unit, ok := insertionIndent(s, region, i+1)
		if !ok {
			continue
		}
		a2, _, ok := rename(rng, l, a)
		if !ok {
			if a2, _, ok = changeLiteral(rng, l, a); !ok {
				continue
			}
		}
		b2, _, ok := changeLiteral(rng, l, b)
		if !ok {
			if b2, _, ok = rename(rng, l, b); !ok {
				continue
			}
		}
		log := instantiate(l.logs[rng.IntN(len(l.logs))], indentOf(a), unit, nearbyName(rng, l, a))
		ins := append(append([]string{a2}, log...), b2)
		return change{at: i, del: 2, ins: ins, what: "replace two lines with three"}, true
	}
	return change{}, false
}
