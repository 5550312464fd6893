package mcpserver

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graft-editor/graft/workspace"
)

// rootsRequest is the id of the roots request a tool call asks the client
// to fulfil, in the protocol's multi round-trip requests.
const rootsRequest = "roots"

// rootsTimeout bounds the wait for a client's answer to roots/list.
const rootsTimeout = 10 * time.Second

// multiRoundTripVersion is the first protocol version in which a server
// may not send requests of its own while it serves a call, and asks for
// the roots in the call's result instead.
const multiRoundTripVersion = "2026-07-28"

// workspaceFor returns the workspace root of a call and a function that
// releases it: Options.Root, else the client's first file root, else
// Options.Dir. When the client can only be asked for its roots through
// the call's result (protocol 2026-07-28 and later), it returns that
// result instead, and the client calls again with the answer.
func (s *server) workspaceFor(ctx context.Context, req *mcp.CallToolRequest) (*workspace.Root, func(), *mcp.CallToolResult, error) {
	if s.root != nil {
		return s.root, func() {}, nil, nil
	}
	dir, ask := s.clientRoot(ctx, req)
	if ask {
		return nil, nil, &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{rootsRequest: &mcp.ListRootsParams{}}}, nil
	}
	if dir == "" {
		dir = s.opt.Dir
	}
	root, err := workspace.Open(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	return root, func() { root.Close() }, nil, nil
}

// clientRoot returns the directory of the client's first file root, or ""
// when it has none; ask reports that the roots must be asked for in the
// call's result.
func (s *server) clientRoot(ctx context.Context, req *mcp.CallToolRequest) (dir string, ask bool) {
	if res, ok := req.Params.InputResponses[rootsRequest].(*mcp.ListRootsResult); ok {
		return s.firstRoot(res.Roots), false
	}
	caps := req.ClientCapabilities()
	if caps == nil || caps.RootsV2 == nil || req.Session == nil {
		return "", false
	}
	p := req.Session.InitializeParams()
	if p == nil || p.ProtocolVersion >= multiRoundTripVersion {
		return "", true
	}
	ctx, cancel := context.WithTimeout(ctx, rootsTimeout)
	defer cancel()
	res, err := req.Session.ListRoots(ctx, nil) //lint:ignore SA1019 roots are how a client names its workspace until 2027
	if err != nil {
		s.logger.Warn("roots/list failed; using the current directory", "error", err)
		return "", false
	}
	return s.firstRoot(res.Roots), false
}

// firstRoot returns the directory of the first root with a file URI.
func (s *server) firstRoot(roots []*mcp.Root) string {
	for _, r := range roots {
		if r == nil {
			continue
		}
		dir, err := fileURIPath(r.URI)
		if err != nil {
			s.logger.Warn("ignoring a client root", "uri", r.URI, "error", err)
			continue
		}
		return dir
	}
	return ""
}

// fileURIPath returns the local path a file URI names.
func fileURIPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("not a file URI")
	}
	if u.Host != "" && u.Host != "localhost" {
		return "", fmt.Errorf("a file URI on another host (%s)", u.Host)
	}
	if u.Path == "" || !filepath.IsAbs(filepath.FromSlash(u.Path)) {
		return "", fmt.Errorf("not an absolute path")
	}
	return filepath.FromSlash(u.Path), nil
}
