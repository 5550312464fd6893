package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/graft-editor/graft/engine/internal/loose"
	"github.com/graft-editor/graft/engine/internal/textscan"
)

// maxOccurrences bounds how many places of an exact or whitespace-blind
// search are listed: beyond it the search is hopelessly ambiguous.
const maxOccurrences = 64

// Resolve finds the region of text that e.Old means and returns the match
// that replaces it with e.New, or an *Error that says why it refused.
//
// Exact matches come first. When there is none, Resolve undoes the
// mistakes models make in their copy of the code (line-number prefixes,
// over-escaping, white space, unicode punctuation, a stale, mistyped,
// missing or extra line, an elided middle) and accepts a region only when
// it is similar enough and clearly better than any other; a line hint only
// decides between regions that are about as good. The replacement is
// carried onto the region as a change: lines the model did not change keep
// the file's bytes, new lines are indented like the file and end like its
// lines.
//
// Resolve prepares the text for the one edit; to resolve several edits
// against one text, or against the texts they lead to, use a [Document].
func Resolve(text string, e Edit, opt Options) (*Match, error) {
	return NewDocument(text).Resolve(e, opt)
}

// Resolve is like the function [Resolve] for the document's text, reusing
// what earlier calls computed about it. It resolves the edits that change
// text in place: OpReplace, and OpInsert (New after line Line).
//
// On a Document that [Document.Apply] returned, e is taken to follow the
// edits applied to reach it, as the blocks of one answer follow each
// other: its line hint counts the lines of the text before them (a
// replacement's hint moves with the lines, an insertion's place stays
// after what replaced it and after earlier insertions at the same place),
// and a change that stands already only in lines those edits wrote is
// not the file's: two blocks of one answer may add the same line, each as
// its own change. The edit is then resolved as if its change could not
// stand.
func (doc *Document) Resolve(e Edit, opt Options) (*Match, error) {
	e.Line = doc.d.moved.editLine(e)
	m, err := doc.resolveShown(e, opt)
	if err == nil && m.AlreadyApplied && doc.d.moved.wrote(m.StartLine, m.EndLine) {
		opt.ignoreStanding = true
		return doc.resolveShown(e, opt)
	}
	return m, err
}

// resolveShown is Resolve for an edit whose line hint counts the lines of
// the document's text, with every line of the answer counted as the
// person sees it.
func (doc *Document) resolveShown(e Edit, opt Options) (*Match, error) {
	m, err := doc.resolve(e, opt)
	if m != nil {
		m.Changes = finer(doc.d.text, m.Changes)
	}
	if re, ok := err.(*Error); ok && len(doc.d.moved) > 0 && len(re.Candidates) > 0 {
		// The candidates' lines, as every line a message gives, count
		// the lines the person sees (see document.shown).
		shown := *re
		shown.Candidates = append([]Candidate(nil), re.Candidates...)
		for k := range shown.Candidates {
			c := &shown.Candidates[k]
			c.StartLine, c.EndLine = doc.d.shownSpan(c.StartLine, c.EndLine)
		}
		err = &shown
	}
	return m, err
}

// resolve is Resolve, with each match's changes as the resolver made them.
func (doc *Document) resolve(e Edit, opt Options) (*Match, error) {
	switch e.Op {
	case OpReplace:
		m, err := doc.replace(e, opt)
		if len(opt.History) > 0 && (m == nil || m.Strategy != "exact") {
			sm, serr := doc.stale(e, m, err, opt.History)
			switch {
			case serr != nil:
				return nil, serr
			case sm != nil:
				return sm, nil
			}
		}
		return m, err
	case OpInsert:
		m, err := doc.d.insert(e.Line, e.New)
		return doc.d.standing(m, opt), err
	}
	return nil, refuse(ReasonInvalid, "a %s edit is a file operation, not a change to text", e.Op)
}

// texts returns the search and the replacement of an OpReplace edit as
// the resolver reads them in d: with line feeds for line breaks, and,
// where d has a byte order mark, without the one a model copied from the
// start of the file in front of its search, which the document keeps
// apart from its text: no part of the change, in the search or in the
// replacement. A search the text holds as written, the mark included,
// or that is only the mark, reads it as a character of the text.
func (e Edit) texts(d *document) (old, new string) {
	old, new = toLF(e.Old), toLF(e.New)
	if o, ok := strings.CutPrefix(old, bom); ok && d.body > 0 && strings.TrimSpace(o) != "" && !strings.Contains(d.lf, old) {
		old, new = o, strings.TrimPrefix(new, bom)
	}
	return old, new
}

