package dialect

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/graft-editor/graft/engine"
)

// The edit-v3 dialect of seed 004, "common prefix edit blocks":
//
//	src/math.py
//	««« EDIT
//	def multiply(a, b):
//	    return a + b  # BUG
//	═══════ REPL
//	def multiply(a, b):
//	    return a * b
//	»»» EDIT END
//
// The line before the EDIT marker names the file, whole (a path may hold
// spaces); a block after a blank line, or at the start of the text, names
// none and is for Options.Target. The EDIT section is the text to replace and the REPL section its
// replacement; the lines the two sections begin with in common are the
// anchor (see [Anchor]). The resolver matches the EDIT section as a whole,
// so the anchor needs no matching of its own here: it only words the
// failures the way the format's users know them (see [Explain]).
//
// Markers are whole lines, surrounding space aside; anywhere else in a line
// they are content. The parser is a state machine over lines, like the
// seed's, but a block it cannot read becomes a malformed Block, reported,
// and parsing resumes after it.
//
// Blocks do not nest, but their content may quote one (an edit to the
// prompt that teaches the format, say): an EDIT marker inside the EDIT
// section is content, and so are the markers up to its own END marker, so
// that the outer block is read whole, as the seed reads it. In the REPL
// section an EDIT marker is content only when the EDIT section quoted a
// block too; otherwise it opens the next block, the END marker before it
// having been forgotten. Reading a quoted block as the end of the outer one
// would cut the outer block's text short, and that is an edit in the wrong
// place.

// The markers, as blocks and messages spell them.
const (
	v3OpenWord    = "««« EDIT"
	v3DividerWord = "═══════ REPL"
	v3CloseWord   = "»»» EDIT END"
)

// A v3Marker is the role of a line in the block structure.
type v3Marker int

const (
	v3Content v3Marker = iota // the zero value, unmarked for markLines
	v3Open                    // ««« EDIT
	v3Divider                 // ═══════ REPL
	v3Close                   // »»» EDIT END
)

// v3MarkerOf returns the marker a line is: only the whole line, space
// around it aside, is a marker.
func v3MarkerOf(line string) v3Marker {
	switch strings.TrimSpace(line) {
	case v3OpenWord:
		return v3Open
	case v3DividerWord:
		return v3Divider
	case v3CloseWord:
		return v3Close
	}
	return v3Content
}

// v3State is where the parser stands in the block structure.
type v3State int

const (
	v3Outside  v3State = iota
	v3InEdit           // after the EDIT marker
	v3InRepl           // after the REPL marker
	v3Skipping         // in a malformed block, up to its END marker or the next EDIT marker
)

// A v3Parser reads the edit-v3 blocks of one document, line by line.
type v3Parser struct {
	doc *document
	// marks[i] is the marker lines[i] is; next[i] is the index of the
	// first marker line at or after i, len(lines) when there is none.
	marks  []v3Marker
	next   []int
	blocks []Block

	state    v3State
	cur      Block // the block being read
	open     int   // the index of its EDIT marker line
	pathLine int   // the index of the line that names its file, -1 when none does
	old, new []string
	// depth is how many blocks quoted in the content are open; quoted
	// reports whether the EDIT section quoted one, the first at the EDIT
	// marker lines[quoteAt].
	depth   int
	quoteAt int
	quoted  bool
	lastEnd int // the index of the last line of the previous block, -1 before the first
}

// parseEditV3 reads the edit-v3 blocks in doc.
func parseEditV3(doc *document) []Block {
	n := len(doc.lines)
	p := &v3Parser{doc: doc, lastEnd: -1}
	var known []v3Marker
	var knownNext []int
	if doc.prev != nil {
		known, knownNext = doc.prev.v3marks, doc.prev.v3next
		defer func() { doc.prev.v3marks, doc.prev.v3next = p.marks, p.next }()
	}
	p.marks, p.next = markLines(doc, v3MarkerOf, known, knownNext)
	for i := 0; i < n; i++ {
		if p.state == v3Outside {
			// Outside a block, only a marked line starts anything.
			if i = p.next[i]; i == n {
				break
			}
		}
		i = p.step(i)
	}
	switch p.state {
	case v3InEdit:
		p.end(n-1, unexpected("the text ends", v3DividerWord)+p.openQuote())
	case v3InRepl:
		p.end(n-1, unexpected("the text ends", v3CloseWord)+p.openQuote())
	case v3Skipping:
		p.close(n - 1)
	}
	return p.blocks
}

