package lsp_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// These tests drive the built graft serve over stdio: a suggestion is
// hunks, each one of the block's contiguous changes, accepted (sent alone
// as a versioned edit) or rejected one by one with graft.accept and
// graft.reject.

// hunksMainGo is a target file with three functions.
const hunksMainGo = "package main\n" +
	"\n" +
	"func a() int {\n" +
	"\treturn 1\n" +
	"}\n" +
	"\n" +
	"func b() int {\n" +
	"\treturn 2\n" +
	"}\n" +
	"\n" +
	"func c() int {\n" +
	"\treturn 3\n" +
	"}\n"

// hunksAnswer is one block that changes hunksMainGo in two separate
// places: the body of a (one line becomes two) and that of c.
const hunksAnswer = "main.go\n" +
	"<<<<<<< SEARCH\n" +
	"func a() int {\n" +
	"\treturn 1\n" +
	"}\n" +
	"\n" +
	"func b() int {\n" +
	"\treturn 2\n" +
	"}\n" +
	"\n" +
	"func c() int {\n" +
	"\treturn 3\n" +
	"}\n" +
	"=======\n" +
	"func a() int {\n" +
	"\tx := 1\n" +
	"\treturn x\n" +
	"}\n" +
	"\n" +
	"func b() int {\n" +
	"\treturn 2\n" +
	"}\n" +
	"\n" +
	"func c() int {\n" +
	"\treturn 30\n" +
	"}\n" +
	">>>>>>> REPLACE\n"

// The two changes of hunksAnswer.
const (
	hunksOld1, hunksNew1 = "\treturn 1\n", "\tx := 1\n\treturn x\n"
	hunksOld2, hunksNew2 = "\treturn 3\n", "\treturn 30\n"
)

// hunk is an entry of graft.suggestions and of graft.suggest's hunks.
type hunk struct {
	ID      string         `json:"id"`
	URI     string         `json:"uri"`
	Range   protocol.Range `json:"range"`
	OldText string         `json:"oldText"`
	NewText string         `json:"newText"`
	Block   string         `json:"block"`
	Version *int32         `json:"version"`
	State   string         `json:"state"`
	Message string         `json:"message"`
}