// replace resolves an OpReplace edit.
func (doc *Document) replace(e Edit, opt Options) (*Match, error) {
	if len(e.Scope) > 0 || e.EndOfFile {
		m, err := resolveWithin(doc.d, e, opt)
		return doc.d.standing(m, opt), err
	}
	doc.resolves++
	d := doc.d
	text := d.text
	old, new := e.texts(d)
	if strings.TrimSpace(old) == "" {
		if old == "" && strings.TrimPrefix(text, bom) == "" {
			return Insert(text, 0, new)
		}
		return nil, refuse(ReasonInvalid, "the search text is empty: quote the lines to change")
	}
	r := &resolver{d: d, doc: doc, opt: opt}
	if doc.ix != nil {
		// The searches of earlier calls are done with what they were lent.
		doc.ix.scratch.reset()
	}
	if e.ReplaceAll {
		return r.all(old, new)
	}
	var best, escaped *Match
	var bestRd, escapedRd reading
	var bestErr, literalErr *Error
	rds := readings(old, new, e.Line)
	for _, rd := range rds {
		m, err := r.reading(rd)
		if m == nil && err == nil {
			continue
		}
		if err != nil {
			if rd.literal && err.Reason == ReasonAmbiguous {
				// The text as written is in the file, more than once: no
				// other reading of it may pick one of those places.
				return r.refusal(err, rds[:1])
			}
			if rd.literal {
				literalErr = err
			}
			if bestErr == nil || betterError(err, bestErr) {
				bestErr = err
			}
			continue
		}
		if m.Strategy == "exact" {
			return r.standingMatch(m, rd)
		}
		if rd.escaped {
			escaped, escapedRd = m, rd
		}
		if best == nil || m.Score > best.Score {
			best, bestRd = m, rd
		}
	}
	// A reading that takes the search for escaped once too often, finds
	// the place another reading found, and explains more of the search's
	// lines there as they are, is how the search was written: its
	// replacement is read the same way, or the escapes would be written
	// into the file.
	if escaped != nil && best != nil && best != escaped && escaped.StartLine <= best.EndLine && best.StartLine <= escaped.EndLine {
		lo, hi := min(best.StartLine, escaped.StartLine)-1, max(best.EndLine, escaped.EndLine)
		if r.linesFound(escapedRd.old, lo, hi) > r.linesFound(bestRd.old, lo, hi) {
			best, bestRd = escaped, escapedRd
		}
	}
	// Where the search as written was refused and only the escaped reading
	// found a place, that reading must explain more of the search's lines
	// there as they are, the same way: else the file has the escapes too
	// (a Go string's \"), the search was not escaped once too often, and
	// the refusal stands (a rename the copy already shows on a kept line
	// must not be merged because the escapes were read away).
	if best != nil && best == escaped && literalErr != nil {
		lo, hi := best.StartLine-1, best.EndLine
		if r.linesFound(escapedRd.old, lo, hi) <= r.linesFound(rds[0].old, lo, hi) {
			return r.refusal(literalErr, rds)
		}
	}
	if best != nil {
		return r.standingMatch(best, bestRd)
	}
	return r.refusal(bestErr, rds)
}

// refusal returns the answer to an edit refused with e: the refusal, or
// the match saying its change stands already, as one of the readings rds
// reads it (see standingInstead).
func (r *resolver) refusal(e *Error, rds []reading) (*Match, error) {
	note := ""
	for k, rd := range rds {
		if k > 0 && rd.new == rds[0].new {
			continue // the replacement read as it is was looked for
		}
		m, why := r.standingInstead(e, rd.old, rd.new)
		if m != nil {
			return m, nil
		}
		if note == "" {
			note = why
		}
	}
	if note != "" {
		if e.Detail != "" {
			note = e.Detail + "\n" + note
		}
		e.Detail = note
	}
	return nil, e
}

// linesFound counts the non-blank lines of a search that stand among
// file lines [lo, hi), white space aside.
func (r *resolver) linesFound(search string, lo, hi int) int {
	ix := r.index()
	have := map[string]bool{}
	for i := lo; i < hi; i++ {
		have[ix.View(i)] = true
	}
	n := 0
	for _, l := range splitLines(search) {
		if k := loose.View(l); k != "" && have[k] {
			n++
		}
	}
	return n
}

