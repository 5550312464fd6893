package dialect

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/graft-editor/graft/engine"
)

// The search-replace dialect of aider, Cline, Roo Code and avante.nvim:
//
//	path/to/file.go
//	<<<<<<< SEARCH
//	:start_line:12
//	-------
//	old lines
//	=======
//	new lines
//	>>>>>>> REPLACE
//
// Cline's newer markers "------- SEARCH" and "+++++++ REPLACE" open and close
// blocks too. The parser is a state machine over lines, like seed 003's
// validator, but it reports a marker out of order as one malformed block and
// resumes at the next SEARCH marker instead of rejecting the whole answer.

// A marker is the role of a line in the block structure.
type marker int

const (
	notMarker     marker = iota // the zero value, unmarked for markLines
	searchMarker                // <<<<<<< SEARCH or ------- SEARCH
	dividerMarker               // =======
	replaceMarker               // >>>>>>> REPLACE or +++++++ REPLACE
	// longDivider is a bare run of ten or more "=": a divider only where
	// block structure says so (see srParser.longDivider), a markdown rule
	// or a heading's underline elsewhere.
	longDivider
)

// The markers as messages name them.
const (
	searchWord  = "<<<<<<< SEARCH"
	dividerWord = "======="
	replaceWord = ">>>>>>> REPLACE"
	clineClose  = "+++++++ REPLACE"
)

// maxDivider is the longest run of "=" that is a divider wherever it stands;
// a longer one is a longDivider.
const maxDivider = 9

// markerOf returns the marker a line is: a run of at least 5 of one marker
// character followed by SEARCH or REPLACE (the word is required, so that a
// git conflict marker such as "<<<<<<< HEAD" opens no block, and makes a run
// of any length a marker, as Cline reads them), or a bare run of "=" for the
// divider: 5 to 9 of them, or a longDivider when longer. Space around the
// marker is tolerated, and so is the ">" after the word that aider and Cline
// accept.
func markerOf(line string) marker {
	s := strings.TrimSpace(line)
	if s == "" {
		return notMarker
	}
	c := s[0]
	n := 1
	for n < len(s) && s[n] == c {
		n++
	}
	if n < 5 {
		return notMarker
	}
	word := strings.TrimSuffix(strings.TrimSpace(s[n:]), ">")
	switch {
	case c == '=' && n == len(s) && n > maxDivider:
		return longDivider
	case c == '=' && n == len(s):
		return dividerMarker
	case (c == '<' || c == '-') && word == "SEARCH":
		return searchMarker
	case (c == '>' || c == '+') && word == "REPLACE":
		return replaceMarker
	}
	return notMarker
}

// srState is where the parser stands in the block structure.
type srState int

const (
	outside   srState = iota
	inSearch          // after the SEARCH marker
	inReplace         // after the divider
	skipping          // in a malformed block, up to its REPLACE marker or the next SEARCH marker
)

// headerStage is how much of Roo Code's optional header after the SEARCH
// marker (":start_line:N", ":end_line:M", "-------", in that order) is behind.
type headerStage int

const (
	wantStartLine headerStage = iota
	wantEndLine
	wantSeparator
	inContent
)

// An srParser reads the search-replace blocks of one document, line by line.
type srParser struct {
	doc *document
	// marks[i] is the marker lines[i] is; next[i] is the index of the first
	// marker line at or after i, len(lines) when there is none, and firm[i]
	// the same but for a longDivider, which block structure may make prose.
	marks  []marker
	next   []int
	firm   []int
	blocks []Block

	state   srState
	cur     Block  // the block being read
	open    int    // the index of its SEARCH marker line
	closing string // the REPLACE marker expected, in the style of its SEARCH marker
	header  headerStage
	old     []string
	new     []string

	srContext
	// horizon is the index of the last line read so far, the lines a
	// look-ahead passed over included; len(lines) when one reached the
	// end of the text.
	horizon int
}

