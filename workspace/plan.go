package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
)

// PlanOptions tune Plan.
type PlanOptions struct {
	// Engine tunes the resolver.
	Engine engine.Options
	// Atomic withholds every change unless every block applies.
	Atomic bool
	// KeepGoing resolves every block for a preview of each one's own
	// state, as an answer's diagnostics show it: a block after a failed
	// one of the same file is resolved anyway, against the text the
	// earlier blocks that applied leave, rather than skipped; and a
	// file's move is not withheld when one of its blocks fails. The
	// result's files are then no apply's: commit none of them.
	KeepGoing bool
	// Progress, when set, is called after each block is resolved, with
	// the number of blocks planned so far and in all.
	Progress func(done, total int)
	// History, when set, gives the earlier versions of a file, asked for
	// only when a block's search is not in the file as written: a block
	// that quotes one of them, at lines changed since, fails as stale
	// (see engine.Options.History). Apply records in it what it wrote.
	History History
	// Cache, when set with KeepGoing, keeps what each file's blocks did
	// for the next plan of the same answer, which then resolves only the
	// blocks that are new or changed (see PlanCache).
	Cache *PlanCache
	// Prepared, when set and Cache is not, keeps the engine's document of
	// the text the plan leaves each file in, for a plan of that text to
	// start from (see Prepared).
	Prepared *Prepared
	// Prior, when set, is what a plan with the same options found of the
	// first len(Prior.Blocks) of the blocks, as they are now, against
	// the files as they are now: Plan takes its results for those blocks,
	// and its changes to the files no later block names, and plans only
	// the files the later blocks name (each from what Cache keeps of it).
	// A plan after each block that closes in an answer streaming in so
	// takes time that does not grow with the blocks before. Prior is
	// ignored when a block moves a file, which carries the later blocks
	// that name its destination along, and with Atomic, where a later
	// block's failure withholds the earlier ones.
	Prior *Result
}

// A History keeps the earlier versions of the files under a root.
type History interface {
	// Versions returns the earlier versions of the file at abs, most
	// recent first; none when it knows of none.
	Versions(abs string) []engine.Version
	// Record keeps before, the text of the file at abs that Apply has
	// just replaced, and after, the text it wrote in its place: once
	// another hand (a person, a formatter) changes the file, a block
	// quoting after at the lines changed is as stale as one quoting
	// before. before is empty for a file Apply created. It is called with
	// the root locked.
	Record(abs, before, after string)
}

// A ShownHistory is a History that also keeps the text of a file a
// refusal showed: a refused block's message quotes the file's lines for
// the model to use, and once another hand (the agent's own tool, a
// person) changes the file, a block quoting those lines is as stale as
// one quoting a text graft replaced. Apply calls RecordShown, with the
// root locked, for each file that a block was refused in and that the
// plan does not change.
type ShownHistory interface {
	History
	RecordShown(abs, text string)
}

// A Result is what a plan does: the fate of every block and the files that
// change. Nothing is written until it is passed to Commit.
type Result struct {
	// Blocks holds one entry per block, in answer order.
	Blocks []BlockResult
	// Files holds one entry per file the blocks name, in the order they
	// are first named.
	Files []FileChange
}

// A BlockResult says what happened to one block.
type BlockResult struct {
	// Index is the block's place in the answer, from 0.
	Index int
	// Number is the block's number as a person counts the answer's
	// blocks, from 1 (see dialect.Block.Number): what messages call it.
	Number int
	// Path is the file the block edits, relative to the root and
	// slash-separated; as the model wrote it when it cannot be resolved.
	Path string
	// Dialect names the format the block was written in.
	Dialect string
	Status  engine.Status
	// Strategy, Score, StartLine and EndLine describe the match (see
	// engine.Match); for a withheld block, the match it would have had.
	// The lines are those of the file as it was before the answer, what
	// the person and the editor see, even for a block resolved after
	// earlier blocks of the same file; a region those blocks wrote is
	// reported as the region it replaced. In a file the answer creates,
	// they are lines of the created text.
	Strategy           string
	Score              float64
	StartLine, EndLine int
	// ResolvedStartLine and ResolvedEndLine are the lines of the match in
	// the text the block was resolved against: the file as the earlier
	// blocks of the answer left it. They equal StartLine and EndLine
	// when no earlier block changed the file's lines.
	ResolvedStartLine, ResolvedEndLine int
	// Message is the error for a block that failed or was skipped, and
	// the resolver's notes for one that applied.
	Message string
	// Err is why the block failed or was skipped; nil when it applied.
	// A refusal of the resolver is an *engine.Error.
	Err error
	// Elapsed is the time spent resolving the block.
	Elapsed time.Duration

	abs string // Path, absolute; empty when it could not be resolved
}

