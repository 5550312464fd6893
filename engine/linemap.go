package engine

import "strings"

// A lineMap records how the matches applied so far to a text moved its
// lines, in order. It maps the lines of the text as it was (what line
// hints and reports refer to) to those of the text the next edit is
// resolved against, and back. The zero value maps every line to itself.
type lineMap []lineShift

// A lineShift is one applied match: it replaced the lines start..end of
// the text before it (end is start-1 for an insertion) with end-start+1+
// delta lines.
type lineShift struct {
	start, end, delta int
}

// with returns lm with s recorded after its shifts; lm itself is left as
// it is, for the Documents that share it.
func (lm lineMap) with(s lineShift) lineMap {
	return append(append(make(lineMap, 0, len(lm)+1), lm...), s)
}

// newlinesAdded returns how many more "\n" the text has once m's changes
// are made (negative: fewer).
func (m *Match) newlinesAdded(text string) int {
	n := 0
	for _, c := range m.Changes {
		n += strings.Count(c.Text, "\n") - strings.Count(text[c.Start:c.End], "\n")
	}
	return n
}

// editLine returns e's Line, which counts the lines of the text as it was,
// for the current text: a replacement's line hint moves as forward says,
// an insertion's place as forwardAfter says; no hint, and the end of the
// text, stay as they are.
func (lm lineMap) editLine(e Edit) int {
	switch {
	case e.Op == OpReplace && e.Line > 0:
		return lm.forward(e.Line)
	case e.Op == OpInsert && e.Line != AtEnd:
		return lm.forwardAfter(e.Line)
	}
	return e.Line
}

// forward maps line, a line of the text as it was, to the current text:
// lines after a change move with it, lines inside one move to its start,
// as a replacement's line hint should.
func (lm lineMap) forward(line int) int {
	for _, s := range lm {
		switch {
		case line > s.end:
			line += s.delta
		case line >= s.start:
			line = s.start
		}
	}
	return max(line, 1)
}

// forwardAfter maps after, the line of the text as it was after which an
// insertion goes (0: before the first line), to the current text: after
// the lines that replaced it when a match changed it, and after the lines
// an earlier insertion put at the same place, so that insertions keep the
// order of the edits.
func (lm lineMap) forwardAfter(after int) int {
	for _, s := range lm {
		switch {
		case after >= s.end:
			after += s.delta
		case after >= s.start:
			after = s.end + s.delta
		}
	}
	return max(after, 0)
}

// back maps the region start..end of the current text to the text as it
// was. A line that an earlier match wrote maps to the region that match
// replaced: its first line for start, its last for end (the line before
// it when the match only inserted).
func (lm lineMap) back(start, end int) (int, int) {
	for k := len(lm) - 1; k >= 0; k-- {
		s := lm[k]
		newEnd := s.end + s.delta
		switch {
		case start > newEnd:
			start -= s.delta
		case start >= s.start:
			start = s.start
		}
		switch {
		case end > newEnd:
			end -= s.delta
		case end >= s.start:
			end = s.end
		}
	}
	return start, end
}

// wrote reports whether some of the lines start..end of the current text
// were written by the matches recorded: lines an earlier edit put there
// rather than lines of the text as it was.
func (lm lineMap) wrote(start, end int) bool {
	for k := len(lm) - 1; k >= 0; k-- {
		s := lm[k]
		newEnd := s.end + s.delta // the last line s wrote
		if newEnd >= s.start && start <= newEnd && end >= s.start {
			return true
		}
		if start > newEnd {
			start -= s.delta
		}
		if end > newEnd {
			end -= s.delta
		}
	}
	return false
}
