package lsp

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/workspace"
)

// TestStale tells the replies of a routed graft.apply that the editor
// refused as a whole, to be resolved again, from the others: a block is
// taken for refused by the editor from its error, never from its message.
func TestStale(t *testing.T) {
	// block returns a block of a.txt with status st.
	block := func(i int, st engine.Status) workspace.BlockResult {
		return workspace.BlockResult{Index: i, Path: "a.txt", Dialect: "str-replace", Status: st}
	}
	// failed returns block i, failed with err.
	failed := func(i int, err error) workspace.BlockResult {
		b := block(i, engine.StatusFailed)
		b.Err, b.Message = err, err.Error()
		return b
	}
	const reason = "bad state - version mismatch for a.txt: edit is for version 2, the document is at 3"
	tests := []struct {
		name string
		// blocks are the blocks as resolved; those of refused, if any,
		// the editor then refuses as the server records it (send).
		blocks  []workspace.BlockResult
		refused []int
		applied bool
		reason  string
		want    bool
	}{
		{
			name:    "the editor refused the only block",
			blocks:  []workspace.BlockResult{block(0, engine.StatusApplied)},
			refused: []int{0},
			reason:  reason,
			want:    true,
		},
		{
			name:    "the editor refused one block, another failed to resolve",
			blocks:  []workspace.BlockResult{failed(0, &engine.Error{Reason: engine.ReasonNotFound, Summary: "not found"}), block(1, engine.StatusApplied)},
			refused: []int{1},
			reason:  reason,
			want:    true,
		},
		{
			// The old test matched the message's start: a block whose own
			// message starts as the editor's refusal does was taken for
			// one, and the request resolved three times over.
			name:   "a block's own message starts as a refusal by the editor",
			blocks: []workspace.BlockResult{failed(0, errors.New("not applied by the editor.txt already exists; not overwritten"))},
			reason: "the editor does not support workspace/applyEdit; nothing applied",
			want:   false,
		},
		{
			name:   "no block was sent",
			blocks: []workspace.BlockResult{failed(0, &engine.Error{Reason: engine.ReasonNotFound, Summary: "not found"})},
			reason: reason,
			want:   false,
		},
		{
			name:    "the reply has no failure reason",
			blocks:  []workspace.BlockResult{block(0, engine.StatusApplied)},
			refused: []int{0},
			want:    false,
		},
		{
			name:    "the editor applied the edit",
			blocks:  []workspace.BlockResult{block(0, engine.StatusApplied)},
			applied: true,
			want:    false,
		},
		{
			// With failureHandling "abort", the changes before the one
			// that failed landed: resolving again would repeat them.
			name:    "a block landed although the editor refused another",
			blocks:  []workspace.BlockResult{block(0, engine.StatusApplied), block(1, engine.StatusApplied)},
			refused: []int{1},
			reason:  reason,
			want:    false,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := &workspace.Result{Blocks: tc.blocks}
			for i := range tc.blocks {
				res.Files = append(res.Files, workspace.FileChange{Path: "a.txt", Action: workspace.ActionModify, Blocks: []int{i}})
			}
			for _, i := range tc.refused {
				res.Fail(i, &editorRefusal{reason: tc.reason})
			}
			s := newServer(Options{})
			defer s.stop()
			out := &applyResult{Applied: tc.applied, FailureReason: tc.reason, Blocks: s.reports(&plan{res: res})}
			if got := stale(out); got != tc.want {
				t.Errorf("stale = %v, want %v; blocks %+v", got, tc.want, out.Blocks)
			}
		})
	}
}

// TestRefuseNotUTF8Params refuses a routed request whose text or edits
// are not UTF-8, as graft.apply refuses its argument, and lets through
// one that is, a U+FFFD written as such included.
func TestRefuseNotUTF8Params(t *testing.T) {
	edit := func(s string) []json.RawMessage {
		return []json.RawMessage{json.RawMessage(`{"filePath":"a.txt","oldString":"x","newString":"` + s + `"}`)}
	}
	tests := []struct {
		name string
		cp   commandParams
		want string // the start of the error; empty for none
	}{
		{"UTF-8 text", commandParams{Text: "b\u00e9ta\n\ufffd"}, ""},
		{"UTF-8 edits", commandParams{Edits: edit(`b\u00e9ta \ufffd`)}, ""},
		{"text with a byte that is not UTF-8", commandParams{Text: "a\nb\xe9ta"}, "text: not valid UTF-8 (byte 0xe9 on line 2 is not UTF-8)"},
		{"text with a cut character", commandParams{Text: "b\xc3"}, "text: not valid UTF-8 (byte 0xc3 on line 1 is not UTF-8)"},
		{"edits with a byte that is not UTF-8", commandParams{Edits: edit("b\xe9ta")}, "edits: not valid UTF-8 (byte 0xe9 on line 1 is not UTF-8)"},
		{"edits with half a surrogate pair", commandParams{Edits: edit(`b\udce9ta`)}, `edits: not valid UTF-8 (\udce9 on line 1 is half of a UTF-16 surrogate pair`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := refuseNotUTF8Params(tc.cp)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want == "":
			case err == nil:
				t.Errorf("not refused; want %q", tc.want)
			case !strings.HasPrefix(err.Error(), tc.want):
				t.Errorf("error %q, want it to start %q", err, tc.want)
			default:
				var jerr *jsonrpc2.Error
				if !errors.As(err, &jerr) || jerr.Code != jsonrpc2.InvalidParams {
					t.Errorf("error %#v, want InvalidParams", err)
				}
			}
		})
	}
}
