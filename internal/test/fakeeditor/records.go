package fakeeditor

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// ShowMessage is a window/showMessage notification.
type ShowMessage = protocol.ShowMessageParams

// LogMessage is a window/logMessage notification.
type LogMessage = protocol.LogMessageParams

// Progress is one $/progress notification.
type Progress struct {
	// Token is the progress token as sent (a number or a string).
	Token json.RawMessage
	// Value is the work-done progress value, decoded.
	Value ProgressValue
	// Raw is the whole params object.
	Raw json.RawMessage
}

// ProgressValue is the value of a work-done $/progress notification.
type ProgressValue struct {
	Kind        string  `json:"kind"` // "begin", "report" or "end"
	Title       string  `json:"title,omitempty"`
	Message     string  `json:"message,omitempty"`
	Percentage  *uint32 `json:"percentage,omitempty"`
	Cancellable bool    `json:"cancellable,omitempty"`
}

// ServerRequest is a request the server sent to the editor.
type ServerRequest struct {
	Method string
	Params json.RawMessage
}

// PublishedDiagnostics is the latest textDocument/publishDiagnostics for a
// URI.
type PublishedDiagnostics struct {
	// Version is the document version the diagnostics were computed for,
	// nil when not sent.
	Version *int32
	// Diagnostics as sent; Null is true when the server sent null instead
	// of an array, which clients reject.
	Diagnostics []protocol.Diagnostic
	Null        bool
	// Count is how many notifications arrived for the URI so far.
	Count int
}

// records holds what the server sent on its own, with a broadcast signal
// for the wait helpers.
type records struct {
	mu       sync.Mutex
	changed  chan struct{}
	diags    map[uri.URI]PublishedDiagnostics
	messages []ShowMessage
	logs     []LogMessage
	progress []Progress
	created  []json.RawMessage
	requests []ServerRequest
	edits    []AppliedEdit
	bad      []string // protocol errors the editor saw, see ProtocolErrors
}

// protocolError records a protocol error; r.mu must be held.
func (r *records) protocolError(format string, args ...any) {
	r.bad = append(r.bad, fmt.Sprintf(format, args...))
}

func (r *records) init() {
	r.changed = make(chan struct{})
	r.diags = make(map[uri.URI]PublishedDiagnostics)
}

// signal wakes the waiters; r.mu must be held.
func (r *records) signal() {
	close(r.changed)
	r.changed = make(chan struct{})
}

func (r *records) request(method string, params json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, ServerRequest{Method: method, Params: params})
	r.signal()
}

func (r *records) progressCreated(token json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.created = append(r.created, token)
	r.signal()
}

func (r *records) edit(a AppliedEdit) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.edits = append(r.edits, a)
	r.signal()
}