// Abs returns the absolute path of the file the block edits, as the
// Source mapped the name the block gives; empty when it could not be
// mapped. Path is relative to the root that holds the file, so with
// several roots only Abs tells which file it is.
func (b *BlockResult) Abs() string { return b.abs }

// An Action is what the blocks ask for a file.
type Action string

// The actions, as the JSON report spells them.
const (
	ActionModify Action = "modify"
	ActionCreate Action = "create"
	ActionDelete Action = "delete"
	ActionMove   Action = "move"
)

// A FileChange is what a plan does to one file.
type FileChange struct {
	// Path is the file's path relative to the root, slash-separated.
	Path string
	// NewPath is where a move puts the file; empty when it stays.
	NewPath string
	// Action is what the blocks ask for the file, whether or not they
	// applied: delete, move or create when a block asks for that, modify
	// otherwise.
	Action Action
	// Changed reports whether the plan changes the file.
	Changed bool
	// Err says why a change the blocks made is not made after all (the
	// file could not be written, the editor did not apply it); the file
	// then keeps its content and Changed is false.
	Err error
	// Before and After are the file's text before and after the plan;
	// Existed and Exists say whether the file is there at all.
	Before, After   string
	Existed, Exists bool
	// Blocks are the indexes of the blocks that apply to the file.
	Blocks []int
	// Edits make After of Before: the changes the blocks made, as the
	// engine resolved them, as edits of Before, in order and apart.
	Edits []engine.Change

	abs, newAbs string // Path and NewPath, absolute
}

// Count returns the number of blocks with status s.
func (r *Result) Count(s engine.Status) int {
	n := 0
	for _, b := range r.Blocks {
		if b.Status == s {
			n++
		}
	}
	return n
}

// OK reports whether every block applied, or stood already.
func (r *Result) OK() bool {
	for _, b := range r.Blocks {
		if !b.Status.OK() {
			return false
		}
	}
	return true
}

// Plan resolves blocks against the documents of src and returns what they
// do, writing nothing. The blocks of each file run in answer order, each
// against the text the ones before it left; after a block fails, the
// later blocks of the same file are skipped (resolved all the same with
// PlanOptions.KeepGoing) and other files go on. A file
// that cannot be read (outside the root, binary, not UTF-8) fails every
// block that names it. Plan returns an error only when ctx is done, and
// then at once, even in the middle of a block of a large file; in a
// smaller one, once the block under way is resolved (see shortText).
func Plan(ctx context.Context, src Source, blocks []dialect.Block, opt PlanOptions) (*Result, error) {
	p := &planner{src: src, blocks: blocks, opt: opt, seen: map[string]document{}}
	if c := opt.Cache; c != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		defer func() {
			c.reused, c.resolved = p.reused, p.resolved
			c.total += p.resolved
			if ctx.Err() != nil {
				c.forget(p.current)
			}
		}()
	}
	p.res.Blocks = make([]BlockResult, len(blocks))
	for i, b := range blocks {
		n := b.Number
		if n == 0 {
			n = i + 1 // a block no answer text numbered
		}
		p.res.Blocks[i] = BlockResult{Index: i, Number: n, Path: b.Path, Dialect: b.Dialect}
	}
	files := p.group(p.takePrior())
	done := len(blocks)
	for _, f := range files {
		if f.kept == nil {
			done -= len(f.blocks)
		}
	}
	p.done = done
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if f.kept != nil {
			p.res.Files = append(p.res.Files, *f.kept)
			continue
		}
		p.run(ctx, f)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opt.Atomic {
		p.withhold()
	}
	return &p.res, nil
}

// A planner holds the state of one Plan.
type planner struct {
	src    Source
	blocks []dialect.Block
	opt    PlanOptions
	res    Result
	// seen holds the state the files already planned are left in, by
	// absolute path, for the files a later one reaches by a move.
	seen map[string]document
	// done counts the blocks planned so far, for PlanOptions.Progress.
	done int
	// reused and resolved count the blocks whose results came from
	// PlanOptions.Cache, and those resolved, for PlanCache.Last.
	reused, resolved int
	// current is the file whose blocks were planned last with what
	// PlanOptions.Cache keeps of it ("" when they were planned without):
	// when ctx is done, a resolution of it may still run.
	current string
}

