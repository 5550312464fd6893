package engine

import (
	"math/bits"
	"unicode/utf8"

	"github.com/graft-editor/graft/engine/internal/editdist"
	"github.com/graft-editor/graft/engine/internal/linecache"
	"github.com/graft-editor/graft/engine/internal/loose"
	"github.com/graft-editor/graft/engine/internal/postings"
	"github.com/graft-editor/graft/engine/internal/textscan"
)

// Bounds that keep every block's work linear in the file size.
const (
	// commonLine is how often a line may occur before it no longer points
	// at a place on its own (a "}" or "return err" line).
	commonLine = 16
	// maxCandidates bounds the regions scored in detail.
	maxCandidates = 24
	// scanBudget bounds the approximate line comparisons of one block.
	scanBudget = 4000
	// minLineSim is the similarity at which two lines count as the same
	// line changed, rather than two different lines.
	minLineSim = 0.5
	// elisionReach is how many lines one "..." may stand for.
	elisionReach = 2000
)

// An sline is a line of the model's search text with its loose view.
type sline struct {
	text    string
	loose   string
	key     uint64
	n       int // length of the loose view
	sig     uint64
	blank   bool
	elision bool
	pat     *editdist.Pattern // the loose view prepared for comparisons, once needed (see index.pattern)
	counts  []byteCount       // the loose view's bag, once needed (see bag)
}

// pattern returns the loose view of l prepared to be compared with many
// lines, in a pattern of the index's (see patterns).
func (ix *index) pattern(l *sline) *editdist.Pattern {
	if l.pat == nil {
		l.pat = ix.patterns.next()
		l.pat.Reset(l.loose)
	}
	return l.pat
}

// patterns are the patterns of the search lines compared during one
// resolution, handed out in turn and prepared again by the next: a
// pattern is most of a kilobyte, and a fuzzy search prepares one for
// each of its lines.
type patterns struct {
	all  []*editdist.Pattern
	used int
}

// next returns a pattern not handed out since the last reset.
func (p *patterns) next() *editdist.Pattern {
	if p.used == len(p.all) {
		p.all = append(p.all, new(editdist.Pattern))
	}
	p.used++
	return p.all[p.used-1]
}

// reset takes back every pattern handed out: the search lines they were
// prepared for are done with.
func (p *patterns) reset() { p.used = 0 }

func (l *sline) weight() int {
	if l.elision {
		return 0
	}
	return l.n + 1
}

func newSlines(lines []string) []sline {
	out := make([]sline, len(lines))
	// The loose views are written one after another into one string, and
	// each view is hashed as it is: it has no white space left to skip.
	size := 0
	for _, t := range lines {
		size += len(t)
	}
	b := make([]byte, 0, size)
	at := make([]int, len(lines)+1)
	for i, t := range lines {
		b = loose.AppendView(b, t)
		at[i+1] = len(b)
	}
	views := string(b)
	for i, t := range lines {
		v := views[at[i]:at[i+1]]
		k, sig := loose.ViewKey(v)
		el := isElision(t)
		out[i] = sline{text: t, loose: v, key: k, n: len(v), sig: sig, blank: v == "" && !el, elision: el}
	}
	return out
}

// An index is what a search needs to know of each line of a document,
// each computed once, the first time a search needs it (the line cache:
// loose keys, measures, ends and views, see package linecache), the
// document's postings once it serves several searches, and the memory
// its searches work in. A search whose lines are found as they are hashes
// only the file lines that could be one of them (see newTally); a search
// compared with every line approximately measures them all, which costs
// less than hashing them.
type index struct {
	// The cache is held by value: the searches' loops read what it knows
	// of a line without a pointer between.
	linecache.Cache
	d *document
	// post lists the lines of each key, in order, once a Document serves
	// several searches: a tally then costs the search's lines, not the
	// file's.
	post *postings.Table
	// anchorAll has every alignment made between anchors (see
	// Document.anchorAll).
	anchorAll bool
	scratch
}

// scratch is the memory an index lends its searches to work in, kept from
// one search to the next (and, through Resolve's pool, from one text to
// the next): never a result.
type scratch struct {
	tables alignTables // the alignments' tables
	// pairs is the list scanPairs fills: a search compared with every
	// line may list thousands of pairs.
	pairs    []scanPair
	patterns patterns   // the search lines' patterns, taken back at each resolution
	probes   probeTable // the table of a tally's keys, emptied by each tally
}

// reset takes back what the searches of another text were lent.
func (s *scratch) reset() {
	s.pairs = s.pairs[:0]
	s.patterns.reset()
}

// newIndex returns the index of d, which knows nothing of its lines yet.
func newIndex(d *document) *index {
	return &index{Cache: *linecache.New(d.text, d.start, d.end), d: d}
}

