package dialect

import (
	"strings"

	"github.com/graft-editor/graft/engine"
)

// A seenBlock is what detection found of one block of the dialects'
// merged blocks, and where its reading of the text stood after the
// block, for a Parser's next parse of the answer to take: the framing of
// a block, whether it stands in the model's reasoning, and whether it is
// an example, depend only on the lines up to its end and on the blocks
// before it (but for whether a block framed with it names its own file,
// which is kept to compare), so a block that stands where it stood, on
// lines that did not change, after blocks that did not, keeps them.
type seenBlock struct {
	// The block as detection reads it.
	source           engine.Span
	dialect          string
	path, newPath    string
	frame            *framing
	reasoning        bool // in the model's reasoning (rule 4)
	example, named   bool // isExample, and the named it was told
	own, ownKnown    bool // namesOwnFile, and whether it holds while the block stands
	fences           fenceStack
	next, prevEnd    int // frameBlocks' reading after the block
	reasonOpen, scan int // inReasoning's reading after the block
}

// seen returns the blocks the last parse of the answer doc is a text of
// found, or nil.
func (d *document) seen() []seenBlock {
	if d.prev == nil {
		return nil
	}
	return d.prev.seen
}

// settled returns how many of blocks, from the first, are the blocks
// seen before, standing where they stood on lines that did not change:
// their reading stands.
func (d *document) settled(blocks []Block) int {
	seen := d.seen()
	k := 0
	for k < min(len(blocks), len(seen)) {
		b, s := blocks[k], seen[k]
		if b.Source != s.source || b.Source.EndLine > d.changed || b.Dialect != s.dialect || b.Path != s.path || b.NewPath != s.newPath {
			break
		}
		k++
	}
	return k
}

// keep records what detection found of blocks for the next parse of the
// answer, when a Parser parses it, settled of them taken from the parse
// before.
func (d *document) keep(seen []seenBlock, settled int) {
	if d.prev != nil {
		d.prev.seen, d.prev.settled = seen, settled
	}
}

// clone returns a copy of s that shares nothing with it, nor with the
// text (see Block.Clone).
func (s fenceStack) clone() fenceStack {
	c := fenceStack{open: append([]fenceLine(nil), s.open...)}
	for i := range c.open {
		c.open[i].info = strings.Clone(c.open[i].info)
	}
	return c
}
