package dialect

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/graft-editor/graft/engine"
)

// The apply-patch dialect of OpenAI's Codex CLI:
//
//	*** Begin Patch
//	*** Add File: docs/new.md
//	+# New
//	*** Delete File: old.txt
//	*** Update File: src/app.py
//	*** Move to: src/main.py
//	@@ def greet():
//	     name = "world"
//	-    print("hello")
//	+    print("hello,", name)
//	*** End of File
//	*** End Patch
//
// An Add File section becomes an engine.OpCreate, a Delete File an
// engine.OpDelete, and each "@@" chunk of an Update File an engine.OpReplace
// whose Old holds the context and removed lines and whose New the context
// and added lines. A "*** Move to:" is an engine.OpMove placed before the
// chunks, which then name the destination: when the move is refused (its
// destination exists), the chunks are skipped and the file stays as it was;
// when a chunk fails after the move, the file stays moved, unless the edits
// are applied atomically.
//
// The scope of "@@ def greet():" lines becomes the edit's Scope (the chunk
// must lie in the block the scope line opens) and "*** End of File" its
// EndOfFile; where the resolver cannot place a scope it refuses the chunk:
// it never takes a wrong place.
// A chunk with only added lines and no context appends to the file, as Codex
// does.
//
// Models do not always write the format as specified, and Codex tolerates
// some of it; so does the parser: markers padded with space, the heredoc of
// `apply_patch <<'EOF'` around the patch, a patch in a markdown fence with
// prose around it, a missing "*** End Patch" (the patch then ends at a
// closing fence, at the heredoc's delimiter, at a line of prose or at the
// end of the text), a first chunk without its "@@" line, blank lines between
// sections and chunks, an empty line inside a chunk (a blank line of
// context), and a unified diff's "@@ -12,7 +12,8 @@" header (its line is
// taken as a hint). A line that fits nowhere in a patch that does end with
// "*** End Patch" is reported as a malformed block, with its line number.

// The markers of the format, as messages name them.
const (
	beginPatchMarker = "*** Begin Patch"
	endPatchMarker   = "*** End Patch"
	endOfFileMarker  = "*** End of File"
	addFileMarker    = "*** Add File:"
	deleteFileMarker = "*** Delete File:"
	updateFileMarker = "*** Update File:"
	moveToMarker     = "*** Move to:"
)

// patchMarker is the role a line plays in the structure of a patch.
type patchMarker int

const (
	noPatchMarker patchMarker = iota
	beginPatch                // *** Begin Patch
	endPatch                  // *** End Patch
	endOfFile                 // *** End of File
	addFile                   // *** Add File: PATH
	deleteFile                // *** Delete File: PATH
	updateFile                // *** Update File: PATH
	moveTo                    // *** Move to: PATH
	otherHeader               // any other "***" line at the start of a line
)

// The headers that take a path, in the order they are looked up.
var pathHeaders = [...]struct {
	marker patchMarker
	prefix string
}{
	{addFile, addFileMarker},
	{deleteFile, deleteFileMarker},
	{updateFile, updateFileMarker},
	{moveTo, moveToMarker},
}

// patchMarkerOf returns the marker line is, and the path it names. Markers
// are recognized with the space around them that Codex tolerates, and in
// any case; an unknown header only at the start of the line, so that a
// context line " *** note" stays context.
func patchMarkerOf(line string) (patchMarker, string) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "***") {
		return noPatchMarker, ""
	}
	switch {
	case strings.EqualFold(t, beginPatchMarker):
		return beginPatch, ""
	case strings.EqualFold(t, endPatchMarker):
		return endPatch, ""
	case strings.EqualFold(t, endOfFileMarker):
		return endOfFile, ""
	}
	for _, h := range pathHeaders {
		if len(t) >= len(h.prefix) && strings.EqualFold(t[:len(h.prefix)], h.prefix) {
			return h.marker, cleanPath(t[len(h.prefix):])
		}
	}
	if strings.HasPrefix(line, "***") {
		return otherHeader, ""
	}
	return noPatchMarker, ""
}

