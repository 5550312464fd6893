package fakeeditor

import (
	"fmt"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// document is a buffer the editor holds open.
type document struct {
	languageID string
	text       string
	version    int32
}

// Open opens path in a buffer holding text, sending didOpen with version 1.
func (e *Editor) Open(path, languageID, text string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.openLocked(URI(path), languageID, text)
}

// OpenURI opens the document u that is no file (untitled:Untitled-1, as
// VS Code names an unsaved buffer) holding text, sending didOpen with
// version 1.
func (e *Editor) OpenURI(u uri.URI, languageID, text string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.openLocked(u, languageID, text)
}

func (e *Editor) openLocked(u uri.URI, languageID, text string) error {
	if _, ok := e.docs[u]; ok {
		return fmt.Errorf("%s is already open", u)
	}
	e.docs[u] = &document{languageID: languageID, text: text, version: 1}
	return e.conn.Notify("textDocument/didOpen", map[string]any{
		"textDocument": map[string]any{"uri": u, "languageId": languageID, "version": 1, "text": text},
	})
}

// Edit replaces rng of path's buffer (the whole buffer when rng is nil) with
// newText, as a person typing: one incremental didChange, version+1, with
// positions in the negotiated encoding.
func (e *Editor) Edit(path string, rng *protocol.Range, newText string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	u := URI(path)
	d, ok := e.docs[u]
	if !ok {
		return fmt.Errorf("edit %s: %w", u, errNotOpen)
	}
	r := protocol.Range{End: EndPosition(d.text, e.encoding)}
	if rng != nil {
		r = *rng
	}
	return e.changeLocked(u, d, []protocol.TextEdit{{Range: r, NewText: newText}})
}

// changeLocked applies edits (all relative to d's current text) to d and
// sends them as one incremental didChange.
func (e *Editor) changeLocked(u uri.URI, d *document, edits []protocol.TextEdit) error {
	text, changes, err := sequentialChanges(d.text, edits, e.encoding)
	if err != nil {
		return fmt.Errorf("change %s: %w", u, err)
	}
	d.text = text
	d.version++
	cc := make([]map[string]any, len(changes))
	for i, c := range changes {
		cc[i] = map[string]any{"range": c.Range, "text": c.NewText}
	}
	return e.conn.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": d.version},
		"contentChanges": cc,
	})
}

// SetText replaces path's whole buffer with text in one full-content
// didChange (no range), version+1.
func (e *Editor) SetText(path, text string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	u := URI(path)
	d, ok := e.docs[u]
	if !ok {
		return fmt.Errorf("set text of %s: %w", u, errNotOpen)
	}
	d.text = text
	d.version++
	return e.conn.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": d.version},
		"contentChanges": []map[string]any{{"text": text}},
	})
}

// Close closes path's buffer, sending didClose. The disk is not touched.
func (e *Editor) Close(path string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.closeLocked(URI(path))
}

func (e *Editor) closeLocked(u uri.URI) error {
	if _, ok := e.docs[u]; !ok {
		return fmt.Errorf("close %s: %w", u, errNotOpen)
	}
	delete(e.docs, u)
	return e.conn.Notify("textDocument/didClose", map[string]any{
		"textDocument": map[string]any{"uri": u},
	})
}

// Text returns path's buffer text ("" when it is not open).
func (e *Editor) Text(path string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if d, ok := e.docs[URI(path)]; ok {
		return d.text
	}
	return ""
}

// Version returns path's buffer version (0 when it is not open).
func (e *Editor) Version(path string) int32 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if d, ok := e.docs[URI(path)]; ok {
		return d.version
	}
	return 0
}

// IsOpen reports whether path is open in a buffer.
func (e *Editor) IsOpen(path string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, ok := e.docs[URI(path)]
	return ok
}

// OpenURIs returns the URIs of the open buffers.
func (e *Editor) OpenURIs() []uri.URI {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []uri.URI
	for u := range e.docs {
		out = append(out, u)
	}
	return out
}

// ChangeWatchedFiles tells the server, as workspace/didChangeWatchedFiles
// does, that the files at paths changed on the disk in the way given
// (protocol.FileChangeTypeCreated, ...), as an editor that watches them
// for the server does.
func (e *Editor) ChangeWatchedFiles(kind protocol.FileChangeType, paths ...string) error {
	changes := make([]protocol.FileEvent, len(paths))
	for i, p := range paths {
		changes[i] = protocol.FileEvent{URI: URI(p), Type: kind}
	}
	return e.conn.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": changes})
}
