package lsp

import (
	"errors"
	"os"
	"slices"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/workspace"
)

// A planned is what one refresh of an answer's diagnostics planned: what
// the plan read, and what it found. The next refresh takes its result
// instead of planning again when none of what the plan read changed, as
// for most refreshes of an answer streaming in: a line that goes on the
// block still being written, or prose between two blocks, changes no
// block's fate. The diagnostics are made again from the result, against
// the answer as it is now.
type planned struct {
	keys      []planKey
	roots     []*workspace.Root
	threshold float64
	// targets are the files the blocks name, as the plan read them.
	targets []targetStamp
	// view is the view the plan read, res what it found.
	view *workspace.View
	res  *workspace.Result
	// diags, places and states are each block's diagnostic, the places
	// an ambiguous block resembles, and its state, as made from res. They
	// are not changed once made: a refresh that moves a block copies them.
	diags  []protocol.Diagnostic
	places [][]place
	states []blockState
}

// A planKey is a block as a plan reads it: what it edits and how, and why
// it is malformed, but not where it stands in the answer, which moves its
// diagnostic and not its fate. A block the answer ends in, still being
// written, is known by its dialect, its file, its first line and what its
// parser expects next (its message without the line the text ends on): the
// lines that come in change none of what its diagnostic says, and a block
// that does not parse changes the fate of no other.
type planKey struct {
	edit       engine.Edit // Source cleared; Old and New too when unfinished
	err        string
	unfinished bool
	unchecked  bool
	number     int
}

// keyOf returns the planKey of b.
func keyOf(b dialect.Block) planKey {
	k := planKey{edit: b.Edit, unchecked: b.Unchecked, number: b.Number}
	k.edit.Source = engine.Span{}
	if b.Err != nil {
		k.err = b.Err.Error()
	}
	if errors.Is(b.Err, dialect.ErrUnfinished) {
		k.unfinished = true
		k.edit.Old, k.edit.New = "", ""
		k.edit.Source.StartLine = b.Source.StartLine
		k.err = withoutLine(k.err)
	}
	return k
}

// equal reports whether a and b are the same block to a plan.
func (a planKey) equal(b planKey) bool {
	return a.edit.Equal(b.edit) && a.err == b.err && a.unfinished == b.unfinished && a.unchecked == b.unchecked && a.number == b.number
}

// A targetStamp is a file a plan read, as it read it: the open buffer's
// text and version, or the file's size and time of change on disk, and
// the earlier versions the history held of it.
type targetStamp struct {
	abs      string
	open     bool
	text     string
	version  int32
	size     int64
	modTime  time.Time
	missing  bool
	versions []string
}

// stampOf returns the stamp of the file at abs in view now.
func stampOf(view *workspace.View, h *history, abs string) targetStamp {
	st := targetStamp{abs: abs}
	if snap, ok := view.Snapshot(abs); ok {
		st.open, st.text, st.version = true, snap.Text, snap.Version
	} else if fi, err := os.Stat(abs); err != nil {
		st.missing = true
	} else {
		st.size, st.modTime = fi.Size(), fi.ModTime()
	}
	if h != nil {
		for _, v := range h.Versions(abs) {
			st.versions = append(st.versions, v.Text)
		}
	}
	return st
}

// same reports whether a and b stamp the same state of a file. Texts are
// compared whole; a buffer's snapshot keeps its string while the buffer
// does not change, and the comparison of a string with itself is quick.
func (a targetStamp) same(b targetStamp) bool {
	return a.abs == b.abs && a.open == b.open && a.text == b.text && a.version == b.version &&
		a.size == b.size && a.modTime.Equal(b.modTime) && a.missing == b.missing && slices.Equal(a.versions, b.versions)
}

// newPlanned returns what a refresh planned: blocks, against the files
// at targets in view, with threshold, found res.
func newPlanned(view *workspace.View, h *history, blocks []dialect.Block, targets []string, threshold float64, res *workspace.Result) *planned {
	p := &planned{roots: view.Roots(), threshold: threshold, view: view, res: res, keys: make([]planKey, len(blocks))}
	for i, b := range blocks {
		p.keys[i] = keyOf(b)
	}
	for _, abs := range targets {
		p.targets = append(p.targets, stampOf(view, h, abs))
	}
	return p
}

// current reports whether blocks, against the files of view now, with
// threshold, are what p planned: p's result is theirs.
func (p *planned) current(view *workspace.View, h *history, blocks []dialect.Block, threshold float64) bool {
	if p == nil || len(p.keys) != len(blocks) || p.threshold != threshold || !slices.Equal(p.roots, view.Roots()) {
		return false
	}
	for i, b := range blocks {
		if !p.keys[i].equal(keyOf(b)) {
			return false
		}
	}
	for _, t := range p.targets {
		if !t.same(stampOf(view, h, t.abs)) {
			return false
		}
	}
	return true
}