// An srContext is what the parser carries from one block to the next.
type srContext struct {
	fence    fence
	xml      xmlContext
	lastEnd  int    // the index of the last line of the previous block, -1 before the first
	lastPath string // the path of the previous block, for a block that names none
}

// clone returns c with its strings copied, for a memo to keep (see
// Block.Clone).
func (c srContext) clone() srContext {
	c.fence, c.xml.path, c.lastPath = c.fence.clone(), strings.Clone(c.xml.path), strings.Clone(c.lastPath)
	return c
}

// parseSearchReplace reads the SEARCH/REPLACE blocks in doc. When doc
// follows an earlier parse of the same answer (see Parser), it goes on
// from the last point between blocks that the changed lines left as it
// was, and keeps the blocks read before it.
func parseSearchReplace(doc *document) []Block {
	n := len(doc.lines)
	p := &srParser{doc: doc, srContext: srContext{lastEnd: -1, xml: xmlContext{first: -1}}, horizon: -1}
	var known *srMemo
	if doc.prev != nil && doc.prev.sr != nil {
		known = doc.prev.sr
	} else {
		known = &srMemo{}
	}
	p.marks, p.next = markLines(doc, markerOf, known.marks, known.next)
	p.firm = nextWhere(known.firm, doc.kept(len(known.marks)), n, func(i int) bool { return p.marks[i] != notMarker && p.marks[i] != longDivider })
	start, kept := 0, 0 // the line the parse goes on from; the blocks it keeps
	var memo *srMemo    // what this parse leaves for the next, when there is one
	if doc.prev != nil {
		memo = &srMemo{blind: doc.exists == nil}
		doc.prev.resumedAt = 0
		if pt, prev, ok := doc.resumeSearchReplace(); ok {
			start, kept, doc.prev.resumedAt = pt.line, pt.blocks, pt.line
			p.srContext, p.horizon = pt.srContext, pt.horizon
			// The last parse's memo is done with: what this one keeps
			// of it is taken over, not copied. No block before a point
			// changes after it (see srMemo.point).
			p.blocks = prev.blocks[:pt.blocks]
			memo.points = prev.points[:slices.Index(prev.points, pt)+1]
			memo.asked = prev.asked[:pt.asked]
		}
		defer doc.recordExists(&memo.asked)()
		defer func() {
			// The blocks read anew keep none of this text, which the
			// next is read without (see Block.Clone).
			for i := kept; i < len(p.blocks); i++ {
				p.blocks[i] = p.blocks[i].Clone()
			}
			memo.blocks, memo.marks, memo.next, memo.firm = p.blocks, p.marks, p.next, p.firm
			doc.prev.sr = memo
		}()
	}
	for i := start; i < n; i++ {
		if memo != nil && p.state == outside {
			memo.point(p, i)
		}
		i = p.step(i)
	}
	switch p.state {
	case inSearch:
		p.end(n-1, unexpected("the text ends", dividerWord))
	case inReplace:
		p.end(n-1, unexpected("the text ends", p.closing))
	case skipping:
		p.close(n - 1)
	}
	return p.blocks
}

// step reads lines[i] and returns the index of the last line it consumed.
func (p *srParser) step(i int) int {
	line := p.doc.lines[i]
	switch p.state {
	case outside:
		return p.outside(i)
	case inSearch:
		switch p.marks[i] {
		case searchMarker:
			p.reject(i, unexpected(p.found(i), dividerWord))
			p.close(i - 1)
			p.start(i)
		case dividerMarker:
			p.state = inReplace
		case replaceMarker:
			p.reject(i, unexpected(p.found(i), dividerWord))
			p.close(i)
		case longDivider:
			p.longDivider(i, line)
		default:
			p.searchLine(i, line)
		}
	case inReplace:
		switch p.marks[i] {
		case searchMarker:
			p.reject(i, unexpected(p.found(i), p.closing))
			p.close(i - 1)
			p.start(i)
		case dividerMarker:
			p.reject(i, unexpected(p.found(i), p.closing))
		case replaceMarker:
			p.close(i)
		default:
			p.replaceLine(i, line)
		}
	case skipping:
		switch p.marks[i] {
		case searchMarker:
			p.close(i - 1)
			p.start(i)
		case replaceMarker:
			p.close(i)
		}
	}
	return i
}

