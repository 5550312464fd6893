package fakeeditor

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// fakeServer is the server end of an Editor's connection, for testing the
// editor alone: it records every message the editor sends.
type fakeServer struct {
	w   io.Writer
	got chan wireMessage
}

func newTestEditor(t *testing.T, opt Options) (*Editor, *fakeServer) {
	t.Helper()
	c2sR, c2sW := io.Pipe()
	s2cR, s2cW := io.Pipe()
	e := newEditor(t, opt)
	e.conn = NewConn(s2cR, c2sW, e.handle)
	s := &fakeServer{w: s2cW, got: make(chan wireMessage, 1000)}
	go func() {
		r := bufio.NewReader(c2sR)
		for {
			body, err := ReadFrame(r)
			if err != nil {
				return
			}
			var m wireMessage
			if err := json.Unmarshal(body, &m); err != nil {
				panic(err)
			}
			s.got <- m
		}
	}()
	t.Cleanup(func() { c2sR.Close(); s2cW.Close() })
	return e, s
}

// sent returns the messages the editor sent since the last call, using a
// $/sync notification as a fence.
func (s *fakeServer) sent(t *testing.T, e *Editor) []wireMessage {
	t.Helper()
	e.Notify("$/sync", nil)
	var out []wireMessage
	for {
		select {
		case m := <-s.got:
			if m.Method == "$/sync" {
				return out
			}
			out = append(out, m)
		case <-time.After(5 * time.Second):
			t.Fatal("no $/sync from the editor")
		}
	}
}

type didChange struct {
	TextDocument struct {
		URI     uri.URI `json:"uri"`
		Version int32   `json:"version"`
	} `json:"textDocument"`
	ContentChanges []struct {
		Range *protocol.Range `json:"range"`
		Text  string          `json:"text"`
	} `json:"contentChanges"`
}

// replay applies a didChange's changes one after the other to text, as a
// server must.
func replay(t *testing.T, text string, m wireMessage, enc string) (string, didChange) {
	t.Helper()
	var dc didChange
	if err := json.Unmarshal(m.Params, &dc); err != nil {
		t.Fatal(err)
	}
	for _, c := range dc.ContentChanges {
		if c.Range == nil {
			text = c.Text
			continue
		}
		var err error
		if text, err = ApplyEdits(text, []protocol.TextEdit{{Range: *c.Range, NewText: c.Text}}, enc); err != nil {
			t.Fatal(err)
		}
	}
	return text, dc
}

func methods(ms []wireMessage) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Method)
	}
	return out
}

func version(v int32) *int32 { return &v }

func textEdit(path string, v *int32, edits ...protocol.TextEdit) DocumentChange {
	return DocumentChange{TextDocumentEdit: &TextDocumentEdit{
		TextDocument: VersionedDocument{URI: URI(path), Version: v},
		Edits:        edits,
	}}
}

func TestApplyTextEditToOpenBuffer(t *testing.T) {
	for _, enc := range []string{UTF16, UTF8} {
		t.Run(enc, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.go")
			disk := "on disk\n"
			os.WriteFile(path, []byte(disk), 0o644)
			e, s := newTestEditor(t, VSCode(dir))
			e.encoding = enc
			buf := "x😀 日本 old\r\nkeep\r\nold2\r\n"
			if err := e.Open(path, "go", buf); err != nil {
				t.Fatal(err)
			}
			s.sent(t, e)
			col := uint32(PositionAt(buf, len("x😀 日本 "), enc).Character)
			res := e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{
				textEdit(path, version(1), edit(0, col, 0, col+3, "new"), edit(2, 0, 2, 4, "new2")),
			}})
			if !res.Applied {
				t.Fatalf("not applied: %+v", res)
			}
			want := "x😀 日本 new\r\nkeep\r\nnew2\r\n"
			if got := e.Text(path); got != want {
				t.Errorf("buffer = %q, want %q", got, want)
			}
			if e.Version(path) != 2 {
				t.Errorf("version = %d, want 2", e.Version(path))
			}
			msgs := s.sent(t, e)
			if len(msgs) != 1 || msgs[0].Method != "textDocument/didChange" {
				t.Fatalf("sent %v, want one didChange", methods(msgs))
			}
			got, dc := replay(t, buf, msgs[0], enc)
			if got != want || dc.TextDocument.Version != 2 || len(dc.ContentChanges) != 2 {
				t.Errorf("didChange v%d with %d changes gives %q, want v2, 2 changes, %q", dc.TextDocument.Version, len(dc.ContentChanges), got, want)
			}
			if b, _ := os.ReadFile(path); string(b) != disk {
				t.Errorf("disk changed to %q", b)
			}
		})
	}
}

