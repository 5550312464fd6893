package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/workspace"
)

// An EditorMode says whether the tools that change files send their edits
// to the graft serve of an editor that has the workspace open, so that
// they land in its buffers (with undo, unsaved changes respected) rather
// than on the disk behind it.
type EditorMode string

// The editor modes, as --editor spells them.
const (
	// EditorAuto sends the edits to the editor when a graft serve serves
	// the root, and writes the disk when none does; when one may but
	// cannot be reached safely (see editorlink.UnreachableError), it
	// refuses them. It is the default.
	EditorAuto EditorMode = "auto"
	// EditorAlways sends them to the editor, and refuses them when none
	// serves the root.
	EditorAlways EditorMode = "always"
	// EditorNever writes the disk.
	EditorNever EditorMode = "never"
)

// ParseEditorMode returns the mode s names; "" is EditorAuto.
func ParseEditorMode(s string) (EditorMode, error) {
	switch m := EditorMode(s); m {
	case "":
		return EditorAuto, nil
	case EditorAuto, EditorAlways, EditorNever:
		return m, nil
	}
	return "", fmt.Errorf("editor mode %q: want %s, %s or %s", s, EditorAuto, EditorAlways, EditorNever)
}

// The values of Report.Via.
const (
	viaDisk   = "disk"
	viaEditor = "editor"
)

// toEditor sends req to the editor's graft serve for root, as the mode
// says, and returns the tool's result; sent is false when the edits are
// for the disk instead (nothing was sent then).
func (s *server) toEditor(ctx context.Context, root *workspace.Root, req *editorlink.Request) (res *mcp.CallToolResult, rep *Report, sent bool, err error) {
	mode, _ := ParseEditorMode(string(s.opt.Editor))
	if mode == EditorNever {
		return nil, nil, false, nil
	}
	files := requestFiles(root, req)
	if _, err := editorlink.Lookup(ctx, root.Dir(), files); err != nil {
		var split *editorlink.SplitError
		switch {
		case ctx.Err() != nil:
			return nil, nil, true, fmt.Errorf("not applied: the call was cancelled before the edits were sent to the editor; nothing changed: %w", err)
		case errors.As(err, &split):
			return nil, nil, true, splitError(err)
		case !errors.Is(err, editorlink.ErrNoServer):
			// An editor may have the files open: neither the editor nor
			// the disk behind it.
			fix := ""
			var ue *editorlink.UnreachableError
			if errors.As(err, &ue) && ue.Fix != "" {
				fix = " The user can fix it: " + ue.Fix + "; or run graft mcp with --editor never to write the disk anyway."
			}
			return nil, nil, true, fmt.Errorf("not applied: an editor may have this workspace open, and the editor link to it cannot be used safely: %w. Nothing was written, to the editor or to the disk behind it; do not retry until the user has fixed it.%s", err, fix)
		case mode == EditorAlways:
			return nil, nil, true, fmt.Errorf("not applied: graft mcp runs with --editor always, and %w; nothing was written. "+
				"The user must open the workspace in an editor that runs graft serve", err)
		case errors.Is(err, editorlink.ErrLinkDisabled):
			s.logger.Warn("not sending to the editor; writing the disk", "error", err)
		}
		return nil, nil, false, nil
	}
	reply, err := editorlink.Send(ctx, root.Dir(), files, req)
	if err != nil {
		return nil, nil, true, s.sendError(ctx, err)
	}
	rep = editorReport(reply)
	text := editorText(reply, rep)
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: text}},
		IsError: !reply.Applied || rep.Applied+rep.AlreadyApplied < len(rep.Blocks),
	}, rep, true, nil
}

// splitError is the error of a tool whose edits change files in a folder
// that an editor has open and files outside it (an
// *editorlink.SplitError): nothing is written, and the model is told to
// send each folder's edits in a call of their own.
func splitError(err error) error {
	return fmt.Errorf("not applied: %w. An editor takes only the files of its own folders into its buffers, and writing the others to the disk in the same call could leave the edits half applied. Nothing was written, to the editor or to the disk. "+
		"Send the edits of each folder in a call of their own", err)
}

// requestFiles returns the files, absolute, that req's blocks change,
// for editorlink to find the editor that serves them; the names root
// refuses are left out, for the route that takes the request to refuse
// them.
func requestFiles(root *workspace.Root, req *editorlink.Request) []string {
	var blocks []dialect.Block
	if req.Text != "" {
		b, _ := dialect.Parse(req.Text, dialect.Options{Exists: root.Exists})
		blocks = append(blocks, b...)
	}
	if len(req.Edits) > 0 {
		if text, err := json.Marshal(req.Edits); err == nil {
			b, _ := dialect.Parse(string(text), dialect.Options{Format: dialect.StrReplace, Exists: root.Exists})
			blocks = append(blocks, b...)
		}
	}
	var files []string
	for _, b := range blocks {
		for _, name := range []string{b.Path, b.NewPath} {
			if abs, err := root.Path(name); name != "" && err == nil {
				files = append(files, abs)
			}
		}
	}
	return files
}

