package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
)

// ctxT is a context for one request of a lifecycle test.
func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// wantCode checks that err is a JSON-RPC error reply with code.
func wantCode(t *testing.T, what string, err error, code int64) *fakeeditor.ResponseError {
	t.Helper()
	var re *fakeeditor.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("%s: got %v, want a JSON-RPC error %d", what, err, code)
	}
	if re.Code != code {
		t.Errorf("%s: error %d %q, want code %d", what, re.Code, re.Message, code)
	}
	return re
}

// wantAlive checks that the server still answers requests.
func wantAlive(t *testing.T, e *fakeeditor.Editor) {
	t.Helper()
	err := e.Call(ctxT(t), "graft/noSuchMethod", map[string]any{}, nil)
	var re *fakeeditor.ResponseError
	if !errors.As(err, &re) {
		t.Fatalf("server no longer answers: %v", err)
	}
}

// shutdownExit ends the server as an editor does and checks its status.
func shutdownExit(t *testing.T, e *fakeeditor.Editor) {
	t.Helper()
	if err := e.Shutdown(ctxT(t)); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if err := e.Exit(); err != nil {
		t.Fatalf("exit: %v", err)
	}
	if code, err := e.Wait(10 * time.Second); err != nil || code != 0 {
		t.Errorf("exit after shutdown: status %d, %v; want 0", code, err)
	}
}

func TestInitializeResult(t *testing.T) {
	out, err := exec.Command(testenv.Build(t), "version").Output()
	if err != nil {
		t.Fatalf("graft version: %v", err)
	}
	wantVersion := strings.TrimPrefix(strings.TrimSpace(string(out)), "graft ")

	tests := []struct {
		name      string
		opt       fakeeditor.Options
		encodings []string // positionEncoding values accepted ("" = absent)
	}{
		{"vscode offers utf-16", fakeeditor.VSCode(), []string{"", "utf-16"}},
		{"neovim offers nothing", fakeeditor.Neovim072(), []string{"", "utf-16"}},
		{"utf-8 offered first", withEncodings(fakeeditor.VSCode(), "utf-8", "utf-16"), []string{"utf-8"}},
		{"utf-8 offered second", withEncodings(fakeeditor.VSCode(), "utf-16", "utf-8"), []string{"utf-8"}},
		{"utf-8 alone", withEncodings(fakeeditor.VSCode(), "utf-8"), []string{"utf-8"}},
		{"only utf-32 offered", withEncodings(fakeeditor.VSCode(), "utf-32"), []string{"", "utf-16"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opt.Folders = []string{t.TempDir()}
			e := fakeeditor.Start(t, tt.opt)
			res, err := e.Initialize(ctxT(t))
			if err != nil {
				t.Fatalf("initialize: %v", err)
			}
			if !slices.Contains(tt.encodings, res.PositionEncoding) {
				t.Errorf("positionEncoding %q, want one of %q", res.PositionEncoding, tt.encodings)
			}
			if res.ServerInfo == nil || res.ServerInfo.Name != "graft" || res.ServerInfo.Version != wantVersion {
				t.Errorf("serverInfo %+v, want graft %s (as graft version says)", res.ServerInfo, wantVersion)
			}

			var raw struct {
				Capabilities struct {
					TextDocumentSync       json.RawMessage `json:"textDocumentSync"`
					CodeActionProvider     json.RawMessage `json:"codeActionProvider"`
					ExecuteCommandProvider struct {
						Commands []string `json:"commands"`
					} `json:"executeCommandProvider"`
				} `json:"capabilities"`
			}
			if err := json.Unmarshal(res.Raw, &raw); err != nil {
				t.Fatal(err)
			}
			c := raw.Capabilities
			var sync struct {
				OpenClose bool `json:"openClose"`
				Change    int  `json:"change"`
			}
			if string(c.TextDocumentSync) != "2" {
				if err := json.Unmarshal(c.TextDocumentSync, &sync); err != nil || !sync.OpenClose || sync.Change != 2 {
					t.Errorf("textDocumentSync %s, want incremental (2) with openClose", c.TextDocumentSync)
				}
			}
			for _, cmd := range []string{"graft.apply", "graft.preview"} {
				if !slices.Contains(c.ExecuteCommandProvider.Commands, cmd) {
					t.Errorf("executeCommandProvider.commands %q lacks %s", c.ExecuteCommandProvider.Commands, cmd)
				}
			}
			if s := string(c.CodeActionProvider); s == "" || s == "false" || s == "null" {
				t.Errorf("codeActionProvider %q, want true or options", s)
			}
			if err := e.Initialized(); err != nil {
				t.Fatal(err)
			}
			shutdownExit(t, e)
		})
	}
}

