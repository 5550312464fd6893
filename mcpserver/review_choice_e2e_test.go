package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// An edit sent for review whose old_string stands twice in the buffer
// waits for the person to choose the place in the editor; the place
// chosen becomes the hunk the person accepts, and the result says so.
// Nothing changes at the other place, nor on disk. Rejected without a
// place chosen, the result says it was rejected, and nothing changed.
func TestReviewChoosesPlace(t *testing.T) {
	t.Run("chosen and accepted", func(t *testing.T) { testReviewChoice(t, true) })
	t.Run("rejected", func(t *testing.T) { testReviewChoice(t, false) })
}

// testReviewChoice is TestReviewChoosesPlace, the place chosen and its
// hunk accepted, or the suggestion rejected whole.
func testReviewChoice(t *testing.T, choose bool) {
	root, sockets := editorWorkspace(t)
	e := startEditor(t, root, sockets)
	main := filepath.Join(root, "main.go")
	dup := "package main\n\nfunc a() int {\n\tx := 41\n\treturn x\n}\n\nfunc b() int {\n\tx := 41\n\treturn x\n}\n"
	if err := e.SetText(main, dup); err != nil {
		t.Fatal(err)
	}
	s := start(t, startOptions{
		args: []string{"--root", root},
		env:  append(os.Environ(), editorlink.DirEnv+"="+sockets),
	})
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := s.callErr("edit", map[string]any{"path": "main.go", "old_string": "\tx := 41\n", "new_string": "\tx := 42\n", "review": true})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	u := fakeeditor.URI(main)
	if _, err := e.WaitDiagnostics(u, func(ds []protocol.Diagnostic) bool {
		return len(ds) == 2 && ds[0].Code == "ambiguous" && ds[1].Code == "ambiguous"
	}, 20*time.Second); err != nil {
		select {
		case res := <-done:
			t.Fatalf("%v; the tool returned:\n%s", err, text(res))
		default:
		}
		t.Fatal(err)
	}
	select {
	case res := <-done:
		t.Fatalf("the tool returned before the person chose a place:\n%s", text(res))
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	actions, err := e.CodeActions(ctx, main, protocol.Range{Start: protocol.Position{Line: 8}, End: protocol.Position{Line: 8}})
	if err != nil {
		t.Fatal(err)
	}
	var chosen, reject *protocol.Command
	var titles []string
	for _, a := range actions {
		titles = append(titles, a.Title)
		switch {
		case strings.HasPrefix(a.Title, "Suggest at lines 9-9"):
			chosen = a.Command
		case strings.HasPrefix(a.Title, "Reject suggestion"):
			reject = a.Command
		}
	}
	if chosen == nil || reject == nil {
		t.Fatalf("no action chooses the second place, or rejects: %q", titles)
	}
	want, decided := dup, "rejected s1"
	if choose {
		if err := e.Execute(ctx, chosen, nil); err != nil {
			t.Fatal(err)
		}
		select {
		case res := <-done:
			t.Fatalf("the tool returned once the place was chosen, before the hunk was decided:\n%s", text(res))
		case <-time.After(300 * time.Millisecond):
		}
		id := waitHunk(t, e, main)
		if err := e.Execute(ctx, &protocol.Command{Command: "graft.accept", Arguments: []any{map[string]any{"id": id}}}, nil); err != nil {
			t.Fatal(err)
		}
		want, decided = strings.Replace(dup, "b() int {\n\tx := 41", "b() int {\n\tx := 42", 1), "accepted "+id
	} else if err := e.Execute(ctx, reject, nil); err != nil {
		t.Fatal(err)
	}
	var res *mcp.CallToolResult
	select {
	case res = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the tool did not return after the person decided")
	}
	if res == nil || res.IsError || !strings.Contains(text(res), decided) {
		t.Fatalf("result: %v, want it to say %s", res, decided)
	}
	t.Logf("result: %s", text(res))
	if e.Text(main) != want {
		t.Errorf("buffer:\n%s\nwant:\n%s", e.Text(main), want)
	}
	if got := readFile(t, root, "main.go"); got != editorDisk {
		t.Errorf("the disk was written behind the editor:\n%s", got)
	}
}