// endsSection reports whether m ends the section before it.
func (m patchMarker) endsSection() bool {
	return m != noPatchMarker && m != endOfFile && m != moveTo
}

// isPatchFence reports whether line is a code fence that may close the fence
// a patch stands in. Only a fence at the start of the line counts: every
// line of a patch's content starts with "+", "-" or " ", so a fence quoted
// in the content is never taken for one.
func isPatchFence(line string) bool {
	return line != "" && (line[0] == '`' || line[0] == '~') && isFence(line)
}

// heredoc matches the start of a shell heredoc, as in "apply_patch <<'EOF'",
// and captures its delimiter.
var heredoc = regexp.MustCompile(`<<-?\s*(?:'([A-Za-z_]\w*)'|"([A-Za-z_]\w*)"|([A-Za-z_]\w*))`)

// heredocDelimiter returns the delimiter of the heredoc that line opens, or
// "" when it opens none.
func heredocDelimiter(line string) string {
	m := heredoc.FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	return m[1] + m[2] + m[3]
}

// unifiedHunk matches the line numbers of a unified diff's hunk header
// after its "@@", as in "@@ -12,7 +12,8 @@ func main() {", and captures the
// first line of the old side.
var unifiedHunk = regexp.MustCompile(`^-(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@`)

// A patchParser reads the patches of one document.
type patchParser struct {
	doc    *document
	blocks []Block
	// to is the index of the line that ends the body of the patch being
	// read; a patch without "*** End Patch" may end earlier, at the first
	// line of prose, and then to is lowered to it.
	to int
	// closed reports whether the patch ends with "*** End Patch"; a
	// stray line in its body is then malformed, not prose after it.
	closed bool
}

// parseApplyPatch reads the patches in doc, each from its
// "*** Begin Patch" line.
func parseApplyPatch(doc *document) []Block {
	p := &patchParser{doc: doc}
	start, found := doc.passedOver(quietApplyPatch)
	for i := start; i < len(doc.lines); i++ {
		if m, _ := patchMarkerOf(doc.lines[i]); m == beginPatch {
			found(i)
			i = p.patch(i)
		}
	}
	return p.blocks
}

// patch reads the patch that begins on lines[begin] and returns the index
// of its last line.
func (p *patchParser) patch(begin int) int {
	delim := ""
	if begin > 0 {
		delim = heredocDelimiter(p.doc.lines[begin-1])
	}
	// The body ends at "*** End Patch", or, when that is missing, at the
	// next patch, a closing fence, the heredoc's delimiter or the end of
	// the text. last is the patch's last line: the closing one consumed.
	end, last := len(p.doc.lines), len(p.doc.lines)-1
	p.closed = false
	ended := false // by a line that ends a patch
	for j := begin + 1; j < len(p.doc.lines); j++ {
		line := p.doc.lines[j]
		m, _ := patchMarkerOf(line)
		if m == endPatch || m == beginPatch || isPatchFence(line) ||
			delim != "" && strings.TrimRight(line, " \t") == delim {
			end, last, ended = j, j, true
			p.closed = m == endPatch
			if m == beginPatch {
				last = j - 1
			}
			break
		}
	}
	p.to = end
	before := len(p.blocks)
	p.body(begin + 1)
	if p.to < end {
		last = p.to - 1 // ended by prose: the prose is not the patch's
	}
	if len(p.blocks) == before {
		p.blocks = append(p.blocks, Block{
			Edit: engine.Edit{Dialect: ApplyPatch, Source: lineSpan(begin, max(begin, last))},
			Err:  fmt.Errorf("line %d: empty patch: no %q, %q or %q section", begin+1, addFileMarker, deleteFileMarker, updateFileMarker),
		})
	}
	for k := before; k < len(p.blocks); k++ {
		p.blocks[k].envelope = begin + 1 // one patch, one block to a reader
		if !ended && p.to >= end && p.blocks[k].Err == nil {
			// Nothing ended the patch, not even prose: the text stops
			// inside it, cut off or still being written.
			p.blocks[k].Err = unfinished(end-1, begin, unexpected("the text ends", "*** End Patch"))
		}
	}
	return last
}