func withEncodings(o fakeeditor.Options, encs ...string) fakeeditor.Options {
	o.PositionEncodings = encs
	return o
}

func TestExitStatus(t *testing.T) {
	t.Run("shutdown then exit is 0", func(t *testing.T) {
		e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(t.TempDir()))
		shutdownExit(t, e)
	})
	t.Run("exit without shutdown is 1", func(t *testing.T) {
		e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(t.TempDir()))
		e.Exit()
		if code, err := e.Wait(10 * time.Second); err != nil || code != 1 {
			t.Errorf("status %d, %v; want 1", code, err)
		}
	})
	t.Run("exit before initialize is 1", func(t *testing.T) {
		e := fakeeditor.Start(t, fakeeditor.VSCode(t.TempDir()))
		e.Exit()
		if code, err := e.Wait(10 * time.Second); err != nil || code != 1 {
			t.Errorf("status %d, %v; want 1", code, err)
		}
	})
	t.Run("requests after shutdown are refused", func(t *testing.T) {
		e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(t.TempDir()))
		if err := e.Shutdown(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		err := e.Command(ctxT(t), "graft.preview", map[string]any{"text": ""}, nil)
		wantCode(t, "executeCommand after shutdown", err, fakeeditor.CodeInvalidRequest)
		e.Exit()
		if code, err := e.Wait(10 * time.Second); err != nil || code != 0 {
			t.Errorf("status %d, %v; want 0", code, err)
		}
	})
	t.Run("closed input ends the server", func(t *testing.T) {
		e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(t.TempDir()))
		e.CloseStdin()
		if code, err := e.Wait(10 * time.Second); err != nil || code != 1 {
			t.Errorf("status %d, %v; want 1: the server outlived its editor, or took a hang-up for a shutdown", code, err)
		}
	})
	t.Run("input closed after shutdown is 0", func(t *testing.T) {
		// Neovim sends shutdown when it quits, and may be gone before its
		// exit notification is sent.
		e, _ := fakeeditor.StartReady(t, fakeeditor.Neovim072(t.TempDir()))
		if err := e.Shutdown(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		e.CloseStdin()
		if code, err := e.Wait(10 * time.Second); err != nil || code != 0 {
			t.Errorf("status %d, %v; want 0", code, err)
		}
	})
}

func TestStdioFlagAccepted(t *testing.T) {
	opt := fakeeditor.Neovim072(t.TempDir())
	opt.Args = []string{"--stdio"}
	e, res := fakeeditor.StartReady(t, opt)
	if res.ServerInfo == nil || res.ServerInfo.Name != "graft" {
		t.Errorf("serverInfo %+v", res.ServerInfo)
	}
	shutdownExit(t, e)
}

func TestRequestBeforeInitialize(t *testing.T) {
	e := fakeeditor.Start(t, fakeeditor.VSCode(t.TempDir()))
	err := e.Command(ctxT(t), "graft.preview", map[string]any{"text": ""}, nil)
	wantCode(t, "executeCommand before initialize", err, fakeeditor.CodeServerNotInitialized)
	if _, err := e.Initialize(ctxT(t)); err != nil {
		t.Fatalf("initialize after a refused request: %v", err)
	}
	// initialize may be sent only once.
	if _, err := e.Initialize(ctxT(t)); err == nil {
		t.Error("a second initialize succeeded")
	}
	wantAlive(t, e)
}

