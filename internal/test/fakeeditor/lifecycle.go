package fakeeditor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
)

// InitializeResult is the server's reply to initialize: decoded as far as
// protocol v0.12.0 goes, the negotiated position encoding (which that
// version lacks), and the raw JSON for everything else.
type InitializeResult struct {
	protocol.InitializeResult
	// PositionEncoding is capabilities.positionEncoding as sent ("" when
	// absent, which means UTF-16).
	PositionEncoding string
	// Raw is the result exactly as received.
	Raw json.RawMessage
}

// Initialize sends initialize with the options' folders, capabilities and
// initializationOptions, and adopts the position encoding the server picks.
func (e *Editor) Initialize(ctx context.Context) (*InitializeResult, error) {
	var raw json.RawMessage
	if err := e.conn.Call(ctx, "initialize", e.InitializeParams(), &raw); err != nil {
		return nil, err
	}
	res := &InitializeResult{Raw: raw}
	if err := json.Unmarshal(raw, &res.InitializeResult); err != nil {
		return res, fmt.Errorf("decoding initialize result %s: %w", raw, err)
	}
	var enc struct {
		Capabilities struct {
			PositionEncoding string `json:"positionEncoding"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(raw, &enc); err != nil {
		return res, fmt.Errorf("decoding capabilities.positionEncoding: %w", err)
	}
	res.PositionEncoding = enc.Capabilities.PositionEncoding
	e.mu.Lock()
	defer e.mu.Unlock()
	switch res.PositionEncoding {
	case "", UTF16:
		e.encoding = UTF16
	case UTF8, UTF32:
		e.encoding = res.PositionEncoding
	default:
		return res, fmt.Errorf("server chose unknown position encoding %q", res.PositionEncoding)
	}
	if len(e.opt.PositionEncodings) > 0 && e.encoding != UTF16 && !contains(e.opt.PositionEncodings, res.PositionEncoding) {
		// UTF-16 is always allowed; anything else must have been offered
		// (vscode-languageclient throws here).
		return res, fmt.Errorf("server chose position encoding %q, not among those offered %q", res.PositionEncoding, e.opt.PositionEncodings)
	}
	return res, nil
}

// InitializeParams returns the initialize params the editor sends.
func (e *Editor) InitializeParams() map[string]any {
	clientInfo := map[string]any{"name": "Visual Studio Code", "version": "1.100.3"}
	if e.opt.Flavor == FlavorNeovim072 {
		clientInfo = map[string]any{"name": "Neovim", "version": "0.7.2"}
	}
	p := map[string]any{
		"processId":    os.Getpid(),
		"clientInfo":   clientInfo,
		"capabilities": e.capabilities(),
		"trace":        "off",
	}
	if len(e.opt.Folders) > 0 {
		abs, _ := filepath.Abs(e.opt.Folders[0])
		p["rootUri"] = URI(e.opt.Folders[0])
		p["rootPath"] = abs
		p["workspaceFolders"] = e.workspaceFolders()
	} else {
		p["rootUri"] = nil
		p["workspaceFolders"] = nil
	}
	if e.opt.InitializationOptions != nil {
		p["initializationOptions"] = e.opt.InitializationOptions
	}
	return p
}

func (e *Editor) capabilities() map[string]any {
	if e.opt.Capabilities != nil {
		return e.opt.Capabilities
	}
	o := e.opt
	workspaceEdit := map[string]any{}
	if o.DocumentChanges {
		workspaceEdit["documentChanges"] = true
	}
	if len(o.ResourceOperations) > 0 {
		workspaceEdit["resourceOperations"] = o.ResourceOperations
	}
	if o.FailureHandling != "" {
		workspaceEdit["failureHandling"] = o.FailureHandling
	}
	workspace := map[string]any{
		"applyEdit":        true,
		"workspaceEdit":    workspaceEdit,
		"workspaceFolders": true,
		"configuration":    true,
		"executeCommand":   map[string]any{"dynamicRegistration": false},
	}
	textDocument := map[string]any{
		"synchronization": map[string]any{"dynamicRegistration": false, "willSave": false, "willSaveWaitUntil": false, "didSave": true},
		"publishDiagnostics": map[string]any{
			"relatedInformation": true,
			"versionSupport":     o.Flavor == FlavorVSCode,
			"tagSupport":         map[string]any{"valueSet": []int{1, 2}},
		},
		"codeAction": map[string]any{
			"dynamicRegistration": false,
			"codeActionLiteralSupport": map[string]any{"codeActionKind": map[string]any{"valueSet": []string{
				"", "quickfix", "refactor", "refactor.extract", "refactor.inline", "refactor.rewrite", "source", "source.organizeImports",
			}}},
			"isPreferredSupport": true,
			"dataSupport":        true,
			"resolveSupport":     map[string]any{"properties": []string{"edit"}},
		},
	}
	if o.WatchFiles {
		workspace["didChangeWatchedFiles"] = map[string]any{"dynamicRegistration": true}
	}
	if o.CodeLens {
		textDocument["codeLens"] = map[string]any{"dynamicRegistration": false}
		workspace["codeLens"] = map[string]any{"refreshSupport": true}
	}
	caps := map[string]any{
		"workspace":    workspace,
		"textDocument": textDocument,
		"window": map[string]any{
			"workDoneProgress": o.WorkDoneProgress,
			"showMessage":      map[string]any{"messageActionItem": map[string]any{"additionalPropertiesSupport": false}},
		},
	}
	if len(o.PositionEncodings) > 0 {
		caps["general"] = map[string]any{"positionEncodings": o.PositionEncodings}
	}
	return caps
}

// Initialized sends the initialized notification.
func (e *Editor) Initialized() error {
	return e.conn.Notify("initialized", map[string]any{})
}

// Shutdown sends shutdown and waits for its (null) reply.
func (e *Editor) Shutdown(ctx context.Context) error {
	var res json.RawMessage
	if err := e.conn.Call(ctx, "shutdown", nil, &res); err != nil {
		return err
	}
	if string(res) != "null" {
		return fmt.Errorf("shutdown result %s, want null", res)
	}
	return nil
}

// Exit sends the exit notification.
func (e *Editor) Exit() error {
	return e.conn.Notify("exit", nil)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