// body reads the sections of a patch from lines[i] up to p.to.
func (p *patchParser) body(i int) {
	for i < p.to {
		line := p.doc.lines[i]
		m, path := patchMarkerOf(line)
		switch {
		case strings.TrimSpace(line) == "":
			i++
		case m == addFile:
			i = p.addFile(i, path)
		case m == deleteFile:
			// The format deletes a file by its name alone.
			p.add(engine.Edit{Op: engine.OpDelete, Path: path}, i, i, pathErr(i, m, path))
			p.blocks[len(p.blocks)-1].Unchecked = true
			i++
		case m == updateFile:
			i = p.updateFile(i, path)
		case m == noPatchMarker && !p.closed:
			// Prose after a patch that never says "*** End Patch".
			p.to = i
		default:
			i = p.stray(i)
		}
	}
}

// add appends the block for e, which stands on lines[first:last+1].
func (p *patchParser) add(e engine.Edit, first, last int, err error) {
	e.Dialect, e.Source = ApplyPatch, lineSpan(first, last)
	p.blocks = append(p.blocks, Block{Edit: e, Err: err})
}

// pathErr says that the header on lines[i] names no file, or returns nil.
func pathErr(i int, m patchMarker, path string) error {
	if path != "" {
		return nil
	}
	return fmt.Errorf("line %d: %q names no file", i+1, headerName(m))
}

// headerName returns the text of the header m.
func headerName(m patchMarker) string {
	for _, h := range pathHeaders {
		if h.marker == m {
			return h.prefix
		}
	}
	return ""
}

// stray reports the lines from lines[i] up to the next marker as a
// malformed block: an unknown header and its content, a marker out of
// place, or lines that belong to no section. It returns the index of the
// first line after them.
func (p *patchParser) stray(i int) int {
	line := p.doc.lines[i]
	var err error
	switch m, _ := patchMarkerOf(line); m {
	case otherHeader:
		err = fmt.Errorf("line %d: unknown header %q: a section starts with %q, %q or %q",
			i+1, strings.TrimSpace(line), addFileMarker, deleteFileMarker, updateFileMarker)
	case moveTo:
		err = fmt.Errorf("line %d: %q out of place: it goes right after %q", i+1, moveToMarker, updateFileMarker)
	case endOfFile:
		err = fmt.Errorf("line %d: %q out of place: it ends a chunk of an %q section", i+1, endOfFileMarker, updateFileMarker)
	default:
		err = fmt.Errorf("line %d: %q belongs to no section: expected %q, %q or %q",
			i+1, line, addFileMarker, deleteFileMarker, updateFileMarker)
	}
	last := i
	for j := i + 1; j < p.to; j++ {
		if m, _ := patchMarkerOf(p.doc.lines[j]); m != noPatchMarker {
			break
		}
		if strings.TrimSpace(p.doc.lines[j]) != "" {
			last = j
		}
	}
	p.add(engine.Edit{}, i, last, err)
	return last + 1
}

// addFile reads the Add File section whose header is lines[i] and returns
// the index of the first line after it. The content is the "+" lines; blank
// lines between them are blank lines of the content (the model forgot their
// "+"), blank lines after them separate the section from the next.
func (p *patchParser) addFile(i int, path string) int {
	var content strings.Builder
	last := i
	for j := i + 1; j < p.to; j++ {
		line := p.doc.lines[j]
		if text, ok := strings.CutPrefix(line, "+"); ok {
			for range j - last - 1 {
				content.WriteString("\n") // blank lines without "+"
			}
			content.WriteString(text)
			content.WriteString("\n")
			last = j
			continue
		}
		if strings.TrimSpace(line) != "" {
			break
		}
	}
	p.add(engine.Edit{Op: engine.OpCreate, Path: path, New: content.String()}, i, last, pathErr(i, addFile, path))
	return last + 1
}