func TestMalformedMessages(t *testing.T) {
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(t.TempDir()))
	// The reply carries the message's id when it can be read, so that
	// the editor's request ends; else a null id.
	tests := []struct {
		name string
		body string
		code int64
		id   string
	}{
		{"truncated JSON", `{"jsonrpc":"2.0","id":1,"method":`, fakeeditor.CodeParseError, "1"},
		{"truncated in the id", `{"jsonrpc":"2.0","id":1`, fakeeditor.CodeParseError, "null"},
		{"not JSON", `not json at all`, fakeeditor.CodeParseError, "null"},
		{"garbage after the object", `{"jsonrpc":"2.0","id":2,"method":"shutdown"` + "\xff}", fakeeditor.CodeParseError, "2"},
		{"JSON that is no message", `{"foo":1}`, fakeeditor.CodeInvalidRequest, "null"},
		{"a number", `42`, fakeeditor.CodeInvalidRequest, "null"},
		{"a batch, which LSP does not have", `[{"jsonrpc":"2.0","id":3,"method":"shutdown"}]`, fakeeditor.CodeInvalidRequest, "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(e.Conn().Unmatched())
			if err := e.WriteRaw(fakeeditor.Frame([]byte(tt.body))); err != nil {
				t.Fatal(err)
			}
			if _, err := e.Conn().WaitUnmatched(func(fakeeditor.Response) bool { return len(e.Conn().Unmatched()) > before }, 10*time.Second); err != nil {
				t.Fatalf("no reply to %q: %v", tt.body, err)
			}
			r := e.Conn().Unmatched()[before]
			if r.Error == nil || r.Error.Code != tt.code || string(r.ID) != tt.id {
				t.Errorf("reply to %q: id %s error %+v, want id %s and code %d", tt.body, r.ID, r.Error, tt.id, tt.code)
			}
			wantAlive(t, e)
		})
	}
	t.Run("a string id is echoed", func(t *testing.T) {
		e.WriteRaw(fakeeditor.Frame([]byte(`{"jsonrpc":"2.0","id":"abc","method":"graft/noSuchMethod","params":{}}`)))
		r, err := e.Conn().WaitUnmatched(func(r fakeeditor.Response) bool { return string(r.ID) == `"abc"` }, 10*time.Second)
		if err != nil || r.Error == nil || r.Error.Code != fakeeditor.CodeMethodNotFound {
			t.Errorf("reply %+v, %v; want MethodNotFound for id \"abc\"", r, err)
		}
	})
	shutdownExit(t, e)
}

func TestMethodNotFound(t *testing.T) {
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(t.TempDir()))
	err := e.Call(ctxT(t), "textDocument/noSuchThing", map[string]any{}, nil)
	wantCode(t, "unknown request", err, fakeeditor.CodeMethodNotFound)
	err = e.Call(ctxT(t), "$/noSuchThing", map[string]any{}, nil)
	wantCode(t, "unknown $/ request", err, fakeeditor.CodeMethodNotFound)
	// An unknown notification gets no reply and harms nothing.
	e.Notify("$/noSuchNotification", map[string]any{})
	e.Notify("workspace/noSuchNotification", map[string]any{})
	wantAlive(t, e)
	if got := e.Conn().Unmatched(); len(got) != 0 {
		t.Errorf("stray replies: %+v", got)
	}
	shutdownExit(t, e)
}

