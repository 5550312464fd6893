package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/protocol"
)

func (s *server) codeAction(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
		Range        protocol.Range                  `json:"range"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	d, err := s.doc(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	actions := append(s.answers.codeActions(ctx, d, p.Range), s.suggestions.codeActions(ctx, d, p.Range)...)
	s.mu.Lock()
	literals := s.caps.actionLiterals
	s.mu.Unlock()
	if !literals {
		// A client without code action literals takes commands.
		cmds := []protocol.Command{}
		for _, a := range actions {
			if a.Command != nil {
				cmds = append(cmds, *a.Command)
			}
		}
		return cmds, nil
	}
	if actions == nil {
		actions = []protocol.CodeAction{}
	}
	return actions, nil
}

func (s *server) codeLens(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	d, err := s.doc(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	lenses := append(s.answers.codeLenses(ctx, d), s.suggestions.codeLenses(ctx, d)...)
	if lenses == nil {
		lenses = []protocol.CodeLens{}
	}
	return lenses, nil
}
