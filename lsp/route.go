package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"

	"github.com/graft-editor/graft/engine"

	"github.com/graft-editor/graft/editorlink"
)

// A Router runs requests that reach the server from outside its
// connection (graft apply --editor, graft mcp, through the editor link)
// as graft.apply or graft.suggest, in the same queue as the editor's own
// messages: a routed request waits for the messages before it (a
// didChange above all) and is resolved against the buffers as they are
// when its turn comes, and the edit goes to the editor as a versioned
// workspace/applyEdit, exactly as an executeCommand from the editor does.
//
// Its Route method is an editorlink.Handler.
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

// notAppliedByEditor starts the message of a block whose edit the editor
// refused (see server.send).
const notAppliedByEditor = "not applied by the editor"

// errStopped is the error of a request routed to a server that stopped.
var errStopped = errors.New("the editor's graft serve has stopped")

// Route runs req, for the workspace root root (one the server serves, as
// Options.Roots named it), as graft.suggest when req.Suggest is set and
// as graft.apply otherwise, and returns the command's reply. When the
// editor refuses the whole edit as made for a buffer version it no longer
// has (the person typed meanwhile) and applied none of it, the request is
// resolved again against the buffers as they are, up to three times in
// all; an edit is never sent for a version it was not computed for.
//
// The request is confined to root: its relative names resolve there,
// even when another folder of the editor has a file of the same name; a
// block naming a file outside root (in another folder of the editor's
// too, or through a symbolic link) fails as outside the workspace root,
// as on the disk; and the report gives paths relative to root.
func (r *Router) Route(ctx context.Context, root string, req *editorlink.Request) (*editorlink.Reply, error) {
	s := r.s
	select {
	case <-s.conn.Done():
		return nil, errStopped
	default:
	}
	cp := commandParams{Text: req.Text, Edits: req.Edits, URI: req.URI, Atomic: req.Atomic, Format: req.Format, Root: root}
	if err := s.checkRouteRoot(root); err != nil {
		return nil, err
	}
	command := cmdApply
	if req.Suggest {
		command = cmdSuggest
	}
	for attempt := 1; ; attempt++ {
		out, err := r.run(ctx, command, cp)
		if err != nil || attempt == routeAttempts || !stale(out) {
			return out, err
		}
		s.log.Info("routed edit refused by the editor as stale; resolving it again against the buffers",
			zap.Int("attempt", attempt), zap.String("reason", out.FailureReason))
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
func stale(out *editorlink.Reply) bool {
	if out.Applied || out.FailureReason == "" {
		return false
	}
	refused := false
	for _, b := range out.Blocks {
		if b.Status == string(engine.StatusApplied) {
			return false
		}
		refused = refused || strings.HasPrefix(b.Message, notAppliedByEditor)
	}
	return refused
}

// run runs cp as command, once, in the connection's queue.
//
// The end of ctx (the client hung up, was interrupted, or its time ran
// out) drops the call while it waits for its turn, and stops it while it
// resolves; but once its edit has been sent to the editor (see sending),
// the call runs to its end, whatever ctx does: the editor applies the
// edit, and the server goes on as for any edit the editor applied. run
// then returns at once, saying that the edit was sent, and the call's
// reply, which nobody waits for, is dropped.
func (r *Router) run(ctx context.Context, command string, cp commandParams) (*editorlink.Reply, error) {
	s := r.s
	arg, err := json.Marshal(cp)
	if err != nil {
		return nil, err
	}
	params, err := json.Marshal(map[string]any{"command": command, "arguments": []json.RawMessage{arg}})
	if err != nil {
		return nil, err
	}
	id := jsonrpc2.NewStringID(fmt.Sprintf("graft/route#%d", s.route.seq.Add(1)))
	call, err := jsonrpc2.NewCall(id, "workspace/executeCommand", json.RawMessage(params))
	if err != nil {
		return nil, err
	}
	hctx, g, release := s.routeContext(ctx)
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
	if err := s.route.enqueue(hctx, reply, call); err != nil {
		release()
		return nil, err
	}
	s.log.Debug("routed request queued", zap.String("id", fmt.Sprint(id)), zap.String("command", command))
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
	data, err := json.Marshal(res.v)
	if err != nil {
		return nil, err
	}
	var out editorlink.Reply
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("reply of %s: %w", command, err)
	}
	if out.Blocks == nil {
		out.Blocks = []editorlink.Block{}
	}
	return &out, nil
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
	hctx, cancel := context.WithCancelCause(context.WithoutCancel(ctx))
	g = &routeGuard{stop: context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })}
	go func() {
		select {
		case <-s.conn.Done():
			cancel(errStopped)
		case <-hctx.Done():
		}
	}()
	return context.WithValue(hctx, routeGuardKey{}, g), g, func() {
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

// checkRouteRoot returns an error when root is not one of the server's
// roots.
func (s *server) checkRouteRoot(root string) error {
	if folder(s.docs.View(), root) == nil {
		return fmt.Errorf("this graft serve no longer serves %s", root)
	}
	return nil
}
