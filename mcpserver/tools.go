package mcpserver

import (
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graft-editor/graft/engine/dialect"
)

// The names of the tools, as clients call them.
const (
	ToolEdit         = "edit"
	ToolApplyEdits   = "apply_edits"
	ToolPreviewEdits = "preview_edits"
)

// EditArgs are the arguments of the edit tool: one str-replace edit.
type EditArgs struct {
	Path       string `json:"path" jsonschema:"the file to edit, relative to the workspace root (or absolute, inside it)"`
	OldString  string `json:"old_string" jsonschema:"the text to replace, as it is in the file; a few unchanged lines around the change make it unique. Empty: create the file with new_string (an existing file is not overwritten)"`
	NewString  string `json:"new_string" jsonschema:"the text to put in its place"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_string, not only a unique one"`
	StartLine  int    `json:"start_line,omitempty" jsonschema:"the 1-based line where old_string starts, as you read it (0: none); it only decides between places that match about equally well"`
	Review     bool   `json:"review,omitempty" jsonschema:"show the change to the user in their editor, hunk by hunk, and wait for them to accept or reject each; the result says which they accepted. Needs an editor with the workspace open"`
}

// ApplyArgs are the arguments of the apply_edits tool.
type ApplyArgs struct {
	Text   string `json:"text" jsonschema:"edit blocks in any dialect Graft reads: SEARCH/REPLACE blocks, str_replace tool calls as JSON, unified diffs, apply_patch envelopes, EDIT blocks; each names its file"`
	Atomic bool   `json:"atomic,omitempty" jsonschema:"apply nothing unless every block applies and every file can be written"`
	Review bool   `json:"review,omitempty" jsonschema:"show the changes to the user in their editor, hunk by hunk, and wait for them to accept or reject each; the result says which they accepted. Needs an editor with the workspace open"`
}

// PreviewArgs are the arguments of the preview_edits tool.
type PreviewArgs struct {
	Text string `json:"text" jsonschema:"edit blocks in any dialect Graft reads, as for apply_edits"`
}

// tool descriptions, for the model that picks a tool.
const (
	editDescription = `Replace text in a file: old_string is found and replaced with new_string. ` +
		`Like str_replace, but forgiving and safe: when old_string is not exactly in the file ` +
		`(indentation, whitespace, a line slightly off), the one region that clearly matches is ` +
		`replaced and the result says what was adjusted; when no region or several match, nothing ` +
		`changes and the error shows the best candidate, its lines and what to quote instead. ` +
		`Files are written atomically; paths stay inside the workspace root.`
	applyDescription = `Apply edit blocks written in any common format (%s) to the files they ` +
		`name, each resolved as the edit tool resolves old_string. A block that does not apply is ` +
		`refused with its best candidate; with atomic, nothing is written unless every block applies.`
	previewDescription = `Show what apply_edits would do with the same text: the unified diff ` +
		`of every file and how each block would match. Changes nothing.`
)

// tools returns the tool definitions, with their input schemas and
// annotations; the output schema is the Report's, which mcp.AddTool infers.
func tools() (edit, apply, preview *mcp.Tool) {
	destructive := true
	closedWorld := false
	edit = &mcp.Tool{
		Name:        ToolEdit,
		Title:       "Edit a file (str_replace)",
		Description: editDescription,
		InputSchema: editSchema(),
		Annotations: &mcp.ToolAnnotations{
			Title:           "Edit a file",
			DestructiveHint: &destructive,
			OpenWorldHint:   &closedWorld,
		},
	}
	apply = &mcp.Tool{
		Name:        ToolApplyEdits,
		Title:       "Apply edit blocks",
		Description: fmt.Sprintf(applyDescription, strings.Join(dialect.Names(), ", ")),
		Annotations: &mcp.ToolAnnotations{
			Title:           "Apply edit blocks",
			DestructiveHint: &destructive,
			OpenWorldHint:   &closedWorld,
		},
	}
	preview = &mcp.Tool{
		Name:        ToolPreviewEdits,
		Title:       "Preview edit blocks",
		Description: previewDescription,
		Annotations: &mcp.ToolAnnotations{
			Title:          "Preview edit blocks",
			ReadOnlyHint:   true,
			IdempotentHint: true,
			OpenWorldHint:  &closedWorld,
		},
	}
	return edit, apply, preview
}

// editSchema is the schema inferred from EditArgs, with start_line held
// to a line number or 0, which means none.
func editSchema() *jsonschema.Schema {
	s, err := jsonschema.For[EditArgs](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: schema of EditArgs: %v", err)) // a bug in EditArgs' tags
	}
	zero := 0.0
	s.Properties["start_line"].Minimum = &zero
	return s
}