// step reads lines[i] and returns the index of the last line it consumed.
func (p *v3Parser) step(i int) int {
	line := p.doc.lines[i]
	switch p.state {
	case v3Outside:
		switch p.marks[i] {
		case v3Open:
			p.start(i)
		case v3Divider:
			// The EDIT marker was forgotten: the block runs to its END
			// marker when that is the next marker.
			end := i
			if j := p.next[i+1]; j < len(p.marks) && p.marks[j] == v3Close {
				end = j
			}
			p.stray(i, end, unexpected(p.found(i), v3OpenWord))
			return end
		case v3Close:
			p.stray(i, i, unexpected(p.found(i), v3OpenWord))
		}
	case v3InEdit:
		switch {
		case p.quote(i):
			p.quoted = true
			p.old = append(p.old, line)
		case p.marks[i] == v3Divider:
			p.state = v3InRepl
		case p.marks[i] == v3Close:
			p.reject(i, unexpected(p.found(i), v3DividerWord))
			p.close(i)
		default:
			p.old = append(p.old, line)
		}
	case v3InRepl:
		switch {
		case p.marks[i] == v3Open && !p.quoted:
			// The END marker was forgotten: the block is malformed, and
			// the next one starts here.
			p.reject(i, unexpected(p.found(i), v3CloseWord))
			p.restart(i)
		case p.quote(i):
			p.new = append(p.new, line)
		case p.marks[i] == v3Close:
			p.close(i)
		case p.marks[i] == v3Divider:
			p.reject(i, unexpected(p.found(i), v3CloseWord))
		default:
			p.new = append(p.new, line)
		}
	case v3Skipping:
		switch p.marks[i] {
		case v3Close:
			p.close(i)
		case v3Open:
			p.restart(i)
		}
	}
	return i
}

// found says which marker lines[i] is, for messages.
func (p *v3Parser) found(i int) string {
	return fmt.Sprintf("found %q", strings.TrimSpace(p.doc.lines[i]))
}

// quote reports whether lines[i] is a marker of a block quoted in the
// content, and follows the depth of the quotes: an EDIT marker opens one,
// and inside one the REPL marker is content and the END marker closes it.
func (p *v3Parser) quote(i int) bool {
	switch p.marks[i] {
	case v3Open:
		if p.depth == 0 && !p.quoted {
			p.quoteAt = i
		}
		p.depth++
		return true
	case v3Divider:
		return p.depth > 0
	case v3Close:
		if p.depth > 0 {
			p.depth--
			return true
		}
	}
	return false
}

// openQuote says, for a block the text ends in, where the block quoted in
// its content starts, if it quotes one: the markers that might have closed
// it were read as the quote's.
func (p *v3Parser) openQuote() string {
	if !p.quoted && p.depth == 0 {
		return ""
	}
	return fmt.Sprintf("; the %q on line %d is read as content, a block quoted in this one", v3OpenWord, p.quoteAt+1)
}

// start opens a block at the EDIT marker lines[i].
func (p *v3Parser) start(i int) {
	p.state = v3InEdit
	p.open = i
	p.old, p.new = p.old[:0], p.new[:0]
	p.depth, p.quoted = 0, false
	path, at := p.pathBefore(i)
	p.pathLine = at
	// A block that names no file is for Options.Target; Parse reports it
	// when there is none.
	p.cur = Block{Edit: engine.Edit{Path: path, Dialect: EditV3}}
}

// restart closes the malformed block being read before the header of the
// block whose EDIT marker is lines[i], and opens that block.
func (p *v3Parser) restart(i int) {
	end := i - 1
	if _, at := p.pathBefore(i); at >= 0 {
		end = at - 1 // the header lines, up to the marker, are the next block's
	}
	p.close(end)
	p.start(i)
}

