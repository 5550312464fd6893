package lsp

import (
	"fmt"
	"math"

	"go.lsp.dev/protocol"

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
		var m *workspace.Mapper
		if snap, ok := view.Snapshot(f.Abs()); ok {
			fe.uri = uriOf(snap.Path)
			v := snap.Version
			fe.version = &v
			m = snap.Mapper()
		} else {
			m = workspace.NewMapper(f.Before)
		}
		op := resourceOp(f)
		if !caps.documentChanges {
			if op != "" {
				return workspaceEdit{}, nil, fmt.Errorf("%s: cannot %s a file without documentChanges", f.Path, op)
			}
			edits, err := lineEdits(m, f.Before, f.After, caps.enc)
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
				edits, err := lineEdits(m, f.Before, f.After, caps.enc)
				if err != nil {
					return workspaceEdit{}, nil, fmt.Errorf("%s: %w", f.Path, err)
				}
				add(&fe, textEdit(fe.uri, nil, edits))
			}
		default:
			edits, err := lineEdits(m, f.Before, f.After, caps.enc)
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

// lineEdits returns the text edits that turn before, the text of m, into
// after: whole lines, only those that differ. The lines the two share at
// each end are skipped in linear time, not split and compared: for a
// line changed in a file of 32 MiB, milliseconds of the handler's queue
// rather than a third of a second (BenchmarkLineEditsAtLimit).
func lineEdits(m *workspace.Mapper, before, after string, enc workspace.Encoding) ([]protocol.TextEdit, error) {
	diffs := linesBetweenEnds(before, after, math.MaxInt)
	edits := make([]protocol.TextEdit, 0, len(diffs))
	for _, d := range diffs {
		r, err := m.Range(d.Start, d.End, enc)
		if err != nil {
			return nil, fmt.Errorf("edit at bytes %d-%d: %w", d.Start, d.End, err)
		}
		edits = append(edits, protocol.TextEdit{Range: toProtocolRange(r), NewText: d.New})
	}
	return edits, nil
}
