package workspace

import "github.com/graft-editor/graft/engine"

// explainErr returns err with the lines of its candidates mapped by lm to
// the file as it was, so that a refusal and an applied block count lines
// the same way.
func explainErr(lm engine.LineMap, err error) error {
	e, ok := err.(*engine.Error)
	if !ok || len(lm) == 0 || len(e.Candidates) == 0 {
		return err
	}
	mapped := *e
	mapped.Candidates = append([]engine.Candidate(nil), e.Candidates...)
	for k := range mapped.Candidates {
		c := &mapped.Candidates[k]
		c.StartLine, c.EndLine = lm.Back(c.StartLine, c.EndLine)
	}
	return &mapped
}
