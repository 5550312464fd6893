package engine

import (
	"fmt"
	"strings"
)

// A Reason classifies why an edit was refused.
type Reason string

// The reasons an edit is refused.
const (
	// ReasonNotFound: nothing in the text resembles the search.
	ReasonNotFound Reason = "not-found"
	// ReasonBelowThreshold: the best candidate is not similar enough.
	ReasonBelowThreshold Reason = "below-threshold"
	// ReasonAmbiguous: two or more places are about equally good and no
	// line hint decides between them.
	ReasonAmbiguous Reason = "ambiguous"
	// ReasonConflict: the model changes a line that has changed in the
	// file since the model read it.
	ReasonConflict Reason = "conflict"
	// ReasonInvalid: the edit itself cannot be carried out (empty search,
	// a replacement whose elisions cannot be placed, a line out of range).
	ReasonInvalid Reason = "invalid"
	// ReasonSkipped: an earlier edit to the same file failed.
	ReasonSkipped Reason = "skipped"
	// ReasonStale: the search quotes an earlier version of the text (one
	// of Options.History), at lines that have changed since.
	ReasonStale Reason = "stale"
)

// A Candidate is a region that resembled the search, shown in errors so
// that an agent can correct its next attempt.
type Candidate struct {
	// StartLine and EndLine are 1-based, both included.
	StartLine, EndLine int
	// Score is the similarity to the search in [0, 1].
	Score float64
	// Diff is a short unified diff from the search to the region.
	Diff string
}

// Error is the error Resolve and ApplyEdits return when they refuse an edit.
type Error struct {
	Reason Reason
	// Summary is a one-line explanation.
	Summary string
	// Candidates are the best regions found, best first (empty when
	// nothing resembled the search).
	Candidates []Candidate
	// Detail is extra text for the reader (for a conflict, both versions
	// of the line).
	Detail string

	// line is a 1-based line of the file, apart from the candidates,
	// where a line of the search that tells places apart stands; 0 for
	// none.
	line int
}

// Error returns the summary, the candidates and their diffs, in a form an
// agent can act on.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Summary)
	for i, c := range e.Candidates {
		if i == 3 {
			fmt.Fprintf(&b, "\n(%d more candidates)", len(e.Candidates)-3)
			break
		}
		fmt.Fprintf(&b, "\ncandidate at lines %d-%d (%.0f%% similar)", c.StartLine, c.EndLine, 100*c.Score)
		if c.Diff != "" && i == 0 {
			b.WriteString(", diff from the search to the file:\n")
			b.WriteString(strings.TrimRight(c.Diff, "\n"))
		}
	}
	if e.Detail != "" {
		b.WriteString("\n")
		b.WriteString(strings.TrimRight(e.Detail, "\n"))
	}
	return b.String()
}

func refuse(reason Reason, format string, args ...any) *Error {
	return &Error{Reason: reason, Summary: fmt.Sprintf(format, args...)}
}