// planned counts n more blocks planned, and says so to the Progress
// callback.
func (p *planner) planned(n int) {
	p.done += n
	if p.opt.Progress != nil && n > 0 {
		p.opt.Progress(p.done, len(p.blocks))
	}
}

// A document is a file's state in the middle of a plan.
type document struct {
	text   string
	exists bool
}

// A fileBlocks is the blocks that apply to one file, in answer order. A
// move carries the file's later blocks along: those that name the
// destination after it.
type fileBlocks struct {
	abs    string
	blocks []int
	// conflicts holds the moves whose destination other blocks edit.
	conflicts map[int]bool
	// kept, when set, is what PlanOptions.Prior found of the file, which
	// no later block names: the file is not planned again.
	kept *FileChange
}

// takePrior takes the results PlanOptions.Prior found of the first blocks,
// when it may (see PlanOptions.Prior), and returns how many it took.
func (p *planner) takePrior() int {
	prior := p.opt.Prior
	if prior == nil || p.opt.Atomic || len(prior.Blocks) > len(p.blocks) || slices.ContainsFunc(p.blocks, func(b dialect.Block) bool { return b.Op == engine.OpMove }) {
		return 0
	}
	copy(p.res.Blocks, prior.Blocks)
	p.reused = len(prior.Blocks) // but for those planned again (see group)
	return len(prior.Blocks)
}

// group sorts the blocks by file, and fails those that name no file or a
// file outside the root. The first taken blocks are PlanOptions.Prior's:
// their files come first, as Prior's, each kept as Prior found it when no
// later block names it; a file only blocks past them named is left out.
func (p *planner) group(taken int) []*fileBlocks {
	var files []*fileBlocks
	byPath := map[string]*fileBlocks{}
	if taken > 0 {
		for _, fc := range p.opt.Prior.Files {
			f := &fileBlocks{abs: fc.abs}
			for _, i := range fc.Blocks {
				if i < taken {
					f.blocks = append(f.blocks, i)
				}
			}
			if len(f.blocks) == 0 {
				continue
			}
			if len(f.blocks) == len(fc.Blocks) {
				f.kept = &fc
			} else {
				p.reused -= len(f.blocks)
			}
			byPath[fc.abs] = f
			files = append(files, f)
		}
	}
	for i := taken; i < len(p.blocks); i++ {
		b := p.blocks[i]
		abs, err := p.path(i, b.Path)
		if err != nil {
			if b.Err != nil {
				err = b.Err // the malformed block says more than its path
			}
			p.fail(i, err, 0)
			continue
		}
		f := byPath[abs]
		if f == nil {
			f = &fileBlocks{abs: abs}
			byPath[abs] = f
			files = append(files, f)
		}
		f.blocks = append(f.blocks, i)
		if f.kept != nil {
			p.reused -= len(f.blocks) - 1 // Prior's, planned again
			f.kept = nil
		}
		if b.Err != nil || b.Op != engine.OpMove {
			continue
		}
		dst, err := p.src.Path(b.NewPath)
		if err != nil {
			continue // the move fails when it runs
		}
		if other := byPath[dst]; other != nil && other != f {
			if f.conflicts == nil {
				f.conflicts = map[int]bool{}
			}
			f.conflicts[i] = true
		}
		delete(byPath, abs)
		byPath[dst] = f
	}
	return files
}

// path resolves the path of block i, and records it in the block's result.
func (p *planner) path(i int, name string) (string, error) {
	if name == "" {
		return "", errors.New("the block names no file, and no target file was given")
	}
	abs, err := p.src.Path(name)
	if err != nil {
		return "", err
	}
	p.res.Blocks[i].Path, p.res.Blocks[i].abs = p.src.Rel(abs), abs
	return abs, nil
}

// read returns the state of the file at abs as the plan has left it so far.
func (p *planner) read(ctx context.Context, abs string) (document, error) {
	if d, ok := p.seen[abs]; ok {
		return d, nil
	}
	doc, err := p.opt.Cache.read(ctx, p.src, abs)
	if err != nil {
		return document{}, err
	}
	return document{text: doc.Text, exists: doc.Exists}, nil
}

