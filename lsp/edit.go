package lsp

import (
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/lsp/internal/span"
	"github.com/graft-editor/graft/workspace"
)

// A fileEdit is what the WorkspaceEdit does to one file of a plan.
type fileEdit struct {
	// file is the index of the file in the plan's Files.
	file int
	// uri is the document the edit changes, as the client knows it
	// (where a move puts the file, for a move).
	uri protocol.DocumentURI
	// version is the version of the open buffer the edit was computed
	// against; nil for a file that is not open.
	version *int32
	// after is the document's text once the edit is applied.
	after string
	// changes are the indexes of the file's entries in documentChanges.
	changes []int
}

// resourceOp returns the resource operation a file change needs, if any:
// "create", "delete" or "rename".
func resourceOp(f *workspace.FileChange) string {
	switch {
	case !f.Existed && f.Exists:
		return "create"
	case f.Existed && !f.Exists:
		return "delete"
	case f.NewAbs() != "":
		return "rename"
	}
	return ""
}

// refuseUnsupported fails the file changes of res that the client cannot
// apply: file operations it has no resource operation for.
func refuseUnsupported(res *workspace.Result, caps capabilities) {
	for i := range res.Files {
		f := &res.Files[i]
		if !f.Changed {
			continue
		}
		op := resourceOp(f)
		if op == "" || (caps.documentChanges && caps.resourceOps[op]) {
			continue
		}
		res.Fail(i, fmt.Errorf("the editor cannot %s files: it does not advertise the %q resource operation; %s not changed", op, op, f.Path))
	}
}

// buildEdit returns the WorkspaceEdit that makes the changes of res in
// the client, against the documents of view, and what it does per file.
// Text edits cover only the lines that change, so that cursors, marks and
// folds elsewhere stay where they are. Changes the client cannot apply
// must have been refused already (refuseUnsupported).
func buildEdit(view *workspace.View, res *workspace.Result, caps capabilities, uriOf func(path string) protocol.DocumentURI) (workspaceEdit, []fileEdit, error) {
	var we workspaceEdit
	var files []fileEdit
	add := func(fe *fileEdit, c documentChange) {
		fe.changes = append(fe.changes, len(we.DocumentChanges))
		we.DocumentChanges = append(we.DocumentChanges, c)
	}
	for i := range res.Files {
		f := &res.Files[i]
		if !f.Changed {
			continue
		}
		fe := fileEdit{file: i, uri: fileURI(f.Abs()), after: f.After}
		var m *span.Mapper
		if snap, ok := view.Snapshot(f.Abs()); ok {
			fe.uri = uriOf(snap.Path)
			v := snap.Version
			fe.version = &v
			m = mapperOf(snap)
		} else {
			m = span.NewMapper(f.Before)
		}
		op := resourceOp(f)
		if !caps.documentChanges {
			if op != "" {
				return workspaceEdit{}, nil, fmt.Errorf("%s: cannot %s a file without documentChanges", f.Path, op)
			}
			edits, err := protocolEdits(m, f, caps.enc)
			if err != nil {
				return workspaceEdit{}, nil, fmt.Errorf("%s: %w", f.Path, err)
			}
			if we.Changes == nil {
				we.Changes = map[protocol.DocumentURI][]protocol.TextEdit{}
			}
			we.Changes[fe.uri] = edits
			files = append(files, fe)
			continue
		}
		switch op {
		case "create":
			add(&fe, documentChange{CreateFile: &createFile{Kind: "create", URI: fe.uri}})
			if f.After != "" {
				add(&fe, documentChange{TextDocumentEdit: &protocol.TextDocumentEdit{
					TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
						TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: fe.uri},
					},
					Edits: []protocol.TextEdit{{NewText: f.After}},
				}})
			}
		case "delete":
			add(&fe, documentChange{DeleteFile: &deleteFile{Kind: "delete", URI: fe.uri}})
		case "rename":
			old := fe.uri
			fe.uri, fe.version = fileURI(f.NewAbs()), nil
			add(&fe, documentChange{RenameFile: &renameFile{Kind: "rename", OldURI: old, NewURI: fe.uri}})
			if f.After != f.Before {
				edits, err := protocolEdits(m, f, caps.enc)
				if err != nil {
					return workspaceEdit{}, nil, fmt.Errorf("%s: %w", f.Path, err)
				}
				add(&fe, textEdit(fe.uri, nil, edits))
			}
		default:
			edits, err := protocolEdits(m, f, caps.enc)
			if err != nil {
				return workspaceEdit{}, nil, fmt.Errorf("%s: %w", f.Path, err)
			}
			add(&fe, textEdit(fe.uri, fe.version, edits))
		}
		files = append(files, fe)
	}
	return we, files, nil
}

// textEdit returns a TextDocumentEdit of the document at uri, computed
// against its version (nil: the file on disk).
func textEdit(uri protocol.DocumentURI, version *int32, edits []protocol.TextEdit) documentChange {
	return documentChange{TextDocumentEdit: &protocol.TextDocumentEdit{
		TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
			TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri},
			Version:                version,
		},
		Edits: edits,
	}}
}

// protocolEdits returns the text edits that turn the file's text before
// the plan, the text of m, into its text after: the edits of the plan,
// which are the engine's own changes (only the lines and parts of lines
// that change), each mapped to a range of the document.
func protocolEdits(m *span.Mapper, f *workspace.FileChange, enc span.Encoding) ([]protocol.TextEdit, error) {
	if engine.ApplyChanges(f.Before, f.Edits) != f.After {
		// Never send edits that would leave the document other than the
		// plan says: the bytes outside the model's change are sacred.
		return nil, fmt.Errorf("the edits of %s do not make the text the plan made; nothing sent (a bug in Graft: please report it)", f.Path)
	}
	edits := make([]protocol.TextEdit, 0, len(f.Edits))
	for _, e := range f.Edits {
		r, err := m.Range(e.Start, e.End, enc)
		if err != nil {
			return nil, fmt.Errorf("edit at bytes %d-%d: %w", e.Start, e.End, err)
		}
		edits = append(edits, protocol.TextEdit{Range: toProtocolRange(r), NewText: e.Text})
	}
	return edits, nil
}