// absent reports whether line is known to be nowhere in the file, white
// space aside: a tally of some search found it no time.
func (r *resolver) absent(line string) bool {
	k, n, _ := loose.Key(line)
	if n == 0 || isElision(line) {
		return false
	}
	for _, s := range r.searches {
		if s.tally == nil {
			continue
		}
		if o := s.tally.occs[k]; o != nil && o.count == 0 {
			return true
		}
	}
	return false
}

// betterError prefers the refusal that found the more similar candidate.
func betterError(a, b *Error) bool {
	score := func(e *Error) float64 {
		if len(e.Candidates) == 0 {
			return -1
		}
		return e.Candidates[0].Score
	}
	return score(a) > score(b)
}

// resolver holds what one Resolve call computes at most once; what holds
// for every edit of the text is kept in its Document.
type resolver struct {
	d   *document
	doc *Document
	opt Options

	// searches holds what is computed once per search text, by its
	// lines, each ended by "\n"; key is where such a text is written to
	// look it up.
	searches map[string]*search
	key      []byte
}

// A search is a search text's lines as a Resolve call reads them, with
// what is computed from them at most once, however many readings of the
// edit come to the same lines.
type search struct {
	lines []sline
	tally *tally           // where the lines are
	cands [2]*candidateSet // the windows worth aligning the lines against, without approximate lines and with (see candidates)
}

// search returns the search of lines. Its lines are shared: they must not
// be changed.
func (r *resolver) search(lines []string) *search {
	size := 0
	for _, l := range lines {
		size += len(l) + 1
	}
	r.key = slices.Grow(r.key[:0], size)
	for _, l := range lines {
		r.key = append(r.key, l...)
		r.key = append(r.key, '\n')
	}
	if s, ok := r.searches[string(r.key)]; ok {
		return s
	}
	s := &search{lines: newSlines(lines)}
	if r.searches == nil {
		r.searches = map[string]*search{}
	}
	r.searches[string(r.key)] = s
	return s
}

// searchLines returns the lines of a search with their loose views (see
// search).
func (r *resolver) searchLines(lines []string) []sline { return r.search(lines).lines }

// candidates returns the windows worth aligning s's lines against, with
// or without approximate lines; the tally of the lines they come from is
// shared by both kinds, and so are the windows when the tally wants no
// approximate lines.
func (r *resolver) candidates(s *search, approximate bool) candidateSet {
	k := 0
	if approximate && r.tally(s).wantsScan() {
		k = 1
	}
	if s.cands[k] == nil {
		c := candidates(r.index(), s.lines, r.tally(s), approximate)
		s.cands[k] = &c
	}
	return *s.cands[k]
}

// tally returns where s's lines are.
func (r *resolver) tally(s *search) *tally {
	if s.tally == nil {
		if r.doc.resolves > 1 {
			r.index().buildPostings()
		}
		s.tally = newTally(r.index(), s.lines)
	}
	return s.tally
}

func (r *resolver) index() *index { return r.doc.index() }

// reading resolves one reading of the edit.
func (r *resolver) reading(rd reading) (*Match, *Error) {
	if m, err, done := r.exact(rd); done {
		return m, err
	}
	if m, err, done := r.looseMatch(rd); done || rd.strict {
		return m, err
	}
	return r.fuzzy(rd)
}

// occurrences returns the offsets where sub occurs in s, overlapping ones
// included, at most limit of them.
//
// A long sub is looked for by a piece of it (see anchor): the standard
// library's search for a string longer than a vector register looks for
// its first byte, and a search that starts with indentation finds that
// byte everywhere.
func occurrences(s, sub string, limit int) []int {
	if sub == "" {
		return nil
	}
	k, piece := anchor(sub)
	var at []int
	for from := k; from <= len(s)-len(sub)+k && len(at) < limit; {
		i := strings.Index(s[from:], piece)
		if i < 0 {
			break
		}
		if start := from + i - k; start+len(sub) <= len(s) && s[start:start+len(sub)] == sub {
			at = append(at, start)
		}
		from += i + 1
	}
	return at
}

// occurrences returns what the function occurrences returns for the
// document's lf view, sub and limit: by a search of the whole text, or,
// along a line of Documents that has searched it often, by the lines that
// may hold sub (see occurrencesByLine).
func (doc *Document) occurrences(sub string, limit int) []int {
	d := doc.d
	if d.grams == nil && doc.searches >= gramsAfter && len(d.start) > 0 {
		d.buildGrams()
	}
	if d.grams != nil {
		if at, ok := d.occurrencesByLine(sub, limit); ok {
			return at
		}
	}
	doc.searches++
	return occurrences(d.lf, sub, limit)
}

