// Package engine resolves the edits that language models write against the
// text they were meant for, and applies them.
//
// The engine is pure: it reads and returns strings and never touches a file.
// Every dialect (SEARCH/REPLACE blocks, str-replace tool calls, diffs, ...)
// is parsed elsewhere into an [Edit]; [Resolve] finds the region an edit
// means, or refuses with an [*Error] that shows the best candidate, and
// [ApplyEdits] runs several edits for one file in order.
package engine

import "slices"

// Op says what an [Edit] does to its file.
type Op int

const (
	// OpReplace replaces the region that matches Old with New.
	OpReplace Op = iota
	// OpCreate creates the file with New as its content.
	OpCreate
	// OpDelete deletes the file.
	OpDelete
	// OpMove renames the file to NewPath.
	OpMove
	// OpInsert inserts New after line Line (0: at the top of the file,
	// AtEnd: after its last line).
	OpInsert
)

// AtEnd is the Line of an OpInsert edit that appends to the file.
const AtEnd = -1

var opNames = [...]string{"replace", "create", "delete", "move", "insert"}

func (op Op) String() string {
	if op >= 0 && int(op) < len(opNames) {
		return opNames[op]
	}
	return "op(?)"
}

// An Edit is one change a model asked for, in the form every dialect is
// parsed into.
type Edit struct {
	// Path is the target file as the model wrote it, relative to the
	// workspace root; empty when the block names no file.
	Path string
	// Op is what the edit does; the zero value is OpReplace.
	Op Op
	// Old is the text the model believes is in the file (OpReplace).
	Old string
	// New is the replacement (OpReplace), the content (OpCreate) or the
	// inserted text (OpInsert).
	New string
	// Line is a 1-based line hint for OpReplace (0 when there is none): it
	// only decides between candidates that are about equally good. For
	// OpInsert it is the line after which New goes.
	Line int
	// ReplaceAll asks for every occurrence of Old to be replaced.
	ReplaceAll bool
	// NewPath is the destination of OpMove.
	NewPath string
	// Scope lines (apply-patch's "@@ def run():" lines), outermost first,
	// narrow where Old may be: inside the block each opens, under the one
	// before it.
	Scope []string
	// EndOfFile says Old ends the file (apply-patch's "*** End of File").
	EndOfFile bool
	// Dialect names the format the edit was written in.
	Dialect string
	// Source is where the edit stands in the text it was parsed from.
	Source Span
}

// Equal reports whether e and f are the same edit, field by field, their
// Scope lines compared one by one.
func (e Edit) Equal(f Edit) bool {
	return e.Path == f.Path && e.Op == f.Op && e.Old == f.Old && e.New == f.New && e.Line == f.Line &&
		e.ReplaceAll == f.ReplaceAll && e.NewPath == f.NewPath && slices.Equal(e.Scope, f.Scope) &&
		e.EndOfFile == f.EndOfFile && e.Dialect == f.Dialect && e.Source == f.Source
}

// A Span is a range of 1-based lines, both ends included.
type Span struct {
	StartLine int
	EndLine   int
}

// Options tune resolution. The zero value is ready to use.
type Options struct {
	// Threshold is the minimum similarity in (0, 1] a fuzzy match needs;
	// zero means DefaultThreshold.
	Threshold float64

	// History holds earlier versions of the text, most recent first. An
	// edit whose search is not in the text as written, but stands in one
	// of them at lines that have changed since, is refused as stale
	// (ReasonStale) rather than merged into the changed lines. Nil costs
	// nothing.
	History []Version

	// ignoreStanding resolves the edit as if its change could not stand
	// in the text already (see Document.Resolve).
	ignoreStanding bool
}

// DefaultThreshold is the minimum similarity of a fuzzy match when
// Options.Threshold is zero.
const DefaultThreshold = 0.8

func (o Options) threshold() float64 {
	if o.Threshold <= 0 || o.Threshold > 1 {
		return DefaultThreshold
	}
	return o.Threshold
}