func TestApplyStaleVersion(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	edits := func() *WorkspaceEdit {
		return &WorkspaceEdit{DocumentChanges: []DocumentChange{
			textEdit(a, version(1), edit(0, 0, 0, 1, "A")),
			textEdit(b, version(1), edit(0, 0, 0, 1, "B")), // b is at version 2
		}}
	}
	setup := func(opt Options) (*Editor, *fakeServer) {
		e, s := newTestEditor(t, opt)
		e.Open(a, "plaintext", "a\n")
		e.Open(b, "plaintext", "b\n")
		e.SetText(b, "bb\n")
		s.sent(t, e)
		return e, s
	}

	t.Run("vscode refuses the whole edit", func(t *testing.T) {
		e, s := setup(VSCode(dir))
		res := e.ApplyWorkspaceEdit(edits())
		if res.Applied || res.FailedChange == nil || *res.FailedChange != 1 || res.FailureReason == "" {
			t.Errorf("result = %+v, want applied:false, failedChange 1, a reason", res)
		}
		if e.Text(a) != "a\n" || e.Text(b) != "bb\n" {
			t.Errorf("buffers changed: %q %q", e.Text(a), e.Text(b))
		}
		if msgs := s.sent(t, e); len(msgs) != 0 {
			t.Errorf("sent %v, want nothing", methods(msgs))
		}
	})
	t.Run("neovim skips it silently", func(t *testing.T) {
		e, s := setup(Neovim072(dir))
		res := e.ApplyWorkspaceEdit(edits())
		if !res.Applied || res.FailedChange != nil {
			t.Errorf("result = %+v, want applied:true", res)
		}
		if e.Text(a) != "A\n" || e.Text(b) != "bb\n" {
			t.Errorf("buffers = %q %q, want a edited, b untouched", e.Text(a), e.Text(b))
		}
		if msgs := s.sent(t, e); !reflect.DeepEqual(methods(msgs), []string{"textDocument/didChange"}) {
			t.Errorf("sent %v, want one didChange", methods(msgs))
		}
	})
}

func TestApplyToUnopenedFile(t *testing.T) {
	for _, opt := range []Options{VSCode(), Neovim072()} {
		t.Run(opt.Flavor.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "c.py")
			os.WriteFile(path, []byte("x = 1\n"), 0o644)
			opt.Folders = []string{dir}
			e, s := newTestEditor(t, opt)
			res := e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{
				textEdit(path, nil, edit(0, 4, 0, 5, "2")),
			}})
			if !res.Applied {
				t.Fatalf("%+v", res)
			}
			if e.Text(path) != "x = 2\n" || e.Version(path) != 2 {
				t.Errorf("buffer %q v%d, want %q v2", e.Text(path), e.Version(path), "x = 2\n")
			}
			msgs := s.sent(t, e)
			if !reflect.DeepEqual(methods(msgs), []string{"textDocument/didOpen", "textDocument/didChange"}) {
				t.Fatalf("sent %v", methods(msgs))
			}
			if !jsonHas(msgs[0].Params, `{"textDocument":{"languageId":"python","text":"x = 1\n","uri":"`+string(URI(path))+`","version":1}}`) {
				t.Errorf("didOpen = %s", msgs[0].Params)
			}
			if b, _ := os.ReadFile(path); string(b) != "x = 1\n" {
				t.Errorf("disk written: %q", b)
			}
		})
	}
}

func jsonHas(got json.RawMessage, want string) bool {
	var a, b any
	json.Unmarshal(got, &a)
	json.Unmarshal([]byte(want), &b)
	return reflect.DeepEqual(a, b)
}

