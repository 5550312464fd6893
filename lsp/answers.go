package lsp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/lsp/internal/span"
	"github.com/graft-editor/graft/workspace"
)

// answers follows the open documents that hold an agent's answer (a
// markdown buffer with edit blocks pasted in, above all). Each block gets
// a diagnostic on its lines saying what graft.apply would do with it now:
// an error when it will not resolve, information when it resolves only
// fuzzily, a hint when it applies exactly or its change stands in the
// file already (it was applied). Each block shows its own state, even
// after an earlier block of its file fails (workspace.PlanOptions.KeepGoing),
// though graft.apply would skip it. The diagnostics are computed off
// the handler goroutine, a short while after the answer or a file its
// blocks name last changed, and dropped when the document moved on while
// they were computed. Code actions and code lenses apply or preview the
// blocks through graft.apply and graft.preview.
type answers struct {
	s *server
	// ctx is cancelled by stop; every refresh runs under it.
	ctx    context.Context
	cancel context.CancelFunc
	// wg counts the refreshes running, for stop to wait for.
	wg sync.WaitGroup

	mu      sync.Mutex
	docs    map[string]*answerDoc // by URI
	stopped bool
}

// An answerDoc is what the server keeps of one document that may hold an
// answer. Its fields are guarded by answers.mu, but for pub.
type answerDoc struct {
	uri string
	// gen counts the refreshes asked for; a refresh whose generation is no
	// longer current is dropped.
	gen   uint64
	timer *time.Timer
	// waiting is when the oldest change not yet refreshed came; zero when
	// none waits.
	waiting time.Time
	// flight is the context of the refreshes in flight, and cut cancels
	// it; nil before the first refresh and after a cut.
	flight context.Context
	cut    context.CancelFunc
	// targets holds the absolute paths of the files the blocks name, as
	// the workspace maps them and as the client opened them: a change to
	// one of them refreshes the answer.
	targets map[string]bool
	// last is what the latest refresh found; nil before the first.
	last *answerState
	// run is held by the refresh under way: the refreshes of an answer
	// take turns, so that one a change to the answer made stale runs to
	// its end (see schedule) before the next begins, and the next takes
	// what it resolved; one running after it would plan the older blocks
	// over the newer ones in the plan cache.
	run sync.Mutex
	// parser parses the answer again after each change, reading again
	// only what the change may have changed; run is held while it does.
	parser dialect.Parser
	// planned is what the last refresh planned, for the next to take
	// when none of what the plan read changed; nil before the first.
	planned *planned
	// cache keeps what each file's blocks did at the last refresh: the
	// next resolves only the blocks that are new or changed, so that an
	// answer streaming in costs about one resolution of each block.
	cache workspace.PlanCache
	// pub is held while a refresh checks that it is current and publishes,
	// so that publications go out in the order of the generations.
	pub sync.Mutex
	// published are the diagnostics last published, guarded by pub: the
	// same ones are not sent again (a line appended to the answer most
	// often changes none).
	published []protocol.Diagnostic
}

// An answerState is the fate of an answer's blocks, as one refresh found
// it.
type answerState struct {
	version int32
	blocks  []blockState
	// planReused says the refresh took the plan of the one before (see
	// planned).
	planReused bool
}

// A blockState is where one block stands in the answer and what
// graft.apply would do with it.
type blockState struct {
	span engine.Span
	// path is the target as the workspace resolved it, or as the block
	// wrote it.
	path   string
	status engine.Status
	// number is the block's number as a person counts the answer's
	// blocks (the file sections of one apply-patch share it).
	number int
	// places are, for a block refused as ambiguous, the places of its
	// file it resembles equally, for the person to choose one.
	places []place
}

// A place is one of the places an ambiguous block resembles: its lines in
// the file as the person sees it, and the first of them that is not
// blank, to tell it by.
type place struct {
	start, end int
	first      string
}

// maxPlaces bounds the places offered for one ambiguous block.
const maxPlaces = 5

// clipTitle returns line quoted for a menu entry, cut to a length that
// reads on one line.
func clipTitle(line string) string {
	const maxRunes = 50
	if r := []rune(line); len(r) > maxRunes {
		line = string(r[:maxRunes-1]) + "…"
	}
	return "`" + line + "`"
}

// answerLimit bounds the number of blocks an answer document gets
// diagnostics for: past it, a document is more likely a log or a diff of
// a whole tree than an answer to review block by block.
const answerLimit = 2000