// hunksSuggested is the reply to graft.suggest.
type hunksSuggested struct {
	Blocks []struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"blocks"`
	Hunks       []hunk `json:"hunks"`
	Suggestions []hunk `json:"suggestions"`
}

// hunksAccepted is the reply to graft.accept.
type hunksAccepted struct {
	Applied       bool     `json:"applied"`
	FailureReason string   `json:"failureReason"`
	Accepted      []string `json:"accepted"`
}

// hunksLines returns the range of whole lines from..to (0-based, to
// excluded), as a hunk of whole lines has it.
func hunksLines(from, to uint32) protocol.Range {
	return protocol.Range{Start: protocol.Position{Line: from}, End: protocol.Position{Line: to}}
}

// hunksOnLine reports whether d is a hint over the text of line, as a
// hunk's diagnostic of a whole line ("\treturn n") is.
func hunksOnLine(d protocol.Diagnostic, line uint32) bool {
	return d.Severity == protocol.DiagnosticSeverityHint && d.Range == protocol.Range{
		Start: protocol.Position{Line: line}, End: protocol.Position{Line: line, Character: uint32(len("\treturn n"))}}
}

// hunksList returns graft.suggestions as hunks.
func hunksList(t *testing.T, e *fakeeditor.Editor, arg any) []hunk {
	t.Helper()
	var out []hunk
	suggestExecute(t, e, "graft.suggestions", arg, &out)
	return out
}

// hunksStart opens hunksMainGo in an editor and suggests hunksAnswer; it
// returns the file's path and the two hunks, checked.
func hunksStart(t *testing.T, opt fakeeditor.Options, dir string) (*fakeeditor.Editor, string, [2]hunk) {
	t.Helper()
	e, _ := fakeeditor.StartReady(t, opt)
	path := filepath.Join(dir, "main.go")
	if err := e.Open(path, "go", hunksMainGo); err != nil {
		t.Fatal(err)
	}
	var reply hunksSuggested
	suggestExecute(t, e, "graft.suggest", map[string]any{"text": hunksAnswer}, &reply)
	if len(reply.Blocks) != 1 || reply.Blocks[0].ID == "" || len(reply.Hunks) != 2 {
		t.Fatalf("graft.suggest: %+v, want one block of two hunks", reply)
	}
	if !reflect.DeepEqual(reply.Hunks, reply.Suggestions) {
		t.Errorf("suggestions %+v differ from hunks %+v", reply.Suggestions, reply.Hunks)
	}
	block := reply.Blocks[0].ID
	want := []hunk{
		{ID: block + ".1", Range: hunksLines(3, 4), OldText: hunksOld1, NewText: hunksNew1},
		{ID: block + ".2", Range: hunksLines(11, 12), OldText: hunksOld2, NewText: hunksNew2},
	}
	for i, h := range reply.Hunks {
		w := want[i]
		if h.ID != w.ID || h.Range != w.Range || h.OldText != w.OldText || h.NewText != w.NewText ||
			h.Block != block || h.URI != string(fakeeditor.URI(path)) || h.State != "pending" || h.Version == nil || *h.Version != e.Version(path) {
			t.Errorf("hunk %d: %+v, want %+v in block %s of %s at version %d", i+1, h, w, block, fakeeditor.URI(path), e.Version(path))
		}
	}
	if _, err := e.WaitDiagnostics(fakeeditor.URI(path), func(ds []protocol.Diagnostic) bool {
		return len(ds) == 2 && hunksOnLine(ds[0], 3) && hunksOnLine(ds[1], 11)
	}, suggestWait); err != nil {
		t.Fatalf("want a hint over each hunk: %v", err)
	}
	if e.Text(path) != hunksMainGo {
		t.Fatal("suggesting changed the buffer")
	}
	return e, path, [2]hunk(reply.Hunks)
}

// hunksOneEdit checks that the applyEdit request n (0-based) holds one
// TextDocumentEdit of the document at path, made for version, with edits.
func hunksOneEdit(t *testing.T, e *fakeeditor.Editor, n int, path string, version int32, edits ...protocol.TextEdit) {
	t.Helper()
	sent := e.AppliedEdits()
	if len(sent) != n+1 {
		t.Fatalf("%d workspace/applyEdit requests, want %d", len(sent), n+1)
	}
	we := sent[n].Decoded.Edit
	if len(we.DocumentChanges) != 1 || we.DocumentChanges[0].TextDocumentEdit == nil || len(we.Changes) != 0 {
		t.Fatalf("applyEdit %s, want one TextDocumentEdit", sent[n].Params)
	}
	te := we.DocumentChanges[0].TextDocumentEdit
	if te.TextDocument.URI != fakeeditor.URI(path) || te.TextDocument.Version == nil || *te.TextDocument.Version != version {
		t.Errorf("applyEdit for %s version %v, want %s version %d", te.TextDocument.URI, te.TextDocument.Version, fakeeditor.URI(path), version)
	}
	if !slices.Equal(te.Edits, edits) {
		t.Errorf("applyEdit edits %+v, want %+v", te.Edits, edits)
	}
}

func TestHunksAcceptOneRejectTheOther(t *testing.T) {
	for _, opt := range []func(...string) fakeeditor.Options{fakeeditor.VSCode, fakeeditor.Neovim072} {
		dir := suggestWorkspace(t, map[string]string{"main.go": hunksMainGo})
		o := opt(dir)
		t.Run(o.Flavor.String(), func(t *testing.T) {
			e, path, h := hunksStart(t, o, dir)
			version := e.Version(path)

			var accepted hunksAccepted
			suggestExecute(t, e, "graft.accept", map[string]any{"id": h[0].ID}, &accepted)
			if !accepted.Applied || !slices.Equal(accepted.Accepted, []string{h[0].ID}) {
				t.Fatalf("graft.accept: %+v, want %s applied", accepted, h[0].ID)
			}
			hunksOneEdit(t, e, 0, path, version, protocol.TextEdit{Range: h[0].Range, NewText: hunksNew1})
			once := strings.Replace(hunksMainGo, hunksOld1, hunksNew1, 1)
			if got := e.Text(path); got != once {
				t.Fatalf("buffer:\n%s\nwant only the first hunk made:\n%s", got, once)
			}

			// The other hunk stays, one line down, with its id.
			l := hunksList(t, e, map[string]any{"uri": fakeeditor.URI(path)})
			if len(l) != 1 || l[0].ID != h[1].ID || l[0].Range != hunksLines(12, 13) || l[0].OldText != hunksOld2 ||
				l[0].NewText != hunksNew2 || l[0].State != "pending" || *l[0].Version != e.Version(path) {
				t.Fatalf("graft.suggestions after accepting one: %+v, want %s over lines 12-13", l, h[1].ID)
			}
			if _, err := e.WaitDiagnostics(fakeeditor.URI(path), func(ds []protocol.Diagnostic) bool {
				return len(ds) == 1 && hunksOnLine(ds[0], 12)
			}, suggestWait); err != nil {
				t.Fatal(err)
			}

			var rejected map[string]int
			suggestExecute(t, e, "graft.reject", map[string]any{"id": h[1].ID, "uri": fakeeditor.URI(path)}, &rejected)
			if rejected["rejected"] != 1 {
				t.Errorf("graft.reject: %v, want 1 rejected", rejected)
			}
			if got := e.Text(path); got != once {
				t.Errorf("rejecting changed the buffer:\n%s", got)
			}
			if n := len(e.AppliedEdits()); n != 1 {
				t.Errorf("%d workspace/applyEdit requests, want only the accepted hunk's", n)
			}
			if l := hunksList(t, e, nil); len(l) != 0 {
				t.Errorf("graft.suggestions after rejecting the last hunk: %+v", l)
			}
			if _, err := e.WaitDiagnostics(fakeeditor.URI(path), suggestNone, suggestWait); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestHunksAcceptAll(t *testing.T) {
	const otherGo = "package main\n\nvar y = 1\n"
	for _, tc := range []struct {
		name string
		arg  any
		// others says the hunk of other.go is accepted too.
		others bool
	}{
		{"in a document", map[string]any{"uri": "main.go"}, false},
		{"everywhere", map[string]any{}, true},
		{"everywhere, no argument", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := suggestWorkspace(t, map[string]string{"main.go": hunksMainGo, "other.go": otherGo})
			e, path, h := hunksStart(t, fakeeditor.VSCode(dir), dir)
			other := filepath.Join(dir, "other.go")
			if err := e.Open(other, "go", otherGo); err != nil {
				t.Fatal(err)
			}
			var reply hunksSuggested
			suggestExecute(t, e, "graft.suggest", map[string]any{"edits": []any{
				map[string]any{"path": "other.go", "old_string": "var y = 1", "new_string": "var y = 2"},
			}}, &reply)
			if len(reply.Hunks) != 1 {
				t.Fatalf("graft.suggest in other.go: %+v", reply)
			}
			version := e.Version(path)
			arg := tc.arg
			if m, ok := arg.(map[string]any); ok && m["uri"] != nil {
				arg = map[string]any{"uri": fakeeditor.URI(path)}
			}
			var accepted hunksAccepted
			suggestExecute(t, e, "graft.accept", arg, &accepted)
			want := []string{h[0].ID, h[1].ID}
			if tc.others {
				want = append(want, reply.Hunks[0].ID)
			}
			slices.Sort(accepted.Accepted)
			slices.Sort(want)
			if !accepted.Applied || !slices.Equal(accepted.Accepted, want) {
				t.Fatalf("graft.accept: %+v, want %v", accepted, want)
			}
			both := strings.Replace(strings.Replace(hunksMainGo, hunksOld1, hunksNew1, 1), hunksOld2, hunksNew2, 1)
			if got := e.Text(path); got != both {
				t.Errorf("buffer:\n%s\nwant:\n%s", got, both)
			}
			sent := e.AppliedEdits()
			if len(sent) != 1 {
				t.Fatalf("%d workspace/applyEdit requests, want one", len(sent))
			}
			if !tc.others {
				hunksOneEdit(t, e, 0, path, version,
					protocol.TextEdit{Range: h[0].Range, NewText: hunksNew1},
					protocol.TextEdit{Range: h[1].Range, NewText: hunksNew2})
				if l := hunksList(t, e, nil); len(l) != 1 || l[0].ID != reply.Hunks[0].ID || e.Text(other) != otherGo {
					t.Errorf("left %+v, want the hunk of other.go, pending", l)
				}
				return
			}
			if n := len(sent[0].Decoded.Edit.DocumentChanges); n != 2 {
				t.Errorf("%d document changes, want one per document", n)
			}
			if got := e.Text(other); got != "package main\n\nvar y = 2\n" {
				t.Errorf("other.go:\n%s", got)
			}
			if l := hunksList(t, e, nil); len(l) != 0 {
				t.Errorf("left %+v after accepting all", l)
			}
		})
	}
}

// TestHunksFollowTyping accepts a hunk after the person typed lines above
// it: it follows, keeps its id, and lands where it moved to.
func TestHunksFollowTyping(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": hunksMainGo})
	e, path, h := hunksStart(t, fakeeditor.VSCode(dir), dir)
	// Two lines typed between the hunks: the second moves, the first not.
	typed := "// typed\n// by the person\n"
	if err := e.Edit(path, &protocol.Range{Start: protocol.Position{Line: 5}, End: protocol.Position{Line: 5}}, typed); err != nil {
		t.Fatal(err)
	}
	buffer := strings.Replace(hunksMainGo, "}\n\nfunc b", "}\n"+typed+"\nfunc b", 1)
	if e.Text(path) != buffer {
		t.Fatalf("buffer:\n%s", e.Text(path))
	}
	l := hunksList(t, e, nil)
	if len(l) != 2 || l[0].ID != h[0].ID || l[0].Range != h[0].Range || l[1].ID != h[1].ID || l[1].Range != hunksLines(13, 14) {
		t.Fatalf("graft.suggestions after typing: %+v, want %s over lines 3-4 and %s over lines 13-14", l, h[0].ID, h[1].ID)
	}
	var accepted hunksAccepted
	suggestExecute(t, e, "graft.accept", map[string]any{"id": h[1].ID}, &accepted)
	if !accepted.Applied {
		t.Fatalf("graft.accept: %+v", accepted)
	}
	hunksOneEdit(t, e, 0, path, e.Version(path)-1, protocol.TextEdit{Range: hunksLines(13, 14), NewText: hunksNew2})
	if got, want := e.Text(path), strings.Replace(buffer, hunksOld2, hunksNew2, 1); got != want {
		t.Errorf("buffer:\n%s\nwant:\n%s", got, want)
	}
	if l := hunksList(t, e, nil); len(l) != 1 || l[0].ID != h[0].ID || l[0].Range != h[0].Range {
		t.Errorf("left %+v, want %s where it was", l, h[0].ID)
	}
}

// TestHunksNotAcceptedOverAnEditInFlight types while the edit of a hunk
// is on its way: the editor refuses the edit, made for the version
// before, and both hunks stay pending, following the typing.
func TestHunksNotAcceptedOverAnEditInFlight(t *testing.T) {
	for _, opt := range []func(...string) fakeeditor.Options{fakeeditor.VSCode, fakeeditor.Neovim072} {
		dir := suggestWorkspace(t, map[string]string{"main.go": hunksMainGo})
		path := filepath.Join(dir, "main.go")
		o := opt(dir)
		typed := false
		o.BeforeApplyEdit = func(e *fakeeditor.Editor, _ json.RawMessage) {
			if !typed {
				typed = true
				if err := e.Edit(path, &protocol.Range{}, "// typed meanwhile\n"); err != nil {
					t.Error(err)
				}
			}
		}
		t.Run(o.Flavor.String(), func(t *testing.T) {
			e, _, h := hunksStart(t, o, dir)
			var accepted hunksAccepted
			suggestExecute(t, e, "graft.accept", map[string]any{"id": h[0].ID}, &accepted)
			buffer := "// typed meanwhile\n" + hunksMainGo
			if got := e.Text(path); got != buffer {
				t.Fatalf("an edit for an older version was applied: %+v\n%s", accepted, got)
			}
			if o.Flavor == fakeeditor.FlavorVSCode && (accepted.Applied || len(accepted.Accepted) != 0) {
				t.Errorf("graft.accept: %+v, want not applied", accepted)
			}
			l := hunksList(t, e, nil)
			if len(l) != 2 || l[0].ID != h[0].ID || l[0].Range != hunksLines(4, 5) || l[0].State != "pending" ||
				l[1].ID != h[1].ID || l[1].Range != hunksLines(12, 13) {
				t.Fatalf("graft.suggestions: %+v, want both hunks pending, one line down", l)
			}
			suggestExecute(t, e, "graft.accept", map[string]any{"id": h[0].ID}, &accepted)
			if want := strings.Replace(buffer, hunksOld1, hunksNew1, 1); !accepted.Applied || e.Text(path) != want {
				t.Fatalf("second try: %+v\n%s", accepted, e.Text(path))
			}
		})
	}
}

// TestHunksBadParams gives graft.accept and graft.reject what names no
// hunk: a clear error, and nothing changes.
func TestHunksBadParams(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": hunksMainGo, "other.go": "package main\n"})
	e, path, h := hunksStart(t, fakeeditor.VSCode(dir), dir)
	for _, tc := range []struct {
		name string
		arg  any
		want string
	}{
		{"unknown hunk", map[string]any{"id": h[0].Block + ".9"}, "no pending hunk"},
		{"unknown suggestion", map[string]any{"id": "s99.1"}, "no pending hunk"},
		{"not a uri", map[string]any{"uri": "main.go"}, "uri"},
		{"the hunk of another document", map[string]any{"id": h[0].ID, "uri": fakeeditor.URI(filepath.Join(dir, "other.go"))}, "is not in"},
		{"not an object", []string{"s1.1"}, "invalid arguments"},
	} {
		for _, command := range []string{"graft.accept", "graft.reject"} {
			t.Run(tc.name+"/"+command, func(t *testing.T) {
				err := suggestTryExecute(e, command, tc.arg, nil)
				var re *fakeeditor.ResponseError
				if !errors.As(err, &re) || !strings.Contains(re.Message, tc.want) {
					t.Errorf("%s %v: error %v, want one saying %q", command, tc.arg, err, tc.want)
				}
			})
		}
	}
	err := suggestTryExecute(e, "graft.accept", map[string]any{"uri": fakeeditor.URI(filepath.Join(dir, "other.go"))}, nil)
	if err == nil || !strings.Contains(err.Error(), "no pending hunks in") {
		t.Errorf("accepting in a document without hunks: %v, want an error", err)
	}
	if e.Text(path) != hunksMainGo || len(e.AppliedEdits()) != 0 {
		t.Error("a bad request changed the buffer")
	}
	if l := hunksList(t, e, nil); len(l) != 2 {
		t.Errorf("graft.suggestions after bad requests: %+v, want both hunks", l)
	}
}

// TestHunksAliases runs graft.applySuggestion and graft.dismiss, which
// the editors' plugins send, on a suggestion of two hunks: they accept
// and reject all of its hunks.
func TestHunksAliases(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": hunksMainGo})
	e, path, h := hunksStart(t, fakeeditor.VSCode(dir), dir)
	var dismissed map[string]int
	suggestExecute(t, e, "graft.dismiss", map[string]any{"id": h[0].Block}, &dismissed)
	if dismissed["dismissed"] != 1 || len(hunksList(t, e, nil)) != 0 {
		t.Fatalf("graft.dismiss: %v, want the suggestion and its hunks gone", dismissed)
	}

	var reply hunksSuggested
	suggestExecute(t, e, "graft.suggest", map[string]any{"text": hunksAnswer}, &reply)
	if len(reply.Hunks) != 2 {
		t.Fatalf("graft.suggest again: %+v", reply)
	}
	var applied hunksAccepted
	suggestExecute(t, e, "graft.applySuggestion", map[string]any{"uri": fakeeditor.URI(path), "id": reply.Blocks[0].ID}, &applied)
	if !applied.Applied || len(applied.Accepted) != 2 {
		t.Fatalf("graft.applySuggestion: %+v", applied)
	}
	if got, want := e.Text(path), strings.Replace(strings.Replace(hunksMainGo, hunksOld1, hunksNew1, 1), hunksOld2, hunksNew2, 1); got != want {
		t.Errorf("buffer:\n%s\nwant:\n%s", got, want)
	}
}

// TestHunksEditedInside changes the lines of one hunk by hand: that hunk
// no longer applies and says why, the other of its block stays pending
// and is accepted as it was.
func TestHunksEditedInside(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": hunksMainGo})
	e, path, h := hunksStart(t, fakeeditor.VSCode(dir), dir)
	if err := e.Edit(path, &h[1].Range, "\treturn 4\n"); err != nil {
		t.Fatal(err)
	}
	l := hunksList(t, e, nil)
	if len(l) != 2 || l[0].ID != h[0].ID || l[0].State != "pending" || l[1].ID != h[1].ID || l[1].State != "stale" || l[1].Message == "" {
		t.Fatalf("graft.suggestions after editing the second hunk's line: %+v, want the first pending, the second stale", l)
	}
	if _, err := e.WaitDiagnostics(fakeeditor.URI(path), func(ds []protocol.Diagnostic) bool {
		return len(ds) == 2 && hunksOnLine(ds[0], 3) && ds[1].Severity == protocol.DiagnosticSeverityWarning
	}, suggestWait); err != nil {
		t.Fatal(err)
	}
	var accepted hunksAccepted
	suggestExecute(t, e, "graft.accept", map[string]any{"id": h[1].ID}, &accepted)
	if accepted.Applied || accepted.FailureReason == "" || len(e.AppliedEdits()) != 0 {
		t.Fatalf("accepting the stale hunk: %+v, want a refusal saying why, nothing sent", accepted)
	}
	suggestExecute(t, e, "graft.accept", map[string]any{"uri": fakeeditor.URI(path)}, &accepted)
	edited := strings.Replace(hunksMainGo, hunksOld2, "\treturn 4\n", 1)
	if want := strings.Replace(edited, hunksOld1, hunksNew1, 1); !accepted.Applied || e.Text(path) != want || !slices.Equal(accepted.Accepted, []string{h[0].ID}) {
		t.Fatalf("accepting all in the document: %+v\n%s\nwant the pending hunk alone:\n%s", accepted, e.Text(path), want)
	}
	if l := hunksList(t, e, nil); len(l) != 1 || l[0].ID != h[1].ID || l[0].State != "stale" {
		t.Errorf("left %+v, want the stale hunk", l)
	}
}

// TestHunksFollowTypingWhereTheirLinesRepeat accepts a hunk whose lines
// occur twice in the file, after the person typed lines above both: its
// line follows the typing, and the hunk lands where it was suggested,
// not on the copy above it.
func TestHunksFollowTypingWhereTheirLinesRepeat(t *testing.T) {
	const twice = "// first\n\nfunc f() int {\n\treturn 0\n}\n\n// second\n\nfunc f() int {\n\treturn 0\n}\n"
	const answer = "main.go\n<<<<<<< SEARCH\n// second\n\nfunc f() int {\n\treturn 0\n}\n=======\n// second\n\nfunc f() int {\n\treturn 2\n}\n>>>>>>> REPLACE\n"
	dir := suggestWorkspace(t, map[string]string{"main.go": twice})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	path := filepath.Join(dir, "main.go")
	if err := e.Open(path, "go", twice); err != nil {
		t.Fatal(err)
	}
	var reply hunksSuggested
	suggestExecute(t, e, "graft.suggest", map[string]any{"text": answer}, &reply)
	if len(reply.Hunks) != 1 || reply.Hunks[0].Range != hunksLines(9, 10) {
		t.Fatalf("graft.suggest: %+v, want one hunk over line 9", reply)
	}
	typed := "// one\n// two\n// three\n"
	if err := e.Edit(path, &protocol.Range{}, typed); err != nil {
		t.Fatal(err)
	}
	if l := hunksList(t, e, nil); len(l) != 1 || l[0].Range != hunksLines(12, 13) || l[0].State != "pending" {
		t.Fatalf("graft.suggestions after typing: %+v, want the hunk over line 12", l)
	}
	var accepted hunksAccepted
	suggestExecute(t, e, "graft.accept", map[string]any{"id": reply.Hunks[0].ID}, &accepted)
	want := typed + "// first\n\nfunc f() int {\n\treturn 0\n}\n\n// second\n\nfunc f() int {\n\treturn 2\n}\n"
	if !accepted.Applied || e.Text(path) != want {
		t.Fatalf("graft.accept: %+v\n%s\nwant:\n%s", accepted, e.Text(path), want)
	}
}

// TestHunksInAFileNotOpen accepts a hunk of a file the editor has not
// opened: its edit is for the file on disk (no version), the editor opens
// the file to make it, and the other hunk follows into the buffer.
func TestHunksInAFileNotOpen(t *testing.T) {
	dir := suggestWorkspace(t, map[string]string{"main.go": hunksMainGo})
	e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
	path := filepath.Join(dir, "main.go")
	var reply hunksSuggested
	suggestExecute(t, e, "graft.suggest", map[string]any{"text": hunksAnswer}, &reply)
	if len(reply.Hunks) != 2 || reply.Hunks[0].Version != nil || reply.Hunks[1].Range != hunksLines(11, 12) {
		t.Fatalf("graft.suggest: %+v, want two hunks of the file on disk (no version)", reply)
	}
	var accepted hunksAccepted
	suggestExecute(t, e, "graft.accept", map[string]any{"id": reply.Hunks[0].ID}, &accepted)
	if !accepted.Applied {
		t.Fatalf("graft.accept: %+v", accepted)
	}
	sent := e.AppliedEdits()
	if len(sent) != 1 || len(sent[0].Decoded.Edit.DocumentChanges) != 1 {
		t.Fatalf("applyEdit requests %+v, want one of one document change", sent)
	}
	if te := sent[0].Decoded.Edit.DocumentChanges[0].TextDocumentEdit; te == nil || te.TextDocument.Version != nil ||
		!slices.Equal(te.Edits, []protocol.TextEdit{{Range: reply.Hunks[0].Range, NewText: hunksNew1}}) {
		t.Fatalf("applyEdit %s, want the first hunk's edit for the file on disk", sent[0].Params)
	}
	if got, want := e.Text(path), strings.Replace(hunksMainGo, hunksOld1, hunksNew1, 1); got != want {
		t.Errorf("buffer:\n%s\nwant:\n%s", got, want)
	}
	l := hunksList(t, e, nil)
	if len(l) != 1 || l[0].ID != reply.Hunks[1].ID || l[0].Range != hunksLines(12, 13) || l[0].Version == nil || *l[0].Version != e.Version(path) {
		t.Errorf("graft.suggestions: %+v, want the second hunk, one line down, in the buffer at version %d", l, e.Version(path))
	}
}
