package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// progressMin is the number of blocks from which a command reports its
// progress.
const progressMin = 20

// A progress reports the work of one command with $/progress; its zero
// value reports nothing.
type progress struct {
	s *server
	// token is the client's token, or empty for one the server creates.
	token   json.RawMessage
	title   string
	enabled bool
	begun   bool
}

// startProgress returns the progress of a command. It reports only when
// the client supports work-done progress, with the token the client gave
// or one the server creates; it begins at the first report of more than
// progressMin blocks.
func (s *server) startProgress(ctx context.Context, token json.RawMessage, title string) *progress {
	s.mu.Lock()
	ok := s.caps.progress
	s.mu.Unlock()
	if string(token) == "null" {
		token = nil
	}
	return &progress{s: s, title: title, token: token, enabled: ok || len(token) > 0}
}

// report returns the callback that reports blocks resolved out of total;
// nil when the progress reports nothing.
func (p *progress) report(ctx context.Context) func(done, total int) {
	if !p.enabled {
		return nil
	}
	return func(done, total int) {
		if total <= progressMin {
			return
		}
		if !p.begun {
			if !p.begin(ctx) {
				return
			}
		}
		pct := uint32(done * 100 / total)
		p.send(ctx, protocol.WorkDoneProgressReport{
			Kind:       protocol.WorkDoneProgressKindReport,
			Message:    fmt.Sprintf("%d of %d blocks resolved", done, total),
			Percentage: pct,
		})
	}
}

// begin creates the token if the client gave none, and sends begin.
func (p *progress) begin(ctx context.Context) bool {
	p.begun = true
	if len(p.token) == 0 {
		tok := fmt.Sprintf("graft-%d", p.s.progressSeq.Add(1))
		if _, err := p.s.conn.Call(ctx, "window/workDoneProgress/create", workDoneProgressCreateParams{Token: tok}, nil); err != nil {
			p.s.log.Warn("workDoneProgress/create", zap.Error(err))
			p.token = nil
			return false
		}
		p.token, _ = json.Marshal(tok)
	}
	p.send(ctx, protocol.WorkDoneProgressBegin{Kind: protocol.WorkDoneProgressKindBegin, Title: p.title, Percentage: 0})
	return true
}

// end ends a progress that began.
func (p *progress) end(ctx context.Context, msg string) {
	if !p.begun || len(p.token) == 0 {
		return
	}
	p.send(ctx, protocol.WorkDoneProgressEnd{Kind: protocol.WorkDoneProgressKindEnd, Message: msg})
}

func (p *progress) send(ctx context.Context, value any) {
	p.s.notify(ctx, "$/progress", struct {
		Token json.RawMessage `json:"token"`
		Value any             `json:"value"`
	}{p.token, value})
}
