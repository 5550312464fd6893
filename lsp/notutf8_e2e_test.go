package lsp_test

import (
	"bufio"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// These tests send the server JSON whose strings hold bytes that are not
// UTF-8, as Neovim sends the text of a latin-1 buffer it did not convert:
// encoding/json would have made them U+FFFD, and graft would have written
// U+FFFD into the editor's buffer.

// jsonText returns s as a JSON string, its bytes that are not UTF-8 kept
// as they are (json.Marshal would make them U+FFFD).
func jsonText(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(s) + `"`
}

// rawNotify sends a notification whose params are raw JSON.
func rawNotify(t *testing.T, e *fakeeditor.Editor, method, params string) {
	t.Helper()
	if err := e.WriteRaw(fakeeditor.Frame([]byte(`{"jsonrpc":"2.0","method":"` + method + `","params":` + params + `}`))); err != nil {
		t.Fatal(err)
	}
}

// rawCall sends a request whose params are raw JSON, under the string id
// id, and returns the reply.
func rawCall(t *testing.T, e *fakeeditor.Editor, id, method, params string) fakeeditor.Response {
	t.Helper()
	if err := e.WriteRaw(fakeeditor.Frame([]byte(`{"jsonrpc":"2.0","id":"` + id + `","method":"` + method + `","params":` + params + `}`))); err != nil {
		t.Fatal(err)
	}
	r, err := e.Conn().WaitUnmatched(func(r fakeeditor.Response) bool { return string(r.ID) == `"`+id+`"` }, 30*time.Second)
	if err != nil {
		t.Fatalf("%s: %v", id, err)
	}
	return r
}

// replaceBlock returns an answer that replaces search with replace in
// name.
func replaceBlock(name, search, replace string) string {
	return name + "\n<<<<<<< SEARCH\n" + search + "\n=======\n" + replace + "\n>>>>>>> REPLACE\n"
}

// A document the editor opened with bytes that are not UTF-8 is not
// edited: every block that names it fails and says why, in the reply and
// in the answer's diagnostics, and no edit reaches the editor. Once a
// change takes the bad byte out, it is edited again, from the buffer.
func TestDocumentNotUTF8(t *testing.T) {
	latin1 := "x = 0\ncaf\xe9 = 1\n"
	dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": latin1})
	opt := fakeeditor.VSCode(dir)
	e, _ := fakeeditor.StartReady(t, opt)
	path := filepath.Join(dir, "a.txt")
	u := string(fakeeditor.URI(path))
	rawNotify(t, e, "textDocument/didOpen",
		`{"textDocument":{"uri":"`+u+`","languageId":"plaintext","version":1,"text":`+jsonText(latin1)+`}}`)

	for _, answer := range []string{
		// The line as encoding/json showed it: what an agent that read
		// the buffer through it would search.
		replaceBlock("a.txt", "caf\uFFFD = 1", "caf\uFFFD = 2"),
		// Another line: the document is not edited at all.
		replaceBlock("a.txt", "x = 0", "x = 5"),
	} {
		for _, command := range []string{"graft.apply", "graft.preview"} {
			var r applyReply
			if err := execute(t, e, command, map[string]any{"text": answer}, &r); err != nil {
				t.Fatalf("%s: %v", command, err)
			}
			if r.Applied || statuses(r.Blocks) != "failed" || !strings.Contains(r.Blocks[0].Message, "not valid UTF-8") {
				t.Errorf("%s of %q: %+v, want the block failed as not valid UTF-8", command, answer, r)
			}
		}
	}
	if edits := e.AppliedEdits(); len(edits) != 0 {
		t.Fatalf("edits sent to the editor: %s", edits[0].Params)
	}
	if got := readFile(t, dir, "a.txt"); got != latin1 {
		t.Errorf("disk: %q", got)
	}

	// An answer buffer's diagnostics say so.
	answer := filepath.Join(dir, "answer.md")
	if err := e.Open(answer, "markdown", replaceBlock("a.txt", "x = 0", "x = 5")); err != nil {
		t.Fatal(err)
	}
	diags, err := e.WaitDiagnostics(fakeeditor.URI(answer), func(d []protocol.Diagnostic) bool { return len(d) > 0 }, 10*time.Second)
	if err != nil || !strings.Contains(diags[0].Message, "not valid UTF-8") || diags[0].Severity != protocol.DiagnosticSeverityError {
		t.Fatalf("diagnostics %+v, %v; want an error saying the file is not valid UTF-8", diags, err)
	}

	// The person fixes the byte: the buffer is UTF-8, and edited again.
	if err := e.Notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": u, "version": 2},
		"contentChanges": []map[string]any{{
			"range": protocol.Range{Start: protocol.Position{Line: 1, Character: 3}, End: protocol.Position{Line: 1, Character: 4}},
			"text":  "é",
		}},
	}); err != nil {
		t.Fatal(err)
	}
	var r applyReply
	if err := execute(t, e, "graft.apply", map[string]any{"text": replaceBlock("a.txt", "café = 1", "café = 2")}, &r); err != nil {
		t.Fatal(err)
	}
	edits := e.AppliedEdits()
	if len(edits) != 1 {
		t.Fatalf("reply %+v; %d edits sent, want 1", r, len(edits))
	}
	var sent sentEdit
	if err := json.Unmarshal(edits[0].Params, &sent); err != nil {
		t.Fatal(err)
	}
	dc := sent.Edit.DocumentChanges
	if len(dc) != 1 || dc[0].TextDocument.URI != u || dc[0].TextDocument.Version == nil || *dc[0].TextDocument.Version != 2 ||
		len(dc[0].Edits) != 1 || dc[0].Edits[0].NewText != "café = 2\n" || dc[0].Edits[0].Range.Start.Line != 1 {
		t.Errorf("edit sent: %s", edits[0].Params)
	}
}

