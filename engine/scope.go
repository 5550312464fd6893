package engine

import (
	"fmt"
	"strings"

	"github.com/graft-editor/graft/engine/internal/loose"
)

// A section is a range of lines [lo, hi) of a document an edit is
// confined to.
type section struct{ lo, hi int }

// resolveWithin resolves an edit confined by scope lines or to the end of
// the file: each scope line is looked for inside the sections the ones
// before it opened, and Old is resolved in each section that remains as if
// it were the whole file. Old must resolve in exactly one of them, unless
// the line hint picks one.
func resolveWithin(d *document, e Edit, opt Options) (*Match, error) {
	text := d.text
	secs := []section{{0, d.lineCount()}}
	for _, sc := range e.Scope {
		secs = scopeSections(d, secs, sc)
		if len(secs) == 0 {
			return nil, refuse(ReasonNotFound, "not found: no line of the file is the scope %q", strings.TrimSpace(sc))
		}
	}
	inner := e
	inner.Scope, inner.EndOfFile = nil, false
	type found struct {
		m   *Match
		sec section
	}
	var hits []found
	var firstErr error
	for _, sec := range secs {
		var m *Match
		var err error
		if e.EndOfFile {
			m, err = resolveTail(text, d, sec, inner, opt)
		} else {
			m, err = resolveIn(text, d, sec, inner, opt)
		}
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		hits = append(hits, found{m, sec})
	}
	where := "in the scope"
	if e.EndOfFile && len(e.Scope) == 0 {
		where = "at the end of the file"
	}
	switch len(hits) {
	case 0:
		if re, ok := firstErr.(*Error); ok {
			shifted := *re
			shifted.Summary = re.Summary + " (looked only " + where + ")"
			return nil, &shifted
		}
		return nil, firstErr
	case 1:
		m := hits[0].m
		if len(e.Scope) > 0 {
			m.Notes = append(m.Notes, fmt.Sprintf("inside the scope %q opened at line %d", strings.TrimSpace(e.Scope[len(e.Scope)-1]), d.shown(hits[0].sec.lo)))
		}
		return m, nil
	}
	spans := make([]Span, len(hits))
	var places []string
	for k, h := range hits {
		spans[k] = Span{h.m.StartLine, h.m.EndLine}
		places = append(places, d.linesWord(h.m.StartLine, h.m.EndLine))
	}
	if k, ok := byHint(spans, e.Line); ok {
		return hits[k].m, nil
	}
	err := refuse(ReasonAmbiguous, "ambiguous: the scope %q occurs more than once and the search resolves under each (%s)", strings.TrimSpace(e.Scope[len(e.Scope)-1]), strings.Join(places, ", "))
	for _, s := range spans {
		err.Candidates = append(err.Candidates, Candidate{StartLine: s.StartLine, EndLine: s.EndLine, Score: 1})
	}
	return nil, err
}

// resolveIn resolves e in the lines of sec as if they were the whole text.
func resolveIn(text string, d *document, sec section, e Edit, opt Options) (*Match, error) {
	base := d.offsetOfLine(sec.lo)
	if e.Line > sec.lo {
		e.Line -= sec.lo
	} else {
		e.Line = 0
	}
	in := NewDocument(text[base:d.offsetOfLine(sec.hi)])
	// The section's messages count the lines of the file as the person
	// sees it: the lines above the section, and the edits that moved
	// them, are mapped back.
	in.d.moved = d.moved
	if sec.lo > 0 {
		in.d.moved = d.moved.with(lineShift{start: 1, end: sec.lo, delta: -sec.lo})
	}
	m, err := in.resolve(e, opt)
	if re, ok := err.(*Error); ok && len(re.Candidates) > 0 {
		// The candidates are in the section's lines: those of d here, and
		// Resolve maps d's to the person's.
		shifted := *re
		shifted.Candidates = append([]Candidate(nil), re.Candidates...)
		for k := range shifted.Candidates {
			shifted.Candidates[k].StartLine += sec.lo
			shifted.Candidates[k].EndLine += sec.lo
		}
		err = &shifted
	}
	if err != nil {
		return nil, err
	}
	for k := range m.Changes {
		m.Changes[k].Start += base
		m.Changes[k].End += base
	}
	m.StartLine += sec.lo
	m.EndLine += sec.lo
	return m, nil
}

// resolveTail resolves e among the last lines of sec: the region must end
// on the section's last non-blank line. It looks in the fewest lines that
// can hold the search first, then in a line or three more, in case the
// model's copy lacks a line.
func resolveTail(text string, d *document, sec section, e Edit, opt Options) (*Match, error) {
	last := sec.hi - 1
	for last >= sec.lo && isBlank(d.line(last)) {
		last--
	}
	n := len(splitLines(toLF(e.Old)))
	var firstErr error
	for slack := 0; slack <= 3; slack++ {
		lo := max(sec.lo, last+1-n-slack)
		m, err := resolveIn(text, d, section{lo, sec.hi}, e, opt)
		switch {
		case err == nil && m.EndLine-1 >= last:
			return m, nil
		case err == nil:
			err = refuse(ReasonNotFound, "not found: the search is not at the end of the file (it matched %s)", d.linesWord(m.StartLine, m.EndLine))
		}
		if firstErr == nil {
			firstErr = err
		}
		if lo == sec.lo {
			break
		}
	}
	return nil, firstErr
}

// scopeSections returns, inside secs, the blocks that lines equal to the
// scope line open (ignoring white space; a scope may also be the start of
// its line, "class Foo" for "class Foo(Base):"). A block runs from the line
// after the scope line to the last line indented deeper than it, and a
// closing line ("}", "end") at the scope's own indentation.
func scopeSections(d *document, secs []section, scope string) []section {
	want := loose.View(scope)
	var out []section
	for _, sec := range secs {
		for i := sec.lo; i < sec.hi; i++ {
			l := loose.View(d.line(i))
			if l == "" || !(l == want || len(want) >= 6 && strings.HasPrefix(l, want)) {
				continue
			}
			out = append(out, section{i + 1, blockEnd(d, i, sec.hi)})
		}
	}
	return out
}

// blockEnd returns the end (exclusive) of the block that line i opens.
func blockEnd(d *document, i, limit int) int {
	ind := columns(indentOf(d.line(i)), 4)
	for j := i + 1; j < limit; j++ {
		line := d.line(j)
		if isBlank(line) || columns(indentOf(line), 4) > ind {
			continue
		}
		if t := strings.TrimSpace(line); strings.Trim(t, "})];,") == "" || t == "end" || strings.HasPrefix(t, "} ") {
			return j + 1 // its closing line
		}
		return j
	}
	return limit
}
