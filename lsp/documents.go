package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/graft-editor/graft/lsp/internal/span"
	"github.com/graft-editor/graft/workspace"
)

// An openDoc is a document the client has open, under one URI.
//
// LSP names a document by its URI, and a client may open one file under
// two spellings of its URI (file:///R/a.txt and file:///R/./a.txt, or
// %61.txt for a.txt): two documents, each with its own text and its own
// versions, which the client numbers apart. The server keeps both, and
// the overlay reads the file from the one the client opened or changed
// last (activate), the text the person is at. An edit is computed against
// that one and sent under its spelling with its version, so that the
// client finds its buffer; when it is closed, the overlay reads the other
// again, rather than the disk.
type openDoc struct {
	uri        string
	languageID string
	// path is the file the document holds, its clean absolute path
	// (uriPath), the same for every spelling of its URI; empty for
	// documents that are no file (untitled:, ...).
	path string
	// real is path with its symbolic links evaluated, as plans name the
	// file: the key of its past in server.history.
	real string
	buf  *workspace.Buffer
	// touched orders the documents of one path by when the client last
	// opened or changed them; guarded by server.mu.
	touched uint64
}

// answerCandidate reports whether the document may hold an agent's
// answer: by its language, or, for a document that is no file (an unsaved
// buffer: untitled: in VS Code), whatever its language. An editor guesses
// the language of a new buffer from what is pasted in (an answer full of
// Go reads as Go), and a buffer that is no file is no code a block edits;
// the blocks in it decide. s.mu is held.
func (s *server) answerCandidate(d *openDoc) bool {
	if d.path == "" {
		return true
	}
	langs := s.settings.AnswerLanguages
	return slices.Contains(langs, "*") || slices.Contains(langs, d.languageID)
}

// doc returns the open document at uri, or an error naming it: the one
// opened under uri, or else, for another spelling of the URI of a file
// that is open, the one the overlay reads for that file.
func (s *server) doc(uri string) (*openDoc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.lookupLocked(uri)
	if d == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s is not open", uri)
	}
	return d, nil
}

// lookupLocked is doc without the error. s.mu is held.
func (s *server) lookupLocked(uri string) *openDoc {
	if d := s.open[uri]; d != nil {
		return d
	}
	if path, err := uriPath(uri); err == nil {
		if u, ok := s.byPath[path]; ok {
			return s.open[u]
		}
	}
	return nil
}

// activateLocked makes d, a file document, the one the overlay reads for
// its path, as the document the client touched last. s.mu is held.
func (s *server) activateLocked(d *openDoc) {
	s.touches++
	d.touched = s.touches
	s.docs.Put(d.buf)
	s.byPath[d.path] = d.uri
}

// retireLocked stops the overlay reading d, a file document the client
// closed, when it does: it reads the open document of the same path that
// the client touched last instead, which it returns, or the disk when
// there is none. s.mu is held; d is no longer in s.open.
func (s *server) retireLocked(d *openDoc) *openDoc {
	if d.path == "" || s.byPath[d.path] != d.uri {
		return nil
	}
	var next *openDoc
	for _, o := range s.open {
		if o.path == d.path && (next == nil || o.touched > next.touched) {
			next = o
		}
	}
	if next == nil {
		delete(s.byPath, d.path)
		s.docs.Close(d.path)
		return nil
	}
	s.docs.Put(next.buf)
	s.byPath[next.path] = next.uri
	return next
}

// openLocked reports whether a document of the file whose real path is
// real is open. s.mu is held.
func (s *server) openLocked(real string) bool {
	for _, o := range s.open {
		if o.path != "" && o.real == real {
			return true
		}
	}
	return false
}

