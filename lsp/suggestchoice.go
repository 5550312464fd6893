package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/lsp/internal/span"
	"github.com/graft-editor/graft/workspace"
)

// A choice is a block of graft.suggest refused because its lines occur in
// several places of its file, none better than the others: it suggests
// nothing until the person picks a place. Each place gets a diagnostic,
// whose code actions and lenses ("Suggest at lines 12-15: `func List…`",
// one per place) run graft.choose; the place chosen becomes a pending
// suggestion there, with the choice's id, as any other. Each place
// follows the buffer as a hunk does; a place whose lines change is gone,
// and choosing it is refused.
type choice struct {
	id   string
	orig dialect.Block
	// res is the block's refusal, as graft.suggest reported it.
	res    workspace.BlockResult
	places []*choicePlace
}

// A choicePlace is one of the places a choice's block fits.
type choicePlace struct {
	// n numbers the place as it was offered, from 1.
	n int
	// start and end are the byte offsets of its lines in the file's
	// text; text is what they held when the place was offered.
	start, end int
	text       string
	first      string
	// rng is the range of its lines, without the last line break.
	rng protocol.Range
	// gone says its lines changed: it is no longer offered.
	gone bool
}

// line returns the 1-based line where p starts in the text of f.
func (p *choicePlace) line() int { return int(p.rng.Start.Line) + 1 }

// lines returns the lines of p, 1-based and both included.
func (p *choicePlace) lines() (int, int) { return p.line(), int(p.rng.End.Line) + 1 }

// choicePlaceEntry is a place of a choice in the reply to graft.suggest.
type choicePlaceEntry struct {
	Place     int            `json:"place"`
	Range     protocol.Range `json:"range"`
	StartLine int            `json:"startLine"`
	EndLine   int            `json:"endLine"`
	// First is the place's first line that is not blank, to tell it by.
	First string `json:"first"`
}

// chooseArgs are the argument of graft.choose.
type chooseArgs struct {
	URI   string `json:"uri,omitempty"`
	ID    string `json:"id"`
	Place int    `json:"place"`
}

// makeChoiceLocked returns the choice of sg, a block being suggested in f
// that its file refused as ambiguous between places, or nil when it is
// no such block. g.mu is held.
func (g *suggestions) makeChoiceLocked(f *suggestedFile, sg *suggestion) *choice {
	var ee *engine.Error
	if f == nil || sg.res.Status != engine.StatusFailed || !errors.As(sg.res.Err, &ee) || ee.Reason != engine.ReasonAmbiguous || len(ee.Candidates) < 2 || f.mapper == nil {
		return nil
	}
	c := &choice{orig: sg.orig, res: sg.res}
	for _, cand := range ee.Candidates[:min(len(ee.Candidates), maxPlaces)] {
		if cand.StartLine < 1 || cand.EndLine < cand.StartLine || cand.EndLine > f.mapper.Lines() {
			continue
		}
		start, err := f.mapper.Offset(span.Position{Line: cand.StartLine - 1}, span.UTF8)
		if err != nil {
			continue
		}
		end := len(f.text)
		if cand.EndLine < f.mapper.Lines() {
			if end, err = f.mapper.Offset(span.Position{Line: cand.EndLine}, span.UTF8); err != nil {
				continue
			}
		}
		p := &choicePlace{n: len(c.places) + 1, start: start, end: end, text: f.text[start:end]}
		for l := range strings.Lines(p.text) {
			if p.first = strings.TrimSpace(l); p.first != "" {
				break
			}
		}
		p.rng = g.protocolRange(f, start, trimLineBreak(f.text, start, end))
		c.places = append(c.places, p)
	}
	if len(c.places) < 2 {
		return nil
	}
	return c
}

// sameChoice returns the choice of f for the same block as b, if any.
func (f *suggestedFile) sameChoice(b dialect.Block) *choice {
	for _, c := range f.choices {
		e, o := c.orig.Edit, b.Edit
		if e.Op == o.Op && e.Old == o.Old && e.New == o.New && e.ReplaceAll == o.ReplaceAll && e.Line == o.Line &&
			e.EndOfFile == o.EndOfFile && slices.Equal(e.Scope, o.Scope) {
			return c
		}
	}
	return nil
}

// followChoices carries the places of f's choices from its text to new,
// the text the document holds now, through edits; a place whose lines
// the change touches is gone.
func (f *suggestedFile) followChoices(new string, ok bool) {
	edits := lineDiffEdits(f.text, new)
	for _, c := range f.choices {
		for _, p := range c.places {
			if p.gone {
				continue
			}
			if !ok {
				p.gone = true
				continue
			}
			s, lost := shiftOffset(edits, p.start)
			e := s + len(p.text)
			if lost || e > len(new) || new[s:e] != p.text {
				p.gone = true
				continue
			}
			p.start, p.end = s, e
		}
	}
}