// pathBefore returns the path of the block whose EDIT marker is lines[i]
// and the index of the line that names it, -1 when none does. The path is
// the whole line before the marker, cleaned of markdown decorations; when
// that line is a code fence, the path is in the fence's info string or on
// the line before the fence. Lines of the previous block name nothing.
func (p *v3Parser) pathBefore(i int) (string, int) {
	j := i - 1
	if j <= p.lastEnd {
		return "", -1
	}
	if _, _, info, ok := fenceOf(p.doc.lines[j]); ok {
		if path := fenceInfoPath(info); path != "" {
			return path, j
		}
		j--
		if j <= p.lastEnd {
			return "", -1
		}
	}
	if p.marks[j] != v3Content {
		return "", -1
	}
	path := cleanPath(p.doc.lines[j])
	if path == "" {
		return "", -1
	}
	return path, j
}

// reject marks the block being read as malformed by a problem on lines[at];
// the rest of the block is skipped.
func (p *v3Parser) reject(at int, problem string) {
	if p.cur.Err == nil {
		p.cur.Err = fmt.Errorf("line %d: %s (block starting at line %d)", at+1, problem, p.open+1)
	}
	p.state = v3Skipping
}

// end ends the block the text ends in, unfinished: problem says what was
// expected at lines[at], the last line.
func (p *v3Parser) end(at int, problem string) {
	if p.cur.Err == nil {
		p.cur.Err = unfinished(at, p.open, problem)
	}
	p.state = v3Skipping
	p.close(at)
}

// close ends the block being read at lines[end].
func (p *v3Parser) close(end int) {
	b := p.cur
	b.Source = lineSpan(p.open, end)
	if b.Err == nil {
		b.Old, b.New = joinLines(p.old), joinLines(p.new)
		b.Err = p.check(&b, end)
	}
	if b.Err != nil {
		b.Old, b.New = "", ""
	}
	p.blocks = append(p.blocks, b)
	p.lastEnd = end
	p.state = v3Outside
}

// check finishes a block read whole, ending at lines[end]: an EDIT section
// with nothing in it creates the file, as an empty SEARCH does, and a block
// with nothing in either section is malformed. A block whose sections are
// equal is kept: it is checked against the file and changes nothing.
func (p *v3Parser) check(b *Block, end int) error {
	if strings.TrimSpace(b.Old) != "" {
		return nil
	}
	if strings.TrimSpace(b.New) == "" {
		return fmt.Errorf("line %d: both sections are empty, there is nothing to edit (block starting at line %d)", end+1, p.open+1)
	}
	// A file is created only under a name that reads as a path: prose on
	// the line before the marker must not become a new file. A block that
	// names none creates Options.Target.
	if b.Path != "" && !p.doc.isPath(b.Path) {
		return fmt.Errorf("line %d: %q does not read as a file path, and the block would create it (block starting at line %d)",
			p.pathLine+1, b.Path, p.open+1)
	}
	b.Op, b.Old = engine.OpCreate, ""
	return nil
}

// stray reports markers found outside any block, on lines[first:last+1],
// as a malformed block.
func (p *v3Parser) stray(first, last int, problem string) {
	p.blocks = append(p.blocks, Block{
		Edit: engine.Edit{Dialect: EditV3, Source: lineSpan(first, last)},
		Err:  fmt.Errorf("line %d: %s", first+1, problem),
	})
	p.lastEnd = last
}

// Anchor splits the two sections of an edit-v3 block, old and new, into the
// lines they begin with in common (the anchor) and the rest of each. Lines
// are compared whole, with their line ends.
func Anchor(old, new string) (anchor, oldRest, newRest string) {
	n := 0
	for n < len(old) {
		end := strings.IndexByte(old[n:], '\n') + 1
		if end == 0 {
			end = len(old) - n // a last line without a line end
		}
		line := old[n : n+end]
		if !strings.HasPrefix(new[n:], line) || (!strings.HasSuffix(line, "\n") && len(new) > n+end) {
			break
		}
		n += end
	}
	return old[:n], old[n:], new[n:]
}

// The words of seed 004 for the failures of an edit-v3 block.
const (
	v3AnchorNotFound  = "Anchor not found in file"
	v3ContentNotFound = "Content sequence not found in file"
	v3Ambiguous       = "Edit location is ambiguous"
	v3OldMismatch     = "Old lines don't match content after anchor"
	v3PreviousFailed  = "Previous edit to this file failed"
)