// answerSized reports whether text is no larger than an answer may be,
// workspace.MaxFileSize, as graft apply bounds it. A larger document is a
// log or a dump: parsing it would hold the handler's queue (code lenses
// and actions parse a document not yet refreshed) for a second per
// 250 MiB, and it gets no diagnostics.
func answerSized(text string) bool { return len(text) <= workspace.MaxFileSize }

func newAnswers(s *server) *answers {
	ctx, cancel := context.WithCancel(context.Background())
	return &answers{s: s, ctx: ctx, cancel: cancel, docs: map[string]*answerDoc{}}
}

// changed refreshes d when it may hold an answer, and every answer whose
// blocks name the file d holds.
func (a *answers) changed(ctx context.Context, d *openDoc) {
	a.s.mu.Lock()
	candidate := a.s.answerCandidate(d)
	a.s.mu.Unlock()

	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stopped {
		return
	}
	if candidate {
		ad := a.docs[d.uri]
		if ad == nil {
			ad = &answerDoc{uri: d.uri}
			ad.cache.Changed = a.s.history.diskChanged
			a.docs[d.uri] = ad
		}
		a.schedule(ad, false)
	}
	if d.path == "" {
		return
	}
	for uri, ad := range a.docs {
		if uri != d.uri && ad.targets[d.path] {
			a.schedule(ad, true)
		}
	}
}

// watching reports whether an answer names a file.
func (a *answers) watching() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, ad := range a.docs {
		if len(ad.targets) > 0 {
			return true
		}
	}
	return false
}

// diskChanged refreshes every answer whose blocks name the file at path
// (real, with its symbolic links evaluated), or a file under it (a folder
// removed or moved whole), which changed on the disk while the editor
// does not have it open.
func (a *answers) diskChanged(path, real string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stopped {
		return
	}
	for _, ad := range a.docs {
		for t := range ad.targets {
			if under(t, path) || under(t, real) {
				a.schedule(ad, true)
				break
			}
		}
	}
}

// closed forgets d and clears its diagnostics; the answers that name the
// file d held are refreshed, as that file is now read from disk.
func (a *answers) closed(ctx context.Context, d *openDoc) {
	a.mu.Lock()
	ad := a.docs[d.uri]
	if ad != nil {
		delete(a.docs, d.uri)
		a.halt(ad, true)
	}
	if d.path != "" && !a.stopped {
		for _, other := range a.docs {
			if other.targets[d.path] {
				a.schedule(other, true)
			}
		}
	}
	a.mu.Unlock()
	if ad != nil {
		ad.pub.Lock()
		defer ad.pub.Unlock()
	}
	a.s.publish(ctx, protocol.DocumentURI(d.uri), nil, sourceAnswers, nil)
}

// stop ends the refreshes: the timers are stopped, those in flight are
// cancelled and waited for.
func (a *answers) stop() {
	a.mu.Lock()
	a.stopped = true
	for _, ad := range a.docs {
		a.halt(ad, true)
	}
	a.mu.Unlock()
	a.cancel()
	a.wg.Wait()
}

// halt stops the refresh of ad that is waiting, makes those already
// started stale, and with cut, cuts them short. a.mu is held.
func (a *answers) halt(ad *answerDoc, cut bool) {
	ad.gen++
	if ad.timer != nil {
		ad.timer.Stop()
		ad.timer = nil
	}
	if cut && ad.cut != nil {
		ad.cut()
		ad.flight, ad.cut = nil, nil
	}
}

// schedule refreshes ad after the debounce delay, unless it is asked to
// again before; but a change waits at most twice the delay, so that
// changes that keep coming, faster than the delay (an answer streaming
// into a chat buffer), still show each block's diagnostic soon after the
// block is complete. With cut, the refreshes in flight are cut short: a
// file the blocks name changed, and what they resolved in it is lost
// anyway. A change to the answer alone lets them finish, and publish
// nothing: what they resolve of the blocks that did not change is what
// the next refresh takes from the plan cache, where a plan cut short
// loses what it resolved of its file. a.mu is held.
func (a *answers) schedule(ad *answerDoc, cut bool) {
	a.halt(ad, cut)
	gen := ad.gen
	now := time.Now()
	if ad.waiting.IsZero() {
		ad.waiting = now
	}
	delay := min(a.s.opt.Debounce, max(0, ad.waiting.Add(2*a.s.opt.Debounce).Sub(now)))
	ad.timer = time.AfterFunc(delay, func() { a.refresh(ad, gen) })
}