// placeChoicesLocked sets the ranges of f's choices' places in its text,
// and drops the choices with no place left. g.mu is held.
func (g *suggestions) placeChoicesLocked(f *suggestedFile) {
	for _, c := range f.choices {
		for _, p := range c.places {
			if !p.gone {
				p.rng = g.protocolRange(f, p.start, trimLineBreak(f.text, p.start, p.end))
			}
		}
	}
	f.choices = slices.DeleteFunc(f.choices, func(c *choice) bool { return len(c.left()) == 0 })
}

// left returns the places of c still offered.
func (c *choice) left() []*choicePlace {
	var out []*choicePlace
	for _, p := range c.places {
		if !p.gone {
			out = append(out, p)
		}
	}
	return out
}

// diagnostics returns the diagnostics of c: information over each place
// left, saying the block fits there as well as elsewhere.
func (c *choice) diagnostics() []protocol.Diagnostic {
	left := c.left()
	out := make([]protocol.Diagnostic, 0, len(left))
	for i, p := range left {
		a, z := p.lines()
		msg := fmt.Sprintf("Suggestion %s fits %d places equally: here (lines %d-%d) is place %d of %d; choose where it goes (code action), or reject it",
			c.id, len(left), a, z, i+1, len(left))
		if len(left) == 1 {
			msg = fmt.Sprintf("Suggestion %s fits here (lines %d-%d); the other places it fitted changed: choose this one (code action), or reject it", c.id, a, z)
		}
		out = append(out, protocol.Diagnostic{
			Range:    p.rng,
			Severity: protocol.DiagnosticSeverityInformation,
			Source:   "graft",
			Code:     string(engine.ReasonAmbiguous),
			Message:  msg,
			Data:     map[string]any{"id": c.id, "place": p.n},
		})
	}
	return out
}

// entries returns the places of c as the reply to graft.suggest lists
// them.
func (c *choice) entries() []choicePlaceEntry {
	out := []choicePlaceEntry{}
	for _, p := range c.left() {
		a, z := p.lines()
		out = append(out, choicePlaceEntry{Place: p.n, Range: p.rng, StartLine: a, EndLine: z, First: p.first})
	}
	return out
}

// title returns the title of the action that chooses p.
func (p *choicePlace) title() string {
	a, z := p.lines()
	return fmt.Sprintf("Suggest at lines %d-%d: %s", a, z, clipTitle(p.first))
}

// choiceActions returns the actions of the choices of f whose places
// touch r: one per place left, the one under r first and preferred, and
// "Reject suggestion". g.mu is held.
func (f *suggestedFile) choiceActions(uri string, r protocol.Range) []protocol.CodeAction {
	var out []protocol.CodeAction
	for _, c := range f.choices {
		left := c.left()
		under := slices.IndexFunc(left, func(p *choicePlace) bool { return rangesTouch(p.rng, r) })
		if under < 0 {
			continue
		}
		diags := c.diagnostics()
		order := append([]*choicePlace{left[under]}, slices.Delete(slices.Clone(left), under, under+1)...)
		for k, p := range order {
			out = append(out, protocol.CodeAction{
				Title:       p.title(),
				Kind:        protocol.QuickFix,
				Diagnostics: []protocol.Diagnostic{diags[under]},
				IsPreferred: k == 0,
				Command:     chooseCommand(p.title(), uri, c.id, p.n),
			})
		}
		out = append(out, protocol.CodeAction{
			Title:       "Reject suggestion (choose no place)",
			Kind:        protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{diags[under]},
			Command:     suggestionCommand("Reject suggestion", cmdReject, uri, c.id),
		})
	}
	return out
}

// choiceLenses returns the lenses above each place of f's choices:
// "Suggest here (place i of n)" and "Reject".
func (f *suggestedFile) choiceLenses(uri string) []protocol.CodeLens {
	var out []protocol.CodeLens
	for _, c := range f.choices {
		left := c.left()
		for i, p := range left {
			at := protocol.Range{Start: protocol.Position{Line: p.rng.Start.Line}, End: protocol.Position{Line: p.rng.Start.Line}}
			title := fmt.Sprintf("Suggest here (place %d of %d)", i+1, len(left))
			out = append(out,
				protocol.CodeLens{Range: at, Command: chooseCommand(title, uri, c.id, p.n)},
				protocol.CodeLens{Range: at, Command: suggestionCommand("Reject", cmdReject, uri, c.id)})
		}
	}
	return out
}

// chooseCommand returns the command that chooses the place n of the
// choice id.
func chooseCommand(title, uri, id string, n int) *protocol.Command {
	return &protocol.Command{Title: title, Command: cmdChoose, Arguments: []any{chooseArgs{URI: uri, ID: id, Place: n}}}
}