// edited returns the index of nd, the document d became when its lines
// [a, b) were replaced by lines [a, a+k) of nd (see document.edited): what
// the cache knows of the other lines is carried over, not computed again.
func (ix *index) edited(nd *document, a, b, k int) *index {
	return &index{Cache: *ix.Cache.Edited(nd.text, nd.start, nd.end, a, b, k), d: nd}
}

// weight is what file line i weighs in an alignment: its loose view's
// length, and one for the line.
func (ix *index) weight(i int) int { return ix.ViewLen(i) + 1 }

// countSeq counts, up to limit, the places in file lines [lo, hi) where
// the non-blank lines have the given keys in a row (blank lines between
// them allowed).
func (ix *index) countSeq(keys []uint64, lo, hi, limit int) int {
	return len(ix.seq(keys, 0, lo, hi, limit))
}

// findSeq returns, up to limit, the line ranges [start, end) of the whole
// file where the non-blank lines have the keys of lines in a row, those
// of a search. A file line whose ends are known is taken for the first
// of them only when its ends are the first's, without hashing it.
func (ix *index) findSeq(lines []*sline, limit int) [][2]int {
	if len(lines) == 0 {
		return nil
	}
	keys := make([]uint64, len(lines))
	for k, l := range lines {
		keys[k] = l.key
	}
	ix.Ends() // every line's ends known: seq turns lines away by them
	return ix.seq(keys, lines[0].ends(), 0, ix.Lines(), limit)
}

// seq finds the places in file lines [lo, hi) where the non-blank lines
// have the given keys in a row (see countSeq), up to limit; first is the
// ends of the first line's loose view (see linecache.EndsNotYet), or
// EndsNotYet when they are not known.
func (ix *index) seq(keys []uint64, first uint32, lo, hi, limit int) [][2]int {
	var found [][2]int
	if len(keys) == 0 {
		return nil
	}
	for i := lo; i < hi && len(found) < limit; i++ {
		if e := ix.KnownEnds(i); first != linecache.EndsNotYet && e != first && e != linecache.EndsNotYet && e != linecache.EndsUnknown {
			continue // blank, or another line of ASCII
		}
		if k, blank := ix.KeyOrBlank(i); blank || k != keys[0] {
			continue
		}
		k, f := 1, i+1
		for k < len(keys) && f < hi {
			key, blank := ix.KeyOrBlank(f)
			if blank {
				f++
				continue
			}
			if key != keys[k] {
				break
			}
			k, f = k+1, f+1
		}
		if k == len(keys) {
			found = append(found, [2]int{i, f})
		}
	}
	return found
}

// lineDist returns the edit distance between search line l and file line
// i under the loose view, and false when they are not similar enough to
// be the same line.
func (ix *index) lineDist(l *sline, i int) (int, bool) {
	if l.elision {
		return 0, false
	}
	if l.blank || ix.Blank(i) {
		return 0, l.blank && ix.Blank(i)
	}
	if l.key == ix.Key(i) {
		return 0, true
	}
	n, sig := ix.Measure(i)
	limit := l.editLimit(n)
	if l.leastEdits(n, sig) > limit {
		return 0, false
	}
	d := ix.patternDist(l, i, limit)
	return d, d <= limit
}

// editLimit is the most edits by which search line l and a line whose
// loose view has n bytes may differ and still count as the same line
// changed (see minLineSim).
func (l *sline) editLimit(n int) int {
	return int(float64(max(l.n, n)) * (1 - minLineSim))
}

// leastEdits is the fewest edits by which search line l and a line whose
// loose view has n bytes and signature sig (see loose.Key) may differ, as
// their lengths and signatures alone tell: an edit changes a length by
// one at most, and at most two bits of a signature.
func (l *sline) leastEdits(n int, sig uint64) int {
	return max(abs(l.n-n), (bits.OnesCount64(l.sig^sig)+1)/2)
}

// patternDist is the edit distance between search line l and file line
// i under the loose view, if it is at most limit, and otherwise some
// value greater than limit, computed with l's prepared pattern; a line of
// ASCII is compared as it is, its white space skipped, without building
// its loose view.
func (ix *index) patternDist(l *sline, i, limit int) int {
	if d, ok := ix.pattern(l).BoundedSkipping(ix.Line(i), ix.ViewLen(i), &looseClasses, limit); ok {
		return d
	}
	return ix.pattern(l).Bounded(ix.View(i), limit)
}

// looseClasses says what the loose view does with each byte, for
// editdist: ASCII white space is dropped, other ASCII kept, and a byte
// beyond ASCII needs the view built (it may be white space or fold).
var looseClasses = func() (c [256]byte) {
	for b := range c {
		switch {
		case b >= utf8.RuneSelf:
			c[b] = editdist.Abort
		case textscan.IsSpace(byte(b)):
			c[b] = editdist.Skip
		}
	}
	return c
}()

// buildPostings lists the lines of each key in post, unless it is done.
func (ix *index) buildPostings() {
	if ix.post != nil {
		return
	}
	ix.post = postings.New(ix.AllKeys())
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
