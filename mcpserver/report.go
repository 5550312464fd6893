package mcpserver

import (
	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/workspace"
)

// A Report is the structured result of every tool: the JSON report of
// graft apply --json, as the outside contract fixes it (fields may be
// added, none removed or renamed).
type Report struct {
	Blocks  []BlockReport `json:"blocks" jsonschema:"one entry per edit block, in the order they were given"`
	Files   []FileReport  `json:"files" jsonschema:"one entry per file the blocks name"`
	Applied int           `json:"applied" jsonschema:"the number of blocks that applied (for preview_edits: would apply)"`
	Failed  int           `json:"failed" jsonschema:"the number of blocks that were refused"`
	Skipped int           `json:"skipped" jsonschema:"the number of blocks left out because another block failed"`
	Via     string        `json:"via,omitempty" jsonschema:"where the edits went: disk, or editor (the open buffers of the editor's graft serve)"`
}

// A BlockReport is a block's entry: the contract's fields, whose
// startLine and endLine count the lines of the file as it was, and the
// lines of the match in the text the block was resolved against, after
// the earlier blocks of its file, when they differ.
type BlockReport struct {
	workspace.BlockReport
	ResolvedStartLine int `json:"resolvedStartLine,omitempty"`
	ResolvedEndLine   int `json:"resolvedEndLine,omitempty"`
}

// A FileReport is a file's entry.
type FileReport struct {
	Path    string `json:"path"`
	NewPath string `json:"newPath,omitempty" jsonschema:"where a move puts the file"`
	Action  string `json:"action" jsonschema:"modify, create, delete or move"`
	Changed bool   `json:"changed" jsonschema:"whether the file changed (for preview_edits: would change)"`
	Diff    string `json:"diff,omitempty" jsonschema:"the unified diff of the change (preview_edits)"`
}

// newReport returns the report of res, with each file's diff when
// withDiff is set.
func newReport(res *workspace.Result, withDiff bool) *Report {
	r := &Report{
		Blocks:  make([]BlockReport, len(res.Blocks)),
		Files:   make([]FileReport, len(res.Files)),
		Applied: res.Count(engine.StatusApplied),
		Failed:  res.Count(engine.StatusFailed),
		Skipped: res.Count(engine.StatusSkipped),
		Via:     viaDisk,
	}
	for i := range res.Blocks {
		b := &res.Blocks[i]
		r.Blocks[i].BlockReport = b.Report()
		if moved(b) {
			r.Blocks[i].ResolvedStartLine, r.Blocks[i].ResolvedEndLine = b.ResolvedStartLine, b.ResolvedEndLine
		}
	}
	for i := range res.Files {
		f := &res.Files[i]
		r.Files[i] = FileReport{Path: f.Path, NewPath: f.NewPath, Action: string(f.Action), Changed: f.Changed}
		if withDiff {
			r.Files[i].Diff = f.Diff()
		}
	}
	return r
}

// moved reports whether the block's lines in the text it was resolved
// against are not its lines in the file as it was.
func moved(b *workspace.BlockResult) bool {
	return b.ResolvedStartLine > 0 && (b.ResolvedStartLine != b.StartLine || b.ResolvedEndLine != b.EndLine)
}
