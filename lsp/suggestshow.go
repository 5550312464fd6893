package lsp

import (
	"context"
	"encoding/json"
	"fmt"
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
		diags = append(diags, sg.diagnostic())
	}
	g.s.publish(ctx, uri, f.version, sourceSuggestions, diags)
	if len(f.list) == 0 {
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

// diagnostic returns the diagnostic that shows sg: a hint over the region
// it would change, or a warning saying why it no longer applies.
func (sg *suggestion) diagnostic() protocol.Diagnostic {
	d := protocol.Diagnostic{
		Range:  sg.rng,
		Source: "graft",
		Code:   "suggestion",
		Data:   map[string]string{"id": sg.id},
	}
	if sg.pending() {
		d.Severity = protocol.DiagnosticSeverityHint
		d.Message = fmt.Sprintf("Suggestion (%s): %s", strategyOf(sg.res), sg.summary)
		return d
	}
	d.Severity = protocol.DiagnosticSeverityWarning
	d.Message = "Suggestion no longer applies: " + strings.TrimSpace(sg.res.Message)
	return d
}

// strategyOf says how a block resolved: its strategy, with the score of a
// fuzzy one.
func strategyOf(r workspace.BlockResult) string {
	if r.Score >= 1 {
		return r.Strategy
	}
	return fmt.Sprintf("%s, score %.2f", r.Strategy, r.Score)
}

// entry returns sg as graft.suggestions lists it.
func (g *suggestions) entry(f *suggestedFile, sg *suggestion) suggestionEntry {
	e := suggestionEntry{
		ID:       sg.id,
		URI:      f.uri,
		Path:     sg.res.Path,
		Range:    sg.rng,
		Version:  f.version,
		Strategy: sg.res.Strategy,
		Score:    sg.res.Score,
		Summary:  sg.summary,
		State:    suggestionPending,
		Dialect:  sg.block.Dialect,
	}
	if e.URI == "" {
		e.URI = fileURI(f.abs)
	}
	if !sg.pending() {
		e.State, e.Message = suggestionStale, sg.res.Message
	}
	return e
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
		d := sg.diagnostic()
		fmt.Fprintf(&b, "%s %v %v %s;", sg.id, d.Range, d.Severity, d.Message)
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

// codeActions returns the actions of the suggestions under r in d:
// "Apply suggestion", "Apply all suggestions in this file" and "Dismiss
// suggestion"; only the last for one that no longer applies.
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
		if sg.pending() {
			pending++
		}
	}
	var actions []protocol.CodeAction
	all := false
	for _, sg := range f.list {
		if !rangesTouch(sg.rng, r) {
			continue
		}
		diag := sg.diagnostic()
		if sg.pending() {
			title := "Apply suggestion: " + sg.summary
			actions = append(actions, protocol.CodeAction{
				Title:       title,
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{diag},
				IsPreferred: true,
				Command:     suggestionCommand(title, cmdApplySuggestion, uri, sg.id),
			})
			all = true
		}
		actions = append(actions, protocol.CodeAction{
			Title:       "Dismiss suggestion",
			Kind:        protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{diag},
			Command:     suggestionCommand("Dismiss suggestion", cmdDismiss, uri, sg.id),
		})
	}
	if all {
		title := fmt.Sprintf("Apply all suggestions in this file (%d)", pending)
		actions = append(actions, protocol.CodeAction{
			Title:   title,
			Kind:    protocol.QuickFix,
			Command: suggestionCommand(title, cmdApplySuggestion, uri, ""),
		})
	}
	return actions
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

// codeLenses returns the lenses above d's suggestions: "Apply suggestion"
// and "Dismiss" over each pending one, and over one that no longer
// applies, a "Dismiss" that says so.
func (g *suggestions) codeLenses(ctx context.Context, d *openDoc) []protocol.CodeLens {
	g.mu.Lock()
	defer g.mu.Unlock()
	f := g.docFileLocked(ctx, d)
	if f == nil {
		return nil
	}
	var lenses []protocol.CodeLens
	for _, sg := range f.list {
		at := protocol.Range{Start: protocol.Position{Line: sg.rng.Start.Line}, End: protocol.Position{Line: sg.rng.Start.Line}}
		if sg.pending() {
			title := fmt.Sprintf("Apply suggestion (%s)", strategyOf(sg.res))
			lenses = append(lenses,
				protocol.CodeLens{Range: at, Command: suggestionCommand(title, cmdApplySuggestion, d.uri, sg.id)},
				protocol.CodeLens{Range: at, Command: suggestionCommand("Dismiss", cmdDismiss, d.uri, sg.id)})
			continue
		}
		lenses = append(lenses, protocol.CodeLens{Range: at,
			Command: suggestionCommand("Suggestion no longer applies: dismiss", cmdDismiss, d.uri, sg.id)})
	}
	return lenses
}
