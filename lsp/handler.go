package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"

	segjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// requestCancelled is LSP's error code for a request the client cancelled.
const requestCancelled jsonrpc2.Code = -32800

// A method handles one request or notification: it decodes its params
// and returns the result (nil for a notification).
type method func(ctx context.Context, params json.RawMessage) (any, error)

// methods returns the server's handlers by method name.
func (s *server) methods() map[string]method {
	return map[string]method{
		"initialize":                          s.initialize,
		"initialized":                         s.initialized,
		"shutdown":                            s.shutdown,
		"exit":                                s.exit,
		"workspace/didChangeWorkspaceFolders": s.didChangeWorkspaceFolders,
		"workspace/didChangeConfiguration":    s.didChangeConfiguration,
		"workspace/didChangeWatchedFiles":     s.didChangeWatchedFiles,
		"workspace/executeCommand":            s.executeCommand,
		"textDocument/didOpen":                s.didOpen,
		"textDocument/didChange":              s.didChange,
		"textDocument/didClose":               s.didClose,
		"textDocument/didSave":                s.didSave,
		"textDocument/codeAction":             s.codeAction,
		"textDocument/codeLens":               s.codeLens,
		"$/setTrace":                          ignore,
		methodRouted:                          s.routed,
	}
}

// ignore handles a notification the server has nothing to do for.
func ignore(context.Context, json.RawMessage) (any, error) { return nil, nil }

// handler returns the connection's handler. $/cancelRequest is handled
// at once, as it arrives; every other message goes through
// jsonrpc2.AsyncHandler, which starts each in its own goroutine once the
// one before it has replied, so that messages take effect in order and a
// command can wait for the client's reply to its workspace/applyEdit.
func (s *server) handler() jsonrpc2.Handler {
	methods := s.methods()
	inOrder := jsonrpc2.AsyncHandler(func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		return s.handle(ctx, methods, reply, req)
	})
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == "$/cancelRequest" {
			s.cancelRequest(req.Params())
			return reply(ctx, nil, nil)
		}
		if call, ok := req.(*jsonrpc2.Call); ok {
			// The context is made here, before the call waits for its
			// turn, so that it can be cancelled while it waits.
			key := fmt.Sprintf("%q", call.ID())
			cctx, cancel := context.WithCancel(ctx)
			s.requests.Store(key, cancel)
			ctx = cctx
			inner := reply
			reply = func(ctx context.Context, result any, err error) error {
				defer cancel()
				s.requests.Delete(key)
				return inner(ctx, result, err)
			}
		}
		return inOrder(ctx, reply, req)
	}
}

// handle runs one message's handler and replies to it. A panic in the
// handler becomes an internal error reply and a log line, never a dead
// server.
func (s *server) handle(ctx context.Context, methods map[string]method, reply jsonrpc2.Replier, req jsonrpc2.Request) (err error) {
	_, isCall := req.(*jsonrpc2.Call)
	replied := false
	send := func(result any, rerr error) error {
		replied = true
		if !isCall {
			return reply(ctx, nil, nil) // releases the next message
		}
		return reply(ctx, result, rerr)
	}
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic in handler", zap.String("method", req.Method()),
				zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
			if !replied {
				err = send(nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "graft: internal error in %s: %v", req.Method(), p))
			}
		}
	}()

	if err := ctx.Err(); err != nil && isCall {
		return send(nil, jsonrpc2.NewError(requestCancelled, "request cancelled"))
	}
	m, ok := methods[req.Method()]
	if !ok {
		if !isCall {
			return send(nil, nil) // unknown notifications are ignored, as the spec says
		}
		return send(nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not found: %s", req.Method()))
	}
	if rerr := s.gate(req.Method()); rerr != nil {
		return send(nil, rerr)
	}
	if s.opt.PanicOn == req.Method() {
		panic("injected panic for " + req.Method())
	}
	s.log.Debug("handle", zap.String("method", req.Method()))
	result, herr := m(ctx, req.Params())
	if herr != nil {
		s.log.Info("request failed", zap.String("method", req.Method()), zap.Error(herr))
		if ctx.Err() != nil && isCall {
			herr = jsonrpc2.NewError(requestCancelled, "request cancelled: "+herr.Error())
		}
		var jerr *jsonrpc2.Error
		if !errors.As(herr, &jerr) {
			herr = jsonrpc2.NewError(jsonrpc2.InternalError, herr.Error())
		}
	}
	return send(result, herr)
}

// gate returns the error a message gets in the connection's present
// state, or nil when it may be handled.
func (s *server) gate(method string) *jsonrpc2.Error {
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case method == "exit":
		return nil
	case state == uninitialized && method != "initialize":
		return jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "server not initialized")
	case state != uninitialized && method == "initialize":
		return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize sent twice")
	case state == shutDown:
		return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shut down")
	}
	return nil
}

// cancelRequest cancels the call whose id params name. Numeric ids are
// compared as numbers: jsonrpc2.CancelHandler misses them, as they
// decode as float64.
func (s *server) cancelRequest(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	var key string
	var n json.Number
	var str string
	switch {
	case json.Unmarshal(p.ID, &str) == nil:
		key = strconv.Quote(str)
	case json.Unmarshal(p.ID, &n) == nil:
		i, err := n.Int64()
		if err != nil {
			return
		}
		key = "#" + strconv.FormatInt(i, 10)
	default:
		return
	}
	if cancel, ok := s.requests.Load(key); ok {
		cancel.(context.CancelFunc)()
	}
}

// decode decodes params into v, or returns an InvalidParams error. It
// decodes as encoding/json does, with the decoder jsonrpc2 reads the
// messages with (segmentio/encoding): a didChange comes with each line a
// chat plugin writes and each key a person types, and encoding/json's
// reflection took a tenth of the CPU the server spends on one.
func decode(params json.RawMessage, v any) error {
	if len(params) == 0 || string(params) == "null" {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "missing params")
	}
	if err := segjson.Unmarshal(params, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}