// refresh computes the diagnostics of ad and publishes them, unless ad
// changed meanwhile.
func (a *answers) refresh(ad *answerDoc, gen uint64) {
	ad.run.Lock()
	done := sync.OnceFunc(ad.run.Unlock)
	defer done()
	a.mu.Lock()
	if a.stopped || ad.gen != gen {
		a.mu.Unlock()
		return
	}
	if ad.flight == nil {
		ad.flight, ad.cut = context.WithCancel(a.ctx)
	}
	ctx, cancel := context.WithCancel(ad.flight)
	ad.waiting = time.Time{}
	a.wg.Add(1)
	a.mu.Unlock()
	defer a.wg.Done()
	defer cancel()

	start := time.Now()
	diags, st, err := a.compute(ctx, ad, gen)
	if err != nil {
		if ctx.Err() == nil && !errors.Is(err, errStale) {
			a.s.log.Warn("answer diagnostics", zap.String("uri", ad.uri), zap.Error(err))
		} else if ce := a.s.log.Check(zap.DebugLevel, "answer diagnostics"); ce != nil {
			// Stopped early by a later change: what it cost counts all
			// the same.
			ce.Write(zap.String("uri", ad.uri), zap.Bool("cut", true), zap.Int("resolvedTotal", ad.cache.Resolved()),
				zap.Duration("elapsed", time.Since(start)))
		}
		return
	}

	ad.pub.Lock()
	a.mu.Lock()
	current := ad.gen == gen && a.docs[ad.uri] == ad
	var lensesChanged bool
	if current {
		lensesChanged = !sameLenses(ad.last, st)
		ad.last = st
	}
	a.mu.Unlock()
	published := false
	if current && a.version(ad.uri) == st.version && !sameDiagnostics(diags, ad.published) {
		v := st.version
		a.s.publish(ctx, protocol.DocumentURI(ad.uri), &v, sourceAnswers, diags)
		ad.published, published = diags, true
	}
	ad.pub.Unlock()
	if ce := a.s.log.Check(zap.DebugLevel, "answer diagnostics"); ce != nil {
		reused, resolved := ad.cache.Last()
		if st.planReused {
			reused, resolved = len(st.blocks), 0
		}
		ce.Write(zap.String("uri", ad.uri), zap.Int32("version", st.version), zap.Int("blocks", len(st.blocks)),
			zap.Int("reused", reused), zap.Int("resolved", resolved), zap.Int("resolvedTotal", ad.cache.Resolved()), zap.Bool("published", published),
			zap.Bool("current", current), zap.Duration("elapsed", time.Since(start)))
	}

	if current && lensesChanged {
		// The next refresh need not wait for the client's answer.
		done()
		a.refreshLenses(ctx)
	}
}

// errStale is returned by compute when the document moved on.
var errStale = errors.New("stale")

// compute resolves the blocks of the answer in ad as graft.apply would,
// against the documents as they are now, and returns their diagnostics.
func (a *answers) compute(ctx context.Context, ad *answerDoc, gen uint64) ([]protocol.Diagnostic, *answerState, error) {
	d, err := a.s.doc(ad.uri)
	if err != nil {
		return nil, nil, errStale
	}
	snap, err := d.buf.Snapshot()
	if err != nil {
		return nil, nil, fmt.Errorf("reading the answer: %w", err)
	}
	st := &answerState{version: snap.Version}
	if !answerSized(snap.Text) {
		a.setTargets(ad, gen, nil)
		return nil, st, nil
	}
	view := a.s.docs.View()
	blocks, err := ad.parser.Parse(snap.Text, dialect.Options{Exists: view.Exists})
	if errors.Is(err, dialect.ErrNoBlocks) || len(blocks) > answerLimit {
		a.setTargets(ad, gen, nil)
		return nil, st, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("parsing the answer: %w", err)
	}

	a.s.mu.Lock()
	threshold, caps := a.s.settings.Threshold, a.s.caps
	a.s.mu.Unlock()
	m := mapperOf(snap)
	a.mu.Lock()
	p := ad.planned
	a.mu.Unlock()
	// When nothing the plan read changed, or nothing but the block still
	// being written, each block's diagnostic says what it said, on the
	// lines where the block stands now.
	k := p.standing(view, a.s.history, blocks, threshold)
	st.planReused = p != nil && k == len(blocks) && k == len(p.keys)
	if !st.planReused {
		if p, err = a.plan(ctx, ad, gen, view, blocks, threshold, caps, m, p, k); err != nil {
			return nil, nil, err
		}
		a.mu.Lock()
		if ad.gen == gen {
			ad.planned = p
		}
		a.mu.Unlock()
	}
	diags, states := p.moved(m, caps.enc, blocks)
	st.blocks = states
	return diags, st, nil
}

