package lsp

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// A verifier checks that the client really applied the edits it said it
// applied. Some clients (Neovim 0.7.2) answer applied: true even when
// they skipped an edit as stale; the only proof is the text the client
// reports next. After an applied edit, the verifier waits for the
// document's text to become what the server sent, and warns the person
// with window/showMessage when it has not within the delay.
type verifier struct {
	s *server

	mu      sync.Mutex
	pending map[protocol.DocumentURI]*expectation
	stopped bool
}

// An expectation is the text a document should hold once the client
// applied an edit.
type expectation struct {
	text  string
	timer *time.Timer
}

func newVerifier(s *server) *verifier {
	return &verifier{s: s, pending: map[protocol.DocumentURI]*expectation{}}
}

// expect records that the document at uri should now hold text.
func (v *verifier) expect(uri protocol.DocumentURI, text string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.stopped {
		return
	}
	if old := v.pending[uri]; old != nil {
		old.timer.Stop()
	}
	e := &expectation{text: text}
	e.timer = time.AfterFunc(v.s.opt.VerifyDelay, func() { v.timeout(uri, e) })
	v.pending[uri] = e
}

// changed checks the text of a document that changed or opened against
// what it should hold; a match settles the expectation.
func (v *verifier) changed(ctx context.Context, d *openDoc) {
	uri := protocol.DocumentURI(d.uri)
	v.mu.Lock()
	e := v.pending[uri]
	v.mu.Unlock()
	if e == nil {
		return
	}
	snap, err := d.buf.Snapshot()
	if err != nil || snap.Text != e.text {
		return // the edit may come in several changes: wait
	}
	v.settle(uri, e)
}

// closed forgets what a closed document should hold.
func (v *verifier) closed(d *openDoc) {
	uri := protocol.DocumentURI(d.uri)
	v.mu.Lock()
	defer v.mu.Unlock()
	if e := v.pending[uri]; e != nil {
		e.timer.Stop()
		delete(v.pending, uri)
	}
}

// settle forgets e, if it is still the expectation of uri.
func (v *verifier) settle(uri protocol.DocumentURI, e *expectation) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.pending[uri] != e {
		return false
	}
	e.timer.Stop()
	delete(v.pending, uri)
	return true
}

// timeout warns when the document does not hold what it should.
func (v *verifier) timeout(uri protocol.DocumentURI, e *expectation) {
	if !v.settle(uri, e) {
		return
	}
	v.s.mu.Lock()
	d := v.s.open[string(uri)]
	v.s.mu.Unlock()
	if d == nil {
		return // not open: the client applied it out of sight, or closed it
	}
	snap, err := d.buf.Snapshot()
	if err == nil && snap.Text == e.text {
		return
	}
	v.s.log.Warn("edit not applied as sent", zap.String("uri", string(uri)))
	v.s.showMessage(context.Background(), protocol.MessageTypeWarning, fmt.Sprintf(
		"Graft: the editor said it applied the edit to %s, but the document does not hold the result "+
			"(the edit may have been skipped as stale). Check it, and apply the answer again if needed.", uri))
}

// stop cancels the pending checks.
func (v *verifier) stop() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.stopped = true
	for uri, e := range v.pending {
		e.timer.Stop()
		delete(v.pending, uri)
	}
}
