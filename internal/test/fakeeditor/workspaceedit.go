package fakeeditor

import (
	"errors"
	"fmt"

	"github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// WorkspaceEdit is a WorkspaceEdit as LSP 3.17 defines it, with the
// resource operations protocol v0.12.0 cannot hold.
type WorkspaceEdit struct {
	Changes           map[uri.URI][]protocol.TextEdit `json:"changes,omitempty"`
	DocumentChanges   []DocumentChange                `json:"documentChanges,omitempty"`
	ChangeAnnotations map[string]json.RawMessage      `json:"changeAnnotations,omitempty"`
}

// DocumentChange is one entry of WorkspaceEdit.documentChanges: exactly one
// of its fields is set, chosen by the entry's "kind" (none: a text edit).
type DocumentChange struct {
	TextDocumentEdit *TextDocumentEdit
	CreateFile       *CreateFile
	RenameFile       *RenameFile
	DeleteFile       *DeleteFile
}

// TextDocumentEdit is a set of edits to one document at one version.
type TextDocumentEdit struct {
	TextDocument VersionedDocument   `json:"textDocument"`
	Edits        []protocol.TextEdit `json:"edits"`
}

// VersionedDocument is an OptionalVersionedTextDocumentIdentifier: Version
// is nil for null (the file as on disk).
type VersionedDocument struct {
	URI     uri.URI `json:"uri"`
	Version *int32  `json:"version"`
}

// CreateFile is the create resource operation.
type CreateFile struct {
	Kind    string                 `json:"kind"`
	URI     uri.URI                `json:"uri"`
	Options *CreateOrRenameOptions `json:"options,omitempty"`
}

// CreateOrRenameOptions are the options of CreateFile and RenameFile.
type CreateOrRenameOptions struct {
	Overwrite      bool `json:"overwrite,omitempty"`
	IgnoreIfExists bool `json:"ignoreIfExists,omitempty"`
}

// RenameFile is the rename resource operation.
type RenameFile struct {
	Kind    string                 `json:"kind"`
	OldURI  uri.URI                `json:"oldUri"`
	NewURI  uri.URI                `json:"newUri"`
	Options *CreateOrRenameOptions `json:"options,omitempty"`
}

// DeleteFile is the delete resource operation.
type DeleteFile struct {
	Kind    string             `json:"kind"`
	URI     uri.URI            `json:"uri"`
	Options *DeleteFileOptions `json:"options,omitempty"`
}

// DeleteFileOptions are the options of DeleteFile.
type DeleteFileOptions struct {
	Recursive         bool `json:"recursive,omitempty"`
	IgnoreIfNotExists bool `json:"ignoreIfNotExists,omitempty"`
}

// UnmarshalJSON decodes an entry by its "kind"; an unknown kind or a text
// edit without textDocument is an error.
func (c *DocumentChange) UnmarshalJSON(b []byte) error {
	var head struct {
		Kind         *string         `json:"kind"`
		TextDocument json.RawMessage `json:"textDocument"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return err
	}
	*c = DocumentChange{}
	if head.Kind == nil {
		if head.TextDocument == nil {
			return fmt.Errorf("documentChanges entry without kind or textDocument: %s", b)
		}
		c.TextDocumentEdit = new(TextDocumentEdit)
		return decodeChange(b, c.TextDocumentEdit, &c.TextDocumentEdit.TextDocument.URI)
	}
	switch *head.Kind {
	case "create":
		c.CreateFile = new(CreateFile)
		return decodeChange(b, c.CreateFile, &c.CreateFile.URI)
	case "rename":
		c.RenameFile = new(RenameFile)
		return decodeChange(b, c.RenameFile, &c.RenameFile.OldURI, &c.RenameFile.NewURI)
	case "delete":
		c.DeleteFile = new(DeleteFile)
		return decodeChange(b, c.DeleteFile, &c.DeleteFile.URI)
	}
	return fmt.Errorf("documentChanges entry of unknown kind %q", *head.Kind)
}

// decodeChange decodes b into v and checks that the URIs it names are set.
func decodeChange(b []byte, v any, uris ...*uri.URI) error {
	if err := json.Unmarshal(b, v); err != nil {
		return err
	}
	for _, u := range uris {
		if *u == "" {
			return fmt.Errorf("documentChanges entry without a URI: %s", b)
		}
	}
	return nil
}

// MarshalJSON encodes the one field that is set.
func (c DocumentChange) MarshalJSON() ([]byte, error) {
	switch {
	case c.TextDocumentEdit != nil:
		return json.Marshal(c.TextDocumentEdit)
	case c.CreateFile != nil:
		v := *c.CreateFile
		v.Kind = "create"
		return json.Marshal(v)
	case c.RenameFile != nil:
		v := *c.RenameFile
		v.Kind = "rename"
		return json.Marshal(v)
	case c.DeleteFile != nil:
		v := *c.DeleteFile
		v.Kind = "delete"
		return json.Marshal(v)
	}
	return nil, errors.New("empty DocumentChange")
}

// ApplyWorkspaceEditParams are the params of workspace/applyEdit.
type ApplyWorkspaceEditParams struct {
	Label string        `json:"label,omitempty"`
	Edit  WorkspaceEdit `json:"edit"`
}

// ApplyWorkspaceEditResult is the editor's reply to workspace/applyEdit.
type ApplyWorkspaceEditResult struct {
	Applied       bool    `json:"applied"`
	FailureReason string  `json:"failureReason,omitempty"`
	FailedChange  *uint32 `json:"failedChange,omitempty"`
}

// AppliedEdit records one workspace/applyEdit request and its answer.
type AppliedEdit struct {
	// Params are the request's params exactly as received.
	Params json.RawMessage
	// Decoded is Params decoded (zero when they did not decode).
	Decoded ApplyWorkspaceEditParams
	// Result is what the editor answered.
	Result ApplyWorkspaceEditResult
	// Skipped lists the TextDocumentEdits the editor skipped silently as
	// stale (Neovim 0.7.2), by index in documentChanges.
	Skipped []int
	// Err is set when the params did not decode (the editor answered with
	// an InvalidParams error).
	Err error
}
