package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
)

// A PlanCache keeps, from one Plan to the next of the same answer (an
// answer buffer resolved again after each change, as it streams in), the
// state each file's blocks left the file in, so that a plan resolves only
// the blocks that are new or changed: a file's blocks whose edits, and
// every earlier block of the same file, are as they were, against the
// file's text as it was, take their last results, and the blocks after
// them resolve against the text they left. The results are those a plan
// without the cache finds.
//
// A block whose resolution asked the history (its search was not in the
// file as written) while the history held versions of the file ends what
// is kept of it: its fate depends on those versions, and, through the
// replay of an answer applied before, on the blocks after it. What is kept
// of a file holds while the history holds the same versions of it. A file
// whose blocks move it is planned anew each time.
//
// A PlanCache is safe for use by plans that overlap: they take turns.
// The zero value is ready to use.
type PlanCache struct {
	mu    sync.Mutex
	files map[string]*cachedFile // by absolute path
	// reused and resolved count the blocks of the last plan that took
	// their results from the cache, and those that were resolved.
	reused, resolved int
	// total counts the blocks resolved by every plan that used the cache.
	total int
	// disk holds the files the plans read from the disk, by absolute
	// path (see read).
	disk map[string]diskRead

	// Changed, when set, is told of a file a plan read from the disk and
	// a later plan finds changed there, with before, the text read then:
	// another hand wrote the file meanwhile (an agent's own edit, a
	// checkout), and a History that keeps before has a block quoting it,
	// at lines changed since, refused as stale rather than merged into
	// the new text. It is called before the later plan resolves a block
	// of the file, with the cache's lock held.
	Changed func(abs, before string)
}

// A diskRead is a file a plan read from the disk, with the size and time
// of change it had just before.
type diskRead struct {
	doc     Document
	size    int64
	modTime time.Time
}

// read returns the document at abs, a path src.Path returned, as src
// reads it; but a file read from the disk before, whose size and time of
// change are still those it had then, is not read again: an answer's
// diagnostics plan each time the answer changes, and the files its
// blocks name, when the editor does not have them open, mostly have not.
// A file written again within one tick of its clock, to the same size,
// is taken as it was, as lsp's stamps of the files a plan read take it;
// what a plan with the cache finds is shown, never written. c.mu is held.
func (c *PlanCache) read(ctx context.Context, src Source, abs string) (Document, error) {
	v, ok := src.(*View)
	if c == nil || !ok {
		return src.Read(ctx, abs)
	}
	if _, open := v.lookup(filepath.Clean(abs)); open {
		return src.Read(ctx, abs)
	}
	fi, err := os.Stat(abs)
	if err != nil || !fi.Mode().IsRegular() {
		delete(c.disk, abs)
		return src.Read(ctx, abs)
	}
	r, had := c.disk[abs]
	if had && r.size == fi.Size() && r.modTime.Equal(fi.ModTime()) {
		if err := ctx.Err(); err != nil {
			return Document{}, fmt.Errorf("read %s: %w", abs, err)
		}
		return r.doc, nil
	}
	doc, err := src.Read(ctx, abs)
	if err != nil || !doc.Exists {
		delete(c.disk, abs)
		return doc, err
	}
	if had && c.Changed != nil && doc.Text != r.doc.Text {
		c.Changed(abs, r.doc.Text)
	}
	if c.disk == nil {
		c.disk = map[string]diskRead{}
	}
	c.disk[abs] = diskRead{doc: doc, size: fi.Size(), modTime: fi.ModTime()}
	return doc, nil
}

// Last returns how many blocks the last plan that used the cache took
// from it, and how many it resolved.
func (c *PlanCache) Last() (reused, resolved int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reused, c.resolved
}

// Resolved returns how many blocks the plans that used the cache have
// resolved in all, those cut short included: what the plans of an answer
// that keeps changing have cost in resolutions.
func (c *PlanCache) Resolved() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}

// A cachedFile is what the cache keeps of one file: its state before the
// answer's blocks, the blocks that have run on it so far, each one's
// result, and the state they left it in.
type cachedFile struct {
	before    document
	threshold float64
	// versions are the texts the history held of the file.
	versions []string
	steps    []cachedStep
	// after is the file's state once the steps ran.
	after cachedState
}

// A cachedStep is one block that ran on the file, and its fate.
type cachedStep struct {
	block  dialect.Block
	result BlockResult
}

// A cachedState is what fileState carries from one block to the next:
// the text, the engine's document of it (which records how the blocks
// moved the lines), and the edits so far.
type cachedState struct {
	document
	doc      *engine.Document
	edits    textEdits
	replaced bool
}

// cacheKey returns block b as the cache compares it: what it edits and
// how, not where it stands in the answer.
func cacheKey(b dialect.Block) dialect.Block {
	b.Source = engine.Span{}
	return b
}

