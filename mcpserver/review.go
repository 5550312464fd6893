package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/workspace"
)

// reviewPoll is how often a review asks the editor's graft serve how the
// person decided: a quick question each time, so that the link is held
// by none of them while the person thinks.
const reviewPoll = 250 * time.Millisecond

// defaultReviewTimeout bounds a review's wait when Options.ReviewTimeout
// is zero.
const defaultReviewTimeout = 10 * time.Minute

// review sends req to the editor as suggestions, the person's to accept
// or reject hunk by hunk, and waits until every hunk is decided, the wait
// ends (the call's context, Options.ReviewTimeout), or the editor goes.
// The result says which hunks were accepted (their change is in the
// editor's buffer, unsaved) and which rejected.
func (s *server) review(ctx context.Context, root *workspace.Root, req *editorlink.Request) (*mcp.CallToolResult, *Report, error) {
	if mode, _ := ParseEditorMode(string(s.opt.Editor)); mode == EditorNever {
		return nil, nil, errors.New("not sent for review: graft mcp runs with --editor never, and a review happens in the editor; nothing changed")
	}
	files := requestFiles(root, req)
	if _, err := editorlink.Lookup(ctx, root.Dir(), files); err != nil {
		if split := (*editorlink.SplitError)(nil); errors.As(err, &split) {
			return nil, nil, fmt.Errorf("not sent for review: %w; nothing changed. An editor reviews the files of its own folder: send the edits of each folder in a call of their own", err)
		}
		return nil, nil, fmt.Errorf("not sent for review: a review needs an editor with this workspace open, running graft serve (%w); nothing changed", err)
	}
	req.Suggest = true
	reply, err := editorlink.Send(ctx, root.Dir(), files, req)
	if err != nil {
		return nil, nil, fmt.Errorf("not sent for review: %w; nothing changed (suggestions apply nothing)", err)
	}
	rep := editorReport(reply)
	var ids []string
	for _, b := range reply.Blocks {
		if b.ID != "" {
			ids = append(ids, b.ID)
		}
	}
	if len(ids) == 0 {
		// Nothing to decide: every block stood already or was refused.
		text := editorText(reply, rep)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: rep.Failed > 0}, rep, nil
	}
	timeout := s.opt.ReviewTimeout
	if timeout <= 0 {
		timeout = defaultReviewTimeout
	}
	wait, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var decided map[string]string
	for {
		d, err := editorlink.Send(wait, root.Dir(), files, &editorlink.Request{Decisions: ids})
		switch {
		case err != nil && wait.Err() == nil:
			return nil, nil, fmt.Errorf("the editor closed, or its graft serve stopped, before the person decided (%w): %s; read the file before you go on",
				err, decisionsSoFar(decided))
		case err == nil:
			decided = d.Decisions
		}
		if err != nil || !slices.Contains(valuesOf(decided), "pending") {
			break
		}
		select {
		case <-wait.Done():
		case <-time.After(reviewPoll):
			continue
		}
		break
	}
	rep.Decisions = decided
	for _, b := range reply.Blocks {
		// A block refused as fitting several places, with an id, waited
		// for the person to choose one: decided, it failed no more.
		if b.ID != "" && engine.Status(b.Status) == engine.StatusFailed && decidedAny(decided, b.ID) {
			rep.Failed--
		}
	}
	text, undecided := reviewText(decided, wait.Err() != nil && ctx.Err() == nil)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: undecided || rep.Failed > 0}, rep, nil
}

// decidedAny reports whether the person accepted or rejected the
// suggestion id, or one of its hunks.
func decidedAny(decided map[string]string, id string) bool {
	for h, d := range decided {
		if (h == id || strings.HasPrefix(h, id+".")) && d != "pending" {
			return true
		}
	}
	return false
}

// valuesOf returns the values of m.
func valuesOf(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// byDecision returns the ids of the hunks with each decision, sorted.
func byDecision(decided map[string]string) map[string][]string {
	out := map[string][]string{}
	for id, d := range decided {
		out[d] = append(out[d], id)
	}
	for _, ids := range out {
		slices.Sort(ids)
	}
	return out
}

// decisionsSoFar says what the person decided before a review ended.
func decisionsSoFar(decided map[string]string) string {
	by := byDecision(decided)
	if len(by["accepted"])+len(by["rejected"]) == 0 {
		return "no hunk was accepted; nothing changed"
	}
	return fmt.Sprintf("accepted so far: %s; rejected: %s", list(by["accepted"]), list(by["rejected"]))
}

// list names ids, or says there are none.
func list(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// reviewText is the text for the model of a review's decisions, and
// whether some hunks were left undecided (timedOut: the wait ran out).
func reviewText(decided map[string]string, timedOut bool) (string, bool) {
	by := byDecision(decided)
	var b strings.Builder
	fmt.Fprintf(&b, "The user reviewed the change in the editor, %d hunk(s): accepted %s; rejected %s.",
		len(decided), list(by["accepted"]), list(by["rejected"]))
	if n := len(by["pending"]); n > 0 {
		why := "the call ended"
		if timedOut {
			why = "the wait for the user ran out"
		}
		fmt.Fprintf(&b, " %d hunk(s) were not decided before %s (%s): they stay shown in the editor, unapplied.", n, why, list(by["pending"]))
	}
	switch {
	case len(by["accepted"]) > 0:
		b.WriteString(" The accepted hunks are in the editor's buffer (unsaved; the editor saves them); the rejected ones were not applied. Read the file before you edit it again.")
	default:
		b.WriteString(" Nothing was applied.")
	}
	return b.String(), len(by["pending"]) > 0
}
