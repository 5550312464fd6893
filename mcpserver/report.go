package mcpserver

import (
	"github.com/graft-editor/graft/workspace"
)

// A Report is the structured result of every tool: the JSON report of
// graft apply --json.
type Report = workspace.Report

// newReport returns the report of res, with each file's diff when
// withDiff is set.
func newReport(res *workspace.Result, withDiff bool) *Report { return res.Report(withDiff) }