// A command whose answer is not UTF-8 is refused: graft would write
// U+FFFD in place of the bytes. U+FFFD written as such is a character,
// and goes through. Each case edits a file of its own.
func TestCommandNotUTF8(t *testing.T) {
	text := func(name, replace string) string {
		return `{"text":` + jsonText(replaceBlock(name, "x = 0", replace)) + `}`
	}
	edits := func(name, newString string) string {
		return `{"edits":[{"path":"` + name + `","old_string":"x = 0","new_string":"` + newString + `"}]}`
	}
	for _, tc := range []struct {
		name, command string
		arg           func(name string) string
		refusal       string // "" for none
	}{
		{"apply, a byte in the text", "graft.apply", func(n string) string { return text(n, "b\xe9ta") },
			`text: not valid UTF-8 (byte 0xe9 on line 5 is not UTF-8)`},
		{"preview, a byte in the text", "graft.preview", func(n string) string { return text(n, "b\xe9ta") },
			`text: not valid UTF-8`},
		{"suggest, a byte in the text", "graft.suggest", func(n string) string { return text(n, "b\xe9ta") },
			`text: not valid UTF-8`},
		{"apply, a half surrogate pair", "graft.apply", func(n string) string { return strings.Replace(text(n, "b@ta"), "@", `\udce9`, 1) },
			`text: not valid UTF-8 (\udce9 on line 5 is half of a UTF-16 surrogate pair`},
		{"apply, a byte in the edits", "graft.apply", func(n string) string { return edits(n, "b\xe9ta") },
			`edits: not valid UTF-8 (byte 0xe9`},
		{"apply, U+FFFD meant", "graft.apply", func(n string) string { return edits(n, `b\ufffdta`) }, ""},
		{"apply, U+FFFD meant in UTF-8", "graft.apply", func(n string) string { return text(n, "b\uFFFDta") }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "x = 0\n"})
			e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
			path := filepath.Join(dir, "a.txt")
			if err := e.Open(path, "plaintext", "x = 0\n"); err != nil {
				t.Fatal(err)
			}
			r := rawCall(t, e, "1", "workspace/executeCommand", `{"command":"`+tc.command+`","arguments":[`+tc.arg("a.txt")+`]}`)
			sent := e.AppliedEdits()
			if tc.refusal == "" {
				if r.Error != nil || len(sent) != 1 {
					t.Fatalf("reply %+v %s, %d edits: want U+FFFD written", r.Error, r.Result, len(sent))
				}
				waitText(t, e, path, "b\uFFFDta\n")
				return
			}
			if r.Error == nil || r.Error.Code != fakeeditor.CodeInvalidParams || !strings.Contains(r.Error.Message, tc.refusal) {
				t.Fatalf("reply %+v %s, want InvalidParams saying %q", r.Error, r.Result, tc.refusal)
			}
			if len(sent) != 0 {
				t.Errorf("an edit was sent: %s", sent[0].Params)
			}
			if got := e.Text(path); got != "x = 0\n" {
				t.Errorf("buffer %q", got)
			}
		})
	}
}

// A request through the editor link whose text is not UTF-8 is refused
// before it reaches the editor's buffers.
func TestEditorLinkNotUTF8(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{"a.txt": "x = 0\n"})
	short, err := os.MkdirTemp("", "gl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	sockets := filepath.Join(short, "graft")
	opt := fakeeditor.VSCode(dir)
	opt.Env = append(os.Environ(), editorlink.DirEnv+"="+sockets)
	e, _ := fakeeditor.StartReady(t, opt)
	path := filepath.Join(dir, "a.txt")
	if err := e.Open(path, "plaintext", "x = 0\n"); err != nil {
		t.Fatal(err)
	}
	socket, err := editorlink.SocketPath(sockets, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{
		jsonText(replaceBlock("a.txt", "x = 0", "b\xe9ta")),
		strings.Replace(jsonText(replaceBlock("a.txt", "x = 0", "b@ta")), "@", `\udce9`, 1),
	} {
		var c net.Conn
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if c, err = net.Dial("unix", socket); err == nil || time.Now().After(deadline) {
				break
			}
		}
		if err != nil {
			t.Fatalf("no editor link: %v", err)
		}
		c.SetDeadline(time.Now().Add(30 * time.Second))
		req, _ := json.Marshal(dir)
		if _, err := c.Write([]byte(`{"root":` + string(req) + `,"text":` + text + "}\n")); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(c).ReadBytes('\n')
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		var rep editorlink.Reply
		if err := json.Unmarshal(line, &rep); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(rep.Error, "not valid UTF-8") {
			t.Errorf("reply to %s: %s; want a refusal as not valid UTF-8", text, line)
		}
	}
	if edits := e.AppliedEdits(); len(edits) != 0 {
		t.Errorf("edits sent to the editor: %s", edits[0].Params)
	}
	if got := e.Text(path); got != "x = 0\n" {
		t.Errorf("buffer %q", got)
	}
}
