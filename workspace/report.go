package workspace

import (
	"errors"
	"io/fs"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
)

// A Report is the JSON report of a plan, as the outside contract fixes it
// for graft apply --json and the tools of graft mcp: fields may be added,
// never removed or renamed.
type Report struct {
	Blocks  []BlockReport `json:"blocks" jsonschema:"one entry per edit block, in the order they were given"`
	Files   []FileReport  `json:"files" jsonschema:"one entry per file the blocks name"`
	Applied int           `json:"applied" jsonschema:"the number of blocks that applied (for a preview: would apply)"`
	// AlreadyApplied counts the blocks whose change stood in the file
	// already: nothing written, a success.
	AlreadyApplied int `json:"alreadyApplied" jsonschema:"the number of blocks whose change already stood in the file: nothing written for them, a success"`
	Failed         int `json:"failed" jsonschema:"the number of blocks that were refused"`
	Skipped        int `json:"skipped" jsonschema:"the number of blocks left out because another block failed"`
	// Via says where the edits went: "disk" (graft wrote the files) or
	// "editor" (an editor's graft serve applied them to its buffers).
	Via string `json:"via,omitempty" jsonschema:"where the edits went: disk, or editor (the open buffers of the editor's graft serve)"`
	// Decisions, for edits sent for review, are each hunk's id and how
	// the person decided it.
	Decisions map[string]string `json:"decisions,omitempty" jsonschema:"with review: each hunk's id and how the person decided it: accepted (in the editor's buffer), rejected, or pending (undecided when the wait ended)"`
}

// A BlockReport is a block's entry in the report. StartLine and EndLine
// count the lines of the file as it was before the answer; when the
// earlier blocks of the file moved the match, ResolvedStartLine and
// ResolvedEndLine give its lines in the text the block was resolved
// against.
type BlockReport struct {
	Index   int    `json:"index"`
	Path    string `json:"path"`
	Dialect string `json:"dialect"`
	Status  string `json:"status"`
	// Reason is why a block failed or was skipped, a word a program can
	// act on (engine.Reason: not-found, ambiguous, below-threshold,
	// conflict, ...; or outside-root, binary, not-utf8, too-large,
	// not-found-file for a file that cannot be edited); empty for a block
	// that applied.
	Reason        string  `json:"reason,omitempty"`
	Strategy      string  `json:"strategy"`
	Score         float64 `json:"score"`
	StartLine     int     `json:"startLine"`
	EndLine       int     `json:"endLine"`
	Message       string  `json:"message"`
	ElapsedMicros int64   `json:"elapsedMicros"`
	// Block is the block's number as a person counts the answer's blocks,
	// from 1: the file sections of one apply-patch share it.
	Block int `json:"block"`

	ResolvedStartLine int `json:"resolvedStartLine,omitempty"`
	ResolvedEndLine   int `json:"resolvedEndLine,omitempty"`
}

// A FileReport is a file's entry in the report.
type FileReport struct {
	Path    string `json:"path"`
	NewPath string `json:"newPath,omitempty" jsonschema:"where a move puts the file"`
	Action  string `json:"action" jsonschema:"modify, create, delete or move"`
	Changed bool   `json:"changed" jsonschema:"whether the file changed (for a preview: would change)"`
	Diff    string `json:"diff,omitempty" jsonschema:"the unified diff of the change (previews and dry runs)"`
	// Error says why the blocks' change of the file was not made after
	// all: "a.txt not written: ...".
	Error string `json:"error,omitempty" jsonschema:"why the change of the file was not made (not written), when it was not"`
}

// Report returns the report of r, with each file's diff when withDiff is
// set, and Via "disk".
func (r *Result) Report(withDiff bool) *Report {
	rep := &Report{
		Blocks:         make([]BlockReport, len(r.Blocks)),
		Files:          make([]FileReport, len(r.Files)),
		Applied:        r.Count(engine.StatusApplied),
		AlreadyApplied: r.Count(engine.StatusAlreadyApplied),
		Failed:         r.Count(engine.StatusFailed),
		Skipped:        r.Count(engine.StatusSkipped),
		Via:            "disk",
	}
	for i := range r.Blocks {
		rep.Blocks[i] = r.Blocks[i].Report()
	}
	for i := range r.Files {
		f := &r.Files[i]
		rep.Files[i] = FileReport{Path: f.Path, NewPath: f.NewPath, Action: string(f.Action), Changed: f.Changed}
		if f.Err != nil {
			rep.Files[i].Error = f.Err.Error()
		}
		if withDiff {
			rep.Files[i].Diff = f.Diff()
		}
	}
	return rep
}

// Report returns the block's entry in the report.
func (b *BlockResult) Report() BlockReport {
	rep := BlockReport{
		Index:         b.Index,
		Block:         b.Number,
		Path:          b.Path,
		Dialect:       b.Dialect,
		Status:        string(b.Status),
		Reason:        b.Reason(),
		Strategy:      b.Strategy,
		Score:         b.Score,
		StartLine:     b.StartLine,
		EndLine:       b.EndLine,
		Message:       b.Message,
		ElapsedMicros: b.Elapsed.Microseconds(),
	}
	if b.Moved() {
		rep.ResolvedStartLine, rep.ResolvedEndLine = b.ResolvedStartLine, b.ResolvedEndLine
	}
	return rep
}

// Moved reports whether the block's lines in the text it was resolved
// against are not its lines in the file as it was.
func (b *BlockResult) Moved() bool {
	return b.ResolvedStartLine > 0 && (b.ResolvedStartLine != b.StartLine || b.ResolvedEndLine != b.EndLine)
}

// Reason returns the machine-readable reason a block failed or was
// skipped (see BlockReport.Reason); empty for one that applied.
func (b *BlockResult) Reason() string {
	if b.Status.OK() || b.Err == nil {
		return ""
	}
	var e *engine.Error
	switch {
	case errors.As(b.Err, &e):
		return string(e.Reason)
	case errors.Is(b.Err, ErrOutsideRoot):
		return "outside-root"
	case errors.Is(b.Err, ErrBadName):
		return "bad-path"
	case errors.Is(b.Err, ErrBinary):
		return "binary"
	case errors.Is(b.Err, ErrNotUTF8):
		return "not-utf8"
	case errors.Is(b.Err, ErrTooLarge):
		return "too-large"
	case errors.Is(b.Err, fs.ErrNotExist):
		return "no-file"
	case errors.Is(b.Err, ErrIsDir), errors.Is(b.Err, ErrNotRegular):
		return "not-a-file"
	case errors.Is(b.Err, ErrNotApplied):
		return "not-applied"
	case errors.Is(b.Err, dialect.ErrUnfinished):
		return "unfinished"
	}
	return string(engine.ReasonInvalid)
}