// run plans the blocks of one file.
func (p *planner) run(ctx context.Context, f *fileBlocks) {
	fc := FileChange{Path: p.src.Rel(f.abs), Action: p.action(f.blocks), Blocks: f.blocks, abs: f.abs}
	doc, err := p.read(ctx, f.abs)
	if err != nil {
		for _, i := range f.blocks {
			p.fail(i, err, 0)
		}
		p.planned(len(f.blocks))
		fc.After = fc.Before
		p.res.Files = append(p.res.Files, fc)
		return
	}
	fc.Before, fc.Existed = doc.text, doc.exists
	st := fileState{abs: f.abs, document: doc, blocks: f.blocks, before: doc.text}
	cached := p.opt.Cache.begin(p, f, doc)
	p.current = ""
	if cached != nil {
		p.current = f.abs
	}
	if p.opt.Cache == nil {
		if d := p.opt.Prepared.take(f.abs, doc.text); d != nil {
			// The same text: its string, so that engineDoc does not
			// compare the two again.
			st.doc, st.text = d, d.Text()
		}
	}

	failed := -1
	for k := 0; k < len(f.blocks); {
		i := f.blocks[k]
		b := p.blocks[i]
		if ctx.Err() != nil {
			return // Plan returns the error
		}
		switch {
		case failed >= 0 && !p.opt.KeepGoing:
			p.skip(i, failed)
		case b.Err != nil:
			p.fail(i, b.Err, 0)
			failed = i
		case p.restore(cached, &st, i):
			if !p.res.Blocks[i].Status.OK() {
				failed = i
			}
		case b.Op == engine.OpReplace || b.Op == engine.OpInsert:
			p.resolved++
			if p.editText(ctx, &st, i) >= 0 {
				failed = i
			}
			cached.record(p, i, &st, st.historic)
		case f.conflicts[i]:
			p.fail(i, fmt.Errorf("cannot move %s to %s: other blocks edit %s", p.src.Rel(st.abs), b.NewPath, b.NewPath), 0)
			failed = i
		default:
			p.resolved++
			start := time.Now()
			m, err := p.fileOp(ctx, &st, b)
			if err != nil {
				p.fail(i, err, time.Since(start))
				failed = i
			} else {
				p.apply(i, m, nil, time.Since(start))
			}
			cached.record(p, i, &st, st.historic)
		}
		p.planned(1)
		k++
	}

	if failed >= 0 && p.moves(f.blocks) && !p.opt.KeepGoing {
		// A file's move and its edits go together (as one section of an
		// apply-patch does): the file is not moved without its changes,
		// nor changed where it was not moved to.
		for _, i := range f.blocks {
			if r := &p.res.Blocks[i]; r.Status == engine.StatusApplied {
				r.Status = engine.StatusSkipped
				r.Err = &engine.Error{Reason: engine.ReasonSkipped,
					Summary: fmt.Sprintf("withheld: block %d did not apply, and this file's move and edits go together", failed+1)}
				r.Message = r.Err.Error()
			}
		}
		st = fileState{abs: f.abs, document: doc}
	}
	if st.abs != f.abs {
		fc.NewPath, fc.newAbs = p.src.Rel(st.abs), st.abs
		p.seen[f.abs] = document{}
	}
	p.seen[st.abs] = st.document
	if p.opt.Cache == nil && st.doc != nil && st.doc.Text() == st.text {
		p.opt.Prepared.keep(st.abs, st.doc)
	}
	fc.After, fc.Exists, fc.Edits = st.text, st.exists, st.edits
	fc.Changed = fc.After != fc.Before || fc.Exists != fc.Existed || fc.NewPath != ""
	p.res.Files = append(p.res.Files, fc)
}

// moves reports whether one of the blocks moves its file.
func (p *planner) moves(blocks []int) bool {
	for _, i := range blocks {
		if p.blocks[i].Op == engine.OpMove {
			return true
		}
	}
	return false
}

// action returns what the blocks ask for their file: delete, move or
// create when one of them asks for that, in this order, modify otherwise.
func (p *planner) action(blocks []int) Action {
	asked := map[engine.Op]bool{}
	for _, i := range blocks {
		asked[p.blocks[i].Op] = true
	}
	switch {
	case asked[engine.OpDelete]:
		return ActionDelete
	case asked[engine.OpMove]:
		return ActionMove
	case asked[engine.OpCreate]:
		return ActionCreate
	}
	return ActionModify
}