// plan resolves blocks as graft.apply would, each block on its own
// (workspace.PlanOptions.KeepGoing), against the documents as they are
// now, and returns what it read and found (see planned), with each
// block's diagnostic on its lines of the answer m. view is the view
// blocks were parsed in. The first k blocks are blocks that prev, the
// last plan, planned, against the files as they are now (see
// planned.standing): they keep its results, and of the files they name,
// only those the blocks after them name are planned again, so that a plan
// after each block that closes in an answer streaming in does not go over
// the blocks before (workspace.PlanOptions.Prior says when the plan
// cannot take them: a block that moves a file carries the blocks after it
// that name its destination along).
func (a *answers) plan(ctx context.Context, ad *answerDoc, gen uint64, view *workspace.View, blocks []dialect.Block, threshold float64, caps capabilities, m *span.Mapper, prev *planned, k int) (*planned, error) {
	p := &planned{roots: view.Roots(), threshold: threshold, watched: map[string]bool{}, keys: make([]planKey, 0, len(blocks))}
	var prior *workspace.Result
	if k > 0 {
		maps.Copy(p.watched, prev.watched)
		p.keys = append(p.keys, prev.keys[:k]...)
		p.targets = slices.Clone(prev.targets)
		prior = &workspace.Result{Blocks: prev.res.Blocks[:k], Files: prev.res.Files}
	}
	var files []string
	named := map[string]bool{} // the blocks of an answer name a few files each
	for _, b := range blocks[k:] {
		p.keys = append(p.keys, keyOf(b))
		for _, name := range []string{b.Path, b.NewPath} {
			if name == "" || named[name] {
				continue
			}
			named[name] = true
			abs, err := view.Path(name)
			if err != nil {
				continue
			}
			if !p.watched[abs] {
				files = append(files, abs)
			}
			p.watched[abs] = true
			if snap, ok := view.Snapshot(abs); ok {
				p.watched[snap.Path] = true // as the client opened it
			}
		}
	}
	// The targets are known before the view of the plan is taken: a
	// target that changes after it refreshes the answer again. When they
	// were known already, a change since view was taken has made this
	// refresh stale, and view serves.
	current, known := a.setTargets(ad, gen, p.watched)
	if !current {
		return nil, errStale
	}
	if !known {
		view = a.s.docs.View()
	}
	// Each block's own state: one after a failed block of its file is
	// resolved all the same, so that the person sees which blocks are
	// fine before the failed one is mended.
	res, err := workspace.Plan(ctx, view, blocks, workspace.PlanOptions{
		Engine:    engine.Options{Threshold: threshold},
		KeepGoing: true,
		History:   a.s.history,
		Cache:     &ad.cache,
		Prior:     prior,
	})
	if err != nil {
		return nil, err
	}
	refuseUnsupported(res, caps)
	p.res = res
	for _, abs := range files {
		p.targets = append(p.targets, stampOf(view, a.s.history, abs))
	}
	t := targetFiles{s: a.s, view: view, res: res}
	p.diags = make([]protocol.Diagnostic, len(blocks))
	p.states = make([]blockState, len(blocks))
	unchanged := prev.unchanged(p)
	for i, b := range blocks {
		r := &res.Blocks[i]
		if prev.keeps(p, i, unchanged) {
			// Made again, it would say the same: a plan after each
			// block that closes in an answer streaming in would
			// otherwise make every block's diagnostic again.
			p.states[i], p.diags[i] = prev.states[i], prev.diags[i]
			p.states[i].span, p.diags[i].Range = b.Source, blockRange(m, caps.enc, b, r)
			continue
		}
		p.states[i] = blockState{span: b.Source, path: r.Path, status: r.Status, number: b.Number, places: t.places(r)}
		p.diags[i] = diagnose(m, caps, &t, b, r)
	}
	return p, nil
}

// setTargets records the files the answer names, unless the refresh of
// generation gen is stale; it reports whether it is current, and whether
// each of targets was one already.
func (a *answers) setTargets(ad *answerDoc, gen uint64, targets map[string]bool) (current, known bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if ad.gen != gen {
		return false, false
	}
	known = true
	for t := range targets {
		known = known && ad.targets[t]
	}
	ad.targets = targets
	return true, known
}

// version returns the version of the open document at uri, or -1.
func (a *answers) version(uri string) int32 {
	d, err := a.s.doc(uri)
	if err != nil {
		return -1
	}
	snap, err := d.buf.Snapshot()
	if err != nil {
		return -1
	}
	return snap.Version
}

