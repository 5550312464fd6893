package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/internal/jsonutf8"
	"github.com/graft-editor/graft/workspace"
)

// A Router runs requests that reach the server from outside its
// connection (graft apply --editor, graft mcp, through the editor link)
// as graft.apply or graft.suggest, in the same queue as the editor's own
// messages: a routed request waits for the messages before it (a
// didChange above all) and is resolved against the buffers as they are
// when its turn comes, and the edit goes to the editor as a versioned
// workspace/applyEdit, exactly as an executeCommand from the editor does.
//
// cmd/graft passes it the requests of the editor link (see Route).
type Router struct {
	s *server
}

// router serializes the connection's handler, so that the routed
// requests enter the queue that jsonrpc2.AsyncHandler keeps (which is not
// safe for concurrent use) between the messages the connection reads.
type router struct {
	mu  sync.Mutex
	h   jsonrpc2.Handler
	seq atomic.Int64
}

// wrap returns h, made safe to call from the routes as well as from the
// connection's reader.
func (r *router) wrap(h jsonrpc2.Handler) jsonrpc2.Handler {
	r.h = h
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.h(ctx, reply, req)
	}
}

// announceRoots tells Options.Roots the roots the server now serves.
// s.mu is held.
func (s *server) announceRoots() {
	if s.opt.Roots == nil {
		return
	}
	roots := s.docs.Roots()
	dirs := make([]string, len(roots))
	for i, r := range roots {
		dirs[i] = r.Dir()
	}
	s.opt.Roots(dirs, &Router{s: s})
}

// errStopped is the error of a request routed to a server that stopped.
var errStopped = errors.New("the editor's graft serve has stopped")

// A RouteRequest is a request that reaches the server from outside its
// connection: the params of graft.apply, or of graft.suggest when Suggest
// is set (docs/lsp.md). Text and Edits are UTF-8.
type RouteRequest struct {
	// Text holds edit blocks in any dialect.
	Text string
	// Edits are str-replace objects.
	Edits []json.RawMessage
	// URI is the target of blocks that name no file (a file:// URI).
	URI string
	// Atomic applies nothing unless every block resolves.
	Atomic bool
	// Format forces a dialect.
	Format string
	// Suggest shows the blocks as pending suggestions instead of
	// applying them.
	Suggest bool
	// Decisions, when set, asks only how the person decided the hunks of
	// the suggestions it names (see suggestions.Decisions): a review that
	// an agent waits for. Nothing else is done.
	Decisions []string
}

// A RouteReply is the reply to a RouteRequest: graft.apply's, or
// graft.suggest's.
type RouteReply struct {
	// Applied says the editor applied the edit (graft.apply); false for
	// suggestions, which apply nothing.
	Applied bool
	// FailureReason is why the editor did not apply the edit, if it said.
	FailureReason string
	// Blocks report each block, as graft.apply and graft.suggest do.
	Blocks []RouteBlock
	// Suggestions are the pending suggestions a Suggest request made,
	// each as graft.suggestions lists it, in JSON.
	Suggestions []json.RawMessage
	// Decisions answers a request's Decisions: each hunk's id with
	// "accepted", "rejected" or "pending".
	Decisions map[string]string
}

// A RouteBlock is a block's entry in a RouteReply.
type RouteBlock struct {
	workspace.BlockReport
	// URI is the document the block names, as the editor spells it.
	URI string
	// Range is the region the block changed or would change, in the
	// document; nil when there is none.
	Range *protocol.Range
	// ID names the suggestion the block became (Suggest requests only).
	ID string
}

// Route runs req, for the workspace root root (one the server serves, as
// Options.Roots named it, a folder in one: graft apply run there, or a
// folder that holds some: graft apply run at the top of a repository
// whose folder the editor has open), as
// graft.suggest when req.Suggest is set and as graft.apply otherwise, and
// returns the command's reply. When the editor refuses the whole edit as
// made for a buffer version it no longer has (the person typed meanwhile)
// and applied none of it, the request is resolved again against the
// buffers as they are, up to three times in all; an edit is never sent
// for a version it was not computed for.
//
// The request is confined to root: its relative names resolve there,
// even when another folder of the editor has a file of the same name; a
// block naming a file outside root (in another folder of the editor's
// too, or through a symbolic link) fails as outside the workspace root,
// as on the disk; and the report gives paths relative to root. A request
// for a folder that holds the server's roots is confined to those roots:
// its names relative to that folder, a file outside them refused as
// outside the workspace root.
func (r *Router) Route(ctx context.Context, root string, req *RouteRequest) (*RouteReply, error) {
	s := r.s
	select {
	case <-s.conn.Done():
		return nil, errStopped
	default:
	}
	if len(req.Decisions) > 0 {
		// The person's decisions are the server's own state: no buffer
		// is read, nothing waits for the queue.
		return &RouteReply{Blocks: []RouteBlock{}, Decisions: s.suggestions.Decisions(req.Decisions)}, nil
	}
	call := &routedCall{
		command: cmdApply,
		params:  commandParams{Text: req.Text, Edits: req.Edits, URI: req.URI, Atomic: req.Atomic, Format: req.Format, Root: root},
	}
	if req.Suggest {
		call.command = cmdSuggest
	}
	if err := s.checkRouteRoot(root); err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		v, err := r.run(ctx, call)
		if err != nil {
			return nil, err
		}
		switch out := v.(type) {
		case *applyResult:
			if attempt == routeAttempts || !stale(out) {
				return applyReply(out), nil
			}
			s.log.Info("routed edit refused by the editor as stale; resolving it again against the buffers",
				zap.Int("attempt", attempt), zap.String("reason", out.FailureReason))
		case *suggestResult:
			return suggestReply(out)
		default:
			return nil, fmt.Errorf("reply of %s: unexpected %T", call.command, v)
		}
	}
}

