package lsp

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/graft-editor/graft/workspace"
)

// uriFor returns the document URI of the file at abs: as the client
// opened it, or its file: URI when it is not open.
func (g *suggestions) uriFor(view *workspace.View, abs string) protocol.DocumentURI {
	if snap, ok := view.Snapshot(abs); ok {
		return g.s.uriOf(snap.Path)
	}
	return fileURI(abs)
}

// publishLocked publishes the diagnostics of f's suggestions, and forgets
// f once it has none. g.mu is held.
func (g *suggestions) publishLocked(ctx context.Context, view *workspace.View, f *suggestedFile) {
	uri := g.uriFor(view, f.abs)
	if f.uri != "" && f.uri != uri {
		g.s.publish(ctx, f.uri, nil, sourceSuggestions, nil)
	}
	f.uri = uri
	var diags []protocol.Diagnostic
	for _, sg := range f.list {
		diags = append(diags, sg.diagnostics()...)
	}
	for _, c := range f.choices {
		diags = append(diags, c.diagnostics()...)
	}
	g.s.publish(ctx, uri, f.version, sourceSuggestions, diags)
	if len(f.list) == 0 && len(f.choices) == 0 {
		g.forgetLocked(f)
	}
}

// forgetLocked drops f, which has no suggestions left. g.mu is held.
func (g *suggestions) forgetLocked(f *suggestedFile) {
	if f.timer != nil {
		f.timer.Stop()
	}
	if g.files[f.abs] == f {
		delete(g.files, f.abs)
	}
}

// diagnostics returns the diagnostics that show the hunks of sg: a hint
// over each pending one, and over one that no longer applies, a warning
// saying why.
func (sg *suggestion) diagnostics() []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, len(sg.hunks))
	for i, h := range sg.hunks {
		out[i] = sg.hunkDiagnostic(h, i)
	}
	return out
}

// hunkDiagnostic returns the diagnostic that shows h, the hunk i of sg.
func (sg *suggestion) hunkDiagnostic(h *hunk, i int) protocol.Diagnostic {
	what := "Suggestion"
	if len(sg.hunks) > 1 {
		what = fmt.Sprintf("Suggestion, hunk %d of %d", i+1, len(sg.hunks))
	}
	d := protocol.Diagnostic{
		Range:    h.diag,
		Severity: protocol.DiagnosticSeverityHint,
		Source:   "graft",
		Code:     "suggestion",
		Data:     map[string]string{"id": sg.hunkID(h), "block": sg.id},
	}
	if !h.pending() {
		d.Severity = protocol.DiagnosticSeverityWarning
		d.Message = what + " no longer applies: " + strings.TrimSpace(h.res.Message)
		return d
	}
	d.Message = fmt.Sprintf("%s (%s): %s", what, strategyOf(sg.how(h)), h.summary)
	return d
}

// strategyOf says how a block resolved: its strategy, with the score of a
// fuzzy one.
func strategyOf(strategy string, score float64) string {
	if score >= 1 {
		return strategy
	}
	return fmt.Sprintf("%s, score %.2f", strategy, score)
}

// refreshLocked syncs f with view and publishes its diagnostics when
// anything moved. g.mu is held.
func (g *suggestions) refreshLocked(ctx context.Context, view *workspace.View, f *suggestedFile) error {
	before := f.snapshot()
	if err := g.syncLocked(ctx, view, f); err != nil {
		return err
	}
	if f.snapshot() != before || f.uri != g.uriFor(view, f.abs) {
		g.publishLocked(ctx, view, f)
		g.refreshLenses()
	}
	return nil
}

// snapshot returns what the file's publication shows, to tell whether it
// changed.
func (f *suggestedFile) snapshot() string {
	var b strings.Builder
	if f.version != nil {
		fmt.Fprintf(&b, "v%d;", *f.version)
	}
	for _, sg := range f.list {
		for _, d := range sg.diagnostics() {
			fmt.Fprintf(&b, "%s %v %v %s;", sg.id, d.Range, d.Severity, d.Message)
		}
	}
	for _, c := range f.choices {
		for _, d := range c.diagnostics() {
			fmt.Fprintf(&b, "%s %v %s;", c.id, d.Range, d.Message)
		}
	}
	return b.String()
}

// refreshLenses asks a client that supports it to ask for its code lenses
// again, as the suggestions' lenses moved. The request goes out on its
// own, so that nothing waits for the reply.
func (g *suggestions) refreshLenses() {
	g.s.mu.Lock()
	ok := g.s.caps.codeLensRefresh && g.s.caps.codeLens
	g.s.mu.Unlock()
	if !ok || g.s.conn == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := g.s.conn.Call(ctx, "workspace/codeLens/refresh", nil, nil); err != nil {
			g.s.log.Debug("codeLens/refresh", zap.Error(err))
		}
	}()
}

// docFileLocked returns the suggested file that the open document d
// holds, brought up to date with the buffer; nil when it has none.
// g.mu is held.
func (g *suggestions) docFileLocked(ctx context.Context, d *openDoc) *suggestedFile {
	if d.path == "" || len(g.files) == 0 {
		return nil
	}
	f := g.files[d.path]
	if f == nil {
		f = g.lookupLocked(d.uri)
	}
	if f == nil {
		return nil
	}
	if err := g.refreshLocked(ctx, g.s.docs.View(), f); err != nil {
		return nil
	}
	return f
}