// uriOf returns the URI under which the client has the file at the path
// a buffer was opened under (the spelling the overlay reads, when it has
// several), or the file: URI of path when it has none.
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
	name := uri
	if path, err := uriPath(uri); err == nil {
		d.path, name = path, path
	}
	d.buf = workspace.NewBuffer(name, text, p.TextDocument.Version)
	if d.path != "" {
		d.real = d.path
		if real, err := filepath.EvalSymlinks(d.path); err == nil {
			d.real = real
		}
		s.history.opened(d.real, text, p.TextDocument.Version)
	}
	s.mu.Lock()
	s.open[uri] = d // opened again under the same spelling: the new text wins
	if d.path != "" {
		s.activateLocked(d)
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
	if d.path != "" {
		s.history.changing(d.real, d.buf, p.ContentChanges)
	}
	if err := changeBuffer(d.buf, p.TextDocument.Version, p.ContentChanges, s.encoding()); err != nil {
		s.log.Error("didChange", zap.String("uri", d.uri), zap.Error(err))
		s.showMessage(ctx, protocol.MessageTypeError, fmt.Sprintf(
			"Graft lost track of %s (%v); close and reopen it (or send its whole text) before applying edits to it.", d.uri, err))
		return nil, nil
	}
	if d.path != "" {
		s.mu.Lock()
		if s.open[d.uri] == d {
			if s.byPath[d.path] == d.uri {
				s.touches++
				d.touched = s.touches
			} else {
				s.activateLocked(d) // the client moved to this spelling
			}
		}
		s.mu.Unlock()
	}
	s.changed(ctx, d)
	return nil, nil
}

// changeBuffer applies the content changes of one didChange to buf, and
// sets its version: each change's range, its characters counted in enc, is
// found in the text the changes before it left, as LSP orders them.
func changeBuffer(buf *workspace.Buffer, version int32, changes []contentChange, enc span.Encoding) error {
	return buf.ChangeFunc(version, len(changes), func(i int, text workspace.Text) (workspace.Change, error) {
		c := changes[i]
		if c.Range == nil {
			return workspace.Change{Text: c.Text, Whole: true}, nil
		}
		start, end, err := span.OffsetRange(text, fromProtocolRange(*c.Range), enc)
		return workspace.Change{Start: start, End: end, Text: c.Text}, err
	})
}

func (s *server) didClose(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.DidCloseTextDocumentParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	d := s.lookupLocked(string(p.TextDocument.URI))
	var next *openDoc
	if d != nil {
		delete(s.open, d.uri)
		next = s.retireLocked(d)
		if d.path != "" && !s.openLocked(d.real) {
			s.history.closed(d.real)
		}
	}
	s.mu.Unlock()
	if d == nil {
		return nil, nil
	}
	s.closed(ctx, d)
	if next != nil {
		// The file is read from another spelling's buffer now, whose
		// text may differ: what follows the file follows it again.
		s.changed(ctx, next)
	}
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
func (s *server) encoding() span.Encoding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps.enc
}

// showMessage shows a message to the person at the client.
func (s *server) showMessage(ctx context.Context, typ protocol.MessageType, msg string) {
	s.notify(ctx, "window/showMessage", protocol.ShowMessageParams{Type: typ, Message: msg})
}

// mapperOf returns the Mapper over the text of snap, made from the line
// starts the buffer counted with it, at little cost.
func mapperOf(snap workspace.Snapshot) *span.Mapper {
	return span.NewMapperLines(snap.Text, snap.LineStarts())
}

// fromProtocolRange converts a range from the wire to a span.Range.
func fromProtocolRange(r protocol.Range) span.Range {
	return span.Range{
		Start: span.Position{Line: int(r.Start.Line), Character: int(r.Start.Character)},
		End:   span.Position{Line: int(r.End.Line), Character: int(r.End.Character)},
	}
}

// toProtocolRange converts a span.Range to the wire's.
func toProtocolRange(r span.Range) protocol.Range {
	return protocol.Range{
		Start: protocol.Position{Line: uint32(r.Start.Line), Character: uint32(r.Start.Character)},
		End:   protocol.Position{Line: uint32(r.End.Line), Character: uint32(r.End.Character)},
	}
}
