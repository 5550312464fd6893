package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graft-editor/graft/internal/test/testenv"
	"github.com/graft-editor/graft/mcpserver"
)

// A server is graft mcp, the built binary, driven by the Go SDK's client.
type server struct {
	tb      testing.TB
	client  *mcp.Client
	session *mcp.ClientSession
}

// startOptions say how to start graft mcp.
type startOptions struct {
	args   []string           // after "graft mcp"
	dir    string             // the working directory; the test's temp dir when empty
	client *mcp.ClientOptions // nil: the SDK's defaults
	roots  []*mcp.Root        // the client's roots
	env    []string           // the environment; nil: this process's
	// protocol is the protocol version the client asks for; "" the
	// latest.
	protocol string
}

// start runs graft mcp with opt and connects a client to it; the session
// is closed when the test ends.
func start(tb testing.TB, opt startOptions) *server {
	tb.Helper()
	bin := testenv.Build(tb)
	cmd := exec.Command(bin, append([]string{"mcp"}, opt.args...)...)
	cmd.Dir = opt.dir
	if cmd.Dir == "" {
		cmd.Dir = tb.TempDir()
	}
	cmd.Env = opt.env
	cmd.Stderr = &testWriter{tb}
	client := mcp.NewClient(&mcp.Implementation{Name: "graft-test", Version: "1"}, opt.client)
	client.AddRoots(opt.roots...)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	session, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: opt.protocol})
	if err != nil {
		tb.Fatalf("connecting to graft mcp: %v", err)
	}
	tb.Cleanup(func() { session.Close() })
	return &server{tb: tb, client: client, session: session}
}

// startIn runs graft mcp --root dir.
func startIn(tb testing.TB, dir string) *server {
	return start(tb, startOptions{args: []string{"--root", dir}})
}

// call calls the tool name with args, and fails the test on a protocol
// error.
func (s *server) call(name string, args any) *mcp.CallToolResult {
	s.tb.Helper()
	res, err := s.callErr(name, args)
	if err != nil {
		s.tb.Fatalf("%s: %v", name, err)
	}
	return res
}

// callErr calls the tool name with args.
func (s *server) callErr(name string, args any) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return s.session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
}

// text is the text content of a result.
func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			b.WriteString(t.Text)
		}
	}
	return b.String()
}

// report decodes the structured content of a result.
func report(tb testing.TB, res *mcp.CallToolResult) *mcpserver.Report {
	tb.Helper()
	if res.StructuredContent == nil {
		tb.Fatalf("no structured content; text:\n%s", text(res))
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		tb.Fatal(err)
	}
	var r mcpserver.Report
	if err := json.Unmarshal(data, &r); err != nil {
		tb.Fatalf("structured content %s: %v", data, err)
	}
	return &r
}

// writeFiles writes files (path: content) under dir and returns dir.
func writeFiles(tb testing.TB, dir string, files map[string]string) string {
	tb.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// readFile returns the content of dir/name, or "<missing>".
func readFile(tb testing.TB, dir, name string) string {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if os.IsNotExist(err) {
		return "<missing>"
	}
	if err != nil {
		tb.Fatal(err)
	}
	return string(data)
}

// testWriter writes the server's standard error to the test log.
type testWriter struct{ tb testing.TB }

func (w *testWriter) Write(p []byte) (int, error) {
	w.tb.Logf("graft mcp: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
