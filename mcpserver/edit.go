package mcpserver

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/workspace"
)

// edit is the edit tool: one str-replace edit, resolved and written as
// graft apply resolves and writes a str-replace call.
func (s *server) edit(ctx context.Context, req *mcp.CallToolRequest, args EditArgs) (*mcp.CallToolResult, *Report, error) {
	if err := checkArguments(req); err != nil {
		return nil, nil, err
	}
	b, err := editBlock(args)
	if err != nil {
		return nil, nil, err
	}
	root, release, ask, err := s.workspaceFor(ctx, req)
	if ask != nil || err != nil {
		return ask, nil, err
	}
	defer release()
	ereq, err := editRequest(args)
	if err != nil {
		return nil, nil, err
	}
	if args.Review {
		return s.review(ctx, root, ereq)
	}
	if res, rep, sent, err := s.toEditor(ctx, root, ereq); sent {
		return res, rep, err
	}
	res, err := workspace.Apply(ctx, root, []dialect.Block{b}, workspace.ApplyOptions{
		Plan: workspace.PlanOptions{History: s.history(root)},
	})
	if err != nil {
		return nil, nil, err
	}
	s.seen.observe(res)
	return result(res, outcomeText(res, false)), newReport(res, false), nil
}

// editBlock returns the block the edit tool's arguments ask for, with the
// rules of the str-replace dialect: an empty old_string creates the file,
// and an edit that changes nothing is refused.
func editBlock(args EditArgs) (dialect.Block, error) {
	switch {
	case args.Path == "":
		return dialect.Block{}, errors.New("path is empty: name the file to edit")
	case args.OldString == args.NewString:
		return dialect.Block{}, errors.New("no change: old_string and new_string are the same")
	case args.StartLine < 0:
		return dialect.Block{}, errors.New("start_line must be a line number, 1 or more")
	}
	e := engine.Edit{
		Path:       args.Path,
		Old:        args.OldString,
		New:        args.NewString,
		Line:       args.StartLine,
		ReplaceAll: args.ReplaceAll,
		Dialect:    dialect.StrReplace,
	}
	if e.Old == "" {
		e.Op, e.Line, e.ReplaceAll = engine.OpCreate, 0, false
	}
	return dialect.Block{Edit: e}, nil
}