// refreshLenses asks the client to ask for code lenses again, when it
// can: an Apply lens comes or goes with the block's fate.
func (a *answers) refreshLenses(ctx context.Context) {
	a.s.mu.Lock()
	ok := a.s.caps.codeLens && a.s.caps.codeLensRefresh
	a.s.mu.Unlock()
	if !ok {
		return
	}
	if _, err := a.s.conn.Call(ctx, "workspace/codeLens/refresh", nil, nil); err != nil && ctx.Err() == nil {
		a.s.log.Info("workspace/codeLens/refresh", zap.Error(err))
	}
}

// sameLenses reports whether two states, either of which may be nil,
// show the same code lenses.
func sameLenses(a, b *answerState) bool {
	var x, y []blockState
	if a != nil {
		x = a.blocks
	}
	if b != nil {
		y = b.blocks
	}
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].span != y[i].span || x[i].path != y[i].path || x[i].resolves() != y[i].resolves() || x[i].applied() != y[i].applied() {
			return false
		}
	}
	return true
}

// diagnose returns the diagnostic of block b, whose fate is r, on its
// lines of the answer m.
func diagnose(m *span.Mapper, caps capabilities, files *targetFiles, b dialect.Block, r *workspace.BlockResult) protocol.Diagnostic {
	diag := protocol.Diagnostic{
		Range:  blockRange(m, caps.enc, b, r),
		Source: "graft",
		Data:   blockData{Block: r.Index},
	}
	where := r.Path
	if where == "" {
		where = "(no file)"
	}
	lines := ""
	switch {
	case r.Strategy == "delete" && r.EndLine < r.StartLine:
		// A file deleted already has no lines.
	case r.StartLine > 0 && r.EndLine > r.StartLine:
		lines = fmt.Sprintf(" lines %d-%d", r.StartLine, r.EndLine)
	case r.StartLine > 0:
		lines = fmt.Sprintf(" line %d", r.StartLine)
	}
	if unfinished(r) {
		// The answer ends inside the block: a chat buffer still being
		// written to, most likely. Not an error, not yet: a quiet word,
		// and the block is read again as the text grows. It does not
		// name the line the text ends on, so that it stays as it is while
		// the block's lines come in: nothing is sent again for each.
		diag.Severity = protocol.DiagnosticSeverityInformation
		diag.Code = "unfinished"
		diag.Message = "waiting for the block to end: " + withoutLine(r.Message)
		return diag
	}
	switch r.Status {
	case engine.StatusAlreadyApplied:
		// Done: a hint, which editors show quietly, saying where the
		// change stands and how that was told.
		diag.Severity = protocol.DiagnosticSeverityHint
		diag.Code = string(engine.StatusAlreadyApplied)
		diag.Message = fmt.Sprintf("already applied: %s%s", where, lines)
		if r.Message != "" {
			diag.Message += "\n" + r.Message
		}
	case engine.StatusApplied:
		diag.Code = r.Strategy
		if exact(r) {
			diag.Severity = protocol.DiagnosticSeverityHint
			diag.Message = fmt.Sprintf("applies exactly: %s%s", where, lines)
			if r.Strategy != "exact" {
				diag.Message += " (" + r.Strategy + ")"
			}
		} else {
			diag.Severity = protocol.DiagnosticSeverityInformation
			diag.Message = fmt.Sprintf("applies fuzzily: %s%s, %s, %.0f%% similar", where, lines, r.Strategy, 100*r.Score)
		}
		if r.Message != "" {
			diag.Message += "\n" + r.Message
		}
	case engine.StatusSkipped:
		diag.Severity = protocol.DiagnosticSeverityWarning
		diag.Code = string(engine.ReasonSkipped)
		diag.Message = r.Message
	default:
		diag.Severity = protocol.DiagnosticSeverityError
		diag.Message = r.Message
		var ee *engine.Error
		if errors.As(r.Err, &ee) {
			diag.Code = string(ee.Reason)
			if caps.relatedInfo {
				diag.RelatedInformation = files.candidates(r.Abs(), ee)
			}
		}
		if r.Path != "" && !strings.Contains(diag.Message, r.Path) {
			// The reason first, then the file, on the line that editors
			// show inline.
			first, rest, more := strings.Cut(diag.Message, "\n")
			diag.Message = first + " (" + r.Path + ")"
			if more {
				diag.Message += "\n" + rest
			}
		}
	}
	return diag
}

// blockData is the data of an answer block's diagnostic, {"block": n},
// the block's index in the answer. A struct rather than a map: a
// publication of an answer's diagnostics marshals it once a block, and a
// struct marshals in half the time.
type blockData struct {
	Block int `json:"block"`
}

// unfinished reports whether the block whose fate is r is one the answer
// ends in, still being written.
func unfinished(r *workspace.BlockResult) bool {
	return r.Status == engine.StatusFailed && errors.Is(r.Err, dialect.ErrUnfinished)
}