// outside reads lines[i] between blocks and returns the index of the last
// line it consumed. A divider there is taken for a marker, and reported, only
// when block structure surrounds it: a REPLACE marker follows it before any
// other marker (the SEARCH marker was forgotten) or directly precedes it.
// Otherwise it is a markdown rule or heading underline.
func (p *srParser) outside(i int) int {
	line := p.doc.lines[i]
	switch p.marks[i] {
	case searchMarker:
		p.start(i)
	case dividerMarker:
		if j := p.look(p.firm[i+1]); j < len(p.marks) && p.marks[j] == replaceMarker {
			// The SEARCH marker was forgotten, not the path before it.
			p.stray(i, j, p.pathBefore(i), unexpected(p.found(i), searchWord))
			return j
		}
		if i > 0 && p.marks[i-1] == replaceMarker {
			p.stray(i, i, "", unexpected(p.found(i), searchWord))
		}
	case replaceMarker:
		p.stray(i, i, "", unexpected(p.found(i), searchWord))
	default:
		if !p.fence.see(i, line) {
			p.seeTags(line)
		}
	}
	return i
}

// longDivider reads lines[i], a run of ten or more "=" in the SEARCH section.
// It divides the block when it is the only divider before the REPLACE marker
// that closes the block, as in Cline's "------------- SEARCH" blocks written
// with long markers. When a divider of usual length follows it, it is
// content, a heading underline in a markdown file, as it is in the REPLACE
// section. Two long runs and no other divider leave the block unreadable.
func (p *srParser) longDivider(i int, line string) {
	j := p.look(p.firm[i+1])
	switch {
	case j == len(p.marks) || p.marks[j] != replaceMarker:
		p.searchLine(i, line)
	case p.next[i+1] < j:
		p.reject(p.next[i+1], fmt.Sprintf("found %q and %q before %q: which one divides the block is unclear; divide it with %q and escape an underline with a backslash",
			strings.TrimSpace(line), strings.TrimSpace(p.doc.lines[p.next[i+1]]), strings.TrimSpace(p.doc.lines[j]), dividerWord))
	default:
		p.state = inReplace
	}
}

// look records that the parser read up to lines[j] (the end of the text
// when j is len(lines)) and returns j.
func (p *srParser) look(j int) int {
	p.horizon = max(p.horizon, j)
	return j
}

// found says which marker lines[i] is, for messages.
func (p *srParser) found(i int) string {
	if p.marks[i] == notMarker {
		return ""
	}
	return fmt.Sprintf("found %q", strings.TrimSpace(p.doc.lines[i]))
}

// unexpected says that what was found where want was expected.
func unexpected(found, want string) string {
	return fmt.Sprintf("%s where %q was expected", found, want)
}

// start opens a block at the SEARCH marker lines[i].
func (p *srParser) start(i int) {
	p.state = inSearch
	p.open = i
	p.header = wantStartLine
	p.old, p.new = p.old[:0], p.new[:0]
	p.closing = replaceWord
	if strings.TrimSpace(p.doc.lines[i])[0] == '-' {
		p.closing = clineClose
	}
	path := p.xml.path
	if path == "" {
		path = p.pathBefore(i)
	}
	if path == "" {
		path = p.lastPath
	}
	p.lastPath = path
	p.cur = Block{Edit: engine.Edit{Path: path, Dialect: SearchReplace}}
	if p.xml.first < 0 {
		p.xml.first = len(p.blocks)
		if p.xml.hint > 0 {
			p.cur.Line = p.xml.hint
			p.xml.hinted = true
		}
	}
}

