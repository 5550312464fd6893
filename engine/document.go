package engine

import (
	"fmt"
	"sort"
	"strings"

	"github.com/graft-editor/graft/engine/internal/textscan"
)

const bom = "\ufeff"

// A Document is a text prepared for resolving edits against it: split
// into lines once, its lines indexed the first time a search needs them.
// Resolving several edits against one Document, or against the Documents
// that [Document.Apply] returns, does that work once rather than once per
// edit: the per-line work a change leaves alone is carried over.
//
// A Document's text never changes. It fills in what it computes as it is
// used, so it must not be used by several goroutines at once.
type Document struct {
	d  *document
	ix *index // nil until a search needs it
	// resolves counts the edits resolved: from the second on, the index
	// lists where each line is, so that finding a search's lines costs
	// the search's size rather than the file's.
	resolves int
	// exhaustive has a fuzzy search align what is left of every window,
	// even where no region found there could matter (see restMatters):
	// the tests resolve both ways and expect the same.
	exhaustive bool
	// anchorAll has every alignment made between anchors, as those of a
	// search too long for one table are (see anchoredAlign): the tests
	// resolve both ways and expect no wrong edit.
	anchorAll bool
	// searches counts the searches of the whole text made along this
	// Document's line of descent (see gramsAfter).
	searches int
	// base is the document of the text the first of the edits applied to
	// reach this one was resolved against (nil: this one's); its
	// document's moved records how those edits moved its lines. What
	// changed since an earlier version is judged against base: the
	// changes of the same answer's earlier blocks are not history.
	base *document
}

// NewDocument prepares text for resolving edits against it.
func NewDocument(text string) *Document {
	return &Document{d: newDocument(text)}
}

// origin returns the document of the text the edits applied to reach
// doc started from.
func (doc *Document) origin() *document {
	if doc.base != nil {
		return doc.base
	}
	return doc.d
}

// Text returns the document's text.
func (doc *Document) Text() string { return doc.d.text }

// Shown returns the lines start..end of the document's text, 1-based, as
// the person sees them: lines of the text before the edits applied to
// reach this Document (see [Document.Apply]). A line an earlier edit
// wrote is shown as the lines that edit replaced.
func (doc *Document) Shown(start, end int) (int, int) { return doc.d.shownSpan(start, end) }

// Apply returns the Document of the text with m's changes made; m must
// have been resolved against doc's text. The lines outside the changed
// ones keep what doc computed for them.
func (doc *Document) Apply(m *Match) *Document {
	if len(m.Changes) == 0 {
		return doc
	}
	lo, hi := m.Changes[0].Start, m.Changes[0].End
	for _, c := range m.Changes[1:] {
		lo, hi = min(lo, c.Start), max(hi, c.End)
	}
	nd, a, b, k := doc.d.edited(m.Apply(doc.d.text), lo, hi)
	next := &Document{d: nd, base: doc.origin(), searches: doc.searches}
	nd.moved = doc.d.moved.with(lineShift{start: m.StartLine, end: m.EndLine, delta: m.newlinesAdded(doc.d.text)})
	if doc.ix != nil {
		next.ix = doc.ix.edited(nd, a, b, k)
	}
	return next
}

// Rebased returns a Document of doc's text that counts its lines as they
// are now, as the Document NewDocument would prepare of the text does:
// the edits applied to reach doc are behind it, neither shown as where
// lines were nor judged apart from history. It keeps what doc computed
// of the lines, which the two share: use one of them at a time.
func (doc *Document) Rebased() *Document {
	d := *doc.d
	d.moved = nil
	next := &Document{d: &d, resolves: doc.resolves, searches: doc.searches, exhaustive: doc.exhaustive, anchorAll: doc.anchorAll}
	if doc.ix != nil {
		ix := *doc.ix
		ix.d = &d
		next.ix = &ix
	}
	return next
}

func (doc *Document) index() *index {
	if doc.ix == nil {
		doc.ix = newIndex(doc.d)
	}
	doc.ix.anchorAll = doc.anchorAll
	return doc.ix
}

// A document is a text split into lines, remembering everything a rewrite
// must keep: the byte order mark, each line's ending and the final newline.
type document struct {
	text  string
	body  int   // offset of the first byte after the BOM
	start []int // start offset of each line
	end   []int // end offset of each line's content, before "\r\n" or "\n"
	crlfs int   // how many line endings are "\r\n"
	crlf  bool  // most line endings are "\r\n"
	mixed bool  // some line endings are "\r\n" and some "\n"

	lf      string // the text without BOM, every "\r\n" turned into "\n"
	lfStart []int  // start of each line in lf; nil when lf is the body itself

	// moved records how the edits applied to reach this text from the
	// one a person sees (the file before an answer) moved its lines; nil
	// for that text itself.
	moved lineMap

	// grams holds the pair set of each line (see occurrencesByLine); nil
	// until searches need it.
	grams []uint64
}

