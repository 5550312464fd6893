package mcpserver

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/history"
	"github.com/graft-editor/graft/workspace"
)

// The bounds of what a session keeps of the texts it saw.
const (
	seenPerFile = 3        // texts of one file
	seenFiles   = 64       // files, the least recently seen dropped first
	seenBytes   = 2 << 20  // the longest text kept
	seenTotal   = 32 << 20 // the texts of every file, the least recently seen dropped first
)

// seenTexts are the texts of its files a graft mcp session has seen: read
// by a tool's plan (the text a refusal shows the model to quote, the text
// a preview diffs), or written. An agent that changes a file with a tool
// of its own between two calls leaves, in the file, a text no journal
// holds; a block it then sends quoting what graft showed it before is
// stale, and the session, having seen that text, tells it so (see
// sessionHistory) rather than merging the block into the new lines. What
// is seen is kept for the session only, in memory, within the bounds
// above. It is safe for concurrent use.
type seenTexts struct {
	mu    sync.Mutex
	files map[string]*seenFile // by absolute path
	bytes int                  // the length of every text kept
	seq   uint64
	now   func() time.Time
}

// A seenFile is what a session saw of one file: its texts, most recent
// first, each with when it was first seen.
type seenFile struct {
	texts []seenText
	used  uint64
}

type seenText struct {
	text string
	at   time.Time
}

func newSeenTexts(now func() time.Time) *seenTexts {
	return &seenTexts{files: map[string]*seenFile{}, now: now}
}

// saw records text as a text of the file at abs, unless it is one already.
func (s *seenTexts) saw(abs, text string) {
	if len(text) > seenBytes {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.files[abs]
	if f == nil {
		if len(s.files) == seenFiles {
			s.dropOldestLocked()
		}
		f = &seenFile{}
		s.files[abs] = f
	}
	s.seq++
	f.used = s.seq
	if slices.ContainsFunc(f.texts, func(t seenText) bool { return t.text == text }) {
		return
	}
	f.texts = slices.Insert(f.texts, 0, seenText{text: text, at: s.now()})
	s.bytes += len(text)
	for _, t := range f.texts[min(len(f.texts), seenPerFile):] {
		s.bytes -= len(t.text)
	}
	f.texts = f.texts[:min(len(f.texts), seenPerFile)]
	for s.bytes > seenTotal && len(s.files) > 1 {
		s.dropOldestLocked()
	}
}

// dropOldestLocked drops the file seen least recently. s.mu is held.
func (s *seenTexts) dropOldestLocked() {
	var oldest string
	var used uint64
	for abs, f := range s.files {
		if oldest == "" || f.used < used {
			oldest, used = abs, f.used
		}
	}
	for _, t := range s.files[oldest].texts {
		s.bytes -= len(t.text)
	}
	delete(s.files, oldest)
}

// observe records the texts a plan read of the files it planned.
func (s *seenTexts) observe(res *workspace.Result) {
	for _, f := range res.Files {
		if f.Existed {
			s.saw(f.Abs(), f.Before)
		}
	}
}

// versions returns the texts seen of the file at abs, most recent first,
// named for a message.
func (s *seenTexts) versions(abs string) []engine.Version {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.files[abs]
	if f == nil {
		return nil
	}
	now := s.now()
	out := make([]engine.Version, len(f.texts))
	for i, t := range f.texts {
		out[i] = engine.Version{Name: fmt.Sprintf("the file as graft mcp saw it at %s (%s)", t.at.Format("15:04:05"), history.Ago(now.Sub(t.at))), Text: t.text}
	}
	return out
}

// A sessionHistory is a root's history (the journal, git) with the texts
// the session saw (see seenTexts) after them; what it records, it sees.
type sessionHistory struct {
	root workspace.History // nil when there is none
	seen *seenTexts
}

// Versions returns the root history's versions of the file at abs, then
// the texts the session saw of it.
func (h sessionHistory) Versions(abs string) []engine.Version {
	var vs []engine.Version
	if h.root != nil {
		vs = h.root.Versions(abs)
	}
	return append(vs, h.seen.versions(abs)...)
}

// RecordShown records in the root's history, when it keeps them, the
// text of a file a refusal showed, and sees it (see
// workspace.ShownHistory).
func (h sessionHistory) RecordShown(abs, text string) {
	if r, ok := h.root.(workspace.ShownHistory); ok {
		r.RecordShown(abs, text)
	}
	h.seen.saw(abs, text)
}

// Record records a write in the root's history, and sees its texts.
func (h sessionHistory) Record(abs, before, after string) {
	if h.root != nil {
		h.root.Record(abs, before, after)
	}
	if before != "" {
		h.seen.saw(abs, before)
	}
	h.seen.saw(abs, after)
}