// codeActions returns the actions of the hunks under r in d: "Accept
// hunk", "Reject hunk", and "Accept all in file" and "Reject all in
// file"; over a hunk that no longer applies, "Reject hunk" alone.
func (g *suggestions) codeActions(ctx context.Context, d *openDoc, r protocol.Range) []protocol.CodeAction {
	g.mu.Lock()
	defer g.mu.Unlock()
	f := g.docFileLocked(ctx, d)
	if f == nil {
		return nil
	}
	uri := d.uri
	pending := 0
	for _, sg := range f.list {
		for _, h := range sg.hunks {
			if h.pending() {
				pending++
			}
		}
	}
	var actions []protocol.CodeAction
	for _, sg := range f.list {
		for i, h := range sg.hunks {
			if !rangesTouch(h.diag, r) {
				continue
			}
			diag := sg.hunkDiagnostic(h, i)
			id := sg.hunkID(h)
			if !h.pending() {
				actions = append(actions, protocol.CodeAction{
					Title:       "Reject hunk (it no longer applies)",
					Kind:        protocol.QuickFix,
					Diagnostics: []protocol.Diagnostic{diag},
					Command:     suggestionCommand("Reject hunk", cmdReject, uri, id),
				})
				continue
			}
			title := "Accept hunk: " + h.summary
			actions = append(actions,
				protocol.CodeAction{
					Title:       title,
					Kind:        protocol.QuickFix,
					Diagnostics: []protocol.Diagnostic{diag},
					IsPreferred: true,
					Command:     suggestionCommand(title, cmdAccept, uri, id),
				},
				protocol.CodeAction{
					Title:       "Reject hunk",
					Kind:        protocol.QuickFix,
					Diagnostics: []protocol.Diagnostic{diag},
					Command:     suggestionCommand("Reject hunk", cmdReject, uri, id),
				})
		}
	}
	if len(actions) > 0 && pending > 0 {
		accept := fmt.Sprintf("Accept all in file (%d hunks)", pending)
		reject := fmt.Sprintf("Reject all in file (%d hunks)", pending)
		actions = append(actions,
			protocol.CodeAction{Title: accept, Kind: protocol.QuickFix, Command: suggestionCommand(accept, cmdAccept, uri, "")},
			protocol.CodeAction{Title: reject, Kind: protocol.QuickFix, Command: suggestionCommand(reject, cmdReject, uri, "")})
	}
	return append(actions, f.choiceActions(uri, r)...)
}

// suggestionCommand returns the command that runs cmd on the suggestion
// id of the document at uri, or on all of its suggestions.
func suggestionCommand(title, cmd, uri, id string) *protocol.Command {
	return &protocol.Command{Title: title, Command: cmd, Arguments: []any{suggestionArgs{URI: uri, ID: id}}}
}

// MarshalJSON leaves out an empty id, which means every suggestion.
func (a suggestionArgs) MarshalJSON() ([]byte, error) {
	m := map[string]string{"uri": a.URI}
	if a.ID != "" {
		m["id"] = a.ID
	}
	return json.Marshal(m)
}

// rangesTouch reports whether two ranges overlap or touch.
func rangesTouch(a, b protocol.Range) bool {
	return !positionLess(a.End, b.Start) && !positionLess(b.End, a.Start)
}

// before reports whether p comes before q.
func positionLess(p, q protocol.Position) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Character < q.Character)
}

// codeLenses returns the lenses of d's hunks: "Accept" and "Reject" above
// each pending one, "Accept all" and "Reject all" at the top of a document
// with more than one, and above a hunk that no longer applies, a "Reject"
// that says so.
func (g *suggestions) codeLenses(ctx context.Context, d *openDoc) []protocol.CodeLens {
	g.mu.Lock()
	defer g.mu.Unlock()
	f := g.docFileLocked(ctx, d)
	if f == nil {
		return nil
	}
	line := func(l uint32) protocol.Range {
		return protocol.Range{Start: protocol.Position{Line: l}, End: protocol.Position{Line: l}}
	}
	var lenses []protocol.CodeLens
	pending := 0
	for _, sg := range f.list {
		for _, h := range sg.hunks {
			at, id := line(h.diag.Start.Line), sg.hunkID(h)
			if !h.pending() {
				lenses = append(lenses, protocol.CodeLens{Range: at,
					Command: suggestionCommand("Suggestion no longer applies: reject", cmdReject, d.uri, id)})
				continue
			}
			pending++
			lenses = append(lenses,
				protocol.CodeLens{Range: at, Command: suggestionCommand(fmt.Sprintf("Accept (%s)", strategyOf(sg.how(h))), cmdAccept, d.uri, id)},
				protocol.CodeLens{Range: at, Command: suggestionCommand("Reject", cmdReject, d.uri, id)})
		}
	}
	lenses = append(lenses, f.choiceLenses(d.uri)...)
	slices.SortStableFunc(lenses, func(a, b protocol.CodeLens) int { return cmp.Compare(a.Range.Start.Line, b.Range.Start.Line) })
	if pending > 1 {
		lenses = append([]protocol.CodeLens{
			{Range: line(0), Command: suggestionCommand(fmt.Sprintf("Accept all (%d hunks)", pending), cmdAccept, d.uri, "")},
			{Range: line(0), Command: suggestionCommand("Reject all", cmdReject, d.uri, "")},
		}, lenses...)
	}
	return lenses
}
