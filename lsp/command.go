package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/workspace"
)

// commandParams are the params of graft.apply, graft.preview and
// graft.suggest (docs/lsp.md), with three additions for the code actions of
// answer buffers: Answer, Blocks and At.
type commandParams struct {
	// Text holds edit blocks in any dialect.
	Text string `json:"text"`
	// Edits are str-replace objects.
	Edits []json.RawMessage `json:"edits"`
	// URI is the target of blocks that name no file.
	URI string `json:"uri"`
	// Atomic applies nothing unless every block resolves.
	Atomic bool `json:"atomic"`
	// Format forces a dialect.
	Format string `json:"format"`
	// Root, when set, is the workspace folder, or the folder inside one,
	// the blocks are confined to (its real path): a relative name is
	// resolved in it rather than in the first folder that has it, and a
	// block naming a file out of it (another folder's included) fails as
	// outside the workspace root, as it does on the disk route. Requests
	// routed from graft apply and graft mcp set it to the root they were
	// run in, which may also be a folder that holds workspace folders:
	// names are then relative to it, and confined to the folders inside
	// it.
	Root string `json:"root,omitempty"`
	// Answer names an open document whose edit blocks are the text, at
	// the version the command was made for.
	Answer *answerRef `json:"answer"`
	// Blocks, with Answer, picks some of its blocks by index.
	Blocks []int `json:"blocks"`
	// At, with Answer and one of its Blocks, is the line of the block's
	// file where the person chose to apply it: one of the places a block
	// refused as ambiguous resembles equally. It is the block's line
	// hint, which picks that place.
	At int `json:"at,omitempty"`
}

// An answerRef names an open document holding an agent's answer.
type answerRef struct {
	URI     string `json:"uri"`
	Version int32  `json:"version"`
	// Starts, in an action the server offered, are the first lines of
	// the blocks it runs over (of every block when it picks none), as the
	// server read the answer then: the command finds the same blocks at
	// that version, or runs none.
	Starts []int `json:"starts,omitempty"`
	// blocks are the blocks of the answer as the server read it, for the
	// actions it offers.
	blocks []blockState
}

// startsOf returns the first lines of the blocks picked of r's answer, of
// all of them when picked is nil.
func (r *answerRef) startsOf(picked []int) []int {
	if picked == nil {
		out := make([]int, len(r.blocks))
		for i, b := range r.blocks {
			out[i] = b.span.StartLine
		}
		return out
	}
	out := make([]int, len(picked))
	for k, i := range picked {
		if i >= 0 && i < len(r.blocks) {
			out[k] = r.blocks[i].span.StartLine
		}
	}
	return out
}

// check reports an error when the blocks picked of all, the answer's
// blocks as the command read them, do not start where r says the server
// read them when it offered the action.
func (r *answerRef) check(all []dialect.Block, picked []int) error {
	if r.Starts == nil {
		return nil
	}
	ok := len(r.Starts) == len(picked)
	if picked == nil {
		ok = len(r.Starts) == len(all)
	}
	for k, start := range r.Starts {
		i := k
		if picked != nil && k < len(picked) {
			i = picked[k]
		}
		ok = ok && i >= 0 && i < len(all) && all[i].Source.StartLine == start
	}
	if !ok {
		return fmt.Errorf("the answer %s does not read as it did when this action was offered: ask for the actions again", r.URI)
	}
	return nil
}

// blockReport is a block's entry in a command's reply: the report of
// graft apply --json, with the document and the LSP range of the region.
type blockReport struct {
	workspace.BlockReport
	URI   protocol.DocumentURI `json:"uri,omitempty"`
	Range *protocol.Range      `json:"range,omitempty"`
	// refused says the editor refused the block's edit (an
	// *editorRefusal), which the reply shows only in the message.
	refused bool
}

// applyResult is the reply to graft.apply.
type applyResult struct {
	Applied       bool          `json:"applied"`
	FailureReason string        `json:"failureReason,omitempty"`
	Blocks        []blockReport `json:"blocks"`
}