// findChoiceLocked returns the choice with id and its file. g.mu is held.
func (g *suggestions) findChoiceLocked(id string) (*suggestedFile, *choice) {
	for _, f := range g.files {
		for _, c := range f.choices {
			if c.id == id {
				return f, c
			}
		}
	}
	return nil, nil
}

// choose is graft.choose: the place the person picked of a choice
// becomes a pending suggestion there, under the choice's id; the other
// places are no longer offered. A place whose lines changed since it was
// offered is refused, and nothing is suggested.
func (g *suggestions) choose(ctx context.Context, arg json.RawMessage) (any, error) {
	var a chooseArgs
	if err := json.Unmarshal(arg, &a); err != nil || a.ID == "" || a.Place < 1 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, `graft.choose takes {"id": "s3", "place": 1}: the id of a suggestion that fits several places, and the place chosen, as offered`)
	}
	view := g.s.docs.View()
	g.mu.Lock()
	defer g.mu.Unlock()
	f, c := g.findChoiceLocked(a.ID)
	if c == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no suggestion %q waits for a place: it was chosen or rejected, or its places all changed, or it never was", a.ID)
	}
	if a.URI != "" && g.lookupLocked(a.URI) != f {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%q is not in %s", a.ID, a.URI)
	}
	var p *choicePlace
	for _, q := range c.places {
		if q.n == a.Place {
			p = q
		}
	}
	if p == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "suggestion %s has no place %d (it has %d)", a.ID, a.Place, len(c.places))
	}
	offered, _ := p.lines()
	// The places follow the document as it is now.
	if err := g.refreshLocked(ctx, view, f); err != nil {
		return nil, err
	}
	refuse := func(why string) (any, error) {
		msg := fmt.Sprintf("place %d of suggestion %s (lines from %d when it was offered) %s; nothing suggested", a.Place, a.ID, offered, why)
		g.s.showMessage(ctx, protocol.MessageTypeWarning, "Graft: "+msg)
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, msg)
	}
	if p.gone || !slices.Contains(f.choices, c) {
		return refuse("no longer stands: its lines changed since")
	}
	// The place's line is the block's line hint, which picks it among
	// the places it fits.
	at := p.line()
	sg := &suggestion{orig: c.orig}
	sg.orig.Line = at
	sg.res = workspace.BlockResult{Index: c.res.Index, Number: c.res.Number, Path: c.res.Path, Dialect: c.res.Dialect}
	if err := g.resolveLocked(ctx, view, f, sg); err != nil {
		return nil, err
	}
	a0, _ := p.lines()
	if !sg.pending() {
		return refuse("does not take the block: " + firstLine(sg.res.Message))
	}
	if sg.res.ResolvedStartLine != a0 {
		return refuse(fmt.Sprintf("is not where the block resolves (lines %d-%d)", sg.res.ResolvedStartLine, sg.res.ResolvedEndLine))
	}
	sg.id = c.id
	f.choices = slices.DeleteFunc(f.choices, func(x *choice) bool { return x == c })
	f.list = append(f.list, sg)
	out := &suggestResult{Blocks: []suggestReport{g.report(view, f, sg)}, Hunks: g.entries(f, sg)}
	out.Suggestions = out.Hunks
	g.publishLocked(ctx, view, f)
	g.refreshLenses()
	g.showSummary(ctx, out)
	return out, nil
}

// dropChoicesLocked drops the choices a names for graft.reject: the one
// whose id it gives, those of the document it names, or all of them. It
// returns how many it dropped, the files they were in, and whether a
// named a choice by its id. g.mu is held.
func (g *suggestions) dropChoicesLocked(a suggestionArgs) (int, []*suggestedFile, bool) {
	n := 0
	var touched []*suggestedFile
	drop := func(f *suggestedFile, keep func(*choice) bool) {
		before := len(f.choices)
		f.choices = slices.DeleteFunc(f.choices, func(c *choice) bool {
			if keep(c) {
				return false
			}
			g.decideLocked(c.id, decisionRejected)
			return true
		})
		if k := before - len(f.choices); k > 0 {
			n += k
			touched = append(touched, f)
		}
	}
	switch {
	case a.ID != "":
		f, c := g.findChoiceLocked(a.ID)
		if c == nil {
			return 0, nil, false
		}
		drop(f, func(x *choice) bool { return x != c })
		return n, touched, true
	case a.URI != "":
		if f := g.lookupLocked(a.URI); f != nil {
			drop(f, func(*choice) bool { return false })
		}
	default:
		for _, f := range g.files {
			drop(f, func(*choice) bool { return false })
		}
	}
	return n, touched, false
}

// firstLine returns the first line of s.
func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