// A fileState is one file in the middle of a plan: where it is and what
// it holds.
type fileState struct {
	abs string
	document
	// doc is text prepared for the engine, carried from one block to the
	// next so that the work on the lines a block leaves alone is done
	// once, and how the blocks moved the lines of the file as it was;
	// nil until a block needs it, or when text is set otherwise.
	doc *engine.Document
	// edits are the changes the blocks made so far, as edits of the text
	// before them.
	edits textEdits
	// blocks are the file's blocks; before is its text before them.
	blocks []int
	before string
	// replayed holds, once the history told that the file's blocks were
	// applied before, whole, the match of each saying so; replayTried
	// says the history was asked.
	replayed    map[int]*engine.Match
	replayTried bool
	// historic says a block's resolution asked the history, and the
	// history had a say; replaced says a file operation replaced the
	// text.
	historic, replaced bool
}

// replaceText makes the file's text text as a file operation does, all of
// it at once.
func (st *fileState) replaceText(text string) {
	st.edits.add(st.text, []engine.Change{{Start: 0, End: len(st.text), Text: text}})
	st.text, st.replaced = text, true
}

// replay returns the match saying that block i stands already when the
// file's blocks, every one an edit of its text, applied in order to one
// of its earlier versions make the file as it is: an answer applied
// before, sent again, which a chained answer (a block rewriting what an
// earlier one wrote) cannot tell block by block. It asks the history once
// per file, and only while no block has changed the file.
func (p *planner) replay(st *fileState, i int) *engine.Match {
	if m, ok := st.replayed[i]; ok {
		return m
	}
	if st.replayTried || st.text != st.before || p.opt.History == nil {
		return nil
	}
	st.replayTried = true
	edits := make([]engine.Edit, 0, len(st.blocks))
	for _, k := range st.blocks {
		b := p.blocks[k]
		if b.Err != nil || b.Op != engine.OpReplace && b.Op != engine.OpInsert {
			return nil
		}
		edits = append(edits, b.Edit)
	}
	ms, ok := engine.Replayed(st.before, edits, p.opt.History.Versions(st.abs), p.opt.Engine)
	if !ok {
		return nil
	}
	st.replayed = make(map[int]*engine.Match, len(ms))
	for k, m := range ms {
		st.replayed[st.blocks[k]] = m
	}
	return st.replayed[i]
}

// engineDoc returns the file's text prepared for the engine.
func (st *fileState) engineDoc() *engine.Document {
	if st.doc == nil || st.doc.Text() != st.text {
		st.doc = engine.NewDocument(st.text)
	}
	return st.doc
}

// editText resolves the text edit of block i against the file, as the
// blocks before it left it, and returns i when it failed, or -1.
//
// The blocks of a file are resolved one at a time, rather than together
// by engine.ApplyEdits, so that each one's lines can be told in the file
// as it was, and each one counts for PlanOptions.Progress.
func (p *planner) editText(ctx context.Context, st *fileState, i int) int {
	if !st.exists {
		p.fail(i, &fs.PathError{Op: "edit", Path: p.src.Rel(st.abs), Err: fs.ErrNotExist}, 0)
		return i
	}
	e := p.blocks[i].Edit
	type resolved struct {
		m       *engine.Match
		err     error
		next    *engine.Document
		elapsed time.Duration
		// historic says the history had a say (see fileState).
		historic bool
	}
	doc := st.engineDoc()
	r, err := await(ctx, len(st.text), func() resolved {
		start := time.Now()
		if rm := st.replayed[i]; rm != nil {
			return resolved{m: rm, next: doc, elapsed: time.Since(start)}
		}
		m, err := doc.Resolve(e, p.opt.Engine)
		historic := false
		if p.opt.History != nil && engine.NeedsHistory(e, m, err) {
			// Only a search not found as written costs a look at the
			// history. When it holds versions of the file other than
			// the text before the answer (which the engine passes over),
			// the block's fate depends on them, and through a replay on
			// the blocks after it.
			versions := p.opt.History.Versions(st.abs)
			historic = slices.ContainsFunc(versions, func(v engine.Version) bool {
				return v.Text != st.before || st.replaced
			})
			if rm := p.replay(st, i); rm != nil {
				return resolved{m: rm, next: doc, elapsed: time.Since(start), historic: historic}
			}
			sm, serr := doc.Stale(e, m, err, versions)
			switch {
			case serr != nil:
				m, err = nil, serr
			case sm != nil:
				m, err = sm, nil // the history tells the change stands
			}
		}
		elapsed := time.Since(start)
		if err != nil {
			return resolved{err: err, elapsed: elapsed, historic: historic}
		}
		return resolved{m: m, next: doc.Apply(m), elapsed: elapsed, historic: historic}
	})
	if err != nil {
		p.fail(i, err, 0)
		return i
	}
	// Set here, not in the resolution: once ctx is done, that may still
	// run while the plan reads the file's state.
	st.historic = st.historic || r.historic
	if r.err != nil {
		p.failIn(i, st.text, r.err, r.elapsed)
		return i
	}
	text := r.next.Text()
	p.apply(i, r.m, doc, r.elapsed)
	st.edits.add(st.text, r.m.Changes)
	st.text, st.doc = text, r.next
	return -1
}