// blockRange returns the range of the diagnostic of block b, whose fate
// is r, in the answer m: the block's lines, or only its first while it is
// unfinished, so that the range stays as the block's lines come in.
func blockRange(m *span.Mapper, enc span.Encoding, b dialect.Block, r *workspace.BlockResult) protocol.Range {
	if unfinished(r) {
		return lineRange(m, b.Source.StartLine, b.Source.StartLine, enc)
	}
	return lineRange(m, b.Source.StartLine, b.Source.EndLine, enc)
}

// withoutLine returns msg without the "line N: " it begins with, if it
// does.
func withoutLine(msg string) string {
	rest, ok := strings.CutPrefix(msg, "line ")
	if !ok {
		return msg
	}
	n, after, ok := strings.Cut(rest, ": ")
	if !ok || n == "" || strings.Trim(n, "0123456789") != "" {
		return msg
	}
	return after
}

// exact reports whether a block that applied applies as written: an exact
// match, or a file operation, an insertion or a replace-all of exact
// occurrences.
func exact(r *workspace.BlockResult) bool {
	switch r.Strategy {
	case "exact", "multi-occurrence", "insert", "create", "delete", "move":
		return r.Score >= 1
	}
	return false
}

// lineRange returns the range of lines from start to end, 1-based and
// both included, in the text of m: from the start of the first to the end
// of the last's content.
func lineRange(m *span.Mapper, start, end int, enc span.Encoding) protocol.Range {
	last := m.Lines() - 1
	start = min(max(start-1, 0), last)
	end = min(max(end-1, start), last)
	r := protocol.Range{Start: protocol.Position{Line: uint32(start)}, End: protocol.Position{Line: uint32(end)}}
	if off, err := m.Offset(span.Position{Line: end, Character: math.MaxInt32}, span.UTF8); err == nil {
		if p, err := m.Position(off, enc); err == nil {
			r.End.Character = uint32(p.Character)
		}
	}
	return r
}

// targetFiles finds the documents a plan's blocks name, for the related
// locations of their diagnostics: the URI the client knows each by and its
// text's lines.
type targetFiles struct {
	s    *server
	view *workspace.View
	res  *workspace.Result
	// mappers caches the mapper of each file's text, by absolute path.
	mappers map[string]*span.Mapper
}

// maxRelated bounds the candidates shown as related locations.
const maxRelated = 3

// candidates returns the related locations of a block that failed in the
// file at abs with ee: its best candidates.
func (t *targetFiles) candidates(abs string, ee *engine.Error) []protocol.DiagnosticRelatedInformation {
	cands := ee.Candidates
	if abs == "" || len(cands) == 0 {
		return nil
	}
	uri := fileURI(abs)
	if snap, ok := t.view.Snapshot(abs); ok {
		uri = t.s.uriOf(snap.Path)
	}
	m := t.mapper(abs)
	enc := t.s.encoding()
	var out []protocol.DiagnosticRelatedInformation
	for i, c := range cands {
		if i == maxRelated {
			break
		}
		what := "best candidate"
		switch {
		case ee.Reason == engine.ReasonAmbiguous:
			what = "candidate" // none is best: that is why the block failed
		case i > 0:
			what = "another candidate"
		}
		out = append(out, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: uri, Range: lineRange(m, c.StartLine, c.EndLine, enc)},
			Message:  fmt.Sprintf("%s: lines %d-%d, %.0f%% similar", what, c.StartLine, c.EndLine, 100*c.Score),
		})
	}
	return out
}

// places returns the places a block refused as ambiguous resembles, for
// the person to choose one; nil for any other block.
func (t *targetFiles) places(r *workspace.BlockResult) []place {
	var ee *engine.Error
	if r.Status != engine.StatusFailed || !errors.As(r.Err, &ee) || ee.Reason != engine.ReasonAmbiguous || len(ee.Candidates) < 2 {
		return nil
	}
	m := t.mapper(r.Abs())
	var out []place
	for _, c := range ee.Candidates[:min(len(ee.Candidates), maxPlaces)] {
		p := place{start: c.StartLine, end: c.EndLine}
		for l := c.StartLine; l <= c.EndLine && l <= m.Lines(); l++ {
			a, _ := m.Offset(span.Position{Line: l - 1}, span.UTF8)
			z := len(m.Text())
			if l < m.Lines() {
				z, _ = m.Offset(span.Position{Line: l}, span.UTF8)
			}
			if line := strings.TrimSpace(m.Text()[a:z]); line != "" {
				p.first = line
				break
			}
		}
		out = append(out, p)
	}
	return out
}