// previewResult is the reply to graft.preview.
type previewResult struct {
	Edit   workspaceEdit `json:"edit"`
	Diff   string        `json:"diff"`
	Blocks []blockReport `json:"blocks"`
}

// A plan is an answer resolved against a frozen view of the documents.
type plan struct {
	view   *workspace.View
	blocks []dialect.Block
	res    *workspace.Result
}

func (s *server) executeCommand(ctx context.Context, raw json.RawMessage) (any, error) {
	var p struct {
		Command       string            `json:"command"`
		Arguments     []json.RawMessage `json:"arguments"`
		WorkDoneToken json.RawMessage   `json:"workDoneToken"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	var arg json.RawMessage
	if len(p.Arguments) > 0 {
		arg = p.Arguments[0]
	}
	switch p.Command {
	case cmdApply, cmdPreview, cmdSuggest:
		var cp commandParams
		if err := decode(arg, &cp); err != nil {
			return nil, err
		}
		if err := refuseNotUTF8(arg); err != nil {
			return nil, err
		}
		switch p.Command {
		case cmdApply:
			return s.apply(ctx, cp, p.WorkDoneToken)
		case cmdPreview:
			return s.preview(ctx, cp)
		default:
			return s.suggestions.suggest(ctx, cp)
		}
	case cmdSuggestions:
		return s.suggestions.list(arg)
	case cmdDismiss:
		return s.suggestions.reject(ctx, arg, p.Command)
	case cmdApplySuggestion:
		return s.suggestions.accept(ctx, arg, p.Command)
	case cmdAccept:
		return s.suggestions.accept(ctx, arg, p.Command)
	case cmdReject:
		return s.suggestions.reject(ctx, arg, p.Command)
	case cmdChoose:
		return s.suggestions.choose(ctx, arg)
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q (known: %s)", p.Command, strings.Join(commands, ", "))
}

// parse returns the blocks the params hold, reading the file names they
// give in view.
func (s *server) parse(cp commandParams, view *workspace.View) ([]dialect.Block, error) {
	opt := dialect.Options{Format: cp.Format, Exists: view.Exists}
	if cp.URI != "" {
		path, err := uriPath(cp.URI)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "uri: %v", err)
		}
		opt.Target = path
	}
	var blocks []dialect.Block
	if cp.Answer != nil {
		d, err := s.doc(cp.Answer.URI)
		if err != nil {
			return nil, err
		}
		snap, err := d.buf.Snapshot()
		if err != nil {
			return nil, err
		}
		if snap.Version != cp.Answer.Version {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams,
				"the answer %s changed since this action was offered (version %d, now %d): ask for the actions again",
				cp.Answer.URI, cp.Answer.Version, snap.Version)
		}
		all, err := dialect.Parse(snap.Text, opt)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "answer %s: %v", cp.Answer.URI, err)
		}
		if err := cp.Answer.check(all, cp.Blocks); err != nil {
			s.log.Warn("answer command", zap.Error(err))
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
		}
		if len(cp.Blocks) == 0 {
			blocks = all
		}
		for _, i := range cp.Blocks {
			if i < 0 || i >= len(all) {
				return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "answer %s has no block %d", cp.Answer.URI, i)
			}
			blocks = append(blocks, all[i])
		}
		if cp.At != 0 {
			if len(cp.Blocks) != 1 || cp.At < 0 {
				return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "at: a line, 1 or more, for one block of the answer")
			}
			blocks[0].Line = cp.At
		}
	}
	if strings.TrimSpace(cp.Text) != "" {
		b, err := dialect.Parse(cp.Text, opt)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "text: %v", err)
		}
		blocks = append(blocks, b...)
	}
	if len(cp.Edits) > 0 {
		text, err := json.Marshal(cp.Edits)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "edits: %v", err)
		}
		opt.Format = dialect.StrReplace
		b, err := dialect.Parse(string(text), opt)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "edits: %v", err)
		}
		blocks = append(blocks, b...)
	}
	if len(blocks) == 0 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "no edit blocks: give text, edits or answer")
	}
	return blocks, nil
}

// view returns the documents as they are now, as the blocks of cp see
// them: within cp.Root when it is set, or under it when it holds
// workspace folders.
func (s *server) view(cp commandParams) (*workspace.View, error) {
	view := s.docs.View()
	if cp.Root == "" {
		return view, nil
	}
	if under, ok := view.Under(cp.Root); ok && !inFolder(view, cp.Root) {
		return under, nil
	}
	root, err := s.subs.within(view, cp.Root)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "root %v", err)
	}
	return view.Within(root), nil
}

// inFolder reports whether dir is a workspace folder of view or lies in
// one.
func inFolder(view *workspace.View, dir string) bool {
	return slices.ContainsFunc(view.Roots(), func(r *workspace.Root) bool { return r.Contains(dir) })
}

// folder returns the root of view whose directory is dir, or nil.
func folder(view *workspace.View, dir string) *workspace.Root {
	for _, r := range view.Roots() {
		if r.Dir() == dir {
			return r
		}
	}
	return nil
}

// plan resolves the blocks of cp against the documents as they are now.
func (s *server) plan(ctx context.Context, cp commandParams, progress func(done, total int)) (*plan, error) {
	view, err := s.view(cp)
	if err != nil {
		return nil, err
	}
	blocks, err := s.parse(cp, view)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	threshold := s.settings.Threshold
	caps := s.caps
	s.mu.Unlock()
	res, err := workspace.Plan(ctx, view, blocks, workspace.PlanOptions{
		Engine:   engine.Options{Threshold: threshold},
		Progress: progress,
		History:  s.history,
		Prepared: &s.prepared,
	})
	if err != nil {
		return nil, err
	}
	refuseUnsupported(res, caps)
	if cp.Atomic {
		res.Withhold()
	}
	// The blocks picked from an answer come first, and are numbered as the
	// answer numbers them, in the reply and in what the person is shown.
	if cp.Answer != nil {
		for k, i := range cp.Blocks {
			res.Blocks[k].Index = i
		}
	}
	return &plan{view: view, blocks: blocks, res: res}, nil
}

// reports returns the block entries of a reply.
func (s *server) reports(p *plan) []blockReport {
	out := make([]blockReport, len(p.res.Blocks))
	for i := range p.res.Blocks {
		b := &p.res.Blocks[i]
		out[i].BlockReport = b.Report()
		out[i].refused = errors.As(b.Err, new(*editorRefusal))
		abs := b.Abs()
		if abs == "" {
			continue
		}
		out[i].URI = fileURI(abs)
		if snap, ok := p.view.Snapshot(abs); ok {
			out[i].URI = s.uriOf(snap.Path)
		}
		// The region a block landed on; for a block that failed, the best
		// candidate, where a client shows the refusal.
		start, end := b.StartLine, b.EndLine
		var e *engine.Error
		if start <= 0 && errors.As(b.Err, &e) && len(e.Candidates) > 0 {
			start, end = e.Candidates[0].StartLine, e.Candidates[0].EndLine
		}
		if start > 0 {
			out[i].Range = &protocol.Range{
				Start: protocol.Position{Line: uint32(start - 1)},
				End:   protocol.Position{Line: uint32(max(end, start))},
			}
		}
	}
	return out
}

// preview is graft.preview: the plan and its edit, nothing sent.
func (s *server) preview(ctx context.Context, cp commandParams) (*previewResult, error) {
	p, err := s.plan(ctx, cp, nil)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	we, _, err := buildEdit(p.view, p.res, caps, s.uriOf)
	if err != nil {
		return nil, err
	}
	var diff strings.Builder
	for i := range p.res.Files {
		diff.WriteString(p.res.Files[i].Diff())
	}
	if cp.Answer != nil {
		s.answers.showPreview(ctx, p, diff.String())
	}
	return &previewResult{Edit: we, Diff: diff.String(), Blocks: s.reports(p)}, nil
}

// apply is graft.apply: the plan, sent to the client as one
// WorkspaceEdit, and what the client made of it.
func (s *server) apply(ctx context.Context, cp commandParams, token json.RawMessage) (*applyResult, error) {
	prog := s.startProgress(ctx, token, "Graft: applying edit blocks")
	defer prog.end(ctx, "")
	p, err := s.plan(ctx, cp, prog.report(ctx))
	if err != nil {
		return nil, err
	}
	label := "Graft: 1 edit block"
	if n := dialect.Count(p.blocks); n != 1 {
		label = fmt.Sprintf("Graft: %d edit blocks", n)
	}
	if routedCallOf(ctx) != nil {
		// The editor may show whose edit it applies.
		label = strings.Replace(label, "Graft: ", agentLabel, 1)
	}
	out, err := s.send(ctx, p, label)
	if err != nil {
		return nil, err
	}
	s.summarize(ctx, p)
	out.Blocks = s.reports(p)
	return out, nil
}

// send sends the edit of plan p to the client and records in p.res what
// the client did not apply.
func (s *server) send(ctx context.Context, p *plan, label string) (*applyResult, error) {
	s.mu.Lock()
	caps := s.caps
	s.mu.Unlock()
	we, files, err := buildEdit(p.view, p.res, caps, s.uriOf)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		// Nothing to send: the edit stands when every block applied or
		// stood already.
		return &applyResult{Applied: p.res.Count(engine.StatusApplied) > 0 || p.res.OK()}, nil
	}
	if !caps.applyEdit {
		err := errors.New("the editor does not support workspace/applyEdit; nothing applied")
		for _, fe := range files {
			p.res.Fail(fe.file, err)
		}
		return &applyResult{Applied: false, FailureReason: err.Error()}, nil
	}
	if !sending(ctx) {
		return nil, fmt.Errorf("not sent to the editor: %w", context.Cause(ctx))
	}
	var reply applyEditResult
	if _, err := s.conn.Call(ctx, "workspace/applyEdit", applyEditParams{Label: label, Edit: we}, &reply); err != nil {
		return nil, fmt.Errorf("workspace/applyEdit: %w", err)
	}
	s.log.Info("applyEdit", zap.Bool("applied", reply.Applied), zap.String("reason", reply.FailureReason))
	if !reply.Applied {
		reason := reply.FailureReason
		if reason == "" {
			reason = "the editor did not apply the edit"
		}
		for _, fe := range files {
			if !appliedDespiteFailure(fe, reply, caps.failureHandling) {
				p.res.Fail(fe.file, &editorRefusal{reason: reason})
			}
		}
		return &applyResult{Applied: false, FailureReason: reason}, nil
	}
	for _, fe := range files {
		f := &p.res.Files[fe.file]
		if f.Exists {
			s.verifier.expect(fe.uri, fe.after)
		}
		if f.Changed {
			// What the edit replaced, and what it made, under the name
			// the file has after it: a block quoting either later, at
			// lines changed since, is stale.
			s.history.Record(f.AbsAfter(), f.Before, f.TextAfter())
			s.journals.record(s.docs.Roots(), f.AbsAfter(), f.Before, f.TextAfter())
		}
	}
	return &applyResult{Applied: true}, nil
}

// worstFirst orders the statuses from the worst to the best: a block of
// several files (an apply-patch) has the status of its worst file.
var worstFirst = []engine.Status{engine.StatusFailed, engine.StatusSkipped, engine.StatusApplied, engine.StatusAlreadyApplied}

// shownCounts counts the blocks by status as the person counts the
// answer's blocks: the files of one apply-patch share its number and are
// one block, with the status of its worst file (a status worstFirst does
// not name counts as the worst). A block without a number (0) is one of
// its own.
func shownCounts(blocks []workspace.BlockResult) map[engine.Status]int {
	rank := func(s engine.Status) int { return slices.Index(worstFirst, s) }
	byNumber := map[int]engine.Status{}
	n := map[engine.Status]int{}
	for _, b := range blocks {
		if b.Number <= 0 {
			n[b.Status]++
			continue
		}
		if seen, ok := byNumber[b.Number]; !ok || rank(b.Status) < rank(seen) {
			byNumber[b.Number] = b.Status
		}
	}
	for _, st := range byNumber {
		n[st]++
	}
	return n
}

// An editorRefusal is the error of a block whose edit the editor did not
// apply.
type editorRefusal struct {
	// reason is why, as the editor said or as the server puts it when
	// the editor did not say.
	reason string
}

func (e *editorRefusal) Error() string { return workspace.ErrNotApplied.Error() + ": " + e.reason }

// Unwrap makes the refusal workspace.ErrNotApplied, which reports give the
// reason "not-applied".
func (e *editorRefusal) Unwrap() error { return workspace.ErrNotApplied }

// appliedDespiteFailure reports whether the changes of fe were applied
// although the client did not apply the whole edit: only with the "abort"
// failure handling, for the changes before the one that failed.
func appliedDespiteFailure(fe fileEdit, reply applyEditResult, failureHandling string) bool {
	if failureHandling != "abort" || reply.FailedChange == nil || len(fe.changes) == 0 {
		return false
	}
	return fe.changes[len(fe.changes)-1] < *reply.FailedChange
}

// agentLabel opens the label of a workspace/applyEdit that carries an
// agent's answer, routed through the editor link ("Graft: an agent's
// answer, 1 edit block"): docs/lsp.md.
const agentLabel = "Graft: an agent's answer, "

// appliedFiles names the files the applied blocks changed, the first
// three and how many more.
func appliedFiles(blocks []workspace.BlockResult) string {
	var names []string
	for _, r := range blocks {
		if r.Status == engine.StatusApplied && r.Path != "" && !slices.Contains(names, r.Path) {
			names = append(names, r.Path)
		}
	}
	if len(names) > 3 {
		return fmt.Sprintf("%s and %d more", strings.Join(names[:3], ", "), len(names)-3)
	}
	return strings.Join(names, ", ")
}

// summarize shows the person what the blocks did: "3 applied, 1 failed:
// block 4 in a.go: ...", or "2 already applied" when they changed nothing
// because their change stood already. An answer an agent sent through the
// editor link says so first, and which files it changed ("an agent's
// answer: 1 applied to a.go"): the person did not ask for it, and sees
// their buffers change.
func (s *server) summarize(ctx context.Context, p *plan) {
	res := p.res
	n := shownCounts(res.Blocks)
	applied, already := n[engine.StatusApplied], n[engine.StatusAlreadyApplied]
	failed, skipped := n[engine.StatusFailed], n[engine.StatusSkipped]
	var b strings.Builder
	b.WriteString("Graft: ")
	to := ""
	if routedCallOf(ctx) != nil {
		b.WriteString("an agent's answer: ")
		if files := appliedFiles(res.Blocks); files != "" {
			to = " to " + files
		}
	}
	switch {
	case applied == 0 && already > 0:
		fmt.Fprintf(&b, "%d already applied", already)
	case already > 0:
		fmt.Fprintf(&b, "%d applied%s, %d already applied", applied, to, already)
	default:
		fmt.Fprintf(&b, "%d applied%s", applied, to)
	}
	if failed > 0 {
		fmt.Fprintf(&b, ", %d failed", failed)
	}
	if skipped > 0 {
		fmt.Fprintf(&b, ", %d skipped", skipped)
	}
	typ := protocol.MessageTypeInfo
	for _, r := range res.Blocks {
		if r.Status == engine.StatusFailed {
			typ = protocol.MessageTypeWarning
			first, _, _ := strings.Cut(r.Message, "\n")
			fmt.Fprintf(&b, ": block %d (%s): %s", r.Number, r.Path, first)
			break
		}
	}
	s.showMessage(ctx, typ, b.String())
}
