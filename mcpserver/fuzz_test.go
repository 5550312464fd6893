package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graft-editor/graft/mcpserver"
)

// FuzzToolArguments calls each tool with any arguments, through the SDK's
// decoding and validation into the handlers of a server in this process:
// nothing may panic, every call gets an answer, a call that fails changes
// no file, and nothing is written outside the root.
func FuzzToolArguments(f *testing.F) {
	seeds := []struct {
		tool byte
		args string
	}{
		{0, `{"path":"a.txt","old_string":"one","new_string":"two"}`},
		{0, `{"path":"a.txt","old_string":"one\n","new_string":"one\n"}`},
		{0, `{"path":"../b.txt","old_string":"","new_string":"x"}`},
		{0, `{"path":"a.txt","old_string":"o","new_string":"x","replace_all":true,"start_line":1}`},
		{0, `{"path":"a.txt","old_string":1,"new_string":null}`},
		{0, `{"path":"\u0000","old_string":"","new_string":""}`},
		{0, `{"path":"/","old_string":"a","new_string":"b","start_line":1e300}`},
		{1, `{"text":"a.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n","atomic":true}`},
		{1, `{"text":"*** Begin Patch\n*** Delete File: a.txt\n*** End Patch\n"}`},
		{1, `{"text":"--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n"}`},
		{2, `{"text":"[{\"path\":\"a.txt\",\"old_str\":\"one\",\"new_str\":\"two\"}]"}`},
		{2, `[]`},
		{2, `"text"`},
		{3, `{}`},
	}
	for _, s := range seeds {
		f.Add(s.tool, []byte(s.args))
	}
	parent := f.TempDir()
	dir := filepath.Join(parent, "root")
	if err := os.Mkdir(dir, 0o755); err != nil {
		f.Fatal(err)
	}
	const original = "one\ntwo\n"
	aTxt := filepath.Join(dir, "a.txt")
	session := connectInProcess(f, dir)
	names := []string{"edit", "apply_edits", "preview_edits", "no_such_tool"}

	f.Fuzz(func(t *testing.T, tool byte, args []byte) {
		if !json.Valid(args) {
			return // the client cannot send it
		}
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, map[string]string{"a.txt": original})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: names[int(tool)%len(names)], Arguments: json.RawMessage(args)})
		if ctx.Err() != nil {
			t.Fatalf("no answer: %v", err)
		}
		if err != nil || res.IsError {
			if got, _ := os.ReadFile(aTxt); string(got) != original {
				t.Errorf("a failed call changed a.txt to %q", got)
			}
		}
		entries, err := os.ReadDir(parent)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 1 {
			t.Errorf("%d entries beside the root: a file was written outside it", len(entries)-1)
		}
	})
}

// connectInProcess serves the tools for the root dir in this process and
// returns a client session to them; the edits go to the disk, whatever
// editor may serve the root.
func connectInProcess(tb testing.TB, dir string) *mcp.ClientSession {
	tb.Helper()
	srv, err := mcpserver.New(mcpserver.Options{Root: dir, Editor: mcpserver.EditorNever})
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	serverT, clientT := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, serverT) }()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "fuzz", Version: "1"}, nil).Connect(ctx, clientT, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		session.Close()
		cancel()
		<-done
		srv.Close()
	})
	return session
}
