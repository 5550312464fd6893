package dialect

import (
	"math"
	"strings"
)

// A Parser parses one answer again each time it changes, as the buffer an
// agent's answer streams into, line by line: what the last parse read of
// the lines that have not changed is not read again where a dialect can
// tell that it would be read the same. Parser.Parse returns what Parse
// returns for the same text and options.
//
// The search-replace dialect, the one most answers are written in, goes
// on from the last point between its blocks that stands before the first
// changed line, provided nothing it read before that point (a look-ahead
// to the next marker included) has changed, and that the files it asked
// Options.Exists about still exist or not as they did. The unified-diff
// dialect goes on from the last line before its first diff, and the
// str-replace and apply-patch dialects from their first block, when the
// change comes after. What is known of a line alone (the lines
// themselves, their search-replace and edit-v3 marks, whether they read
// as prose) is kept for the lines before the first change. The rules that
// tell edits from examples and reasoning keep what they found of the
// blocks that stand where they stood before the first change (see
// seenBlock). The rest of the dialects' reading, and the rule that tells
// history, read the whole text each time.
//
// A Parser is not safe for concurrent use. The zero value is ready to use.
type Parser struct {
	// doc is the document of the text parsed last.
	doc *document
	// sr is what the search-replace parser left of it.
	sr *srMemo
	// v3marks are the edit-v3 marks of its lines, and v3next where the
	// next marked line is from each.
	v3marks []v3Marker
	v3next  []int
	// ud is what the unified-diff parser left of it.
	ud *udMemo
	// quiet holds, for the parsers that do nothing before their first
	// block, the line where each began to read one.
	quiet [quietParsers]int
	// resumedAt is the line the search-replace parser went on from in the
	// last parse, 0 when it read the text from its start.
	resumedAt int
	// seen is what detection found of the dialects' blocks; settled,
	// how many of them the last parse took from the parse before.
	seen    []seenBlock
	settled int
	// format is the Options.Format of the last parse.
	format string
}

// Parse reads the edit blocks in text as Parse does, reading again only
// what the changes since the last call may have changed. A parse with
// another Options.Format than the last reads the text anew: what each
// reading keeps follows the texts it read, and one format reads with
// some of them only.
func (p *Parser) Parse(text string, opt Options) ([]Block, error) {
	if opt.Format != p.format {
		*p = Parser{format: opt.Format}
	}
	doc := newDocumentAfter(p.doc, text)
	doc.prev = p
	blocks, err := parseDocument(doc, opt)
	p.doc = doc
	doc.prev, doc.exists = nil, nil // kept for its lines only
	return blocks, err
}

// The parsers that pass over every line before the first that may begin
// one of their blocks, reading each alone (a str-replace JSON value, an
// apply-patch "*** Begin Patch"): a Parser keeps, for each, the index of
// that first line in the text it parsed last, len(lines) when there was
// none (see passedOver).
const (
	quietStrReplace = iota
	quietApplyPatch
	quietParsers
)

// passedOver returns the line the quiet parser (quietStrReplace, ...) may
// start at: the lines before its first block in the text parsed before,
// and before the first changed line, were passed over then, and would be
// now. found records the first line the parser begins to read a block at,
// for the next parse; none recorded is the end of the text.
func (d *document) passedOver(parser int) (start int, found func(i int)) {
	if d.prev == nil {
		return 0, func(int) {}
	}
	first := &d.prev.quiet[parser]
	start = min(*first, d.changed, len(d.lines))
	*first = len(d.lines)
	return start, func(i int) { *first = min(*first, i) }
}

// firstChange returns the index of the first line where the lines of a
// text differ from those of an earlier text of the answer, one of them
// ending before the other included; MaxInt when they are the same. The
// first k lines are known to be the same, the earlier text's lines past
// them being prevLen-k, the first of them prevK: the first k are the lines
// wholly in the bytes the texts share, "\n" included, so line k, when
// both have it, is the last the two may share (the earlier text's last,
// when it had no "\n" and the later text adds one): were lines k and k+1
// the same in both, line k's "\n" would be shared too.
func firstChange(prevLen int, prevK string, lines []string, k int) int {
	n := min(prevLen, len(lines))
	if k < n && prevK != lines[k] {
		return k
	}
	if prevLen == len(lines) {
		return math.MaxInt
	}
	return n
}

// An srMemo is what a search-replace parse leaves for the next parse of
// the same answer: the blocks it read, the points between blocks where
// the next can go on, and the names it asked Options.Exists about.
type srMemo struct {
	blocks []Block
	// marks, next and firm are the parser's arrays of the same names,
	// taken over by the next parse.
	marks      []marker
	next, firm []int
	points     []srPoint
	asked      []asked
	// blind says the parse had no Options.Exists, and asked nothing.
	blind bool
}

// An srPoint is where the search-replace parser stood outside any block,
// about to read lines[line].
type srPoint struct {
	line int
	// horizon is the last line read before: a parse of a text whose lines
	// up to it are the same stands here the same.
	horizon int
	// blocks and asked count the blocks read and the names asked about
	// before.
	blocks, asked int
	srContext
}

// An asked is a name Options.Exists was asked about, and its answer.
type asked struct {
	name   string
	exists bool
}

// point records, when p has read a block since the last point, that it
// stands outside any block before lines[i].
func (m *srMemo) point(p *srParser, i int) {
	if k := len(m.points); k > 0 && m.points[k-1].blocks == len(p.blocks) {
		return
	}
	if p.xml.element && p.xml.first >= 0 && !p.xml.hinted {
		// A <start_line> tag to come in this element may still give its
		// hint to a block read already: the blocks so far are not final.
		return
	}
	m.points = append(m.points, srPoint{line: i, horizon: max(p.horizon, i-1), blocks: len(p.blocks), asked: len(m.asked), srContext: p.srContext.clone()})
}

// resumeSearchReplace returns the last point of the search-replace parse
// before doc from which a parse of doc may go on, with what that parse
// left; ok is false when there is none.
func (d *document) resumeSearchReplace() (pt srPoint, prev *srMemo, ok bool) {
	if d.prev == nil || d.prev.sr == nil {
		return srPoint{}, nil, false
	}
	prev = d.prev.sr
	if prev.blind && d.exists != nil {
		return srPoint{}, nil, false // bare names it took for prose may be files
	}
	for k := len(prev.points) - 1; k >= 0; k-- {
		pt := prev.points[k]
		if pt.horizon >= d.changed || pt.line > len(d.lines) {
			continue
		}
		for _, a := range prev.asked[:pt.asked] {
			if (d.exists != nil && d.exists(a.name)) != a.exists {
				return srPoint{}, nil, false // the files changed: read it all
			}
		}
		return pt, prev, true
	}
	return srPoint{}, nil, false
}

// recordExists makes d's Options.Exists record in log each name it is
// asked about, and its answer, until the returned function is called.
func (d *document) recordExists(log *[]asked) (stop func()) {
	exists := d.exists
	if exists == nil {
		return func() {}
	}
	d.exists = func(name string) bool {
		ok := exists(name)
		*log = append(*log, asked{strings.Clone(name), ok})
		return ok
	}
	return func() { d.exists = exists }
}