// mapper returns the mapper of the text of the file at abs, as the plan
// read it.
func (t *targetFiles) mapper(abs string) *span.Mapper {
	if m, ok := t.mappers[abs]; ok {
		return m
	}
	text := ""
	for i := range t.res.Files {
		if t.res.Files[i].Abs() == abs {
			text = t.res.Files[i].Before
			break
		}
	}
	m := span.NewMapper(text)
	if t.mappers == nil {
		t.mappers = map[string]*span.Mapper{}
	}
	t.mappers[abs] = m
	return m
}

// blocksOf returns the blocks of the answer in d at its present version,
// with their fate when a refresh computed it for that version; nil when d
// holds no answer.
func (a *answers) blocksOf(d *openDoc) (int32, []blockState) {
	a.mu.Lock()
	ad := a.docs[d.uri]
	var last *answerState
	if ad != nil {
		last = ad.last
	}
	a.mu.Unlock()
	if ad == nil {
		return 0, nil // not a document that may hold an answer
	}
	snap, err := d.buf.Snapshot()
	if err != nil {
		return 0, nil
	}
	if last != nil && last.version == snap.Version {
		return snap.Version, last.blocks
	}
	// Not refreshed yet: where the blocks are is known at once, their
	// fate is not.
	if !answerSized(snap.Text) {
		return 0, nil
	}
	blocks, err := dialect.Parse(snap.Text, dialect.Options{Exists: a.s.docs.View().Exists})
	if err != nil || len(blocks) > answerLimit {
		return 0, nil
	}
	out := make([]blockState, len(blocks))
	for i, b := range blocks {
		out[i] = blockState{span: b.Source, path: b.Path, number: b.Number}
	}
	return snap.Version, out
}

// resolves reports whether graft.apply may apply the block: it did when
// last resolved, or it has not been resolved yet.
func (b blockState) resolves() bool {
	return b.status == "" || b.status == engine.StatusApplied
}

// applied reports whether the block's change stood in its file when last
// resolved: there is nothing left to apply.
func (b blockState) applied() bool { return b.status == engine.StatusAlreadyApplied }

// codeActions returns the actions on the blocks of the answer in d under
// r: apply and preview each, and apply them all. A block whose change
// stands already is not applied again: it is previewed only, and "Apply
// all" counts and sends only the others; it is not offered when none is
// left.
func (a *answers) codeActions(ctx context.Context, d *openDoc, r protocol.Range) []protocol.CodeAction {
	version, blocks := a.blocksOf(d)
	if len(blocks) == 0 {
		return nil
	}
	var under []int
	for i, b := range blocks {
		if uint32(b.span.StartLine-1) <= r.End.Line && r.Start.Line <= uint32(b.span.EndLine-1) {
			under = append(under, i)
		}
	}
	ref := &answerRef{URI: d.uri, Version: version, blocks: blocks}
	var out []protocol.CodeAction
	for _, i := range under {
		b := blocks[i]
		name := "edit block"
		if len(under) > 1 {
			name = fmt.Sprintf("edit block %d", b.number)
		}
		to := ""
		if b.path != "" {
			to = " → " + b.path
		}
		if b.resolves() {
			out = append(out, codeAction("Apply "+name+to, cmdApply, ref, []int{i}))
		}
		for _, p := range b.places {
			// The block resembles these places equally: the person
			// chooses one, and only then is it applied, there.
			act := codeAction(fmt.Sprintf("Apply %s at lines %d-%d%s: %s", name, p.start, p.end, to, clipTitle(p.first)), cmdApply, ref, []int{i})
			cp := act.Command.Arguments[0].(commandParams)
			cp.At = p.start
			act.Command.Arguments[0] = cp
			out = append(out, act)
		}
		out = append(out, codeAction("Preview "+name+to, cmdPreview, ref, []int{i}))
	}
	if len(blocks) > 1 {
		if all, ok := applyAll(ref, blocks); ok {
			out = append(out, all)
		}
	}
	return out
}

// applyAll returns the action that applies the blocks of the answer ref
// that are not applied yet, and whether there are any.
func applyAll(ref *answerRef, blocks []blockState) (protocol.CodeAction, bool) {
	var left []int
	for i, b := range blocks {
		if !b.applied() {
			left = append(left, i)
		}
	}
	// The blocks are counted as a person counts them: the files of one
	// patch are one block.
	counted := func(of []int) int {
		return dialect.CountNumbered(len(of), func(k int) int { return blocks[of[k]].number })
	}
	all := make([]int, len(blocks))
	for i := range all {
		all[i] = i
	}
	switch {
	case len(left) == 0:
		return protocol.CodeAction{}, false
	case len(left) == len(blocks):
		return codeAction(fmt.Sprintf("Apply all %d edit blocks", counted(all)), cmdApply, ref, nil), true
	case counted(left) == 1:
		title := "Apply the remaining edit block"
		if p := blocks[left[0]].path; p != "" && len(left) == 1 {
			title += " → " + p
		}
		return codeAction(title, cmdApply, ref, left), true
	}
	return codeAction(fmt.Sprintf("Apply all %d edit blocks", counted(left)), cmdApply, ref, left), true
}

