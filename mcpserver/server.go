// Package mcpserver serves Graft's edit resolver as Model Context Protocol
// tools, so that any MCP-capable agent can apply its edits through Graft
// instead of its own matcher: edit (one str-replace edit), apply_edits (an
// answer in any dialect) and preview_edits (the same, changing nothing).
//
// Every tool plans and writes as graft apply does, through
// workspace.Apply: paths are confined to the workspace root, files are
// written atomically under the root's lock, and a refusal writes nothing.
// Each returns the block report of graft apply --json as its structured
// result and a short text for the model; a refusal is a tool error whose
// text says how to retry.
package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graft-editor/graft/workspace"
)

// Options configure a server.
type Options struct {
	// Root is the workspace root. When empty, the root is the client's
	// first MCP root, asked for at each call, or Dir when the client
	// has none.
	Root string
	// Dir is the root when neither Root nor the client names one: the
	// current directory of graft mcp.
	Dir string
	// Version is the server's version, as the initialize result says it.
	Version string
	// Editor says whether edit and apply_edits send their edits to the
	// graft serve of an editor that has the root open; "" is EditorAuto.
	// preview_edits always reads the disk.
	Editor EditorMode
	// Logger receives what the server has to say outside the protocol;
	// nil discards it.
	Logger *slog.Logger
	// History, when set, returns the history of a workspace root: the
	// earlier versions of its files that a stale block is told by, and
	// where what the tools write is recorded (see workspace.History).
	History func(root string) workspace.History
	// ReviewTimeout bounds the wait for the person's decisions on edits
	// sent for review; zero means 10 minutes.
	ReviewTimeout time.Duration
}

// history returns the history of root: Options.History's, and the texts
// the session saw (see seenTexts).
func (s *server) history(root *workspace.Root) workspace.History {
	h := sessionHistory{seen: s.seen}
	if s.opt.History != nil {
		h.root = s.opt.History(root.Dir())
	}
	return h
}

// A server holds the tool handlers' configuration.
type server struct {
	opt    Options
	root   *workspace.Root // opened once when Options.Root is set
	logger *slog.Logger
	// seen are the texts the session's tools read and wrote.
	seen *seenTexts
}

// New returns an MCP server with Graft's tools. When opt.Root is set it is
// opened at once, and New fails if it is not a directory; Close releases
// it.
func New(opt Options) (*Server, error) {
	if _, err := ParseEditorMode(string(opt.Editor)); err != nil {
		return nil, err
	}
	s := &server{opt: opt, logger: opt.Logger, seen: newSeenTexts(time.Now)}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	if opt.Root != "" {
		root, err := workspace.Open(opt.Root)
		if err != nil {
			return nil, err
		}
		s.root = root
	}
	version := opt.Version
	if version == "" {
		version = "devel"
	}
	ms := mcp.NewServer(&mcp.Implementation{Name: "graft", Title: "Graft", Version: version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       s.logger,
		// Tools only: no logging capability, which the SDK would
		// otherwise advertise.
		Capabilities: &mcp.ServerCapabilities{},
	})
	edit, apply, preview := tools()
	mcp.AddTool(ms, edit, guarded(s.logger, s.edit))
	mcp.AddTool(ms, apply, guarded(s.logger, s.applyEdits))
	mcp.AddTool(ms, preview, guarded(s.logger, s.previewEdits))
	return &Server{mcp: ms, s: s}, nil
}

// instructions tell the client's model when to use the tools.
const instructions = `Graft applies edits to the files of this workspace. Use edit as you would ` +
	`a str_replace tool; use apply_edits for several blocks or a diff; use preview_edits to see a ` +
	`diff first. A refusal changes nothing and shows the lines to quote instead.`

// A Server is Graft's MCP tool server.
type Server struct {
	mcp *mcp.Server
	s   *server
}

// Run serves one client over t until the client disconnects or ctx is
// done; it then returns ctx's error. It is the SDK's Server.Run but for
// its log: a run ended by ctx (Ctrl-C, SIGTERM) is how graft mcp stops,
// not an error to report.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	ss, err := s.mcp.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("mcp server: %w", err)
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close()
		<-ended
		return ctx.Err()
	case err := <-ended:
		if err != nil {
			return fmt.Errorf("mcp server: %w", err)
		}
		return nil
	}
}

// Close releases the workspace root that New opened.
func (s *Server) Close() error {
	if s.s.root != nil {
		return s.s.root.Close()
	}
	return nil
}

// guarded turns a panic in a tool's handler into a tool error and a log
// line, so that no input ends graft mcp: the SDK does not recover them.
func guarded[In, Out any](log *slog.Logger, h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				log.Error("panic in a tool", "tool", req.Params.Name, "panic", p, "stack", string(debug.Stack()))
				var zero Out
				res, out, err = &mcp.CallToolResult{
					IsError: true,
					Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(
						"graft: internal error in %s: %v. The call stopped before it completed: read the files it names again before you retry, and please report it.", req.Params.Name, p)}},
				}, zero, nil
			}
		}()
		return h(ctx, req, in)
	}
}