// shown returns the 1-based line of the text the person sees for line,
// a 1-based line of d: every line number a message gives counts the lines
// of the file as the person sees it, before the answer's earlier blocks
// moved them. A line an earlier block wrote is shown as the first line
// of what that block replaced.
func (d *document) shown(line int) int {
	if len(d.moved) == 0 {
		return line
	}
	a, _ := d.moved.back(line, line)
	return a
}

// linesWord names the lines a-b of d, 1-based, as the person sees them:
// "lines 12-15".
func (d *document) linesWord(a, b int) string {
	a, b = d.shownSpan(a, b)
	return fmt.Sprintf("lines %d-%d", a, b)
}

// shownSpan is shown for the lines a-b, 1-based, both included.
func (d *document) shownSpan(a, b int) (int, int) {
	if len(d.moved) == 0 {
		return a, b
	}
	return d.moved.back(a, b)
}

func newDocument(text string) *document { return splitDocument(text, nil, nil) }

// splitDocument returns the document of text, its line offsets appended
// to start and end, which are empty.
func splitDocument(text string, start, end []int) *document {
	d := &document{text: text}
	if strings.HasPrefix(text, bom) {
		d.body = len(bom)
	}
	d.start, d.end, d.crlfs = textscan.Lines(text, d.body, len(text), start, end)
	d.countEndings()
	if d.crlfs == 0 {
		d.lf = text[d.body:]
		return d
	}
	d.buildLF()
	return d
}

// buildLF sets lf and lfStart, the LF form of a text with "\r\n" endings,
// from every line.
func (d *document) buildLF() {
	var lf strings.Builder
	lf.Grow(len(d.text) - d.body)
	d.lfStart = make([]int, 0, len(d.start))
	d.writeLF(&lf, 0, len(d.start))
	d.lf = lf.String()
}

// countEndings sets crlf and mixed from crlfs, the count of lines that end
// in "\r\n".
func (d *document) countEndings() {
	d.crlf = d.crlfs > 0 && 2*d.crlfs >= len(d.start)
	feeds := len(d.start) // every line ends in "\n" or "\r\n" but the last
	if feeds > 0 && !d.endsWithNewline() {
		feeds--
	}
	d.mixed = d.crlfs > 0 && d.crlfs < feeds
}

// writeLF writes lines [a, b) to lf as d.lf holds them, each ended by
// "\n" if it has an ending, and appends to d.lfStart where each starts,
// lf holding d.lf up to line a.
func (d *document) writeLF(lf *strings.Builder, a, b int) {
	for i := a; i < b; i++ {
		d.lfStart = append(d.lfStart, lf.Len())
		lf.WriteString(d.line(i))
		if d.hasEOL(i) {
			lf.WriteByte('\n')
		}
	}
}

// endsCRLF reports whether line i ends in "\r\n".
func (d *document) endsCRLF(i int) bool {
	return d.end[i] < len(d.text) && d.text[d.end[i]] == '\r'
}

// edited returns the document of text, which is d's text with the bytes
// [lo, hi) replaced, and how the lines of the two correspond: d's lines
// [a, b) became lines [a, a+k) of the result; the lines before them are
// the same lines, and so are the lines after them, shifted by k-(b-a).
// Only the changed lines are split again, and, in a text with "\r\n"
// endings, written again to its LF form, unless the change touches the
// byte order mark, or writes one: then every line is (a=0, b and k the
// line counts).
func (d *document) edited(text string, lo, hi int) (nd *document, a, b, k int) {
	delta := len(text) - len(d.text)
	bomChanged := lo < len(bom) && (d.body > 0 || strings.HasPrefix(text, bom))
	if len(d.start) == 0 || bomChanged || lo > hi || hi > len(d.text) {
		nd := newDocument(text)
		return nd, 0, d.lineCount(), nd.lineCount()
	}
	a, b = d.lineAt(lo), d.lineAt(hi)+1
	from, to := d.start[a], d.offsetOfLine(b)+delta
	nd = &document{text: text, body: d.body}
	n := len(d.start) - (b - a) + strings.Count(text[from:to], "\n") + 1
	nd.start = append(make([]int, 0, n), d.start[:a]...)
	nd.end = append(make([]int, 0, n), d.end[:a]...)
	var crlfs int
	nd.start, nd.end, crlfs = textscan.Lines(text, from, to, nd.start, nd.end)
	k = len(nd.start) - a
	for j := b; j < len(d.start); j++ {
		nd.start = append(nd.start, d.start[j]+delta)
		nd.end = append(nd.end, d.end[j]+delta)
	}
	nd.crlfs = d.crlfs + crlfs
	for i := a; i < b; i++ {
		if d.endsCRLF(i) {
			nd.crlfs--
		}
	}
	nd.countEndings()
	if d.grams != nil {
		nd.grams = make([]uint64, len(nd.start))
		copy(nd.grams, d.grams[:a])
		copy(nd.grams[a+k:], d.grams[b:])
		for i := a; i < a+k; i++ {
			nd.grams[i] = pairSet(nd.line(i))
		}
	}
	switch {
	case nd.crlfs == 0:
		nd.lf = text[nd.body:]
	case d.lfStart == nil:
		nd.buildLF() // the change brought the first "\r\n"
	default:
		// d's LF form around the changed lines, which are written again.
		lfA, lfB := d.lfOffset(a), d.lfOffset(b)
		var lf strings.Builder
		lf.Grow(len(d.lf) + to - from)
		lf.WriteString(d.lf[:lfA])
		nd.lfStart = append(make([]int, 0, len(nd.start)), d.lfStart[:a]...)
		nd.writeLF(&lf, a, a+k)
		shift := lf.Len() - lfB
		lf.WriteString(d.lf[lfB:])
		for j := b; j < len(d.start); j++ {
			nd.lfStart = append(nd.lfStart, d.lfStart[j]+shift)
		}
		nd.lf = lf.String()
	}
	return nd, a, b, k
}