// reject marks the block being read as malformed by a problem on lines[at];
// the rest of the block is skipped.
func (p *srParser) reject(at int, problem string) {
	if p.cur.Err == nil {
		p.cur.Err = fmt.Errorf("line %d: %s (block starting at line %d)", at+1, problem, p.open+1)
	}
	p.state = skipping
}

// end ends the block the text ends in, unfinished: problem says what was
// expected at lines[at], the last line.
func (p *srParser) end(at int, problem string) {
	if p.cur.Err == nil {
		p.cur.Err = unfinished(at, p.open, problem)
	}
	p.state = skipping
	p.close(at)
}

// close ends the block being read at lines[end].
func (p *srParser) close(end int) {
	b := p.cur
	b.Source = lineSpan(p.open, end)
	if b.Err == nil {
		b.Old, b.New = joinLines(p.old), joinLines(p.new)
		if strings.TrimSpace(b.Old) == "" {
			// aider's convention: nothing to search for creates the file.
			b.Op, b.Old = engine.OpCreate, ""
		}
	}
	p.blocks = append(p.blocks, b)
	p.lastEnd = end
	p.state = outside
}

// stray reports markers found outside any block, on lines[first:last+1],
// as a malformed block for path.
func (p *srParser) stray(first, last int, path, problem string) {
	p.blocks = append(p.blocks, Block{
		Edit: engine.Edit{Path: path, Dialect: SearchReplace, Source: lineSpan(first, last)},
		Err:  fmt.Errorf("line %d: %s", first+1, problem),
	})
	p.lastEnd = last
}

// searchLine reads lines[i], in the SEARCH section.
func (p *srParser) searchLine(i int, line string) {
	if p.header < inContent && p.readHeader(i, line) {
		return
	}
	p.header = inContent
	if lineMarker(line) {
		p.reject(i, fmt.Sprintf("found %q out of place; a line number goes right after %q, and content starting so is escaped with a backslash",
			strings.TrimSpace(line), searchWord))
		return
	}
	p.old = append(p.old, unescape(line))
}

// readHeader reads lines[i] as part of the header after the SEARCH marker,
// and reports whether it was one. A header line is recognized with
// surrounding space when its number is good; at the start of a line a bad
// number is an error (content starting so must be escaped).
func (p *srParser) readHeader(i int, line string) bool {
	t := strings.TrimSpace(line)
	for _, h := range [...]struct {
		stage headerStage
		key   string
	}{{wantStartLine, ":start_line:"}, {wantEndLine, ":end_line:"}} {
		v, ok := strings.CutPrefix(t, h.key)
		if p.header > h.stage || !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		switch {
		case err == nil && n > 0:
			if h.stage == wantStartLine {
				p.cur.Line = n
			}
			p.header = h.stage + 1
			return true
		case strings.HasPrefix(line, h.key):
			p.reject(i, fmt.Sprintf("%q needs a line number, found %q", h.key, t))
			return true
		}
	}
	if p.header <= wantSeparator && isSeparator(t) {
		p.header = inContent
		return true
	}
	return false
}

// replaceLine reads lines[i], in the REPLACE section.
func (p *srParser) replaceLine(i int, line string) {
	if lineMarker(line) {
		p.reject(i, fmt.Sprintf("found %q in the REPLACE section; a line number goes right after %q, and content starting so is escaped with a backslash",
			strings.TrimSpace(line), searchWord))
		return
	}
	p.new = append(p.new, unescape(line))
}

// lineMarkers are Roo Code's line number markers.
var lineMarkers = [...]string{":start_line:", ":end_line:"}

// lineMarker reports whether line is Roo Code's line number marker out of its
// place: any line that starts with one, or an indented one followed by a
// line number or nothing (an indented marker is never content a file holds,
// and writing it into the file would be wrong; content that does hold it
// escapes it with a backslash).
func lineMarker(line string) bool {
	t := trimIndent(line)
	for _, key := range lineMarkers {
		v, ok := strings.CutPrefix(t, key)
		if ok && (t == line || isLineNumber(strings.TrimSpace(v))) {
			return true
		}
	}
	return false
}