func TestApplyChangesMap(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.txt")
	e, s := newTestEditor(t, Neovim072(dir))
	e.Open(path, "plaintext", "one\n")
	s.sent(t, e)
	res := e.ApplyWorkspaceEdit(&WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
		URI(path): {edit(0, 0, 0, 3, "two")},
	}})
	if !res.Applied || e.Text(path) != "two\n" || e.Version(path) != 2 {
		t.Errorf("%+v: %q v%d", res, e.Text(path), e.Version(path))
	}
}

func TestApplyResourceOperations(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	e, s := newTestEditor(t, VSCode(dir))

	// Create a file in a new directory and fill it: the buffer holds the
	// text, the disk an empty file, as VS Code leaves it (unsaved).
	res := e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{
		{CreateFile: &CreateFile{URI: URI(p("new/n.go"))}},
		textEdit(p("new/n.go"), nil, edit(0, 0, 0, 0, "package n\n")),
	}})
	if !res.Applied || e.Text(p("new/n.go")) != "package n\n" {
		t.Fatalf("create: %+v, buffer %q", res, e.Text(p("new/n.go")))
	}
	if b, err := os.ReadFile(p("new/n.go")); err != nil || len(b) != 0 {
		t.Errorf("created file on disk: %q, %v; want empty", b, err)
	}
	if got := methods(s.sent(t, e)); !reflect.DeepEqual(got, []string{"textDocument/didOpen", "textDocument/didChange"}) {
		t.Errorf("sent %v", got)
	}

	// Creating it again fails, unless told to ignore or overwrite.
	res = e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{{CreateFile: &CreateFile{URI: URI(p("new/n.go"))}}}})
	if res.Applied || res.FailedChange == nil || *res.FailedChange != 0 {
		t.Errorf("create over an existing file: %+v, want a failure", res)
	}
	os.WriteFile(p("x.txt"), []byte("x"), 0o644)
	res = e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{
		{CreateFile: &CreateFile{URI: URI(p("x.txt")), Options: &CreateOrRenameOptions{IgnoreIfExists: true}}},
	}})
	if b, _ := os.ReadFile(p("x.txt")); !res.Applied || string(b) != "x" {
		t.Errorf("ignoreIfExists: %+v, file %q", res, b)
	}
	res = e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{
		{CreateFile: &CreateFile{URI: URI(p("x.txt")), Options: &CreateOrRenameOptions{Overwrite: true, IgnoreIfExists: true}}},
	}})
	if b, _ := os.ReadFile(p("x.txt")); !res.Applied || string(b) != "" {
		t.Errorf("overwrite: %+v, file %q", res, b)
	}

	// Renaming an open buffer closes it and opens the new name with its text.
	os.WriteFile(p("r.txt"), []byte("disk\n"), 0o644)
	e.Open(p("r.txt"), "plaintext", "buffer\n")
	s.sent(t, e)
	res = e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{
		{RenameFile: &RenameFile{OldURI: URI(p("r.txt")), NewURI: URI(p("sub/s.txt"))}},
	}})
	if !res.Applied || e.IsOpen(p("r.txt")) || e.Text(p("sub/s.txt")) != "buffer\n" {
		t.Errorf("rename: %+v, open old %v, new %q", res, e.IsOpen(p("r.txt")), e.Text(p("sub/s.txt")))
	}
	if b, err := os.ReadFile(p("sub/s.txt")); err != nil || string(b) != "disk\n" {
		t.Errorf("renamed file on disk: %q, %v", b, err)
	}
	if got := methods(s.sent(t, e)); !reflect.DeepEqual(got, []string{"textDocument/didClose", "textDocument/didOpen"}) {
		t.Errorf("sent %v", got)
	}
	res = e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{
		{RenameFile: &RenameFile{OldURI: URI(p("sub/s.txt")), NewURI: URI(p("x.txt"))}},
	}})
	if res.Applied {
		t.Error("rename over an existing file without overwrite applied")
	}

	// Deleting closes the buffer; a missing file fails unless ignored.
	res = e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{{DeleteFile: &DeleteFile{URI: URI(p("sub/s.txt"))}}}})
	if _, err := os.Stat(p("sub/s.txt")); !res.Applied || err == nil || e.IsOpen(p("sub/s.txt")) {
		t.Errorf("delete: %+v, stat err %v, open %v", res, err, e.IsOpen(p("sub/s.txt")))
	}
	res = e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{{DeleteFile: &DeleteFile{URI: URI(p("gone"))}}}})
	if res.Applied {
		t.Error("delete of a missing file applied")
	}
	res = e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{{DeleteFile: &DeleteFile{URI: URI(p("gone")), Options: &DeleteFileOptions{IgnoreIfNotExists: true}}}}})
	if !res.Applied {
		t.Errorf("delete with ignoreIfNotExists: %+v", res)
	}
	res = e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{{DeleteFile: &DeleteFile{URI: URI(p("new")), Options: &DeleteFileOptions{Recursive: true}}}}})
	if _, err := os.Stat(p("new")); !res.Applied || err == nil || e.IsOpen(p("new/n.go")) {
		t.Errorf("recursive delete: %+v, stat %v", res, err)
	}
}

func TestApplyOverlappingEditsRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "o.txt")
	e, _ := newTestEditor(t, VSCode(dir))
	e.Open(path, "plaintext", "abcdef\n")
	res := e.ApplyWorkspaceEdit(&WorkspaceEdit{DocumentChanges: []DocumentChange{
		textEdit(path, version(1), edit(0, 0, 0, 3, "x"), edit(0, 2, 0, 4, "y")),
	}})
	if res.Applied || e.Text(path) != "abcdef\n" {
		t.Errorf("%+v, buffer %q", res, e.Text(path))
	}
}

// TestApplyEditRequest sends workspace/applyEdit over the connection and
// checks that the reply comes after the didChange and that it is recorded.
func TestApplyEditRequest(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "q.md")
	e, s := newTestEditor(t, VSCode(dir))
	e.Open(path, "markdown", "hello\n")
	s.sent(t, e)
	params := `{"label":"graft","edit":{"documentChanges":[` +
		`{"textDocument":{"uri":"` + string(URI(path)) + `","version":1},"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":5}},"newText":"bye"}]},` +
		`{"kind":"create","uri":"` + string(URI(filepath.Join(dir, "z"))) + `","options":{"ignoreIfExists":true}}]}}`
	b, _ := json.Marshal(wireMessage{JSONRPC: "2.0", ID: json.RawMessage(`7`), Method: "workspace/applyEdit", Params: json.RawMessage(params)})
	s.w.Write(Frame(b))
	first, second := <-s.got, <-s.got
	if first.Method != "textDocument/didChange" || second.Method != "" || string(second.ID) != "7" || string(second.Result) != `{"applied":true}` {
		t.Errorf("got %s then %s %s %s, want didChange then the reply {\"applied\":true}", first.Method, second.Method, second.ID, second.Result)
	}
	got := e.AppliedEdits()
	if len(got) != 1 || got[0].Decoded.Label != "graft" || len(got[0].Decoded.Edit.DocumentChanges) != 2 ||
		got[0].Decoded.Edit.DocumentChanges[1].CreateFile == nil || string(got[0].Params) != params {
		t.Errorf("recorded %+v", got)
	}
	if e.Text(path) != "bye\n" {
		t.Errorf("buffer %q", e.Text(path))
	}
}

func TestDocumentChangeJSON(t *testing.T) {
	in := `[{"textDocument":{"uri":"file:///a","version":null},"edits":[]},` +
		`{"kind":"create","uri":"file:///b","options":{"overwrite":true}},` +
		`{"kind":"rename","oldUri":"file:///b","newUri":"file:///c"},` +
		`{"kind":"delete","uri":"file:///c","options":{"recursive":true}}]`
	var dc []DocumentChange
	if err := json.Unmarshal([]byte(in), &dc); err != nil {
		t.Fatal(err)
	}
	if dc[0].TextDocumentEdit == nil || dc[0].TextDocumentEdit.TextDocument.Version != nil || dc[1].CreateFile == nil ||
		!dc[1].CreateFile.Options.Overwrite || dc[2].RenameFile.NewURI != "file:///c" || !dc[3].DeleteFile.Options.Recursive {
		t.Errorf("decoded %+v", dc)
	}
	out, err := json.Marshal(dc)
	if err != nil {
		t.Fatal(err)
	}
	if !jsonHas(out, in) {
		t.Errorf("round trip:\n%s\nwant\n%s", out, in)
	}
	for _, bad := range []string{`{"kind":"move","uri":"file:///a"}`, `{"edits":[]}`, `{"kind":"rename","oldUri":"file:///a"}`} {
		var c DocumentChange
		if err := json.Unmarshal([]byte(bad), &c); err == nil {
			t.Errorf("%s decoded without error", bad)
		}
	}
}

