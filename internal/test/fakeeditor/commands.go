package fakeeditor

import (
	"context"
	"fmt"

	"github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
)

// Command runs workspace/executeCommand name with arguments [args] (no
// arguments when args is nil) and decodes its result into result.
func (e *Editor) Command(ctx context.Context, name string, args, result any) error {
	p := map[string]any{"command": name}
	if args != nil {
		p["arguments"] = []any{args}
	}
	return e.conn.Call(ctx, "workspace/executeCommand", p, result)
}

// Execute runs a command as the server described it (in a code action or
// code lens), with its arguments exactly as given, as an editor does when
// the user picks it.
func (e *Editor) Execute(ctx context.Context, cmd *protocol.Command, result any) error {
	if cmd == nil {
		return fmt.Errorf("no command to execute")
	}
	p := map[string]any{"command": cmd.Command}
	if cmd.Arguments != nil {
		p["arguments"] = cmd.Arguments
	}
	return e.conn.Call(ctx, "workspace/executeCommand", p, result)
}

// CodeAction is one item of a textDocument/codeAction reply: a CodeAction,
// or a bare Command (then Title and Command are set, the rest empty).
type CodeAction struct {
	Title       string                `json:"title"`
	Kind        string                `json:"kind,omitempty"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics,omitempty"`
	IsPreferred bool                  `json:"isPreferred,omitempty"`
	Disabled    *struct {
		Reason string `json:"reason"`
	} `json:"disabled,omitempty"`
	Edit    *WorkspaceEdit    `json:"edit,omitempty"`
	Command *protocol.Command `json:"command,omitempty"`
	Data    json.RawMessage   `json:"data,omitempty"`
	// Raw is the item as received.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes a CodeAction or a bare Command.
func (a *CodeAction) UnmarshalJSON(b []byte) error {
	var head struct {
		Command json.RawMessage `json:"command"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return err
	}
	if len(head.Command) > 0 && head.Command[0] == '"' {
		var c protocol.Command
		if err := json.Unmarshal(b, &c); err != nil {
			return err
		}
		*a = CodeAction{Title: c.Title, Command: &c, Raw: append(json.RawMessage(nil), b...)}
		return nil
	}
	type plain CodeAction
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*a = CodeAction(p)
	a.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// CodeActions asks for the code actions of path over rng, sending as
// context the published diagnostics that touch rng, as editors do.
func (e *Editor) CodeActions(ctx context.Context, path string, rng protocol.Range) ([]CodeAction, error) {
	u := URI(path)
	diags := []protocol.Diagnostic{}
	if pd, ok := e.Diagnostics(u); ok {
		for _, d := range pd.Diagnostics {
			if touches(d.Range, rng) {
				diags = append(diags, d)
			}
		}
	}
	var out []CodeAction
	err := e.conn.Call(ctx, "textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u},
		"range":        rng,
		"context":      map[string]any{"diagnostics": diags, "triggerKind": 1},
	}, &out)
	return out, err
}

// CodeLenses asks for the code lenses of path.
func (e *Editor) CodeLenses(ctx context.Context, path string) ([]protocol.CodeLens, error) {
	var out []protocol.CodeLens
	err := e.conn.Call(ctx, "textDocument/codeLens", map[string]any{
		"textDocument": map[string]any{"uri": URI(path)},
	}, &out)
	return out, err
}

// touches reports whether ranges a and b overlap or meet.
func touches(a, b protocol.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}

func before(p, q protocol.Position) bool {
	return p.Line < q.Line || p.Line == q.Line && p.Character < q.Character
}
