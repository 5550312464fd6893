package lsp

import (
	"context"
	"sync"
	"time"

	"go.uber.org/zap"

	hist "github.com/graft-editor/graft/history"
	"github.com/graft-editor/graft/workspace"
)

// A Journal is the history graft apply and graft mcp keep of a workspace
// root's files on disk (hist.Journal): the texts their writes replaced
// and wrote. The server reads a file's entries the first time it meets the
// file, and records its own edits there too, so that a block quoting a
// text one route replaced or wrote is stale on the other, and after the
// server restarts (an editor closed and opened again in the middle of an
// agent's work).
type Journal interface {
	// Entries returns the texts kept of the file at abs, most recent
	// first.
	Entries(abs string) []hist.Entry
	// RecordWrites records writes of the file at abs, in order. It is
	// called with the root locked.
	RecordWrites(abs string, ws []hist.Write) error
}

// journalDelay is how long the server gathers its edits before it records
// them: a journal is rewritten whole (up to 20 texts of the file), which
// costs milliseconds for a large file, so it is done off the edit's round
// trip, once for the edits of a burst.
const journalDelay = time.Second

// journalLock bounds the wait for a root's lock to record the edits: a
// graft apply holding it writes for milliseconds.
const journalLock = 5 * time.Second

// journals opens the journal of each workspace folder once, as the server
// first needs it, and records the server's edits there in the background.
type journals struct {
	open func(root string) (Journal, error)
	log  *zap.Logger

	mu      sync.Mutex
	byRoot  map[string]Journal // nil: it could not be opened
	pending []pendingWrite
	timer   *time.Timer
	stopped bool
	// writing is held by the flush under way.
	writing sync.Mutex
}

// A pendingWrite is an edit the server made, waiting to be recorded.
type pendingWrite struct {
	j    Journal
	root *workspace.Root
	abs  string
	w    hist.Write
}

// of returns the journal of the workspace folder among roots that holds
// abs, and the folder; nil when there is none or it cannot be opened.
func (js *journals) of(roots []*workspace.Root, abs string) (Journal, *workspace.Root) {
	if js == nil || js.open == nil {
		return nil, nil
	}
	for _, r := range roots {
		if !r.Contains(abs) {
			continue
		}
		js.mu.Lock()
		defer js.mu.Unlock()
		j, ok := js.byRoot[r.Dir()]
		if !ok {
			var err error
			if j, err = js.open(r.Dir()); err != nil {
				js.log.Warn("journal", zap.String("root", r.Dir()), zap.Error(err))
				j = nil
			}
			if js.byRoot == nil {
				js.byRoot = map[string]Journal{}
			}
			js.byRoot[r.Dir()] = j
		}
		if j == nil {
			return nil, nil
		}
		return j, r
	}
	return nil, nil
}

// entries returns the journal's entries of the file at abs.
func (js *journals) entries(roots []*workspace.Root, abs string) []hist.Entry {
	if j, _ := js.of(roots, abs); j != nil {
		return j.Entries(abs)
	}
	return nil
}

// record records an edit of the file at abs, which replaced before with
// after, in its journal: within journalDelay, with the edits that come
// meanwhile.
func (js *journals) record(roots []*workspace.Root, abs, before, after string) {
	j, root := js.of(roots, abs)
	if j == nil {
		return
	}
	js.mu.Lock()
	defer js.mu.Unlock()
	if js.stopped {
		return
	}
	js.pending = append(js.pending, pendingWrite{j: j, root: root, abs: abs, w: hist.Write{Before: before, After: after, At: time.Now()}})
	if js.timer == nil {
		js.timer = time.AfterFunc(journalDelay, js.flush)
	}
}

// flush records the edits waiting, each file's at once, under its root's
// lock, as graft apply does; a failure is logged.
func (js *journals) flush() {
	js.writing.Lock()
	defer js.writing.Unlock()
	js.mu.Lock()
	batch := js.pending
	js.pending, js.timer = nil, nil
	js.mu.Unlock()
	for len(batch) > 0 {
		first := batch[0]
		var ws []hist.Write
		rest := batch[:0]
		for _, p := range batch {
			if p.j == first.j && p.abs == first.abs {
				ws = append(ws, p.w)
			} else {
				rest = append(rest, p)
			}
		}
		batch = rest
		ctx, cancel := context.WithTimeout(context.Background(), journalLock)
		unlock, err := first.root.Lock(ctx)
		cancel()
		if err != nil {
			js.log.Warn("journal", zap.String("file", first.abs), zap.Error(err))
			continue
		}
		if err := first.j.RecordWrites(first.abs, ws); err != nil {
			js.log.Warn("journal", zap.String("file", first.abs), zap.Error(err))
		}
		unlock()
	}
}

// stop records the edits waiting, and no more.
func (js *journals) stop() {
	js.mu.Lock()
	js.stopped = true
	if js.timer != nil {
		js.timer.Stop()
	}
	js.mu.Unlock()
	js.flush()
}