// updateFile reads the Update File section whose header is lines[i], with
// its optional "*** Move to:" and its chunks, and returns the index of the
// first line after it.
func (p *patchParser) updateFile(i int, path string) int {
	head := i // the last line of the header
	j := p.skipBlank(i + 1)
	move := -1
	newPath := ""
	if j < p.to {
		if m, dst := patchMarkerOf(p.doc.lines[j]); m == moveTo {
			move, newPath, head = len(p.blocks), dst, j
			err := pathErr(i, updateFile, path)
			if err == nil {
				err = pathErr(j, moveTo, dst)
			}
			p.add(engine.Edit{Op: engine.OpMove, Path: path, NewPath: dst}, i, j, err)
			j = p.skipBlank(j + 1)
		}
	}
	target := path
	if newPath != "" {
		target = newPath // the move runs first and carries the chunks along
	}
	chunks := 0
	var bad error // the first malformed chunk
	for ; j < p.to && p.startsChunk(j, chunks == 0); j = p.skipBlank(j) {
		first := j
		if chunks == 0 && move < 0 {
			first = i // the first block of the section holds its header
		}
		c, next := p.chunk(j)
		if next == j {
			break // prose after a patch without its end
		}
		e, err := c.edit(target)
		if err == nil {
			err = pathErr(i, updateFile, path)
		}
		p.add(e, first, c.last, err)
		if err != nil && bad == nil {
			bad = err
		}
		chunks++
		j = next
	}
	if chunks == 0 {
		err := fmt.Errorf("line %d: %q has no chunk: a chunk starts with \"@@\" and holds lines starting with ' ', '-' or '+'",
			i+1, updateFileMarker+" "+path)
		if move >= 0 {
			p.blocks[move].Err = err
		} else {
			p.add(engine.Edit{Path: path}, i, head, err)
		}
		return j
	}
	if move >= 0 && bad != nil && p.blocks[move].Err == nil {
		// Moving a file whose changes cannot be read would do half of
		// what the section asks.
		p.blocks[move].Err = fmt.Errorf("not moved: a chunk of the section is malformed: %w", bad)
	}
	return j
}

// skipBlank returns the index of the first line at or after i, up to p.to,
// that is not blank.
func (p *patchParser) skipBlank(i int) int {
	for i < p.to && strings.TrimSpace(p.doc.lines[i]) == "" {
		i++
	}
	return i
}

// startsChunk reports whether lines[i] starts a chunk: an "@@" line, or for
// the first chunk of a section, which Codex lets go without one, a line that
// is not a marker. A malformed first line is reported by the chunk.
func (p *patchParser) startsChunk(i int, first bool) bool {
	line := p.doc.lines[i]
	if strings.HasPrefix(line, "@@") {
		return true
	}
	m, _ := patchMarkerOf(line)
	return first && (m == noPatchMarker || m == endOfFile)
}

// A chunk is one "@@" chunk of an Update File section, as read.
type chunk struct {
	start  int      // the index of its first line
	last   int      // the index of its last line
	scopes []string // the text after "@@" of its "@@" lines, when any
	hint   int      // the line of a unified diff's hunk header, 0 when none
	eof    bool     // "*** End of File" closes it: it ends the file
	old    []string // context and removed lines
	new    []string // context and added lines
	err    error    // set when it is malformed
}

