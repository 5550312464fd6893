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
	"go.uber.org/zap/zapcore"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/lsp/internal/span"
	"github.com/graft-editor/graft/workspace"
)

// The commands the server executes.
const (
	cmdApply           = "graft.apply"
	cmdPreview         = "graft.preview"
	cmdSuggest         = "graft.suggest"
	cmdSuggestions     = "graft.suggestions"
	cmdDismiss         = "graft.dismiss"
	cmdApplySuggestion = "graft.applySuggestion"
	cmdAccept          = "graft.accept"
	cmdReject          = "graft.reject"
	cmdChoose          = "graft.choose"
)

// commands lists them, as executeCommandProvider advertises them.
var commands = []string{cmdApply, cmdPreview, cmdSuggest, cmdSuggestions, cmdDismiss, cmdApplySuggestion, cmdAccept, cmdReject, cmdChoose}

// capabilities are what the client can do, as the server uses them.
type capabilities struct {
	// enc is the position encoding both sides agreed on.
	enc span.Encoding
	// documentChanges says WorkspaceEdits carry documentChanges rather
	// than changes: the client advertises documentChanges or resource
	// operations (Neovim 0.7.2 applies documentChanges without saying so).
	documentChanges bool
	// resourceOps are the resource operations the client can apply.
	resourceOps     map[string]bool
	failureHandling string
	codeLens        bool
	codeLensRefresh bool
	actionLiterals  bool
	relatedInfo     bool
	progress        bool
	applyEdit       bool
	// watchFiles says the client tells of changes to files on the disk
	// once asked to (see watchFiles).
	watchFiles bool
}

// settings are Graft's options, from initializationOptions.
type settings struct {
	// Threshold is the minimum similarity of a fuzzy match.
	Threshold float64 `json:"threshold"`
	// LogLevel is the level of the server's log.
	LogLevel string `json:"logLevel"`
	// AnswerLanguages are the language ids of the documents read as
	// agents' answers; "*" reads every document.
	AnswerLanguages []string `json:"answerLanguages"`
}

// defaultSettings returns the settings before the client says otherwise.
func defaultSettings() settings {
	return settings{
		Threshold:       engine.DefaultThreshold,
		AnswerLanguages: []string{"markdown", "plaintext", "text", "diff", "patch", "json", "jsonc", "jsonl", ""},
	}
}

// readSettings applies the settings in raw over s.
func (s *server) readSettings(raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	set := s.settings
	if err := json.Unmarshal(raw, &set); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions: %v", err)
	}
	if !(set.Threshold > 0 && set.Threshold <= 1) {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions: threshold %g: want a similarity in (0, 1]", set.Threshold)
	}
	if set.LogLevel != "" {
		lvl, err := zapcore.ParseLevel(set.LogLevel)
		if err != nil {
			return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initializationOptions: logLevel: %v", err)
		}
		if s.opt.Level != nil {
			s.opt.Level.SetLevel(lvl)
		}
	}
	s.settings = set
	return nil
}

func (s *server) initialize(ctx context.Context, raw json.RawMessage) (any, error) {
	var p initializeParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.readSettings(p.InitializationOptions); err != nil {
		return nil, err
	}
	c := p.Capabilities
	s.caps = capabilities{
		enc:             span.UTF16,
		documentChanges: c.Workspace.WorkspaceEdit.DocumentChanges || len(c.Workspace.WorkspaceEdit.ResourceOperations) > 0,
		resourceOps:     map[string]bool{},
		failureHandling: c.Workspace.WorkspaceEdit.FailureHandling,
		codeLens:        c.TextDocument.CodeLens != nil,
		codeLensRefresh: c.Workspace.CodeLens.RefreshSupport,
		actionLiterals:  c.TextDocument.CodeAction.CodeActionLiteralSupport != nil,
		relatedInfo:     c.TextDocument.PublishDiagnostics != nil && c.TextDocument.PublishDiagnostics.RelatedInformation,
		progress:        c.Window.WorkDoneProgress,
		applyEdit:       c.Workspace.ApplyEdit,
		watchFiles:      c.Workspace.DidChangeWatchedFiles.DynamicRegistration,
	}
	if slices.Contains(c.General.PositionEncodings, "utf-8") {
		s.caps.enc = span.UTF8
	}
	for _, op := range c.Workspace.WorkspaceEdit.ResourceOperations {
		s.caps.resourceOps[op] = true
	}

	folders := p.WorkspaceFolders
	if len(folders) == 0 {
		switch {
		case p.RootURI != "":
			folders = []protocol.WorkspaceFolder{{URI: p.RootURI}}
		case p.RootPath != "":
			folders = []protocol.WorkspaceFolder{{URI: string(fileURI(p.RootPath))}}
		}
	}
	s.setFolders(folders)
	s.state = initializing

	client := ""
	if p.ClientInfo != nil {
		client = p.ClientInfo.Name + " " + p.ClientInfo.Version
	}
	s.log.Info("initialize", zap.String("client", client), zap.Stringer("encoding", s.caps.enc),
		zap.Bool("documentChanges", s.caps.documentChanges), zap.Int("folders", len(s.docs.Roots())))

	caps := serverCapabilities{
		ServerCapabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{},
			},
			CodeActionProvider: protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix, protocol.Source, protocol.RefactorRewrite},
			},
			CodeLensProvider:       &protocol.CodeLensOptions{},
			ExecuteCommandProvider: &protocol.ExecuteCommandOptions{Commands: commands},
			Workspace: &protocol.ServerCapabilitiesWorkspace{
				WorkspaceFolders: &protocol.ServerCapabilitiesWorkspaceFolders{
					Supported:           true,
					ChangeNotifications: true,
				},
			},
		},
		PositionEncoding: s.caps.enc.String(),
	}
	return initializeResult{
		Capabilities: caps,
		ServerInfo:   &protocol.ServerInfo{Name: "graft", Version: s.opt.Version},
	}, nil
}

