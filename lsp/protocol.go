package lsp

import (
	"encoding/json"
	"fmt"

	"go.lsp.dev/protocol"
)

// This file holds the protocol types that go.lsp.dev/protocol v0.12.0
// lacks or gets wrong, as gopls keeps its own: the reply of
// workspace/applyEdit, resource operations inside documentChanges, and
// the position encoding of LSP 3.17.

// applyEditParams are the params of workspace/applyEdit.
type applyEditParams struct {
	Label string        `json:"label,omitempty"`
	Edit  workspaceEdit `json:"edit"`
}

// applyEditResult is the client's reply to workspace/applyEdit. The
// protocol package decodes it as a bool, which fails against real clients.
type applyEditResult struct {
	Applied       bool   `json:"applied"`
	FailureReason string `json:"failureReason,omitempty"`
	// FailedChange is the index of the change that failed, in
	// documentChanges, when the client says.
	FailedChange *int `json:"failedChange,omitempty"`
}

// workspaceEdit is an LSP WorkspaceEdit whose documentChanges may hold
// resource operations; exactly one of Changes and DocumentChanges is set.
type workspaceEdit struct {
	Changes         map[protocol.DocumentURI][]protocol.TextEdit `json:"changes,omitempty"`
	DocumentChanges []documentChange                             `json:"documentChanges,omitempty"`
}

// A documentChange is one entry of documentChanges: a TextDocumentEdit or
// a CreateFile, RenameFile or DeleteFile operation. Exactly one field is
// set.
type documentChange struct {
	TextDocumentEdit *protocol.TextDocumentEdit
	CreateFile       *createFile
	RenameFile       *renameFile
	DeleteFile       *deleteFile
}

// MarshalJSON writes the one operation the change holds, as the union
// type of the specification wants it.
func (c documentChange) MarshalJSON() ([]byte, error) {
	switch {
	case c.TextDocumentEdit != nil:
		e := *c.TextDocumentEdit
		if e.Edits == nil {
			e.Edits = []protocol.TextEdit{}
		}
		return json.Marshal(e)
	case c.CreateFile != nil:
		return json.Marshal(c.CreateFile)
	case c.RenameFile != nil:
		return json.Marshal(c.RenameFile)
	case c.DeleteFile != nil:
		return json.Marshal(c.DeleteFile)
	}
	return nil, fmt.Errorf("empty document change")
}

// UnmarshalJSON reads any of the four operations, told apart by "kind".
func (c *documentChange) UnmarshalJSON(data []byte) error {
	var probe struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return err
	}
	*c = documentChange{}
	switch probe.Kind {
	case "":
		c.TextDocumentEdit = new(protocol.TextDocumentEdit)
		return json.Unmarshal(data, c.TextDocumentEdit)
	case "create":
		c.CreateFile = new(createFile)
		return json.Unmarshal(data, c.CreateFile)
	case "rename":
		c.RenameFile = new(renameFile)
		return json.Unmarshal(data, c.RenameFile)
	case "delete":
		c.DeleteFile = new(deleteFile)
		return json.Unmarshal(data, c.DeleteFile)
	}
	return fmt.Errorf("unknown document change kind %q", probe.Kind)
}

// fileOptions are the options of the resource operations.
type fileOptions struct {
	Overwrite         bool `json:"overwrite,omitempty"`
	IgnoreIfExists    bool `json:"ignoreIfExists,omitempty"`
	Recursive         bool `json:"recursive,omitempty"`
	IgnoreIfNotExists bool `json:"ignoreIfNotExists,omitempty"`
}

type createFile struct {
	Kind    string               `json:"kind"` // "create"
	URI     protocol.DocumentURI `json:"uri"`
	Options *fileOptions         `json:"options,omitempty"`
}

type renameFile struct {
	Kind    string               `json:"kind"` // "rename"
	OldURI  protocol.DocumentURI `json:"oldUri"`
	NewURI  protocol.DocumentURI `json:"newUri"`
	Options *fileOptions         `json:"options,omitempty"`
}

type deleteFile struct {
	Kind    string               `json:"kind"` // "delete"
	URI     protocol.DocumentURI `json:"uri"`
	Options *fileOptions         `json:"options,omitempty"`
}

// initializeParams are the parts of the initialize request the server
// reads. They are decoded into the server's own small type rather than
// protocol.InitializeParams, whose strict field types reject some real
// clients' capabilities, and which has no positionEncodings.
type initializeParams struct {
	RootURI          string                     `json:"rootUri"`
	RootPath         string                     `json:"rootPath"`
	WorkspaceFolders []protocol.WorkspaceFolder `json:"workspaceFolders"`
	// InitializationOptions are Graft's settings (see settings).
	InitializationOptions json.RawMessage    `json:"initializationOptions"`
	Capabilities          clientCapabilities `json:"capabilities"`
	ClientInfo            *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"clientInfo"`
}

// clientCapabilities are the client capabilities the server honours.
type clientCapabilities struct {
	General struct {
		PositionEncodings []string `json:"positionEncodings"`
	} `json:"general"`
	Workspace struct {
		ApplyEdit     bool `json:"applyEdit"`
		WorkspaceEdit struct {
			DocumentChanges    bool     `json:"documentChanges"`
			ResourceOperations []string `json:"resourceOperations"`
			FailureHandling    string   `json:"failureHandling"`
		} `json:"workspaceEdit"`
		CodeLens struct {
			RefreshSupport bool `json:"refreshSupport"`
		} `json:"codeLens"`
		DidChangeWatchedFiles struct {
			DynamicRegistration bool `json:"dynamicRegistration"`
		} `json:"didChangeWatchedFiles"`
	} `json:"workspace"`
	TextDocument struct {
		CodeLens   *struct{} `json:"codeLens"`
		CodeAction struct {
			CodeActionLiteralSupport *struct{} `json:"codeActionLiteralSupport"`
		} `json:"codeAction"`
		PublishDiagnostics *struct {
			RelatedInformation bool `json:"relatedInformation"`
		} `json:"publishDiagnostics"`
	} `json:"textDocument"`
	Window struct {
		WorkDoneProgress bool `json:"workDoneProgress"`
	} `json:"window"`
}

// initializeResult is the reply to initialize, with the positionEncoding
// of LSP 3.17 that protocol.ServerCapabilities lacks.
type initializeResult struct {
	Capabilities serverCapabilities   `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

type serverCapabilities struct {
	protocol.ServerCapabilities
	PositionEncoding string `json:"positionEncoding,omitempty"`
}

// workDoneProgressCreateParams are the params of
// window/workDoneProgress/create, whose token may be a string.
type workDoneProgressCreateParams struct {
	Token string `json:"token"`
}