// Explain words err, the refusal of block b resolved against fileText, the
// way the edit-v3 format's users know it ("Anchor not found in file", "Edit
// location is ambiguous (matches at lines 3 and 9)", ...), followed on the
// next lines by the engine's own details. Errors that are not an
// [*engine.Error], and blocks of other dialects, keep the message of err.
//
// For a block that is not found, the anchor tells where the failure lies:
// its lines are looked for in fileText as consecutive whole lines, trailing
// white space aside. Found nowhere, the anchor is wrong; found in several
// places, the location is ambiguous; found once, the lines after it are.
func Explain(b Block, fileText string, err error) string {
	if err == nil {
		return ""
	}
	var e *engine.Error
	if b.Dialect != EditV3 || !errors.As(err, &e) {
		return err.Error()
	}
	var head string
	switch e.Reason {
	case engine.ReasonNotFound, engine.ReasonBelowThreshold:
		head = explainMissing(b, fileText)
	case engine.ReasonAmbiguous:
		lines := make([]int, 0, 2)
		for _, c := range e.Candidates[:min(2, len(e.Candidates))] {
			lines = append(lines, c.StartLine)
		}
		head = ambiguousAt(lines, len(e.Candidates))
	case engine.ReasonSkipped:
		head = v3PreviousFailed
	default:
		return err.Error()
	}
	return head + "\n" + err.Error()
}

// explainMissing says why block b was not found in fileText, from where
// its anchor is.
func explainMissing(b Block, fileText string) string {
	anchor, _, _ := Anchor(b.Old, b.New)
	if strings.TrimSpace(anchor) == "" {
		// Without an anchor (or one of blank lines only) there is only the
		// EDIT section as a whole to speak of.
		return v3ContentNotFound
	}
	at, n := lineMatches(fileText, anchor, 2)
	switch n {
	case 0:
		return v3AnchorNotFound
	case 1:
		return fmt.Sprintf("%s (anchor at line %d)", v3OldMismatch, at[0])
	}
	return ambiguousAt(at, n)
}

// ambiguousAt words an ambiguous location from the first lines of its n
// places.
func ambiguousAt(lines []int, n int) string {
	switch {
	case len(lines) < 2:
		return v3Ambiguous
	case n > 2:
		return fmt.Sprintf("%s (matches at lines %d and %d, and %d more)", v3Ambiguous, lines[0], lines[1], n-2)
	}
	return fmt.Sprintf("%s (matches at lines %d and %d)", v3Ambiguous, lines[0], lines[1])
}

// lineMatches returns the 1-based lines of text where the lines of want
// occur as consecutive whole lines, compared without their trailing white
// space, and how many places there are; at most limit lines are listed.
//
// It is Knuth-Morris-Pratt over line identities, so that the time is linear
// in the sizes of text and want whatever they hold: a naive search would be
// quadratic on a file of repeated lines.
func lineMatches(text, want string, limit int) (at []int, n int) {
	key := func(line string) string { return strings.TrimRightFunc(line, unicode.IsSpace) }
	ids := map[string]int{}
	var pat []int
	for line := range strings.Lines(want) {
		k := key(line)
		id, ok := ids[k]
		if !ok {
			id = len(ids)
			ids[k] = id
		}
		pat = append(pat, id)
	}
	if len(pat) == 0 {
		return nil, 0
	}
	// fail[i] is the length of the longest proper prefix of pat[:i+1] that
	// is also its suffix.
	fail := make([]int, len(pat))
	for i, k := 1, 0; i < len(pat); i++ {
		for k > 0 && pat[i] != pat[k] {
			k = fail[k-1]
		}
		if pat[i] == pat[k] {
			k++
		}
		fail[i] = k
	}
	k, num := 0, 0
	for line := range strings.Lines(strings.TrimPrefix(text, "\ufeff")) {
		num++
		id, ok := ids[key(line)]
		if !ok {
			k = 0
			continue
		}
		for k > 0 && pat[k] != id {
			k = fail[k-1]
		}
		if pat[k] == id {
			k++
		}
		if k == len(pat) {
			n++
			if len(at) < limit {
				at = append(at, num-len(pat)+1)
			}
			k = fail[k-1]
		}
	}
	return at, n
}