// restore gives block i the result the cache kept for it, and reports
// whether it did; once every block the cache kept is restored, the file's
// state is the one they left.
func (p *planner) restore(r *fileRun, st *fileState, i int) bool {
	kept, ok := r.take(p, i)
	if !ok {
		return false
	}
	p.reused++
	b := &p.res.Blocks[i]
	b.Status, b.Strategy, b.Score = kept.Status, kept.Strategy, kept.Score
	b.StartLine, b.EndLine = kept.StartLine, kept.EndLine
	b.ResolvedStartLine, b.ResolvedEndLine = kept.ResolvedStartLine, kept.ResolvedEndLine
	b.Message, b.Err, b.Elapsed = kept.Message, kept.Err, kept.Elapsed
	if r.done() {
		r.restore(st)
	}
	return true
}

// fileOp carries out a create, a delete or a move on the file, and
// returns the match that describes it.
func (p *planner) fileOp(ctx context.Context, st *fileState, b dialect.Block) (*engine.Match, error) {
	e := b.Edit
	rel := p.src.Rel(st.abs)
	m := &engine.Match{Strategy: e.Op.String(), Score: 1, StartLine: 1}
	switch e.Op {
	case engine.OpCreate:
		switch {
		case !st.exists:
			st.replaceText(e.New)
			st.exists = true
			m.Notes = []string{"created " + rel}
		case st.text == e.New:
			m.AlreadyApplied = true
			m.Notes = []string{rel + " already exists with this content; nothing changed"}
		case st.text == "":
			// An empty file has nothing to lose: an empty search for it
			// (aider's, OpenCode's way to write a file) fills it.
			st.replaceText(e.New)
			m.Notes = []string{"filled " + rel + ", which was empty"}
		default:
			return nil, fmt.Errorf("cannot create %s: it already exists with other content; not overwritten", rel)
		}
		m.EndLine = lineCount(e.New)
	case engine.OpDelete:
		if !st.exists {
			m.AlreadyApplied, m.EndLine = true, 0
			m.Notes = []string{rel + " does not exist: deleted already; nothing changed"}
			return m, nil
		}
		var err error
		if m, err = p.deletion(ctx, st, b); err != nil {
			return nil, err
		}
		st.replaceText("")
		st.exists = false
	case engine.OpMove:
		if !st.exists {
			return nil, &fs.PathError{Op: "move", Path: rel, Err: fs.ErrNotExist}
		}
		dst, err := p.src.Path(e.NewPath)
		if err != nil {
			return nil, fmt.Errorf("cannot move %s: %w", rel, err)
		}
		if dst != st.abs {
			at, err := p.read(ctx, dst)
			if err == nil && at.exists {
				err = fmt.Errorf("%s already exists; not overwritten", p.src.Rel(dst))
			}
			if err != nil {
				return nil, fmt.Errorf("cannot move %s: %w", rel, err)
			}
		}
		m.EndLine = lineCount(st.text)
		m.Notes = []string{fmt.Sprintf("moved %s to %s", rel, p.src.Rel(dst))}
		st.abs = dst
	default:
		return nil, fmt.Errorf("%s is not a file operation", e.Op)
	}
	return m, nil
}

