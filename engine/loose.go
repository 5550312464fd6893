package engine

import (
	"strings"
	"unicode/utf8"
)

// looseMatch resolves a reading whose search occurs in the file once white
// space is ignored and unicode punctuation folded: indentation shifted,
// tabs turned to spaces, spaces collapsed or added, blank lines missing or
// added, curly quotes. It reports done=false when there is no such place.
func (r *resolver) looseMatch(rd reading) (*Match, *Error, bool) {
	needle := loose(rd.old)
	if needle == "" {
		return nil, nil, false
	}
	if r.looseSrc == nil {
		r.looseText, r.looseSrc = looseMap(r.d.lf)
	}
	at := occurrences(r.looseText, needle, maxOccurrences)
	if len(at) == 0 {
		return nil, nil, false
	}
	d := r.d
	starts, ends := make([]int, len(at)), make([]int, len(at))
	spans := make([]Span, len(at))
	for k, off := range at {
		last := int(r.looseSrc[off+len(needle)-1])
		_, size := utf8.DecodeRuneInString(d.lf[last:])
		starts[k], ends[k] = d.fromLF(int(r.looseSrc[off])), d.fromLF(last+size)
		spans[k] = Span{d.lineAt(starts[k]) + 1, d.lineAt(ends[k]-1) + 1}
	}
	pick, err := r.choose(spans, rd.hint, "the search text occurs (ignoring white space)")
	if err != nil {
		return nil, err, true
	}
	start, end := starts[pick], ends[pick]
	a, b, whole := d.wholeLines(start, end)
	if !whole {
		m := r.fragment(start, end, at[pick], rd, "whitespace-normalized")
		return m, nil, true
	}
	ix := r.index()
	s, t := trimElisions(splitLines(rd.old), splitLines(rd.new))
	sl := newSlines(s)
	reg, ok := ix.align(sl, a, b+1)
	if !ok {
		return nil, nil, false
	}
	m, err := r.place(sl, t, &reg, rd)
	if err != nil {
		return nil, err, true
	}
	if len(at) > 1 {
		m.Notes = append(m.Notes, byHintNote(rd.hint, spans[pick], len(at)))
	}
	return m, nil, true
}

// fragment replaces part of a line (or from the middle of one line to the
// middle of another) that matched the search ignoring white space. Only
// the part the model changed is rewritten: the common beginning and end
// of its search and replacement stay as the file has them.
func (r *resolver) fragment(start, end, looseAt int, rd reading, strategy string) *Match {
	old, new := rd.old, rd.new
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	for p > 0 && !utf8.RuneStart(old[p]) && p < len(old) {
		p--
	}
	q := 0
	for q < len(old)-p && q < len(new)-p && old[len(old)-1-q] == new[len(new)-1-q] {
		q++
	}
	for q > 0 && len(old)-q < len(old) && !utf8.RuneStart(old[len(old)-q]) {
		q--
	}
	kp := len(loose(old[:p]))
	ke := len(loose(old[:len(old)-q]))
	total := len(loose(old))
	d := r.d
	from := start
	if kp > 0 {
		last := int(r.looseSrc[looseAt+kp-1])
		_, size := utf8.DecodeRuneInString(d.lf[last:])
		from = d.fromLF(last + size)
	}
	to := end
	if ke < total {
		to = d.fromLF(int(r.looseSrc[looseAt+ke]))
	}
	// Where the model's unchanged beginning ends in white space, so does
	// the part of the file it stands for; likewise at the end.
	if p > 0 && isSpaceByte(old[p-1]) {
		for from < to && (d.text[from] == ' ' || d.text[from] == '\t') {
			from++
		}
	}
	if q > 0 && isSpaceByte(old[len(old)-q]) {
		for to > from && (d.text[to-1] == ' ' || d.text[to-1] == '\t') {
			to--
		}
	}
	if to < from {
		to = from
	}
	mid := new[p : len(new)-q]
	strategy = strings.Join(append(append([]string(nil), rd.tags...), strategy), "+")
	m := &Match{
		Strategy:  strategy,
		Score:     1,
		StartLine: d.lineAt(start) + 1,
		EndLine:   d.lineAt(max(start, end-1)) + 1,
		Changes:   []Change{{Start: from, End: to, Text: d.withEOL(mid)}},
	}
	return m
}

// trimElisions drops elision lines at the ends of the search, which say
// nothing about where it is, and the matching ones of the replacement.
func trimElisions(old, new []string) ([]string, []string) {
	for len(old) > 0 && isElision(old[0]) {
		old = old[1:]
		if len(new) > 0 && isElision(new[0]) {
			new = new[1:]
		}
	}
	for len(old) > 0 && isElision(old[len(old)-1]) {
		old = old[:len(old)-1]
		if len(new) > 0 && isElision(new[len(new)-1]) {
			new = new[:len(new)-1]
		}
	}
	return old, new
}