func TestEditSendsIncrementalChange(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "e.txt")
	e, s := newTestEditor(t, VSCode(dir))
	buf := "😀a\nb\n"
	e.Open(path, "plaintext", buf)
	s.sent(t, e)
	r := protocol.Range{Start: pos(0, 2), End: pos(0, 3)}
	if err := e.Edit(path, &r, "Z"); err != nil {
		t.Fatal(err)
	}
	if err := e.Edit(path, nil, "all\n"); err != nil {
		t.Fatal(err)
	}
	e.SetText(path, "full")
	msgs := s.sent(t, e)
	if len(msgs) != 3 {
		t.Fatalf("sent %v", methods(msgs))
	}
	text, dc := replay(t, buf, msgs[0], UTF16)
	if text != "😀Z\nb\n" || dc.TextDocument.Version != 2 || dc.ContentChanges[0].Range == nil {
		t.Errorf("first change: %q v%d", text, dc.TextDocument.Version)
	}
	text, dc = replay(t, text, msgs[1], UTF16)
	if text != "all\n" || dc.TextDocument.Version != 3 || dc.ContentChanges[0].Range == nil || *dc.ContentChanges[0].Range != (protocol.Range{End: pos(2, 0)}) {
		t.Errorf("whole-buffer change: %q v%d %+v", text, dc.TextDocument.Version, dc.ContentChanges)
	}
	text, dc = replay(t, text, msgs[2], UTF16)
	if text != "full" || dc.TextDocument.Version != 4 || dc.ContentChanges[0].Range != nil {
		t.Errorf("full change: %q v%d", text, dc.TextDocument.Version)
	}
	if e.Text(path) != "full" || e.Version(path) != 4 {
		t.Errorf("buffer %q v%d", e.Text(path), e.Version(path))
	}
	e.Close(path)
	if e.IsOpen(path) || !reflect.DeepEqual(methods(s.sent(t, e)), []string{"textDocument/didClose"}) {
		t.Error("close")
	}
}

func TestCodeActionJSON(t *testing.T) {
	var got []CodeAction
	in := `[{"title":"Apply","kind":"quickfix","command":{"title":"Apply","command":"graft.apply","arguments":[{"text":"x"}]}},` +
		`{"title":"Bare","command":"graft.preview","arguments":[1]}]`
	if err := json.Unmarshal([]byte(in), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Kind != "quickfix" || got[0].Command.Command != "graft.apply" ||
		got[1].Title != "Bare" || got[1].Command.Command != "graft.preview" || got[1].Kind != "" || string(got[1].Raw) != `{"title":"Bare","command":"graft.preview","arguments":[1]}` {
		t.Errorf("decoded %+v", got)
	}
}

// TestBeforeApplyEdit makes an edit stale by typing while it is in flight,
// as a user racing a command does.
func TestBeforeApplyEdit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "race.txt")
	opt := VSCode(dir)
	opt.BeforeApplyEdit = func(e *Editor, params json.RawMessage) {
		r := protocol.Range{Start: pos(0, 0), End: pos(0, 0)}
		if err := e.Edit(path, &r, "typed "); err != nil {
			t.Error(err)
		}
	}
	e, s := newTestEditor(t, opt)
	e.Open(path, "plaintext", "text\n")
	s.sent(t, e)
	params := `{"edit":{"documentChanges":[{"textDocument":{"uri":"` + string(URI(path)) + `","version":1},` +
		`"edits":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":4}},"newText":"new"}]}]}}`
	b, _ := json.Marshal(wireMessage{JSONRPC: "2.0", ID: json.RawMessage(`1`), Method: "workspace/applyEdit", Params: json.RawMessage(params)})
	s.w.Write(Frame(b))
	typed, reply := <-s.got, <-s.got
	if typed.Method != "textDocument/didChange" || !strings.Contains(string(reply.Result), `"applied":false`) || !strings.Contains(string(reply.Result), `"failedChange":0`) {
		t.Errorf("got %s then %s, want the typing's didChange then applied:false", typed.Method, reply.Result)
	}
	if e.Text(path) != "typed text\n" || e.Version(path) != 2 {
		t.Errorf("buffer %q v%d", e.Text(path), e.Version(path))
	}
}