// codeAction returns an action that runs command over blocks of the
// answer ref (all of them when blocks is nil).
func codeAction(title, command string, ref *answerRef, blocks []int) protocol.CodeAction {
	cmd := answerCommand(title, command, ref, blocks)
	return protocol.CodeAction{Title: title, Kind: protocol.RefactorRewrite, Command: &cmd}
}

// answerCommand returns the command that runs command over blocks of the
// answer ref.
func answerCommand(title, command string, ref *answerRef, blocks []int) protocol.Command {
	r := *ref
	r.Starts = ref.startsOf(blocks)
	return protocol.Command{
		Title:     title,
		Command:   command,
		Arguments: []any{commandParams{Answer: &r, Blocks: blocks}},
	}
}

// codeLenses returns "Apply" and "Preview" above each block of the answer
// in d; a block that will not resolve gets Preview only, which shows why.
// A block whose change stands already gets one lens, "Applied → path",
// whose command previews the block: it says where the change stands, and
// changes nothing. (A lens without a command would do no better: LSP
// allows one only for a client to resolve, and Neovim 0.7.2 shows it as
// "Unresolved lens ..."; VS Code shows a command without an id as plain
// text, Neovim runs none and warns.)
func (a *answers) codeLenses(ctx context.Context, d *openDoc) []protocol.CodeLens {
	version, blocks := a.blocksOf(d)
	ref := &answerRef{URI: d.uri, Version: version, blocks: blocks}
	var out []protocol.CodeLens
	for i, b := range blocks {
		line := uint32(max(b.span.StartLine-1, 0))
		rng := protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line}}
		if b.applied() {
			title := "Applied"
			if b.path != "" {
				title += " → " + b.path
			}
			cmd := answerCommand(title, cmdPreview, ref, []int{i})
			out = append(out, protocol.CodeLens{Range: rng, Command: &cmd})
			continue
		}
		if b.resolves() {
			title := "Apply"
			if b.path != "" {
				title += " → " + b.path
			}
			cmd := answerCommand(title, cmdApply, ref, []int{i})
			out = append(out, protocol.CodeLens{Range: rng, Command: &cmd})
		}
		title := "Preview"
		if !b.resolves() {
			title = "Preview (will not apply)"
		}
		cmd := answerCommand(title, cmdPreview, ref, []int{i})
		out = append(out, protocol.CodeLens{Range: rng, Command: &cmd})
	}
	return out
}

// showPreview shows the person what graft.preview found for blocks of an
// answer, as picked from a code action or a lens, where the command's
// reply reaches no one: per block whether it applies, and where, or why
// not; then the diff.
func (a *answers) showPreview(ctx context.Context, p *plan, diff string) {
	var b strings.Builder
	typ := protocol.MessageTypeInfo
	for k, r := range p.res.Blocks {
		n := r.Number // as the person counts the answer's blocks
		if k > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "Graft preview: edit block %d", n)
		if r.Path != "" {
			b.WriteString(" → " + r.Path)
		}
		switch {
		case r.Status == engine.StatusAlreadyApplied && r.StartLine > 0 && r.Strategy != "delete":
			fmt.Fprintf(&b, " is applied already: its change stands at lines %d-%d; nothing to change", r.StartLine, max(r.EndLine, r.StartLine))
		case r.Status == engine.StatusAlreadyApplied:
			b.WriteString(" is applied already: " + r.Message)
		case r.Status != engine.StatusApplied:
			typ = protocol.MessageTypeWarning
			b.WriteString(" will not apply: " + r.Message)
		case r.StartLine > 0:
			fmt.Fprintf(&b, " applies at lines %d-%d (%s, %.0f%% similar)", r.StartLine, max(r.EndLine, r.StartLine), r.Strategy, 100*r.Score)
		default:
			fmt.Fprintf(&b, " applies (%s)", r.Strategy)
		}
	}
	if diff != "" {
		b.WriteString("\n" + strings.TrimRight(diff, "\n"))
	}
	a.s.showMessage(ctx, typ, b.String())
}
