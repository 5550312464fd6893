package fakeeditor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/graft-editor/graft/internal/test/testenv"
)

// Flavor is the editor an Editor imitates where real editors differ.
type Flavor int

const (
	// FlavorVSCode is VS Code with vscode-languageclient 9: it refuses a
	// WorkspaceEdit holding a TextDocumentEdit whose version is not exactly
	// that of the open document, answering applied:false with a
	// failureReason and the failedChange index, and applies none of it.
	FlavorVSCode Flavor = iota
	// FlavorNeovim072 is Neovim 0.7.2 (Debian's): it applies documentChanges
	// without advertising them, and skips a TextDocumentEdit older than its
	// buffer silently, still answering applied:true.
	FlavorNeovim072
)

// String returns the flavour's name.
func (f Flavor) String() string {
	switch f {
	case FlavorVSCode:
		return "vscode"
	case FlavorNeovim072:
		return "neovim-0.7.2"
	}
	return fmt.Sprintf("Flavor(%d)", int(f))
}

// Options configure the editor that Start launches the server for.
type Options struct {
	// Flavor decides how workspace/applyEdit is answered.
	Flavor Flavor
	// Args are extra arguments after `serve` ("--stdio", "--log", FILE, ...).
	Args []string
	// Dir is the server's working directory (default: the first folder).
	Dir string
	// Env, when set, is the server's environment.
	Env []string
	// State is the server's state folder (XDG_STATE_HOME, where the
	// journal is); a new folder of the test's when empty, never the
	// user's.
	State string

	// Folders are the workspace folders (directories): the first is sent as
	// rootUri and rootPath, all of them as workspaceFolders.
	Folders []string
	// PositionEncodings is capabilities.general.positionEncodings; empty
	// means the field is not sent.
	PositionEncodings []string
	// DocumentChanges is workspace.workspaceEdit.documentChanges.
	DocumentChanges bool
	// ResourceOperations is workspace.workspaceEdit.resourceOperations
	// ("create", "rename", "delete").
	ResourceOperations []string
	// FailureHandling is workspace.workspaceEdit.failureHandling; empty
	// means not sent.
	FailureHandling string
	// WorkDoneProgress is window.workDoneProgress.
	WorkDoneProgress bool
	// CodeLens advertises textDocument.codeLens and workspace.codeLens.
	CodeLens bool
	// WatchFiles advertises workspace.didChangeWatchedFiles with dynamic
	// registration: the server may ask to be told of changes to files on
	// the disk, which the test then tells with ChangeWatchedFiles (the
	// editor watches nothing itself).
	WatchFiles bool
	// InitializationOptions is sent as initializationOptions when not nil.
	InitializationOptions any
	// Capabilities, when not nil, is sent as the client capabilities
	// instead of those built from the fields above.
	Capabilities map[string]any

	// AllowProtocolErrors keeps a test from failing at cleanup when the
	// server sent what a real editor rejects (see ProtocolErrors), for
	// tests that provoke it.
	AllowProtocolErrors bool

	// BeforeApplyEdit, when set, runs when a workspace/applyEdit request
	// arrives, before the editor looks at it: a test can change a buffer
	// there (with Edit or SetText) to make the edit stale. It runs on the
	// connection's reader goroutine and must not call the server.
	BeforeApplyEdit func(e *Editor, params json.RawMessage)

	// Unanswered holds the methods of the server's requests the editor
	// never answers, as a client that hangs on them.
	Unanswered []string
}

// VSCode returns the options of VS Code with vscode-languageclient 9 over
// the given workspace folders: documentChanges, every resource operation,
// positionEncodings ["utf-16"], work-done progress, code lenses, and the
// dynamic registration of watched files.
func VSCode(folders ...string) Options {
	return Options{
		Flavor:             FlavorVSCode,
		Folders:            folders,
		PositionEncodings:  []string{UTF16},
		DocumentChanges:    true,
		ResourceOperations: []string{"create", "rename", "delete"},
		FailureHandling:    "textOnlyTransactional",
		WorkDoneProgress:   true,
		CodeLens:           true,
		WatchFiles:         true,
	}
}

