package engine

import (
	"sort"
	"strings"
)

// A Change replaces the bytes [Start, End) of a text with Text.
type Change struct {
	Start, End int
	Text       string
}

// A Match is a resolved edit: where it landed, how it was found, and the
// bytes that replace the region.
type Match struct {
	// Strategy names how the region was found: "exact", or the fuzzy
	// strategies that were needed, joined by "+" (for example
	// "line-numbers+line-trimmed").
	Strategy string
	// Score is the similarity in [0, 1] between the model's text and the
	// region; 1 for an exact match.
	Score float64
	// StartLine and EndLine are the 1-based lines of the matched region
	// in the text the edit was resolved against, both included. For an
	// insertion at the very end of a text they may exceed its line count.
	StartLine, EndLine int
	// Changes are the byte-level replacements, in order, not overlapping.
	// Most edits have one; a replace-all edit has one per occurrence.
	Changes []Change
	// Notes say what was adjusted on the way, for people reading a report
	// (kept lines, re-indentation, line hint used).
	Notes []string
	// AlreadyApplied says that the change already stands in the text, at
	// StartLine-EndLine: the replacement is there, as it would be
	// written, where it would land (an answer applied twice). Changes is
	// then empty: applying the match changes nothing.
	AlreadyApplied bool
}

// Apply returns text with the match's changes made. text must be the text
// the match was resolved against.
func (m *Match) Apply(text string) string {
	changes := append([]Change(nil), m.Changes...)
	sort.SliceStable(changes, func(i, j int) bool { return changes[i].Start < changes[j].Start })
	return ApplyChanges(text, changes)
}

// ApplyChanges returns text with the changes made, which must be in order
// and apart.
func ApplyChanges(text string, changes []Change) string {
	n := len(text)
	for _, c := range changes {
		n += len(c.Text) - (c.End - c.Start)
	}
	var b strings.Builder
	b.Grow(n)
	at := 0
	for _, c := range changes {
		b.WriteString(text[at:c.Start])
		b.WriteString(c.Text)
		at = c.End
	}
	b.WriteString(text[at:])
	return b.String()
}

// Message is a one-line summary of the match for reports.
func (m *Match) Message() string {
	return strings.Join(m.Notes, "; ")
}