// setFolders makes folders the workspace roots; a folder that cannot be
// opened is logged and left out. s.mu is held.
func (s *server) setFolders(folders []protocol.WorkspaceFolder) {
	// A Root holds its folder open: the roots of folders that stay are
	// kept, and those of folders that go are closed.
	old := map[string]*workspace.Root{}
	for _, r := range s.docs.Roots() {
		old[r.Dir()] = r
	}
	var roots []*workspace.Root
	for _, f := range folders {
		dir, err := uriPath(f.URI)
		if err != nil {
			s.log.Warn("workspace folder", zap.String("uri", f.URI), zap.Error(err))
			continue
		}
		if real, err := filepath.EvalSymlinks(dir); err == nil && old[real] != nil {
			roots = append(roots, old[real])
			delete(old, real)
			continue
		}
		r, err := workspace.Open(dir)
		if err != nil {
			s.log.Warn("workspace folder", zap.String("uri", f.URI), zap.Error(err))
			continue
		}
		roots = append(roots, r)
	}
	s.docs.SetRoots(roots)
	for _, r := range old {
		r.Close()
	}
	s.subs.reset()
	if s.state == running {
		s.announceRoots()
	}
}

func (s *server) initialized(ctx context.Context, raw json.RawMessage) (any, error) {
	s.mu.Lock()
	first := s.state == initializing
	if first {
		s.state = running
		// Requests from outside (graft apply, graft mcp) come only now:
		// before initialized, the editor has not yet opened its buffers,
		// and an edit would be computed from the disk behind them.
		s.announceRoots()
	}
	watch := first && s.caps.watchFiles
	s.mu.Unlock()
	if watch {
		// Not waited for: the messages after initialized are not held
		// up by a client slow to answer.
		go s.watchFiles(context.WithoutCancel(ctx))
	}
	return nil, nil
}

func (s *server) shutdown(ctx context.Context, raw json.RawMessage) (any, error) {
	s.mu.Lock()
	s.state = shutDown
	s.mu.Unlock()
	s.stop()
	return nil, nil
}

// shutDown reports whether the client has sent the shutdown request.
func (s *server) shutDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state == shutDown
}

func (s *server) exit(ctx context.Context, raw json.RawMessage) (any, error) {
	s.mu.Lock()
	if !s.exited {
		s.exited = true
		close(s.exitCh) // Serve returns and reports the exit status
	}
	s.mu.Unlock()
	return nil, nil
}

func (s *server) didChangeWorkspaceFolders(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		Event struct {
			Added   []protocol.WorkspaceFolder `json:"added"`
			Removed []protocol.WorkspaceFolder `json:"removed"`
		} `json:"event"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var folders []protocol.WorkspaceFolder
	removed := map[string]bool{}
	for _, f := range p.Event.Removed {
		if dir, err := uriPath(f.URI); err == nil {
			if real, err := filepath.EvalSymlinks(dir); err == nil {
				dir = real // as Root.Dir has it
			}
			removed[dir] = true
		}
	}
	for _, r := range s.docs.Roots() {
		if !removed[r.Dir()] {
			folders = append(folders, protocol.WorkspaceFolder{URI: string(fileURI(r.Dir()))})
		}
	}
	folders = append(folders, p.Event.Added...)
	s.setFolders(folders)
	s.log.Info("workspace folders changed", zap.Int("folders", len(s.docs.Roots())))
	return nil, nil
}

func (s *server) didChangeConfiguration(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	var wrapped struct {
		Graft json.RawMessage `json:"graft"`
	}
	if json.Unmarshal(p.Settings, &wrapped) == nil && len(wrapped.Graft) > 0 {
		p.Settings = wrapped.Graft
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.readSettings(p.Settings); err != nil {
		return nil, fmt.Errorf("settings: %w", err)
	}
	return nil, nil
}