// sameStep reports whether a and b, as cacheKey returns them, are the
// same block.
func sameStep(a, b dialect.Block) bool {
	return a.Edit.Equal(b.Edit) && a.Err == nil && b.Err == nil && a.Unchecked == b.Unchecked && a.Number == b.Number
}

// A fileRun is the use one plan makes of the cache for one file: the
// steps it takes from it, and those it adds.
type fileRun struct {
	c  *PlanCache
	cf *cachedFile
	// next is the index of the cached step the file's next block is
	// compared with; -1 once the blocks left the cached steps.
	next int
	// recording says the blocks run so far are kept: none asked the
	// history.
	recording bool
}

// begin returns the use of the cache for the file f, whose state before
// its blocks is doc, and the state to start from: doc, or, when every
// cached step matches the file's first blocks, the state they left (the
// blocks it stands for are then restored by take). c.mu is held.
func (c *PlanCache) begin(p *planner, f *fileBlocks, doc document) *fileRun {
	if c == nil || !p.opt.KeepGoing || len(p.opt.Engine.History) > 0 || p.moves(f.blocks) || f.conflicts != nil {
		return nil
	}
	if !slices.ContainsFunc(f.blocks, func(i int) bool { return p.blocks[i].Err == nil }) {
		// No block of the file runs (a plan of the block still being
		// written, alone): what is kept of the file stays for the next.
		return nil
	}
	if c.files == nil {
		c.files = map[string]*cachedFile{}
	}
	cf := c.files[f.abs]
	var versions []string
	if p.opt.History != nil {
		for _, v := range p.opt.History.Versions(f.abs) {
			versions = append(versions, v.Text)
		}
	}
	fresh := &cachedFile{before: doc, threshold: p.opt.Engine.Threshold, versions: versions, after: cachedState{document: doc}}
	if cf == nil || cf.before != doc || cf.threshold != p.opt.Engine.Threshold || !slices.Equal(cf.versions, versions) {
		c.files[f.abs] = fresh
		return &fileRun{c: c, cf: fresh, recording: true}
	}
	// The cached steps must be the file's first blocks, all of them; the
	// blocks the parse found malformed change nothing and are left out.
	k := 0
	for _, i := range f.blocks {
		b := p.blocks[i]
		if b.Err != nil {
			continue
		}
		if k == len(cf.steps) {
			break
		}
		if !sameStep(cf.steps[k].block, cacheKey(b)) {
			c.files[f.abs] = fresh
			return &fileRun{c: c, cf: fresh, recording: true}
		}
		k++
	}
	if k < len(cf.steps) {
		// Blocks were dropped: what is kept is no prefix of them.
		c.files[f.abs] = fresh
		return &fileRun{c: c, cf: fresh, recording: true}
	}
	return &fileRun{c: c, cf: cf, recording: true}
}

// take returns the cached result of block i, the file's next block, and
// true, when the cache holds it: the state it left is then the file's,
// once every cached step is taken (see restore).
func (r *fileRun) take(p *planner, i int) (BlockResult, bool) {
	if r == nil || r.next < 0 || r.next >= len(r.cf.steps) {
		return BlockResult{}, false
	}
	res := r.cf.steps[r.next].result
	r.next++
	return res, true
}

// restore sets st to the state the cached steps left, once all are taken.
func (r *fileRun) restore(st *fileState) {
	a := r.cf.after
	st.document = a.document
	st.doc, st.replaced = a.doc, a.replaced
	st.edits = slices.Clone(a.edits)
}

// done reports whether every cached step was taken.
func (r *fileRun) done() bool { return r != nil && r.next == len(r.cf.steps) }

// record keeps block i, which just ran on the file and left it in st,
// with its result; historic says its resolution asked the history, which
// ends what is kept.
func (r *fileRun) record(p *planner, i int, st *fileState, historic bool) {
	if r == nil || !r.recording {
		return
	}
	if historic {
		r.recording = false
		return
	}
	// A clone: the cache is kept across texts of the answer (see
	// dialect.Block.Clone).
	r.cf.steps = append(r.cf.steps, cachedStep{block: cacheKey(p.blocks[i]).Clone(), result: p.res.Blocks[i]})
	r.cf.after = cachedState{document: st.document, doc: st.doc, edits: slices.Clone(st.edits), replaced: st.replaced}
	r.next = len(r.cf.steps)
}

// forget drops what the cache keeps of the file at abs: a plan cut short
// by its context may leave a resolution of it running on a document the
// cache holds. What it keeps of the files planned before stays: an
// answer streaming in faster than a plan takes cuts plans short often,
// and would otherwise resolve every block again each time.
func (c *PlanCache) forget(abs string) {
	if c != nil {
		delete(c.files, abs)
	}
}