// deletion checks the deletion b of the file against what it holds, and
// returns the match that describes it: the lines b removes must be the
// whole file, found as any search is (so a fuzzy match says so), unless
// b's dialect deletes by name alone; a deletion that names no line only
// deletes an empty file. This is git apply's rule for a diff to
// /dev/null.
func (p *planner) deletion(ctx context.Context, st *fileState, b dialect.Block) (*engine.Match, error) {
	rel := p.src.Rel(st.abs)
	n := lineCount(st.text)
	switch {
	case b.Unchecked:
		return &engine.Match{Strategy: engine.OpDelete.String(), Score: 1, StartLine: 1, EndLine: n,
			Notes: []string{fmt.Sprintf("deleted %s; its content was not checked: %s deletes a file by its name alone", rel, b.Dialect)}}, nil
	case b.Old == "" && st.text == "":
		return &engine.Match{Strategy: "exact", Score: 1, StartLine: 1, EndLine: 0,
			Notes: []string{"deleted " + rel + ", which was empty"}}, nil
	case b.Old == "":
		return nil, &engine.Error{Reason: engine.ReasonNotFound,
			Summary: fmt.Sprintf("not deleted: the deletion of %s removes none of its %s; a deletion must remove every line of the file, as git apply requires", rel, plural(n, "line"))}
	}
	type resolved struct {
		m   *engine.Match
		err error
	}
	doc := st.engineDoc() // its lines count as the person sees them
	r, err := await(ctx, len(st.text), func() resolved {
		m, err := doc.Resolve(engine.Edit{Path: b.Path, Old: b.Old, Dialect: b.Dialect}, p.opt.Engine)
		return resolved{m, err}
	})
	if err != nil {
		return nil, err
	}
	m, err := r.m, r.err
	if err != nil {
		// Why the removed lines are not there, with the candidates.
		var e *engine.Error
		if errors.As(err, &e) {
			c := *e
			c.Summary = fmt.Sprintf("not deleted: the lines the deletion removes are not what %s holds: %s", rel, e.Summary)
			return nil, &c
		}
		return nil, fmt.Errorf("not deleted: %w", err)
	}
	if rest := m.Apply(st.text); rest != "" {
		what := fmt.Sprintf("lines %d-%d", m.StartLine, m.EndLine)
		if m.EndLine <= m.StartLine {
			what = fmt.Sprintf("line %d", m.StartLine)
		}
		return nil, &engine.Error{Reason: engine.ReasonNotFound,
			Summary: fmt.Sprintf("not deleted: the lines the deletion removes are only %s of %s, which has %s; the rest would be lost, and a deletion must remove every line of the file, as git apply requires",
				what, rel, plural(n, "line"))}
	}
	m.Notes = append(m.Notes, "deleted "+rel)
	return m, nil
}

// shortText is the size under which a text's blocks are resolved in the
// planner's goroutine rather than awaited in their own (see await). On
// such a text the engine's bounds hold a block to a few milliseconds
// (BenchmarkResolveAdversarial: 7 ms on 100,000 lines), tens with a look
// at the history: that is how much later Plan stops when ctx is done.
// The goroutine and the two hand-overs between threads each block then
// costs are spared: on BenchmarkApplyRoundTrip (20 blocks, 5,000 lines)
// about 0.25 ms of 3.5.
const shortText = 1 << 20

