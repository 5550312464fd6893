package lsp

import (
	"testing"

	"go.lsp.dev/protocol"
)

// TestSameDiagnostics checks that diagnostics that differ in any field
// the server sets are told apart, and equal ones are not.
func TestSameDiagnostics(t *testing.T) {
	base := func() protocol.Diagnostic {
		return protocol.Diagnostic{
			Range:    protocol.Range{Start: protocol.Position{Line: 3}, End: protocol.Position{Line: 9, Character: 15}},
			Severity: protocol.DiagnosticSeverityError,
			Code:     "ambiguous",
			Source:   "graft",
			Message:  "the search text occurs 2 times",
			Data:     blockData{Block: 2},
			RelatedInformation: []protocol.DiagnosticRelatedInformation{{
				Location: protocol.Location{URI: "file:///a.go", Range: protocol.Range{End: protocol.Position{Line: 4}}},
				Message:  "candidate: lines 1-5, 100% similar",
			}},
		}
	}
	for _, tc := range []struct {
		name   string
		change func(d *protocol.Diagnostic)
		same   bool
	}{
		{"equal", func(d *protocol.Diagnostic) {}, true},
		{"equal data", func(d *protocol.Diagnostic) { d.Data = blockData{Block: 2} }, true},
		{"the same data in a map", func(d *protocol.Diagnostic) { d.Data = map[string]int{"block": 2} }, false},
		{"range", func(d *protocol.Diagnostic) { d.Range.End.Character++ }, false},
		{"severity", func(d *protocol.Diagnostic) { d.Severity = protocol.DiagnosticSeverityHint }, false},
		{"code", func(d *protocol.Diagnostic) { d.Code = "exact" }, false},
		{"code of another type", func(d *protocol.Diagnostic) { d.Code = 7 }, false},
		{"no code", func(d *protocol.Diagnostic) { d.Code = nil }, false},
		{"message", func(d *protocol.Diagnostic) { d.Message += "!" }, false},
		{"source", func(d *protocol.Diagnostic) { d.Source = "other" }, false},
		{"data", func(d *protocol.Diagnostic) { d.Data = blockData{Block: 3} }, false},
		{"data of another type", func(d *protocol.Diagnostic) { d.Data = []int{2} }, false},
		{"related location", func(d *protocol.Diagnostic) { d.RelatedInformation[0].Location.Range.End.Line = 5 }, false},
		{"no related", func(d *protocol.Diagnostic) { d.RelatedInformation = nil }, false},
		{"tags", func(d *protocol.Diagnostic) { d.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary} }, false},
		{"code description", func(d *protocol.Diagnostic) { d.CodeDescription = &protocol.CodeDescription{Href: "https://x"} }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b := base(), base()
			tc.change(&b)
			if got := sameDiagnostics([]protocol.Diagnostic{a}, []protocol.Diagnostic{b}); got != tc.same {
				t.Errorf("sameDiagnostics = %v, want %v", got, tc.same)
			}
		})
	}
	if sameDiagnostics([]protocol.Diagnostic{base()}, nil) || !sameDiagnostics(nil, []protocol.Diagnostic{}) {
		t.Error("lists of other lengths are the same, or empty ones are not")
	}
}