// anchorLen is the longest piece of a search that the standard library
// looks for with vector instructions on every platform Go supports well.
const anchorLen = 32

// anchor returns a piece of sub that is likely rare in a file, and its
// offset in sub: sub itself when it is short, and otherwise the anchorLen
// bytes from the start of the word of sub whose first byte is the rarest
// in source code (the standard library looks for a piece by its first
// byte, with vector instructions).
func anchor(sub string) (int, string) {
	if len(sub) <= anchorLen {
		return 0, sub
	}
	best, rank := 0, -1
	for i := 0; i < len(sub) && rank < len(commonBytes); i++ {
		if textscan.IsSpace(sub[i]) || i > 0 && !textscan.IsSpace(sub[i-1]) {
			continue
		}
		r := strings.IndexByte(commonBytes, sub[i])
		if r < 0 {
			r = len(commonBytes)
		}
		if r > rank {
			best, rank = i, r
		}
	}
	best = min(best, len(sub)-anchorLen)
	return best, sub[best : best+anchorLen]
}

// commonBytes are the bytes most frequent in source code, most frequent
// first.
const commonBytes = " \n\tetarniosl)(.cdu\"pf,=m_hg:b/y{}x;w0k1v-*&[]<>!"

// exact resolves a reading whose search occurs as it is.
func (r *resolver) exact(rd reading) (*Match, *Error, bool) {
	d := r.d
	var at []int
	found := false
	if r.doc.ix != nil {
		// A Document that served earlier searches may list its lines.
		at, found = r.doc.ix.occurrences(rd.old, maxOccurrences)
	}
	if !found {
		at = r.doc.occurrences(rd.old, maxOccurrences)
	}
	spans := make([]Span, len(at))
	for k, off := range at {
		spans[k] = Span{d.lineAt(d.fromLF(off)) + 1, d.lineAt(d.fromLF(off+len(rd.old)-1)) + 1}
	}
	// The same lines ending the file, where the last one has no line
	// ending, are the same place to a reader: they make the search
	// ambiguous, though they are not its bytes.
	if trimmed, ok := strings.CutSuffix(rd.old, "\n"); ok && trimmed != "" && !d.endsWithNewline() && strings.HasSuffix(d.lf, trimmed) {
		if off := len(d.lf) - len(trimmed); len(at) == 0 || at[len(at)-1] != off {
			spans = append(spans, Span{d.lineAt(d.fromLF(off)) + 1, d.lineCount()})
		}
	}
	if len(spans) == 0 {
		return nil, nil, false
	}
	pick, err := r.choose(spans, rd.hint, "the search text occurs")
	if err != nil {
		return nil, err, true
	}
	if pick >= len(at) {
		return nil, nil, false // the hint points at the lines ending the file
	}
	if r.indentedLine(at[pick], rd) {
		return nil, nil, false // the model's copy off in indentation
	}
	start, end := d.fromLF(at[pick]), d.fromLF(at[pick]+len(rd.old))
	strategy := "exact"
	if !rd.literal {
		strategy = strings.Join(rd.tags, "+")
	}
	var m *Match
	if elisions(rd.old) == 0 && elisions(rd.new) > 0 {
		// The replacement elides lines it keeps: merge it line by line.
		m, err = r.elidedReplacement(start, end, rd)
		if err != nil {
			return nil, err, true
		}
		m.Strategy = strategy + "+elision"
	} else {
		m = r.splice(start, end, rd.new, strategy, 1)
	}
	if len(at) > 1 {
		m.Notes = append(m.Notes, fmt.Sprintf("line hint %d chose %s among %d identical places", d.shown(rd.hint), d.linesWord(spans[pick].StartLine, spans[pick].EndLine), len(at)))
	}
	return m, nil, true
}

// indentedLine reports whether the occurrence at off (in the lf view) of
// the search begins inside a file line's indentation, its first line the
// rest of the file's line: the model's copy of that line is shallower
// than the file's. Such a copy is off in indentation, which the
// strategies that move the model's indentation onto the file's place: for
// a search of several lines, whose other lines stand at the file's depth,
// the copy is off by different amounts (see merger.indent), unless its
// first line is flush left, the copy's start trimmed (see
// merger.trimmedFirst); for a search of one line with a replacement of
// several, the model wrote the whole block at its line's depth, and
// splicing the replacement in after the file's indentation would leave
// its other lines at the model's depth.
func (r *resolver) indentedLine(off int, rd reading) bool {
	old := strings.TrimSuffix(rd.old, "\n")
	first, _, several := strings.Cut(old, "\n")
	if first == "" || !several && !strings.Contains(strings.TrimSuffix(rd.new, "\n"), "\n") || several && indentOf(first) == "" {
		return false
	}
	d := r.d
	start, end := d.fromLF(off), d.fromLF(off+len(first))
	a := d.lineAt(start)
	before, after := d.text[d.start[a]:start], d.text[end:d.end[a]]
	return before != "" && strings.TrimLeft(before, " \t") == "" && strings.TrimSpace(after) == ""
}

