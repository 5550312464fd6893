package workspace

import "github.com/graft-editor/graft/engine"

// A Report is the JSON report of a plan, as the outside contract fixes it
// for graft apply --json and the tools of graft mcp: fields may be added,
// never removed or renamed.
type Report struct {
	Blocks  []BlockReport `json:"blocks" jsonschema:"one entry per edit block, in the order they were given"`
	Files   []FileReport  `json:"files" jsonschema:"one entry per file the blocks name"`
	Applied int           `json:"applied" jsonschema:"the number of blocks that applied (for a preview: would apply)"`
	Failed  int           `json:"failed" jsonschema:"the number of blocks that were refused"`
	Skipped int           `json:"skipped" jsonschema:"the number of blocks left out because another block failed"`
	// Via says where the edits went: "disk" (graft wrote the files) or
	// "editor" (an editor's graft serve applied them to its buffers).
	Via string `json:"via,omitempty" jsonschema:"where the edits went: disk, or editor (the open buffers of the editor's graft serve)"`
}

// A BlockReport is a block's entry in the report. StartLine and EndLine
// count the lines of the file as it was before the answer; when the
// earlier blocks of the file moved the match, ResolvedStartLine and
// ResolvedEndLine give its lines in the text the block was resolved
// against.
type BlockReport struct {
	Index         int     `json:"index"`
	Path          string  `json:"path"`
	Dialect       string  `json:"dialect"`
	Status        string  `json:"status"`
	Strategy      string  `json:"strategy"`
	Score         float64 `json:"score"`
	StartLine     int     `json:"startLine"`
	EndLine       int     `json:"endLine"`
	Message       string  `json:"message"`
	ElapsedMicros int64   `json:"elapsedMicros"`

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
		Blocks:  make([]BlockReport, len(r.Blocks)),
		Files:   make([]FileReport, len(r.Files)),
		Applied: r.Count(engine.StatusApplied),
		Failed:  r.Count(engine.StatusFailed),
		Skipped: r.Count(engine.StatusSkipped),
		Via:     "disk",
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
		Path:          b.Path,
		Dialect:       b.Dialect,
		Status:        string(b.Status),
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
