package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/graft-editor/graft/workspace"
)

// An openDoc is a document the client has open.
type openDoc struct {
	uri        string
	languageID string
	// path is the file the document holds, as the client opened it;
	// empty for documents that are no file (untitled:, ...).
	path string
	buf  *workspace.Buffer
}

// answerCandidate reports whether the document may hold an agent's
// answer, by its language. s.mu is held.
func (s *server) answerCandidate(d *openDoc) bool {
	langs := s.settings.AnswerLanguages
	return slices.Contains(langs, "*") || slices.Contains(langs, d.languageID)
}

// doc returns the open document at uri, or an error naming it.
func (s *server) doc(uri string) (*openDoc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.open[uri]
	if d == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s is not open", uri)
	}
	return d, nil
}

// uriOf returns the URI under which the client has the file at the path
// a buffer was opened under, or the file: URI of path when it has none.
func (s *server) uriOf(path string) protocol.DocumentURI {
	s.mu.Lock()
	defer s.mu.Unlock()
	if u, ok := s.byPath[path]; ok {
		return protocol.DocumentURI(u)
	}
	return fileURI(path)
}

func (s *server) didOpen(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.DidOpenTextDocumentParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	uri := string(p.TextDocument.URI)
	text, notUTF8 := openText(raw, p.TextDocument.Text)
	if notUTF8 != nil {
		s.log.Info("document not valid UTF-8: graft will not edit it", zap.String("uri", uri), zap.Error(notUTF8))
	}
	d := &openDoc{uri: uri, languageID: string(p.TextDocument.LanguageID)}
	if path, err := uriPath(uri); err == nil {
		d.path = path
		d.buf = s.docs.Open(path, text, p.TextDocument.Version)
	} else {
		d.buf = workspace.NewBuffer(uri, text, p.TextDocument.Version)
	}
	s.mu.Lock()
	if old := s.open[uri]; old != nil && old.path != "" && old.path != d.path {
		delete(s.byPath, old.path)
	}
	s.open[uri] = d
	if d.path != "" {
		s.byPath[d.path] = uri
	}
	s.mu.Unlock()
	s.changed(ctx, d)
	return nil, nil
}

// contentChange is one entry of didChange's contentChanges.
type contentChange struct {
	Range *protocol.Range `json:"range"`
	Text  string          `json:"text"`
}

func (s *server) didChange(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
		ContentChanges []contentChange                          `json:"contentChanges"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	d, err := s.doc(string(p.TextDocument.URI))
	if err != nil {
		return nil, err
	}
	if err := changeTexts(raw, p.ContentChanges); err != nil {
		s.log.Info("change not valid UTF-8: graft will not edit the document", zap.String("uri", d.uri), zap.Error(err))
	}
	changes := make([]workspace.Change, len(p.ContentChanges))
	for i, c := range p.ContentChanges {
		changes[i].Text = c.Text
		if c.Range != nil {
			r := fromProtocolRange(*c.Range)
			changes[i].Range = &r
		}
	}
	if err := d.buf.Change(p.TextDocument.Version, changes, s.encoding()); err != nil {
		s.log.Error("didChange", zap.String("uri", d.uri), zap.Error(err))
		s.showMessage(ctx, protocol.MessageTypeError, fmt.Sprintf(
			"Graft lost track of %s (%v); close and reopen it (or send its whole text) before applying edits to it.", d.uri, err))
		return nil, nil
	}
	s.changed(ctx, d)
	return nil, nil
}

func (s *server) didClose(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.DidCloseTextDocumentParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	uri := string(p.TextDocument.URI)
	s.mu.Lock()
	d := s.open[uri]
	delete(s.open, uri)
	if d != nil && d.path != "" && s.byPath[d.path] == uri {
		delete(s.byPath, d.path)
	}
	s.mu.Unlock()
	if d == nil {
		return nil, nil
	}
	if d.path != "" {
		s.docs.Close(d.path)
	}
	s.closed(ctx, d)
	return nil, nil
}

func (s *server) didSave(ctx context.Context, raw json.RawMessage) (any, error) {
	return nil, nil
}

// changed tells the parts of the server that follow documents that d
// was opened or changed.
func (s *server) changed(ctx context.Context, d *openDoc) {
	s.verifier.changed(ctx, d)
	s.answers.changed(ctx, d)
	s.suggestions.changed(ctx, d)
}

// closed tells them that d was closed.
func (s *server) closed(ctx context.Context, d *openDoc) {
	s.verifier.closed(d)
	s.answers.closed(ctx, d)
	s.suggestions.changed(ctx, d)
}

// encoding returns the position encoding agreed with the client.
func (s *server) encoding() workspace.Encoding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps.enc
}

// showMessage shows a message to the person at the client.
func (s *server) showMessage(ctx context.Context, typ protocol.MessageType, msg string) {
	s.notify(ctx, "window/showMessage", protocol.ShowMessageParams{Type: typ, Message: msg})
}

// fromProtocolRange converts an LSP range to the workspace's.
func fromProtocolRange(r protocol.Range) workspace.Range {
	return workspace.Range{
		Start: workspace.Position{Line: int(r.Start.Line), Character: int(r.Start.Character)},
		End:   workspace.Position{Line: int(r.End.Line), Character: int(r.End.Character)},
	}
}

// toProtocolRange converts a workspace range to LSP's.
func toProtocolRange(r workspace.Range) protocol.Range {
	return protocol.Range{
		Start: protocol.Position{Line: uint32(r.Start.Line), Character: uint32(r.Start.Character)},
		End:   protocol.Position{Line: uint32(r.End.Line), Character: uint32(r.End.Character)},
	}
}