func TestProtocolErrors(t *testing.T) {
	opt := VSCode(t.TempDir())
	opt.AllowProtocolErrors = true
	e, s := newTestEditor(t, opt)
	send := func(m wireMessage) {
		m.JSONRPC = "2.0"
		b, _ := json.Marshal(m)
		s.w.Write(Frame(b))
	}
	send(wireMessage{Method: "textDocument/publishDiagnostics", Params: json.RawMessage(`{"uri":"file:///a","diagnostics":null}`)})
	send(wireMessage{ID: json.RawMessage(`1`), Method: "window/workDoneProgress/create", Params: json.RawMessage(`{"token":"t1"}`)})
	send(wireMessage{Method: "$/progress", Params: json.RawMessage(`{"token":"t1","value":{"kind":"begin","title":"x"}}`)})
	send(wireMessage{Method: "$/progress", Params: json.RawMessage(`{"token":"t2","value":{"kind":"begin","title":"x"}}`)})
	send(wireMessage{ID: json.RawMessage(`2`), Method: "graft/whatever", Params: json.RawMessage(`{}`)})
	send(wireMessage{ID: json.RawMessage(`3`), Method: "workspace/applyEdit", Params: json.RawMessage(`{"edit":{"documentChanges":[{"kind":"move"}]}}`)})
	for _, id := range []string{"1", "2", "3"} {
		if m := <-s.got; string(m.ID) != id {
			t.Fatalf("reply %s, want id %s", m.ID, id)
		}
	}
	got := strings.Join(e.ProtocolErrors(), "\n")
	for _, want := range []string{"without a diagnostics array", `token "t2"`, "unknown request graft/whatever", "unknown kind"} {
		if !strings.Contains(got, want) {
			t.Errorf("protocol errors lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, `"t1"`) {
		t.Errorf("progress for a created token reported:\n%s", got)
	}
	if pd, _ := e.Diagnostics("file:///a"); !pd.Null {
		t.Errorf("null diagnostics not marked: %+v", pd)
	}
}

func TestUnadvertisedCapabilities(t *testing.T) {
	dir := t.TempDir()
	e, s := newTestEditor(t, Options{Folders: []string{dir}, AllowProtocolErrors: true})
	send := func(id, method, params string) {
		b, _ := json.Marshal(wireMessage{JSONRPC: "2.0", ID: json.RawMessage(id), Method: method, Params: json.RawMessage(params)})
		s.w.Write(Frame(b))
		<-s.got
	}
	send(`1`, "window/workDoneProgress/create", `{"token":1}`)
	send(`2`, "workspace/codeLens/refresh", `null`)
	send(`3`, "workspace/applyEdit", `{"edit":{"documentChanges":[{"kind":"create","uri":"`+string(URI(filepath.Join(dir, "n")))+`"}]}}`)
	got := strings.Join(e.ProtocolErrors(), "\n")
	for _, want := range []string{"workDoneProgress/create sent", "codeLens/refresh sent", "neither documentChanges nor resourceOperations"} {
		if !strings.Contains(got, want) {
			t.Errorf("protocol errors lack %q:\n%s", want, got)
		}
	}

	// A client with documentChanges but without "delete" gets no delete.
	opt := VSCode(dir)
	opt.ResourceOperations = []string{"create"}
	opt.AllowProtocolErrors = true
	e, s = newTestEditor(t, opt)
	send(`4`, "workspace/applyEdit", `{"edit":{"documentChanges":[{"kind":"delete","uri":"`+string(URI(filepath.Join(dir, "n")))+`"}]}}`)
	if got := strings.Join(e.ProtocolErrors(), "\n"); !strings.Contains(got, `"delete" resource operation`) {
		t.Errorf("protocol errors: %s", got)
	}
}