// elisions counts the lines of text that stand for lines left out.
func elisions(text string) int {
	n := 0
	for _, l := range splitLines(text) {
		if isElision(l) {
			n++
		}
	}
	return n
}

// elidedReplacement places a replacement that elides some of the lines
// it keeps onto the whole lines [start, end) the search matched exactly.
func (r *resolver) elidedReplacement(start, end int, rd reading) (*Match, *Error) {
	d := r.d
	a, b, whole := d.wholeLines(start, end)
	if !whole {
		return nil, refuse(ReasonInvalid, "the replacement elides lines with \"...\", but the search is only part of a line")
	}
	s, t := trimEnds(splitLines(rd.old), splitLines(rd.new))
	sl := r.searchLines(s)
	reg, ok := align(r.index(), sl, a, b+1)
	if !ok {
		return nil, refuse(ReasonInvalid, "the replacement elides lines with \"...\" that cannot be placed")
	}
	return r.place(sl, t, &reg, rd)
}

// splice replaces the bytes [start, end) of the text with new, in the
// file's line endings. Deleting whole lines takes their line endings too.
func (r *resolver) splice(start, end int, new, strategy string, score float64) *Match {
	d := r.d
	a, b := d.lineAt(start), d.lineAt(max(start, end-1))
	if new == "" {
		wholeStart := strings.TrimLeft(d.text[d.start[a]:start], " \t") == ""
		endsLine := end > start && d.text[end-1] == '\n'
		if wholeStart && !endsLine && end <= d.end[b] && strings.TrimRight(d.text[end:d.end[b]], " \t") == "" {
			endsLine = true
			end = d.offsetOfLine(b + 1)
		}
		if wholeStart && endsLine {
			start = d.start[a]
			if end == len(d.text) && !d.endsWithNewline() && a > 0 {
				start = d.end[a-1] // keep the file without a final newline
			}
		}
	}
	return &Match{
		Strategy:  strategy,
		Score:     score,
		StartLine: a + 1,
		EndLine:   b + 1,
		Changes:   []Change{{Start: start, End: end, Text: d.endings(start, end, new)}},
	}
}

// choose picks one of several equally good places: the one a line hint
// points at clearly, or none.
func (r *resolver) choose(spans []Span, hint int, what string) (int, *Error) {
	if len(spans) == 1 {
		return 0, nil
	}
	if k, ok := byHint(spans, hint); ok {
		return k, nil
	}
	e := &Error{Reason: ReasonAmbiguous}
	var places []string
	for _, s := range spans {
		e.Candidates = append(e.Candidates, Candidate{StartLine: s.StartLine, EndLine: s.EndLine, Score: 1})
		if len(places) < 5 {
			places = append(places, r.d.linesWord(s.StartLine, s.EndLine))
		}
	}
	more := ""
	if len(spans) >= maxOccurrences {
		more = " or more"
	}
	e.Summary = fmt.Sprintf("ambiguous: %s %d%s times (%s); quote more lines around the place to change, or give its line number", what, len(spans), more, strings.Join(places, ", "))
	if hint > 0 {
		e.Summary += fmt.Sprintf("; line hint %d is not clearly closer to one of them", r.d.shown(hint))
	}
	return -1, e
}

// byHint returns the span a 1-based line hint points at: clearly closer
// than any other.
func byHint(spans []Span, hint int) (int, bool) {
	if hint <= 0 || len(spans) == 0 {
		return 0, false
	}
	dist := func(s Span) int {
		switch {
		case hint < s.StartLine:
			return s.StartLine - hint
		case hint > s.EndLine:
			return hint - s.EndLine
		}
		return 0
	}
	order := make([]int, len(spans))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return dist(spans[order[a]]) < dist(spans[order[b]]) })
	d1 := dist(spans[order[0]])
	if len(order) == 1 {
		return order[0], true
	}
	d2 := dist(spans[order[1]])
	if d1 < d2 && 2*d1 <= d2 {
		return order[0], true
	}
	return 0, false
}