// Neovim072 returns the options of Neovim 0.7.2 over the given workspace
// folders: resourceOperations but not documentChanges, no position
// encodings (always UTF-16), work-done progress, no code lenses.
func Neovim072(folders ...string) Options {
	return Options{
		Flavor:             FlavorNeovim072,
		Folders:            folders,
		ResourceOperations: []string{"rename", "create", "delete"},
		WorkDoneProgress:   true,
	}
}

// Editor is an LSP client driving one `graft serve` process, holding its
// buffers as an editor does.
type Editor struct {
	tb   testing.TB
	opt  Options
	cmd  *exec.Cmd
	in   io.WriteCloser
	conn *Conn

	stderr lockedBuffer

	exited   chan struct{}
	exitCode int

	mu       sync.Mutex
	encoding string
	docs     map[uri.URI]*document
	rec      records
}

// Start launches `<graft> serve` with opt.Args, connected to a new Editor.
// The process is killed at tb's cleanup if still running, and its stderr
// is logged there when the test failed.
func Start(tb testing.TB, opt Options) *Editor {
	tb.Helper()
	bin := testenv.Build(tb)
	args := append([]string{"serve"}, opt.Args...)
	cmd := exec.Command(bin, args...)
	cmd.Dir = opt.Dir
	if cmd.Dir == "" && len(opt.Folders) > 0 {
		cmd.Dir = opt.Folders[0]
	}
	cmd.Env = opt.Env
	if cmd.Env == nil {
		// The server's editor link gets a socket folder of its own, so
		// that test servers neither meet the user's editors nor leave
		// sockets in the user's folder. (A short path: a socket's name is
		// bounded.)
		sockets, err := os.MkdirTemp("", "graft-fakeeditor-")
		if err != nil {
			tb.Fatalf("fakeeditor: %v", err)
		}
		tb.Cleanup(func() { os.RemoveAll(sockets) })
		cmd.Env = append(os.Environ(), "GRAFT_EDITOR_DIR="+sockets)
	}
	state := opt.State
	if state == "" {
		state = tb.TempDir()
	}
	cmd.Env = append(cmd.Env, "XDG_STATE_HOME="+state) // the last one counts
	e := newEditor(tb, opt)
	e.cmd = cmd
	cmd.Stderr = &e.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatalf("fakeeditor: stdin pipe: %v", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatalf("fakeeditor: stdout pipe: %v", err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("fakeeditor: starting %s: %v", bin, err)
	}
	e.in = in
	e.conn = NewConn(out, in, e.handle)
	go func() {
		<-e.conn.Done() // read stdout to its end before Wait closes it
		cmd.Wait()
		e.exitCode = cmd.ProcessState.ExitCode()
		close(e.exited)
	}()
	tb.Cleanup(func() {
		select {
		case <-e.exited:
		default:
			cmd.Process.Kill()
			<-e.exited
		}
		if errs := e.ProtocolErrors(); len(errs) > 0 && !opt.AllowProtocolErrors {
			tb.Errorf("fakeeditor: the server broke the protocol:\n%s", strings.Join(errs, "\n"))
		}
		if tb.Failed() {
			tb.Logf("graft serve stderr:\n%s", e.stderr.String())
		}
	})
	return e
}

// newEditor returns an Editor with no connection yet.
func newEditor(tb testing.TB, opt Options) *Editor {
	e := &Editor{
		tb:       tb,
		opt:      opt,
		exited:   make(chan struct{}),
		encoding: UTF16,
		docs:     make(map[uri.URI]*document),
	}
	e.rec.init()
	return e
}

// StartReady is Start followed by initialize and initialized; a failure
// fails tb.
func StartReady(tb testing.TB, opt Options) (*Editor, *InitializeResult) {
	tb.Helper()
	e := Start(tb, opt)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := e.Initialize(ctx)
	if err != nil {
		tb.Fatalf("fakeeditor: initialize: %v", err)
	}
	if err := e.Initialized(); err != nil {
		tb.Fatalf("fakeeditor: initialized: %v", err)
	}
	return e, res
}

// Conn is the editor's JSON-RPC connection, for raw calls.
func (e *Editor) Conn() *Conn { return e.conn }

// Call sends a request and waits for its reply (see Conn.Call).
func (e *Editor) Call(ctx context.Context, method string, params, result any) error {
	return e.conn.Call(ctx, method, params, result)
}

// Go sends a request without waiting (see Conn.Go).
func (e *Editor) Go(method string, params any) (int64, <-chan Response) {
	return e.conn.Go(method, params)
}

// Notify sends a notification.
func (e *Editor) Notify(method string, params any) error { return e.conn.Notify(method, params) }

// Cancel sends $/cancelRequest for the request id.
func (e *Editor) Cancel(id int64) error { return e.conn.Cancel(id) }

// WriteRaw writes bytes to the server's stdin as they are (see Conn.WriteRaw).
func (e *Editor) WriteRaw(b []byte) error { return e.conn.WriteRaw(b) }

// Stderr returns what the server has written to its stderr so far.
func (e *Editor) Stderr() string { return e.stderr.String() }

// Encoding is the position encoding in use: the one the server chose in
// its initialize result, or UTF16.
func (e *Editor) Encoding() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.encoding
}