// isLineNumber reports whether s is a run of digits, or empty.
func isLineNumber(s string) bool {
	return strings.Trim(s, "0123456789") == ""
}

// isSeparator reports whether t is the "-------" line that ends the header.
func isSeparator(t string) bool {
	return len(t) >= 5 && len(t) <= 9 && strings.Trim(t, "-") == ""
}

// unescape removes the backslash that escapes a marker at the start of a
// content line: "\=======", "\<<<<<<< HEAD", "\:start_line:" and the like,
// and an indented "\:start_line:".
func unescape(line string) string {
	t := trimIndent(line)
	indent := line[:len(line)-len(t)]
	rest, ok := strings.CutPrefix(t, `\`)
	if !ok {
		return line
	}
	for _, key := range lineMarkers {
		if strings.HasPrefix(rest, key) {
			return indent + rest
		}
	}
	if indent != "" {
		return line
	}
	if rest != "" && strings.IndexByte("<=>-+", rest[0]) >= 0 &&
		strings.HasPrefix(rest, strings.Repeat(rest[:1], 5)) {
		return rest
	}
	return line
}

// joinLines joins whole lines, each ending in "\n".
func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// pathBefore returns the path named before the SEARCH marker lines[i], as
// document.pathBefore finds it; it does not look past a marker or a line of
// markup either.
func (p *srParser) pathBefore(i int) string {
	return p.doc.pathBefore(i, p.lastEnd, p.fence, func(j int) bool {
		t := strings.TrimSpace(p.doc.lines[j])
		return p.marks[j] != notMarker && p.marks[j] != longDivider || strings.HasPrefix(t, "<") && strings.HasSuffix(t, ">")
	})
}

// An xmlContext follows the XML tool-call wrappers of Cline and Roo Code
// between blocks: the file a <replace_in_file>, <apply_diff> or <file>
// element names in its <path>, and the <start_line> hint Roo Code writes
// before or after the blocks of a <diff>, which goes to the first of them.
type xmlContext struct {
	element bool // inside one of those elements
	path    string
	hint    int  // a <start_line> seen before the first block of the scope
	first   int  // the index of the first block of the scope, -1 before it
	hinted  bool // whether that block has had its hint
}

// seeTags follows the XML tags on a line between blocks.
func (p *srParser) seeTags(line string) {
	for rest := line; ; {
		lt := strings.IndexByte(rest, '<')
		if lt < 0 {
			return
		}
		rest = rest[lt+1:]
		gt := strings.IndexByte(rest, '>')
		if gt < 0 {
			return
		}
		name, body := rest[:gt], rest[gt+1:]
		rest = body
		if k := strings.IndexByte(body, '<'); k >= 0 {
			body = body[:k]
		}
		switch name {
		case "replace_in_file", "apply_diff", "file":
			p.xml = xmlContext{element: true, first: -1}
		case "/replace_in_file", "/apply_diff", "/file":
			p.xml = xmlContext{first: -1}
		case "diff":
			p.xml.hint, p.xml.first, p.xml.hinted = 0, -1, false
		case "path":
			if p.xml.element {
				p.xml.path = cleanPath(body)
			}
		case "start_line":
			if n, err := strconv.Atoi(strings.TrimSpace(body)); err == nil && n > 0 && p.xml.element {
				p.hintLine(n)
			}
		}
	}
}

// hintLine gives the line hint of a <start_line> tag to the first block of
// its scope, or keeps it for that block when none has been read yet.
func (p *srParser) hintLine(n int) {
	switch {
	case p.xml.hinted:
	case p.xml.first < 0:
		p.xml.hint = n
	default:
		if b := &p.blocks[p.xml.first]; b.Line == 0 && b.Err == nil && b.Op == engine.OpReplace {
			b.Line = n
		}
		p.xml.hinted = true
	}
}
