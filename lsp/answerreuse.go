package lsp

import (
	"errors"
	"os"
	"slices"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/lsp/internal/span"
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
	// watched holds the paths of the files the blocks name, as the
	// workspace maps them and as the client opened them (see
	// answerDoc.targets).
	watched map[string]bool
	// res is what the plan found.
	res *workspace.Result
	// diags and states are each block's diagnostic and state, as made
	// from res. They are not changed once made: a refresh that moves a
	// block copies them.
	diags  []protocol.Diagnostic
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

// standing returns how many of blocks, from the first, are blocks p
// planned, against the files of view now, with threshold: p's results for
// them stand, since no block's fate depends on a block after it. When
// they are all of p's blocks, p's result is theirs; else a plan of blocks
// takes p's results for them (see answers.plan). This is what a refresh
// does each time a line comes in an answer streaming in, and each time a
// block begins or closes.
func (p *planned) standing(view *workspace.View, h *history, blocks []dialect.Block, threshold float64) int {
	if p == nil {
		return 0
	}
	k := p.same(blocks)
	if k == 0 || !p.readAlike(view, h, threshold) {
		return 0
	}
	return k
}

// same returns how many of blocks, from the first, are the blocks p
// planned, as a plan reads them (see planKey).
func (p *planned) same(blocks []dialect.Block) int {
	k := 0
	for k < min(len(blocks), len(p.keys)) && p.keys[k].equal(keyOf(blocks[k])) {
		k++
	}
	return k
}

// readAlike reports whether a plan with threshold, against the files of
// view now, reads what p read: the same roots, and every file p read as
// it read it.
func (p *planned) readAlike(view *workspace.View, h *history, threshold float64) bool {
	if p.threshold != threshold || !slices.Equal(p.roots, view.Roots()) {
		return false
	}
	for _, t := range p.targets {
		if !t.same(stampOf(view, h, t.abs)) {
			return false
		}
	}
	return true
}

// keeps reports whether block i of q, planned after p, is the block i
// of p, its fate found again against its file as p read it (unchanged
// holds the files both read alike, see unchanged): the diagnostic and
// state p made of it stand, but for where the block stands in the
// answer.
func (p *planned) keeps(q *planned, i int, unchanged map[string]bool) bool {
	if p == nil || i >= len(p.keys) || p.threshold != q.threshold || !p.keys[i].equal(q.keys[i]) {
		return false
	}
	a, b := &p.res.Blocks[i], &q.res.Blocks[i]
	return sameFate(a, b) && (b.Abs() == "" || unchanged[b.Abs()])
}

// unchanged returns the files that p and q, planned after it, read alike,
// by absolute path.
func (p *planned) unchanged(q *planned) map[string]bool {
	if p == nil {
		return nil
	}
	same := map[string]bool{}
	for _, t := range q.targets {
		for _, u := range p.targets {
			if u.abs == t.abs {
				same[t.abs] = u.same(t)
				break
			}
		}
	}
	return same
}

// sameFate reports whether a and b say the same of a block: every field
// the same but the time taken, and the same error: a refusal by the
// engine the very one (a result the plan cache kept), another error one
// that reads the same.
func sameFate(a, b *workspace.BlockResult) bool {
	x, y := *a, *b
	x.Elapsed, y.Elapsed, x.Err, y.Err = 0, 0, nil, nil
	if x != y || (a.Err == nil) != (b.Err == nil) {
		return false
	}
	if a.Err == nil {
		return true
	}
	var ea, eb *engine.Error
	if okA, okB := errors.As(a.Err, &ea), errors.As(b.Err, &eb); okA || okB {
		return ea == eb
	}
	return a.Err.Error() == b.Err.Error() && errors.Is(a.Err, dialect.ErrUnfinished) == errors.Is(b.Err, dialect.ErrUnfinished)
}

// moved returns p's diagnostics and block states for blocks, the blocks
// p planned as they stand in the answer m now: each says what it said,
// on the block's lines. While the blocks stand where they stood, as when
// lines come in after them, they are p's own.
func (p *planned) moved(m *span.Mapper, enc span.Encoding, blocks []dialect.Block) ([]protocol.Diagnostic, []blockState) {
	diags, states := p.diags, p.states
	for i, b := range blocks {
		r := &p.res.Blocks[i]
		if rng := blockRange(m, enc, b, r); rng != diags[i].Range {
			if &diags[0] == &p.diags[0] {
				diags = slices.Clone(diags)
			}
			diags[i].Range = rng
		}
		if b.Source != states[i].span {
			if &states[0] == &p.states[0] {
				states = slices.Clone(states)
			}
			states[i].span = b.Source
		}
	}
	return diags, states
}