// Options returns the editor's options (Folders as changed by
// ChangeFolders).
func (e *Editor) Options() Options {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.opt
}

// CloseStdin closes the server's input, as an editor that goes away does.
func (e *Editor) CloseStdin() error { return e.in.Close() }

// Wait waits for the server process to exit and returns its exit status.
func (e *Editor) Wait(timeout time.Duration) (int, error) {
	select {
	case <-e.exited:
		return e.exitCode, nil
	case <-time.After(timeout):
		return -1, fmt.Errorf("graft serve still running after %v", timeout)
	}
}

// Pid returns the process id of the server, for a benchmark that reads
// the CPU time it spends.
func (e *Editor) Pid() int { return e.cmd.Process.Pid }

// Exited is closed when the server process has exited.
func (e *Editor) Exited() <-chan struct{} { return e.exited }

// URI returns the file URI of path, made absolute.
func URI(path string) uri.URI {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return uri.File(path)
}

// canonical normalizes a URI the server sent, as editors parse URIs into
// their own form; a URI that is not a file URI is kept as it is.
func canonical(u uri.URI) uri.URI {
	p, err := uri.Parse(string(u))
	if err != nil || !isFileURI(string(u)) {
		return u
	}
	return uri.File(p.Filename())
}

func isFileURI(s string) bool { return len(s) >= 7 && s[:7] == "file://" }