// routeAttempts bounds the times a routed graft.apply is resolved: the
// editor refuses an edit made for a buffer version it no longer has, and
// the request is then resolved again against the buffers as they are.
const routeAttempts = 3

// stale reports whether the editor refused every edit of a graft.apply
// reply and applied none, as it does with an edit computed for a version
// of a buffer that changed meanwhile: then resolving the request again
// is safe, since nothing of it landed.
func stale(out *applyResult) bool {
	if out.Applied || out.FailureReason == "" {
		return false
	}
	refused := false
	for _, b := range out.Blocks {
		if b.Status == string(engine.StatusApplied) {
			return false
		}
		refused = refused || b.refused
	}
	return refused
}

// applyReply returns graft.apply's reply as a RouteReply.
func applyReply(out *applyResult) *RouteReply {
	rep := &RouteReply{Applied: out.Applied, FailureReason: out.FailureReason, Blocks: make([]RouteBlock, len(out.Blocks))}
	for i, b := range out.Blocks {
		rep.Blocks[i] = routeBlock(b, "")
	}
	return rep
}

// suggestReply returns graft.suggest's reply as a RouteReply.
func suggestReply(out *suggestResult) (*RouteReply, error) {
	rep := &RouteReply{Blocks: make([]RouteBlock, len(out.Blocks)), Suggestions: make([]json.RawMessage, len(out.Suggestions))}
	for i, b := range out.Blocks {
		rep.Blocks[i] = routeBlock(b.blockReport, b.ID)
	}
	for i, sg := range out.Suggestions {
		data, err := json.Marshal(sg)
		if err != nil {
			return nil, fmt.Errorf("suggestion %s: %w", sg.ID, err)
		}
		rep.Suggestions[i] = data
	}
	return rep, nil
}

// routeBlock returns the entry of b, which became suggestion id (if any),
// in a RouteReply.
func routeBlock(b blockReport, id string) RouteBlock {
	return RouteBlock{BlockReport: b.BlockReport, URI: string(b.URI), Range: b.Range, ID: id}
}

// A routedCall is a request a Router put in the connection's queue: the
// command to run and its params. It travels in the context of a call of
// methodRouted, whose handler runs the command with it.
type routedCall struct {
	command string
	params  commandParams
}

// routedCallKey is the context key of a routedCall.
type routedCallKey struct{}

// routedCallOf returns the routedCall ctx carries: the request an agent
// sent through the editor link that ctx runs; nil for the editor's own.
func routedCallOf(ctx context.Context) *routedCall {
	call, _ := ctx.Value(routedCallKey{}).(*routedCall)
	return call
}

// methodRouted is the method of the calls a Router puts in the queue. A
// client that sends it is answered as for any method the server does not
// have: only the Router's calls carry a routedCall.
const methodRouted = "graft/routed"

// routed handles a call of methodRouted: it runs the routedCall in ctx,
// with its typed params, and returns the command's typed result.
func (s *server) routed(ctx context.Context, _ json.RawMessage) (any, error) {
	call := routedCallOf(ctx)
	if call == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", methodRouted)
	}
	if err := refuseNotUTF8Params(call.params); err != nil {
		return nil, err
	}
	if call.command == cmdSuggest {
		return s.suggestions.suggest(ctx, call.params)
	}
	return s.apply(ctx, call.params, nil)
}

// refuseNotUTF8Params returns an InvalidParams error when the text of cp
// is not UTF-8, or when one of its edits (JSON as it came over the wire)
// holds text that is not, as graft.apply refuses an argument that is
// not: decoded, the bad bytes would become U+FFFD in the files.
func refuseNotUTF8Params(cp commandParams) error {
	const refusal = "%s: not valid UTF-8 (%v): graft will not write U+FFFD in place of the bytes; send the answer as UTF-8"
	if err := checkUTF8(cp.Text); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, refusal, "text", err)
	}
	for _, e := range cp.Edits {
		if err := jsonutf8.Check(e); err != nil {
			return jsonrpc2.Errorf(jsonrpc2.InvalidParams, refusal, "edits", err)
		}
	}
	return nil
}

