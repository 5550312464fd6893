package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// sentEdit is a workspace/applyEdit's params, its URIs as sent.
type sentEdit struct {
	Edit struct {
		DocumentChanges []struct {
			TextDocument struct {
				URI     string `json:"uri"`
				Version *int32 `json:"version"`
			} `json:"textDocument"`
			Edits []protocol.TextEdit `json:"edits"`
		} `json:"documentChanges"`
	} `json:"edit"`
}

// One file open under two spellings of its URI is one file with two
// documents: when one of them is closed, the file is read from the other,
// not from the disk, and the edit goes to it under the spelling the editor
// opened it with, for its version.
func TestOneFileTwoSpellings(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	const disk, buffer = "x = 1\n", "// unsaved\nx = 1\n"
	writeFiles(t, dir, map[string]string{"a.txt": disk})
	plain := string(fakeeditor.URI(filepath.Join(dir, "a.txt")))
	base := strings.TrimSuffix(plain, "a.txt")
	spellings := map[string]string{
		"dot":            base + "./a.txt",
		"double slash":   base + "/a.txt",
		"dot dot":        base + "sub/../a.txt",
		"percent":        base + "%61.txt",
		"localhost":      "file://localhost" + strings.TrimPrefix(plain, "file://"),
		"scheme in caps": "FILE" + strings.TrimPrefix(plain, "file"),
	}
	for name, other := range spellings {
		for _, tc := range []struct {
			order     string
			first     string // opened first, at version 7
			second    string // opened second, at version 3
			closed    string
			open      string // the one still open
			version   int32
			wantLines uint32 // the line the edit starts on
		}{
			{"second closed", plain, other, other, plain, 7, 1},
			{"first closed", plain, other, plain, other, 3, 1},
			{"plain second, closed", other, plain, plain, other, 7, 1},
		} {
			t.Run(name+"/"+tc.order, func(t *testing.T) {
				e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
				open := func(u string, version int32) {
					if err := e.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
						"uri": u, "languageId": "plaintext", "version": version, "text": buffer,
					}}); err != nil {
						t.Fatal(err)
					}
				}
				open(tc.first, 7)
				open(tc.second, 3)
				if err := e.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": tc.closed}}); err != nil {
					t.Fatal(err)
				}
				var r previewReply
				if err := execute(t, e, "graft.preview", map[string]any{"text": replaceBlock("a.txt", "x = 1", "x = 2")}, &r); err != nil {
					t.Fatal(err)
				}
				data, _ := json.Marshal(r.Edit)
				var sent sentEdit
				if err := json.Unmarshal([]byte(`{"edit":`+string(data)+`}`), &sent); err != nil {
					t.Fatal(err)
				}
				dc := sent.Edit.DocumentChanges
				if statuses(r.Blocks) != "applied" || len(dc) != 1 || dc[0].TextDocument.URI != tc.open ||
					dc[0].TextDocument.Version == nil || *dc[0].TextDocument.Version != tc.version ||
					len(dc[0].Edits) != 1 || dc[0].Edits[0].Range.Start.Line != tc.wantLines {
					t.Fatalf("opened %s v7, %s v3, closed %s: edit %s, blocks %+v; want it for %s v%d at line %d",
						tc.first, tc.second, tc.closed, data, r.Blocks, tc.open, tc.version, tc.wantLines)
				}
				if r.Blocks[0].URI != tc.open {
					t.Errorf("block reported at %s, want %s", r.Blocks[0].URI, tc.open)
				}

				// Closing the other too leaves the file to the disk.
				if err := e.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": tc.open}}); err != nil {
					t.Fatal(err)
				}
				if err := execute(t, e, "graft.preview", map[string]any{"text": replaceBlock("a.txt", "x = 1", "x = 2")}, &r); err != nil {
					t.Fatal(err)
				}
				data, _ = json.Marshal(r.Edit)
				if err := json.Unmarshal([]byte(`{"edit":`+string(data)+`}`), &sent); err != nil {
					t.Fatal(err)
				}
				if dc := sent.Edit.DocumentChanges; len(dc) != 1 || dc[0].TextDocument.Version != nil || dc[0].Edits[0].Range.Start.Line != 0 {
					t.Errorf("with both closed: edit %s, want one for the disk", data)
				}
			})
		}
	}
}

// A change to one spelling makes it the one the file is read from: the
// person types in that buffer.
func TestSpellingChangedLastWins(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"a.txt": "x = 1\n"})
	plain := string(fakeeditor.URI(filepath.Join(dir, "a.txt")))
	dotted := strings.TrimSuffix(plain, "a.txt") + "./a.txt"
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	for _, u := range []string{plain, dotted} {
		if err := e.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": u, "languageId": "plaintext", "version": 1, "text": "x = 1\n",
		}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": plain, "version": 2},
		"contentChanges": []map[string]any{{"text": "// typed\nx = 1\n"}},
	}); err != nil {
		t.Fatal(err)
	}
	var r previewReply
	if err := execute(t, e, "graft.preview", map[string]any{"text": replaceBlock("a.txt", "x = 1", "x = 2")}, &r); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(r.Edit)
	var sent sentEdit
	if err := json.Unmarshal([]byte(`{"edit":`+string(data)+`}`), &sent); err != nil {
		t.Fatal(err)
	}
	if dc := sent.Edit.DocumentChanges; len(dc) != 1 || dc[0].TextDocument.URI != plain || dc[0].TextDocument.Version == nil ||
		*dc[0].TextDocument.Version != 2 || dc[0].Edits[0].Range.Start.Line != 1 {
		t.Errorf("edit %s; want it for %s v2 at line 1", data, plain)
	}
}