// record stores a notification from the server.
func (e *Editor) record(req *Request) {
	r := &e.rec
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.signal()
	bad := func(err error) {
		r.bad = append(r.bad, fmt.Sprintf("%s %s: %v", req.Method, req.Params, err))
	}
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p struct {
			URI         uri.URI         `json:"uri"`
			Version     *int32          `json:"version"`
			Diagnostics json.RawMessage `json:"diagnostics"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil {
			bad(err)
			return
		}
		pd := PublishedDiagnostics{Version: p.Version, Null: len(p.Diagnostics) == 0 || string(p.Diagnostics) == "null"}
		if pd.Null {
			r.protocolError("publishDiagnostics for %s without a diagnostics array: %s", p.URI, req.Params)
		} else {
			if err := json.Unmarshal(p.Diagnostics, &pd.Diagnostics); err != nil {
				bad(err)
				return
			}
		}
		u := canonical(p.URI)
		pd.Count = r.diags[u].Count + 1
		r.diags[u] = pd
	case "window/showMessage":
		var m ShowMessage
		if err := json.Unmarshal(req.Params, &m); err != nil {
			bad(err)
			return
		}
		r.messages = append(r.messages, m)
	case "window/logMessage":
		var m LogMessage
		if err := json.Unmarshal(req.Params, &m); err != nil {
			bad(err)
			return
		}
		r.logs = append(r.logs, m)
	case "$/progress":
		var p struct {
			Token json.RawMessage `json:"token"`
			Value ProgressValue   `json:"value"`
		}
		if err := json.Unmarshal(req.Params, &p); err != nil {
			bad(err)
			return
		}
		if !slices.ContainsFunc(r.created, func(t json.RawMessage) bool { return string(t) == string(p.Token) }) {
			r.protocolError("$/progress for token %s, never created with window/workDoneProgress/create", p.Token)
		}
		r.progress = append(r.progress, Progress{Token: p.Token, Value: p.Value, Raw: req.Params})
	}
}

// Diagnostics returns the latest diagnostics published for u and whether
// any were.
func (e *Editor) Diagnostics(u uri.URI) (PublishedDiagnostics, bool) {
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	pd, ok := e.rec.diags[canonical(u)]
	return pd, ok
}

// WaitDiagnostics waits until the latest diagnostics published for u
// satisfy ok, and returns them. On timeout the error shows the last ones.
func (e *Editor) WaitDiagnostics(u uri.URI, ok func([]protocol.Diagnostic) bool, timeout time.Duration) ([]protocol.Diagnostic, error) {
	u = canonical(u)
	var last PublishedDiagnostics
	var seen bool
	err := e.wait(timeout, func(r *records) bool {
		last, seen = r.diags[u]
		return seen && ok(last.Diagnostics)
	})
	if err != nil {
		if !seen {
			return nil, fmt.Errorf("no diagnostics published for %s within %v", u, timeout)
		}
		b, _ := json.Marshal(last.Diagnostics)
		return last.Diagnostics, fmt.Errorf("diagnostics for %s after %v (%d notifications) not as expected: %s", u, timeout, last.Count, b)
	}
	return last.Diagnostics, nil
}

// WaitPublished is WaitDiagnostics for a condition on the whole
// notification: its version, whether it was null, how many came.
func (e *Editor) WaitPublished(u uri.URI, ok func(PublishedDiagnostics) bool, timeout time.Duration) (PublishedDiagnostics, error) {
	u = canonical(u)
	var last PublishedDiagnostics
	var seen bool
	err := e.wait(timeout, func(r *records) bool {
		last, seen = r.diags[u]
		return seen && ok(last)
	})
	if err != nil {
		b, _ := json.Marshal(last.Diagnostics)
		return last, fmt.Errorf("publishDiagnostics for %s not as expected within %v (seen %v, %d notifications, last %s)", u, timeout, seen, last.Count, b)
	}
	return last, nil
}

// Messages returns the window/showMessage notifications so far.
func (e *Editor) Messages() []ShowMessage {
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	return append([]ShowMessage(nil), e.rec.messages...)
}

// WaitMessage waits for a window/showMessage notification satisfying ok
// (any received so far counts) and returns the first such.
func (e *Editor) WaitMessage(ok func(ShowMessage) bool, timeout time.Duration) (ShowMessage, error) {
	var found ShowMessage
	err := e.wait(timeout, func(r *records) bool {
		for _, m := range r.messages {
			if ok(m) {
				found = m
				return true
			}
		}
		return false
	})
	if err != nil {
		return ShowMessage{}, fmt.Errorf("no matching window/showMessage within %v; got %+v", timeout, e.Messages())
	}
	return found, nil
}

// LogMessages returns the window/logMessage notifications so far.
func (e *Editor) LogMessages() []LogMessage {
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	return append([]LogMessage(nil), e.rec.logs...)
}

// Progress returns the $/progress notifications so far, in order.
func (e *Editor) Progress() []Progress {
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	return append([]Progress(nil), e.rec.progress...)
}

// WaitProgress waits until the $/progress notifications so far satisfy ok.
func (e *Editor) WaitProgress(ok func([]Progress) bool, timeout time.Duration) ([]Progress, error) {
	err := e.wait(timeout, func(r *records) bool { return ok(r.progress) })
	p := e.Progress()
	if err != nil {
		return p, fmt.Errorf("$/progress not as expected within %v: %d notifications", timeout, len(p))
	}
	return p, nil
}

// ProgressCreated returns the tokens of the window/workDoneProgress/create
// requests so far.
func (e *Editor) ProgressCreated() []json.RawMessage {
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	return append([]json.RawMessage(nil), e.rec.created...)
}

// ServerRequests returns every request the server sent, in order.
func (e *Editor) ServerRequests() []ServerRequest {
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	return append([]ServerRequest(nil), e.rec.requests...)
}

// AppliedEdits returns every workspace/applyEdit the server sent, with the
// editor's answer, in order.
func (e *Editor) AppliedEdits() []AppliedEdit {
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	return append([]AppliedEdit(nil), e.rec.edits...)
}

// WaitAppliedEdits waits until at least n workspace/applyEdit requests have
// been answered and returns them all.
func (e *Editor) WaitAppliedEdits(n int, timeout time.Duration) ([]AppliedEdit, error) {
	err := e.wait(timeout, func(r *records) bool { return len(r.edits) >= n })
	got := e.AppliedEdits()
	if err != nil {
		return got, fmt.Errorf("%d workspace/applyEdit requests within %v, want %d", len(got), timeout, n)
	}
	return got, nil
}

// ProtocolErrors lists what the server sent that a real editor would
// reject or log as an error: notifications that do not decode, null
// diagnostics, $/progress for a token never created, workspace/applyEdit
// params that do not decode, requests the editor does not know. Unless
// Options.AllowProtocolErrors is set, a test with any fails at cleanup.
func (e *Editor) ProtocolErrors() []string {
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	return append([]string(nil), e.rec.bad...)
}

// wait calls cond under the records lock each time something is recorded
// until it returns true, the server's output ends, or timeout passes.
func (e *Editor) wait(timeout time.Duration, cond func(*records) bool) error {
	deadline := time.After(timeout)
	for {
		e.rec.mu.Lock()
		done, ch := cond(&e.rec), e.rec.changed
		e.rec.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-ch:
		case <-e.conn.Done():
			e.rec.mu.Lock()
			done := cond(&e.rec)
			e.rec.mu.Unlock()
			if done {
				return nil
			}
			return fmt.Errorf("server output closed: %v", e.conn.Err())
		case <-deadline:
			return fmt.Errorf("timed out after %v", timeout)
		}
	}
}

// BadNotifications is ProtocolErrors under the name it had first.
func (e *Editor) BadNotifications() []string { return e.ProtocolErrors() }
