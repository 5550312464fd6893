package workspace

import (
	"strings"

	"github.com/graft-editor/graft/engine"
)

// A lineMap records how the blocks applied so far to a file moved its
// lines, in order: it maps the lines of the file as it was (what the
// model's line hints and the report's lines refer to) to those of the
// text the next block is resolved against, and back.
type lineMap []lineShift

// A lineShift is one applied block: it replaced the lines start..end of
// the text before it (end is start-1 for an insertion) with end-start+1+
// delta lines.
type lineShift struct {
	start, end, delta int
}

// record notes that m turned the text before into after.
func (lm *lineMap) record(m *engine.Match, before, after string) {
	delta := strings.Count(after, "\n") - strings.Count(before, "\n")
	*lm = append(*lm, lineShift{start: m.StartLine, end: m.EndLine, delta: delta})
}

// forward maps line, a line of the file as it was, to the current text:
// lines after a change move with it, lines inside one move to its start,
// as engine.ApplyEdits shifts a line hint.
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

// forwardAfter maps after, the line of the file as it was after which an
// insertion goes (0: before the first line), to the current text: after
// the lines that replaced it when a block changed it, and after the lines
// an earlier block inserted at the same place, so that insertions keep
// the answer's order.
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

// back maps the region start..end of the current text to the file as it
// was. A line that an earlier block wrote maps to the region that block
// replaced: its first line for start, its last for end (the line before
// it when the block only inserted).
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

// explainErr returns err with the lines of its candidates mapped to the
// file as it was, so that a refusal and an applied block count lines the
// same way.
func (lm lineMap) explainErr(err error) error {
	e, ok := err.(*engine.Error)
	if !ok || len(lm) == 0 || len(e.Candidates) == 0 {
		return err
	}
	mapped := *e
	mapped.Candidates = append([]engine.Candidate(nil), e.Candidates...)
	for k := range mapped.Candidates {
		c := &mapped.Candidates[k]
		c.StartLine, c.EndLine = lm.back(c.StartLine, c.EndLine)
	}
	return &mapped
}