// chunk reads the chunk that starts on lines[i] and returns it with the
// index of the first line after it. When the first chunk of a section,
// which needs no "@@", starts with prose in a patch without its end, chunk
// returns i: the patch ends there.
func (p *patchParser) chunk(i int) (chunk, int) {
	c := chunk{start: i, last: i}
	j := i
	for ; j < p.to && strings.HasPrefix(p.doc.lines[j], "@@"); j++ {
		c.scope(p.doc.lines[j][2:])
		c.last = j
	}
	headed := j > i
	blank := 0 // blank lines since the last line of the chunk
	for ; j < p.to; j++ {
		line := p.doc.lines[j]
		m, _ := patchMarkerOf(line)
		if m == endOfFile {
			c.last, c.eof = j, true
			j++
			break
		}
		if m.endsSection() || strings.HasPrefix(line, "@@") {
			break
		}
		if strings.TrimSpace(line) == "" && !strings.HasPrefix(line, " ") {
			blank++ // blank context, unless no line of the chunk follows
			continue
		}
		kind, text := line[0], line[1:]
		if kind != ' ' && kind != '-' && kind != '+' {
			if !p.closed {
				p.to = j // prose after a patch without its end
				break
			}
			c.err = fmt.Errorf("line %d: %q starts with none of ' ' (context), '-' (removed) or '+' (added)", j+1, line)
			c.last = j
			return c, p.skipChunk(j + 1)
		}
		for range blank {
			c.old, c.new = append(c.old, ""), append(c.new, "")
		}
		blank = 0
		switch kind {
		case ' ':
			c.old, c.new = append(c.old, text), append(c.new, text)
		case '-':
			c.old = append(c.old, text)
		case '+':
			c.new = append(c.new, text)
		}
		c.last = j
	}
	if len(c.old) == 0 && len(c.new) == 0 {
		if !headed && c.last == i && j == i {
			return c, i
		}
		c.err = fmt.Errorf("line %d: the chunk has no lines", c.start+1)
	}
	return c, max(j, c.last+1)
}

// scope records the text after the "@@ " of one of the chunk's "@@" lines.
// The indentation after the space that follows "@@" is kept, as Codex keeps
// it: the resolver pairs the scope with its line by how both are indented.
func (c *chunk) scope(s string) {
	s = strings.TrimRight(strings.TrimPrefix(s, " "), " \t")
	if m := unifiedHunk.FindStringSubmatch(s); m != nil {
		// A unified diff's header: its line numbers are a hint, and the
		// function name git writes after them is a decoration.
		c.hint, _ = strconv.Atoi(m[1])
		return
	}
	if strings.TrimSpace(s) != "" {
		c.scopes = append(c.scopes, s)
	}
}

// skipChunk returns the index of the line that ends the malformed chunk
// in which lines[i-1] stands: the next "@@" line or marker.
func (p *patchParser) skipChunk(i int) int {
	for ; i < p.to; i++ {
		line := p.doc.lines[i]
		if m, _ := patchMarkerOf(line); m.endsSection() || strings.HasPrefix(line, "@@") {
			break
		}
	}
	return i
}

// edit returns the edit the chunk asks of the file at path.
func (c *chunk) edit(path string) (engine.Edit, error) {
	e := engine.Edit{Path: path, Line: c.hint}
	switch {
	case c.err != nil:
		return e, c.err
	case slices.Equal(c.old, c.new):
		return e, fmt.Errorf("line %d: the chunk changes nothing: its lines are the same before and after", c.start+1)
	case len(c.old) == 0 && len(c.scopes) > 0:
		// Codex appends such a chunk to the end of the file, whatever its
		// scope says; the model more likely meant somewhere in the scope,
		// and where is a guess.
		return e, fmt.Errorf("line %d: the chunk only adds lines, under %q: quote a line of context to place them", c.start+1, c.scopes[len(c.scopes)-1])
	case len(c.old) == 0:
		e.Op, e.Line, e.New = engine.OpInsert, engine.AtEnd, joinLines(c.new)
		return e, nil
	}
	scopes := c.scopes
	if n := len(scopes); n > 0 && strings.TrimSpace(c.old[0]) == strings.TrimSpace(scopes[n-1]) {
		scopes = scopes[:n-1] // the scope is the chunk's first line already
	}
	e.Old, e.New = joinLines(c.old), joinLines(c.new)
	e.Scope, e.EndOfFile = scopes, c.eof
	return e, nil
}