func (d *document) lineCount() int { return len(d.start) }

// line returns the content of line i (0-based) without its line ending.
func (d *document) line(i int) string { return d.text[d.start[i]:d.end[i]] }

// lineEnding returns the line ending of line i: "\r\n", "\n", or "" for a
// last line without one.
func (d *document) lineEnding(i int) string { return d.text[d.end[i]:d.offsetOfLine(i+1)] }

// endingBefore returns the line ending the text has just before offset
// off, "" where none ends there (the start of the text, or the middle of
// a line).
func (d *document) endingBefore(off int) string {
	switch {
	case off <= d.body || d.text[off-1] != '\n':
		return ""
	case off-2 >= d.body && d.text[off-2] == '\r':
		return "\r\n"
	}
	return "\n"
}

func (d *document) hasEOL(i int) bool { return i+1 < len(d.start) || d.endsWithNewline() }

func (d *document) endsWithNewline() bool { return strings.HasSuffix(d.text, "\n") }

// offsetOfLine is the byte offset where line i starts; for i equal to the
// line count it is the length of the text.
func (d *document) offsetOfLine(i int) int {
	if i >= len(d.start) {
		return len(d.text)
	}
	if i < 0 {
		return d.body
	}
	return d.start[i]
}

// eol is the line ending new lines get.
func (d *document) eol() string {
	if d.crlf {
		return "\r\n"
	}
	return "\n"
}

// withEOL converts text with "\n" line endings to the document's.
func (d *document) withEOL(s string) string {
	if !d.crlf {
		return s
	}
	return strings.ReplaceAll(s, "\n", "\r\n")
}

// lineAt returns the 0-based line that holds byte offset off of the text.
func (d *document) lineAt(off int) int {
	i := sort.Search(len(d.start), func(i int) bool { return d.start[i] > off }) - 1
	if i < 0 {
		return 0
	}
	return i
}

// fromLF maps an offset in d.lf to the corresponding offset in d.text.
func (d *document) fromLF(off int) int {
	if d.lfStart == nil {
		return d.body + off
	}
	i := sort.Search(len(d.lfStart), func(i int) bool { return d.lfStart[i] > off }) - 1
	if i < 0 {
		return d.body
	}
	col := off - d.lfStart[i]
	if n := d.end[i] - d.start[i]; col > n {
		// Past the content: the "\n" that stands for "\r\n", or beyond.
		return d.offsetOfLine(i + 1)
	}
	return d.start[i] + col
}

// toLF turns "\r\n" line endings into "\n".
func toLF(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// wholeLines reports whether the bytes [start, end) cover whole lines but
// for white space at their ends, and returns those lines, 0-based.
func (d *document) wholeLines(start, end int) (a, b int, ok bool) {
	a, b = d.lineAt(start), d.lineAt(max(start, end-1))
	before := d.text[d.start[a]:start]
	after := ""
	if end < d.end[b] {
		after = d.text[end:d.end[b]]
	}
	return a, b, strings.TrimSpace(before) == "" && strings.TrimSpace(after) == ""
}

// lfOffset is the offset in d.lf where line i starts (the length of d.lf
// for i at or past the line count).
func (d *document) lfOffset(i int) int {
	switch {
	case i >= len(d.start):
		return len(d.lf)
	case d.lfStart == nil:
		return d.start[i] - d.body
	}
	return d.lfStart[i]
}