// await returns what f computes, or ctx's error as soon as ctx is done:
// f then finishes unseen, which is harmless as it only computes. This is
// how Plan stops at once, even in the middle of a long resolution; f works
// on size bytes, and when they are under shortText it runs in the
// caller's goroutine, and Plan stops once it returns. A panic in f is
// raised again in the caller's goroutine, with f's stack, so that the
// caller's recover sees it (the language server answers it with an error
// instead of dying); once f is unseen, its panic is dropped.
func await[T any](ctx context.Context, size int, f func() T) (T, error) {
	var zero T
	if err := ctx.Err(); err != nil {
		return zero, err
	}
	if size < shortText {
		return f(), nil
	}
	type outcome struct {
		v     T
		panic any
		stack []byte
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{panic: p, stack: debug.Stack()}
			}
		}()
		done <- outcome{v: f()}
	}()
	select {
	case o := <-done:
		if o.panic != nil {
			panic(fmt.Sprintf("%v\n\ngoroutine of the resolution:\n%s", o.panic, o.stack))
		}
		return o.v, nil
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// plural returns "1 line" or "n lines".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// lineCount returns the number of lines of s; a final newline ends the
// last line rather than starting another.
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

// apply records that block i applied as m says, m resolved against doc,
// whose lines moved from the file as it was (nil: a file operation, which
// counts the lines of the file it makes).
func (p *planner) apply(i int, m *engine.Match, doc *engine.Document, elapsed time.Duration) {
	r := &p.res.Blocks[i]
	r.Status, r.Strategy, r.Score = engine.StatusApplied, m.Strategy, m.Score
	if m.AlreadyApplied {
		r.Status = engine.StatusAlreadyApplied
	}
	r.ResolvedStartLine, r.ResolvedEndLine = m.StartLine, m.EndLine
	r.StartLine, r.EndLine = m.StartLine, m.EndLine
	if doc != nil {
		r.StartLine, r.EndLine = doc.Shown(m.StartLine, m.EndLine)
	}
	r.Message = m.Message()
	r.Elapsed = elapsed
}

// fail records that block i failed with err.
func (p *planner) fail(i int, err error, elapsed time.Duration) {
	p.failIn(i, "", err, elapsed)
}

// failIn records that block i failed with err, resolved against text.
func (p *planner) failIn(i int, text string, err error, elapsed time.Duration) {
	r := &p.res.Blocks[i]
	r.Status, r.Err, r.Message, r.Elapsed = engine.StatusFailed, err, p.explain(i, text, err), elapsed
}

// explain returns the message for err, why block i did not apply against
// text: the error itself, or for an edit-v3 block the words of that
// format, which its users know.
func (p *planner) explain(i int, text string, err error) string {
	b := p.blocks[i]
	switch {
	case b.Dialect != dialect.EditV3:
		return err.Error()
	case errors.Is(err, ErrBinary):
		return "Cannot edit binary file\n" + err.Error()
	case errors.Is(err, fs.ErrNotExist):
		return "File not found: " + p.res.Blocks[i].Path
	}
	return dialect.Explain(b, text, err)
}

// skip records that block i was skipped because block failed, of the same
// file, did not apply.
func (p *planner) skip(i, failed int) {
	r := &p.res.Blocks[i]
	r.Status = engine.StatusSkipped
	r.Err = &engine.Error{Reason: engine.ReasonSkipped,
		Summary: fmt.Sprintf("skipped: block %d, earlier in the same file, did not apply", failed+1)}
	r.Message = p.explain(i, "", r.Err)
}

// withhold undoes the plan unless every block applied: the blocks that
// applied are reported skipped, and no file changes.
func (p *planner) withhold() { p.res.Withhold() }

// Withhold undoes the result unless every block applied (or stood
// already): the blocks that applied are reported skipped, and no file
// changes. It is what
// PlanOptions.Atomic does, for a caller that fails blocks after Plan.
func (r *Result) Withhold() {
	first := -1
	for i, b := range r.Blocks {
		if !b.Status.OK() {
			first = i
			break
		}
	}
	if first < 0 {
		return
	}
	for i := range r.Blocks {
		b := &r.Blocks[i]
		if b.Status != engine.StatusApplied {
			continue
		}
		b.Status = engine.StatusSkipped
		b.Err = &engine.Error{Reason: engine.ReasonSkipped,
			Summary: fmt.Sprintf("withheld: the edits are atomic, and block %d did not apply", first+1)}
		b.Message = b.Err.Error()
	}
	for i := range r.Files {
		r.Files[i].revert()
	}
}

// Fail records that the change of file i will not be made, for the reason
// err: the blocks that applied to it fail with err, and the file keeps its
// content.
func (r *Result) Fail(i int, err error) {
	f := &r.Files[i]
	for _, b := range f.Blocks {
		if br := &r.Blocks[b]; br.Status == engine.StatusApplied {
			br.Status, br.Err, br.Message = engine.StatusFailed, err, err.Error()
		}
	}
	if f.Changed {
		f.Err = err
	}
	f.revert()
}

// revert leaves the file as it was.
func (f *FileChange) revert() {
	f.After, f.Exists, f.NewPath, f.newAbs, f.Changed, f.Edits = f.Before, f.Existed, "", "", false, nil
}

// Abs returns the absolute path of the file, as the Source mapped it.
func (f *FileChange) Abs() string { return f.abs }

// NewAbs returns the absolute path a move puts the file at; empty when
// it stays.
func (f *FileChange) NewAbs() string { return f.newAbs }

// TextAfter returns the file's text after the plan: After, or "" for a
// file it deletes.
func (f *FileChange) TextAfter() string {
	if !f.Exists {
		return ""
	}
	return f.After
}

// AbsAfter returns the absolute path the file has after the plan: where a
// move puts it, else where it is.
func (f *FileChange) AbsAfter() string {
	if f.newAbs != "" {
		return f.newAbs
	}
	return f.abs
}
