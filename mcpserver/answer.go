package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/workspace"
)

// applyEdits is the apply_edits tool: an answer in any dialect, resolved
// and written as graft apply does.
func (s *server) applyEdits(ctx context.Context, req *mcp.CallToolRequest, args ApplyArgs) (*mcp.CallToolResult, *Report, error) {
	if err := checkArguments(req); err != nil {
		return nil, nil, err
	}
	root, release, ask, err := s.workspaceFor(ctx, req)
	if ask != nil || err != nil {
		return ask, nil, err
	}
	defer release()
	blocks, err := parseAnswer(root, args.Text)
	if err != nil {
		return nil, nil, err
	}
	if args.Review {
		return s.review(ctx, root, &editorlink.Request{Text: args.Text, Atomic: args.Atomic})
	}
	if res, rep, sent, err := s.toEditor(ctx, root, &editorlink.Request{Text: args.Text, Atomic: args.Atomic}); sent {
		return res, rep, err
	}
	res, err := workspace.Apply(ctx, root, blocks, workspace.ApplyOptions{
		Plan: workspace.PlanOptions{Atomic: args.Atomic, History: s.history(root)},
	})
	if err != nil {
		return nil, nil, err
	}
	s.seen.observe(res)
	return result(res, outcomeText(res, false)), newReport(res, false), nil
}

// previewEdits is the preview_edits tool: apply_edits' plan, with the
// diff, and nothing written.
func (s *server) previewEdits(ctx context.Context, req *mcp.CallToolRequest, args PreviewArgs) (*mcp.CallToolResult, *Report, error) {
	if err := checkArguments(req); err != nil {
		return nil, nil, err
	}
	root, release, ask, err := s.workspaceFor(ctx, req)
	if ask != nil || err != nil {
		return ask, nil, err
	}
	defer release()
	blocks, err := parseAnswer(root, args.Text)
	if err != nil {
		return nil, nil, err
	}
	res, err := workspace.Plan(ctx, root.Links(), blocks, workspace.PlanOptions{History: s.history(root)})
	if err != nil {
		return nil, nil, err
	}
	s.seen.observe(res)
	var text strings.Builder
	text.WriteString(outcomeText(res, true))
	for _, f := range res.Files {
		if d := f.Diff(); d != "" {
			text.WriteString("\n")
			text.WriteString(d)
		}
	}
	return result(res, text.String()), newReport(res, true), nil
}

// parseAnswer reads the edit blocks of an answer, as graft apply does.
func parseAnswer(root *workspace.Root, text string) ([]dialect.Block, error) {
	if strings.TrimSpace(text) == "" {
		return nil, errors.New("text is empty: pass the edit blocks to apply")
	}
	blocks, err := dialect.Parse(text, dialect.Options{Exists: root.Exists})
	if errors.Is(err, dialect.ErrNoBlocks) {
		return nil, fmt.Errorf("no edit blocks in text; write them in one of the dialects Graft reads (%s), each naming its file",
			strings.Join(dialect.Names(), ", "))
	}
	return blocks, err
}

// result is the tool result for res with text for the model: a tool
// error unless every block applied.
func result(res *workspace.Result, text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: text}},
		IsError: !res.OK(),
	}
}