// checkUTF8 returns a *jsonutf8.Error naming the first byte of text that
// is not UTF-8, or nil when it all is.
func checkUTF8(text string) error {
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			return &jsonutf8.Error{Offset: i, Line: 1 + strings.Count(text[:i], "\n"), Byte: text[i]}
		}
		i += size
	}
	return nil
}

// run runs call once, in the connection's queue, and returns the
// command's result.
//
// The end of ctx (the client hung up, was interrupted, or its time ran
// out) drops the call while it waits for its turn, and stops it while it
// resolves; but once its edit has been sent to the editor (see sending),
// the call runs to its end, whatever ctx does: the editor applies the
// edit, and the server goes on as for any edit the editor applied. run
// then returns at once, saying that the edit was sent, and the call's
// reply, which nobody waits for, is dropped.
func (r *Router) run(ctx context.Context, call *routedCall) (any, error) {
	s := r.s
	id := jsonrpc2.NewStringID(fmt.Sprintf("graft/route#%d", s.route.seq.Add(1)))
	req, err := jsonrpc2.NewCall(id, methodRouted, nil)
	if err != nil {
		return nil, err
	}
	hctx, g, release := s.routeContext(ctx)
	hctx = context.WithValue(hctx, routedCallKey{}, call)
	type result struct {
		v   any
		err error
	}
	done := make(chan result, 1)
	reply := func(_ context.Context, v any, err error) error {
		switch {
		case g.sent.Load() && ctx.Err() != nil:
			s.log.Info("routed request finished after its client went away; its reply is dropped", zap.String("id", fmt.Sprint(id)))
		case ctx.Err() != nil:
			s.log.Info("routed request dropped: its client went away before its edit was sent", zap.String("id", fmt.Sprint(id)), zap.Error(context.Cause(ctx)))
		}
		release()
		done <- result{v, err}
		return nil
	}
	if err := s.route.enqueue(hctx, reply, req); err != nil {
		release()
		return nil, err
	}
	s.log.Debug("routed request queued", zap.String("id", fmt.Sprint(id)), zap.String("command", call.command))
	var res result
	select {
	case res = <-done:
	case <-s.conn.Done():
		return nil, errStopped
	case <-ctx.Done():
		if g.sent.Load() {
			return nil, fmt.Errorf("the edit was sent to the editor, which had not answered when the request ended (%w): it may have applied it", context.Cause(ctx))
		}
		return nil, fmt.Errorf("waiting for the editor: %w", context.Cause(ctx))
	}
	if res.err != nil {
		return nil, res.err
	}
	return res.v, nil
}

// A routeGuard holds a routed call to ctx's end until its edit is sent.
type routeGuard struct {
	// stop stops ctx's end from cancelling the call's context.
	stop func() bool
	// sent says the edit was sent to the editor: the call's context no
	// longer follows ctx.
	sent atomic.Bool
}

// routeGuardKey is the context key of a routed call's routeGuard.
type routeGuardKey struct{}

// routeContext returns the context a routed call is handled in: it ends
// with ctx until the call's edit is sent to the editor (see sending), and
// with the connection whatever happens (a call waiting for the editor's
// answer then gets none). release ends it, once the call has replied.
func (s *server) routeContext(ctx context.Context) (hctx context.Context, g *routeGuard, release func()) {
	// Not hctx, the result, which the return sets while the goroutine
	// reads this.
	cctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	g = &routeGuard{stop: context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })}
	go func() {
		select {
		case <-s.conn.Done():
			cancel(errStopped)
		case <-cctx.Done():
		}
	}()
	return context.WithValue(cctx, routeGuardKey{}, g), g, func() {
		g.stop()
		cancel(nil)
	}
}

// sending is called just before the edit of a command handled in ctx is
// sent to the editor. It reports whether the edit may be sent: not when
// ctx has ended. For a routed call it detaches ctx, for good, from the
// end of the request that the call runs for: an edit that was sent is
// followed through (the editor's answer awaited, the buffers it changed
// verified, the person told), so that the request is either not applied
// at all or applied whole, never left half-done.
func sending(ctx context.Context) bool {
	if g, ok := ctx.Value(routeGuardKey{}).(*routeGuard); ok && !g.sent.Load() {
		// Marked sent first: run, seeing the request end meanwhile, then
		// says the edit may have been applied, never that it was not.
		g.sent.Store(true)
		if !g.stop() {
			g.sent.Store(false)
			return false // the request ended: its context is being cancelled
		}
	}
	return ctx.Err() == nil
}

// enqueue hands a routed call to the serialized handler, which queues it
// after the messages the connection read before it.
func (r *router) enqueue(ctx context.Context, reply jsonrpc2.Replier, call *jsonrpc2.Call) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.h == nil {
		return errStopped
	}
	return r.h(ctx, reply, call)
}

// checkRouteRoot returns an error when root is neither one of the
// server's roots, nor a folder in one, nor a folder that holds one.
func (s *server) checkRouteRoot(root string) error {
	for _, r := range s.docs.Roots() {
		if _, holds := workspace.Within(root, r.Dir()); holds || r.Contains(root) {
			return nil
		}
	}
	return fmt.Errorf("this graft serve no longer serves %s", root)
}