func TestInvalidParams(t *testing.T) {
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(t.TempDir()))
	tests := []struct {
		name   string
		method string
		params string
	}{
		{"executeCommand params a string", "workspace/executeCommand", `"oops"`},
		{"executeCommand command a number", "workspace/executeCommand", `{"command":7}`},
		{"graft.apply argument a number", "workspace/executeCommand", `{"command":"graft.apply","arguments":[42]}`},
		{"graft.preview text a number", "workspace/executeCommand", `{"command":"graft.preview","arguments":[{"text":5}]}`},
		{"codeAction uri a number", "textDocument/codeAction", `{"textDocument":{"uri":5},"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"context":{"diagnostics":[]}}`},
		{"codeLens params an array", "textDocument/codeLens", `[1,2]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := e.Call(ctxT(t), tt.method, json.RawMessage(tt.params), nil)
			wantCode(t, tt.method+" "+tt.params, err, fakeeditor.CodeInvalidParams)
		})
	}
	wantAlive(t, e)
	shutdownExit(t, e)
}

func TestUnknownCommand(t *testing.T) {
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(t.TempDir()))
	err := e.Command(ctxT(t), "graft.noSuchCommand", map[string]any{}, nil)
	var re *fakeeditor.ResponseError
	if !errors.As(err, &re) || !strings.Contains(re.Message, "graft.noSuchCommand") {
		t.Errorf("unknown command: %v, want an error reply naming it", err)
	}
	shutdownExit(t, e)
}

func TestInjectedPanic(t *testing.T) {
	t.Run("initialize", func(t *testing.T) {
		opt := fakeeditor.VSCode(t.TempDir())
		opt.Args = []string{"--inject-panic", "initialize"}
		e := fakeeditor.Start(t, opt)
		_, err := e.Initialize(ctxT(t))
		re := wantCode(t, "initialize that panics", err, fakeeditor.CodeInternalError)
		if re != nil && strings.Contains(re.Message, "goroutine ") {
			t.Errorf("error reply carries a stack trace: %q", re.Message)
		}
		wantAlive(t, e)
		select {
		case <-e.Exited():
			t.Fatal("server exited after a panic")
		default:
		}
		if !strings.Contains(e.Stderr(), "panic") {
			t.Errorf("no log line about the panic on stderr:\n%s", e.Stderr())
		}
	})
	t.Run("executeCommand", func(t *testing.T) {
		opt := fakeeditor.VSCode(t.TempDir())
		opt.Args = []string{"--inject-panic", "workspace/executeCommand"}
		e, _ := fakeeditor.StartReady(t, opt)
		for i := 0; i < 2; i++ {
			err := e.Command(ctxT(t), "graft.preview", map[string]any{"text": ""}, nil)
			wantCode(t, "executeCommand that panics", err, fakeeditor.CodeInternalError)
		}
		shutdownExit(t, e)
	})
}

// applyStatus runs graft.apply on an answer and returns the first block's
// status and message.
func applyStatus(t *testing.T, e *fakeeditor.Editor, answer string) (status, message string) {
	t.Helper()
	var r struct {
		Blocks []struct {
			Status  string `json:"status"`
			Message string `json:"message"`
		} `json:"blocks"`
	}
	if err := e.Command(ctxT(t), "graft.apply", map[string]any{"text": answer}, &r); err != nil {
		t.Fatalf("graft.apply: %v", err)
	}
	if len(r.Blocks) == 0 {
		t.Fatalf("graft.apply: no blocks")
	}
	return r.Blocks[0].Status, r.Blocks[0].Message
}

// searchReplace is a search-replace block changing old to new in path.
func searchReplace(path, old, new string) string {
	return path + "\n<<<<<<< SEARCH\n" + old + "=======\n" + new + ">>>>>>> REPLACE\n"
}

func TestWorkspaceFolders(t *testing.T) {
	one, two, three := t.TempDir(), t.TempDir(), t.TempDir()
	for _, d := range []string{one, two, three} {
		for _, name := range []string{"f.txt", "g.txt"} {
			if err := os.WriteFile(filepath.Join(d, name), []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(one, two))
	apply := func(dir string, name ...string) string {
		file := "f.txt"
		if len(name) > 0 {
			file = name[0]
		}
		status, _ := applyStatus(t, e, searchReplace(filepath.Join(dir, file), "old\n", "new\n"))
		return status
	}
	if got := apply(two); got != "applied" {
		t.Errorf("file in the second folder: %s, want applied", got)
	}
	if got := apply(three); got != "failed" {
		t.Errorf("file outside every folder: %s, want failed", got)
	}
	if err := e.ChangeFolders([]string{three}, []string{two}); err != nil {
		t.Fatal(err)
	}
	if got := apply(three); got != "applied" {
		t.Errorf("file in an added folder: %s, want applied", got)
	}
	// A file of a removed folder (one the editor has not opened, so that
	// only the folder decides) is out of bounds.
	if got := apply(two, "g.txt"); got != "failed" {
		t.Errorf("file in a removed folder: %s, want failed", got)
	}
	for _, d := range []string{one, two, three} {
		for _, name := range []string{"f.txt", "g.txt"} {
			if b, _ := os.ReadFile(filepath.Join(d, name)); string(b) != "old\n" {
				t.Errorf("%s/%s written on disk: %q", d, name, b)
			}
		}
	}
	if got := apply(one, "g.txt"); got != "applied" {
		t.Errorf("file in the first folder, still there: %s, want applied", got)
	}
	shutdownExit(t, e)
}

func TestInitializationOptions(t *testing.T) {
	// "retrun" for "return" on a line the edit keeps: a fuzzy match,
	// well above the default threshold and below 1.
	const file = "package a\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n"
	answer := searchReplace("a.go", "func add(a, b int) int {\n\tretrun a + b\n}\n", "func add(b, a int) int {\n\tretrun a + b\n}\n")
	tests := []struct {
		name   string
		opts   any
		status string
	}{
		{"default threshold", nil, "applied"},
		{"threshold 1 allows exact matches only", map[string]any{"threshold": 1}, "failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "a.go"), []byte(file), 0o644)
			opt := fakeeditor.VSCode(dir)
			opt.InitializationOptions = tt.opts
			e, _ := fakeeditor.StartReady(t, opt)
			if status, msg := applyStatus(t, e, answer); status != tt.status {
				t.Errorf("status %s (%s), want %s", status, msg, tt.status)
			}
			shutdownExit(t, e)
		})
	}
	for _, bad := range []map[string]any{{"threshold": 1.5}, {"threshold": "high"}, {"logLevel": "loud"}} {
		opt := fakeeditor.VSCode(t.TempDir())
		opt.InitializationOptions = bad
		e := fakeeditor.Start(t, opt)
		_, err := e.Initialize(ctxT(t))
		wantCode(t, fmt.Sprintf("initializationOptions %v", bad), err, fakeeditor.CodeInvalidParams)
	}
}

func TestLogging(t *testing.T) {
	t.Run("--log FILE takes the log off stderr", func(t *testing.T) {
		logFile := filepath.Join(t.TempDir(), "graft.log")
		opt := fakeeditor.VSCode(t.TempDir())
		opt.Args = []string{"--log", logFile, "--log-level", "debug"}
		e, _ := fakeeditor.StartReady(t, opt)
		shutdownExit(t, e)
		b, err := os.ReadFile(logFile)
		if err != nil || !strings.Contains(string(b), "initialize") || !strings.Contains(string(b), "debug") {
			t.Errorf("log file: %v\n%s", err, b)
		}
		if s := e.Stderr(); s != "" {
			t.Errorf("stderr not empty with --log:\n%s", s)
		}
	})
	t.Run("initializationOptions logLevel overrides --log-level", func(t *testing.T) {
		opt := fakeeditor.VSCode(t.TempDir())
		opt.Args = []string{"--log-level", "error"}
		opt.InitializationOptions = map[string]any{"logLevel": "debug"}
		e, _ := fakeeditor.StartReady(t, opt)
		if err := e.Command(ctxT(t), "graft.preview", map[string]any{"text": ""}, nil); err != nil {
			var re *fakeeditor.ResponseError
			if !errors.As(err, &re) {
				t.Fatal(err)
			}
		}
		shutdownExit(t, e)
		if !strings.Contains(e.Stderr(), "debug") {
			t.Errorf("no debug lines on stderr:\n%s", e.Stderr())
		}
	})
	t.Run("--log-level error keeps info off stderr", func(t *testing.T) {
		opt := fakeeditor.VSCode(t.TempDir())
		opt.Args = []string{"--log-level", "error"}
		e, _ := fakeeditor.StartReady(t, opt)
		shutdownExit(t, e)
		if s := e.Stderr(); s != "" {
			t.Errorf("stderr at level error after a clean session:\n%s", s)
		}
	})
}