// sendError is the error of a tool whose edits editorlink.Send failed to
// carry to the editor with err: it says whether they may have been
// applied, and so whether the model may send them again.
func (s *server) sendError(ctx context.Context, err error) error {
	var se *editorlink.ServerError
	switch {
	case errors.Is(err, editorlink.ErrNoReply) && ctx.Err() != nil:
		err = fmt.Errorf("the call was cancelled after the edits were sent to the editor, before it answered: the editor may have applied them: read the file before you send them again (%w)", err)
		s.logger.Warn("tool call cancelled after its edits were sent to the editor; it may have applied them", "error", err)
		return err
	case errors.Is(err, editorlink.ErrNoReply):
		return fmt.Errorf("the edits were sent to the editor, but its answer did not come back: the editor may have applied them: read the file before you send them again (%w)", err)
	case ctx.Err() != nil && !errors.As(err, &se):
		return fmt.Errorf("not applied: the call was cancelled before the edits were sent to the editor; nothing changed (%w)", err)
	}
	return fmt.Errorf("sending the edits to the editor: %w; they may not have been applied: read the file before you retry", err)
}

// editRequest is the edit tool's arguments as a request for the editor: a
// str-replace object, which graft serve reads as the edit tool does.
func editRequest(args EditArgs) (*editorlink.Request, error) {
	obj := map[string]any{"path": args.Path, "old_string": args.OldString, "new_string": args.NewString}
	if args.ReplaceAll {
		obj["replace_all"] = true
	}
	if args.StartLine > 0 {
		obj["start_line"] = args.StartLine
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	return &editorlink.Request{Edits: []json.RawMessage{data}}, nil
}

// editorReport is the report of an editor's reply: its blocks, and no
// file entries, the editor having changed its documents itself.
func editorReport(reply *editorlink.Reply) *Report {
	r := &Report{Via: viaEditor, Blocks: make([]workspace.BlockReport, len(reply.Blocks)), Files: []workspace.FileReport{}}
	for i, b := range reply.Blocks {
		r.Blocks[i] = b.BlockReport
		switch engine.Status(b.Status) {
		case engine.StatusApplied:
			r.Applied++
		case engine.StatusAlreadyApplied:
			r.AlreadyApplied++
		case engine.StatusSkipped:
			r.Skipped++
		default:
			r.Failed++
		}
	}
	return r
}

// editorText is the text for the model of an editor's reply.
func editorText(reply *editorlink.Reply, rep *Report) string {
	var b strings.Builder
	for _, blk := range reply.Blocks {
		if len(reply.Blocks) > 1 {
			n := blk.Block
			if n == 0 {
				n = blk.Index + 1 // a graft serve of an earlier version
			}
			fmt.Fprintf(&b, "Block %d: ", n)
		}
		where := blk.Path
		if blk.StartLine > 0 {
			where += " " + lineRange(blk.StartLine, blk.EndLine)
		}
		switch {
		case engine.Status(blk.Status) == engine.StatusAlreadyApplied:
			fmt.Fprintf(&b, "Already applied at %s: the change is there already; nothing changed. %s\n", where, oneLine(blk.Message))
		case engine.Status(blk.Status) != engine.StatusApplied:
			fmt.Fprintf(&b, "Refused (%s): %s\n", blk.Path, strings.TrimSpace(blk.Message))
		case exact(blk.Strategy):
			fmt.Fprintf(&b, "Applied to %s (%s).\n", where, blk.Strategy)
		default:
			fmt.Fprintf(&b, "Applied to %s, adjusted: the text there was not exactly what you quoted; matched by %s (%.0f%% similar). %s\n",
				where, blk.Strategy, 100*blk.Score, oneLine(blk.Message))
		}
	}
	switch {
	case rep.Applied == 0:
		b.WriteString("Nothing changed, in the editor's buffers or on disk.\n")
	case !reply.Applied && reply.FailureReason != "":
		fmt.Fprintf(&b, "The editor did not apply the edits: %s\n", reply.FailureReason)
	case !reply.Applied:
		b.WriteString("The editor did not apply the edits.\n")
	default:
		b.WriteString("Applied in the editor's open buffers (the user's unsaved changes kept, undo available); the editor saves them.\n")
	}
	if len(reply.Blocks) > 1 || rep.Applied < len(rep.Blocks) {
		fmt.Fprintf(&b, "%d applied, %d already applied, %d failed, %d skipped.\n", rep.Applied, rep.AlreadyApplied, rep.Failed, rep.Skipped)
	}
	return strings.TrimRight(b.String(), "\n")
}