// handle answers the server's requests as an editor does and records its
// notifications.
func (e *Editor) handle(req *Request) (any, error) {
	if req.ID == nil {
		e.record(req)
		return nil, nil
	}
	e.rec.request(req.Method, req.Params)
	if why := e.unadvertised(req); why != "" {
		e.rec.mu.Lock()
		e.rec.protocolError("%s sent to a client that %s", req.Method, why)
		e.rec.mu.Unlock()
	}
	if slices.Contains(e.opt.Unanswered, req.Method) {
		return nil, ErrNoReply
	}
	switch req.Method {
	case "workspace/applyEdit":
		if e.opt.BeforeApplyEdit != nil {
			e.opt.BeforeApplyEdit(e, req.Params)
		}
		return e.applyEditRequest(req.Params)
	case "window/workDoneProgress/create":
		var p struct {
			Token json.RawMessage `json:"token"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil || len(p.Token) == 0 {
			return nil, &ResponseError{Code: CodeInvalidParams, Message: fmt.Sprintf("bad workDoneProgress/create params %s", req.Params)}
		}
		e.rec.progressCreated(p.Token)
		return nil, nil
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil {
			return nil, &ResponseError{Code: CodeInvalidParams, Message: err.Error()}
		}
		return make([]any, len(p.Items)), nil
	case "client/registerCapability", "client/unregisterCapability",
		"window/showMessageRequest",
		"workspace/codeLens/refresh", "workspace/diagnostic/refresh",
		"workspace/semanticTokens/refresh", "workspace/inlayHint/refresh",
		"workspace/inlineValue/refresh":
		return nil, nil
	case "workspace/workspaceFolders":
		return e.workspaceFolders(), nil
	}
	e.rec.mu.Lock()
	e.rec.protocolError("unknown request %s %s", req.Method, req.Params)
	e.rec.mu.Unlock()
	return nil, &ResponseError{Code: CodeMethodNotFound, Message: "method not found: " + req.Method}
}

// unadvertised says why req uses a capability the client did not
// advertise, or returns "".
func (e *Editor) unadvertised(req *Request) string {
	o := &e.opt // fields Start set, never written again (unlike Folders)
	if o.Capabilities != nil {
		return ""
	}
	switch req.Method {
	case "window/workDoneProgress/create":
		if !o.WorkDoneProgress {
			return "does not advertise window.workDoneProgress"
		}
	case "workspace/codeLens/refresh":
		if !o.CodeLens {
			return "does not advertise workspace.codeLens.refreshSupport"
		}
	case "client/registerCapability":
		var p struct {
			Registrations []struct {
				Method string `json:"method"`
			} `json:"registrations"`
		}
		if json.Unmarshal(req.Params, &p) != nil {
			return ""
		}
		for _, r := range p.Registrations {
			if r.Method != "workspace/didChangeWatchedFiles" || !o.WatchFiles {
				return "does not advertise the dynamic registration of " + r.Method
			}
		}
	case "workspace/diagnostic/refresh", "workspace/semanticTokens/refresh",
		"workspace/inlayHint/refresh", "workspace/inlineValue/refresh":
		return "does not advertise its refreshSupport"
	case "workspace/applyEdit":
		var p ApplyWorkspaceEditParams
		if json.Unmarshal(req.Params, &p) != nil || p.Edit.DocumentChanges == nil {
			return ""
		}
		if !o.DocumentChanges && len(o.ResourceOperations) == 0 {
			return "advertises neither documentChanges nor resourceOperations, in documentChanges"
		}
		for _, c := range p.Edit.DocumentChanges {
			var kind string
			switch {
			case c.CreateFile != nil:
				kind = "create"
			case c.RenameFile != nil:
				kind = "rename"
			case c.DeleteFile != nil:
				kind = "delete"
			default:
				continue
			}
			if !slices.Contains(o.ResourceOperations, kind) {
				return fmt.Sprintf("does not advertise the %q resource operation", kind)
			}
		}
	}
	return ""
}

// ChangeFolders adds and removes workspace folders, sending
// workspace/didChangeWorkspaceFolders as an editor does when the user
// edits the workspace.
func (e *Editor) ChangeFolders(added, removed []string) error {
	e.mu.Lock()
	folders := append([]string(nil), e.opt.Folders...)
	for _, r := range removed {
		folders = slices.DeleteFunc(folders, func(f string) bool { return URI(f) == URI(r) })
	}
	folders = append(folders, added...)
	e.opt.Folders = folders
	e.mu.Unlock()
	event := map[string][]protocol.WorkspaceFolder{"added": folderList(added), "removed": folderList(removed)}
	return e.conn.Notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": event})
}

func (e *Editor) workspaceFolders() []protocol.WorkspaceFolder {
	e.mu.Lock()
	defer e.mu.Unlock()
	return folderList(e.opt.Folders)
}

func folderList(dirs []string) []protocol.WorkspaceFolder {
	out := []protocol.WorkspaceFolder{}
	for _, f := range dirs {
		out = append(out, protocol.WorkspaceFolder{URI: string(URI(f)), Name: filepath.Base(f)})
	}
	return out
}

// lockedBuffer is a bytes.Buffer safe for one writer and many readers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var errNotOpen = errors.New("document not open")
