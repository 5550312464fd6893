package lsp

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/graft-editor/graft/engine"
	hist "github.com/graft-editor/graft/history"
	"github.com/graft-editor/graft/workspace"
)

// The bounds of what the server keeps of a document's past.
//
// A model quotes a document as it read it, and the person goes on typing
// meanwhile: the versions worth keeping are the texts the document stood
// at before a burst of changes, not every keystroke. A version is kept
// when the document is about to change and, since the version kept last,
// at least historyGap has passed or at least historyLines lines were
// changed (a paste, a rewrite, graft's own edit). Every text graft's own
// edits replaced is kept too. Per file, at most historyVersions texts of
// at most historyBytes in all are kept: beyond historyVersions, versions
// thin out with age (fileHistory.thinnest), so that continuous typing
// keeps the minutes before as well as the last seconds; beyond
// historyBytes, the oldest are dropped. A text larger than historyBytes
// is not kept. The past of files the client does not have open (closed
// since, so that a model answering after the person closed the file
// still gets the stale check, or edited by graft without being opened) is
// kept for at most historyUnopened files, the least recently used
// dropped first.
//
// So one open document costs at most historyBytes (2 MiB) and a few
// hundred bytes of bookkeeping (BenchmarkHistoryMemory); a typical source
// file of 20 KB, typed at for minutes, costs 12 × 20 KB = 240 KB. The
// files not open cost at most historyUnopened × historyBytes (32 MiB) in
// all, and typically 16 × 240 KB, under 4 MB.
const (
	historyGap      = 5 * time.Second
	historyLines    = 10
	historyVersions = 12
	historyBytes    = 2 << 20
	historyUnopened = 16
)

// A history is what the server has seen of the files it edits: for each,
// the versions of its open documents and the texts graft's own edits
// replaced, most recent first. It is the workspace.History of the plans
// the server makes, so that a block quoting an earlier state of a
// document, in lines changed since, fails as stale. It is safe for
// concurrent use.
type history struct {
	// now is the clock; time.Now but in tests.
	now func() time.Time
	// journal, when set, returns what the journal on disk keeps of the
	// file at abs (see Journal): it is read once for each file, the first
	// time the history meets it, and its entries kept as graft's.
	journal func(abs string) []hist.Entry
	// git, when set, returns the versions git keeps of the file at abs
	// (its staged and HEAD texts, hist.Git), as graft apply consults
	// them: read once for each file, and given after the texts kept.
	git func(abs string) []engine.Version

	mu    sync.Mutex
	files map[string]*fileHistory // by clean absolute path
	seq   uint64                  // orders fileHistory.used
	// met holds what was read from the disk of each file the history met
	// (its journal, git's versions), at most maxMet files: beyond, it
	// starts again (reading again keeps nothing twice).
	met map[string]*diskRead
	// gitSlots bounds the reads of git's versions under way: an editor
	// that restores a session opens dozens of files at once.
	gitSlots chan struct{}
}

// maxGitReads bounds the reads of git's versions under way at once.
const maxGitReads = 2

// maxMet bounds the files history.met remembers.
const maxMet = 4096

// A diskRead is what the history read from the disk of one file.
type diskRead struct {
	// journal says the journal was read.
	journal bool
	// git is the read of git's versions; nil before it starts.
	git *gitRead
}

// metLocked returns what was read from the disk of the file at abs, made
// if need be. h.mu is held.
func (h *history) metLocked(abs string) *diskRead {
	m := h.met[abs]
	if m == nil {
		if h.met == nil || len(h.met) == maxMet {
			h.met = map[string]*diskRead{}
		}
		m = &diskRead{}
		h.met[abs] = m
	}
	return m
}

// A gitRead is the read of git's versions of one file: done is closed
// once versions holds them.
type gitRead struct {
	done     chan struct{}
	versions []engine.Version
}

// readGit returns the read of git's versions of the file at abs, and
// whether the caller is to make it (run): the first caller for a file.
func (h *history) readGit(abs string) (rd *gitRead, mine bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := h.metLocked(abs)
	if m.git != nil {
		return m.git, false
	}
	m.git = &gitRead{done: make(chan struct{})}
	return m.git, true
}

// run reads git's versions of the file at abs, once one of slots is free.
func (rd *gitRead) run(slots chan struct{}, git func(abs string) []engine.Version, abs string) {
	defer close(rd.done)
	slots <- struct{}{}
	defer func() { <-slots }()
	rd.versions = git(abs)
}

// gitVersions returns git's versions of the file at abs: read now, the
// first time, or as a read under way finds them.
func (h *history) gitVersions(abs string) []engine.Version {
	if h.git == nil {
		return nil
	}
	rd, mine := h.readGit(abs)
	if mine {
		rd.run(h.gitSlots, h.git, abs)
	}
	<-rd.done
	return rd.versions
}

// readJournal keeps what the journal holds of the file at abs, the first
// time it is asked for that file; it reads the disk without h.mu held.
func (h *history) readJournal(abs string) {
	if h.journal == nil {
		return
	}
	h.mu.Lock()
	m := h.metLocked(abs)
	done := m.journal
	m.journal = true
	h.mu.Unlock()
	if done {
		return
	}
	entries := h.journal(abs)
	if len(entries) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.fileLocked(abs)
	for _, e := range slices.Backward(entries) {
		f.keep(keptVersion{text: e.Text, at: e.At, graft: true, wrote: e.Wrote, shown: e.Shown, by: e.By})
	}
	h.dropUnopenedLocked()
}

// A fileHistory is the past of one file.
type fileHistory struct {
	// versions holds the texts kept, most recent first, and bytes their
	// total length.
	versions []keptVersion
	bytes    int
	// keptAt is when a buffer version was last kept; changed counts the
	// lines changed since, and dirty says whether any were.
	keptAt  time.Time
	changed int
	dirty   bool
	// open reports whether the client has the file open; used orders the
	// files that are not, for dropping the least recently used.
	open bool
	used uint64
}

// A keptVersion is one earlier text of a file.
type keptVersion struct {
	text string
	at   time.Time
	// graft reports whether it is a text graft's own edit replaced, or
	// with wrote, the text it wrote, or with shown, a text a refusal of
	// graft apply or graft mcp showed (from the journal); otherwise it
	// is the buffer at version.
	graft, wrote, shown bool
	version             int32
	// by names what made the edit when the journal kept it ("graft
	// apply"); empty for the server's own.
	by string
	// disk reports a text a plan read from the disk, which changed there
	// since (see diskChanged).
	disk bool
}

// newHistory returns an empty history reading the clock now.
func newHistory(now func() time.Time) *history {
	return &history{now: now, files: map[string]*fileHistory{}, gitSlots: make(chan struct{}, maxGitReads)}
}

// fileLocked returns the past of the file at path, made if need be.
// h.mu is held.
func (h *history) fileLocked(path string) *fileHistory {
	f := h.files[path]
	if f == nil {
		f = &fileHistory{}
		h.files[path] = f
	}
	h.seq++
	f.used = h.seq
	return f
}

// opened records that the client opened the file at path with text at
// version: the first version of its past.
func (h *history) opened(path, text string, version int32) {
	h.readJournal(path)
	if h.git != nil {
		// git takes milliseconds: the document is opened meanwhile, and
		// the first plan that needs the versions waits for them.
		if rd, mine := h.readGit(path); mine {
			go rd.run(h.gitSlots, h.git, path)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.fileLocked(path)
	f.open = true
	f.keep(keptVersion{text: text, at: h.now(), version: version})
	f.keptAt, f.changed, f.dirty = h.now(), 0, false
}

// changing records that the document at path, held in buf, is about to
// take changes: when it is due (see historyGap), the text buf holds
// before them is kept. It costs nothing when no version is due; joining
// the text when one is costs time linear in its length, at most once per
// historyGap or per historyLines lines changed.
func (h *history) changing(path string, buf *workspace.Buffer, changes []contentChange) {
	h.mu.Lock()
	f := h.fileLocked(path)
	f.open = true
	due := f.dirty && (h.now().Sub(f.keptAt) >= historyGap || f.changed >= historyLines)
	h.mu.Unlock()
	if due && buf.Len() > historyBytes {
		due = false // it would not be kept: not worth joining
	}
	var snap workspace.Snapshot
	var err error
	if due {
		snap, err = buf.Snapshot() // the text before the changes
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if f != h.files[path] {
		return // dropped meanwhile, closed and least recently used
	}
	if due && err == nil {
		f.keep(keptVersion{text: snap.Text, at: h.now(), version: snap.Version})
		f.keptAt, f.changed = h.now(), 0
	}
	f.dirty = true
	for _, c := range changes {
		if c.Range == nil {
			// The whole text: a client that syncs documents in full
			// sends one per keystroke, which must not keep a version
			// each. How many lines it changes is not known without a
			// diff; the gap keeps the text before a burst of them.
			continue
		}
		f.changed += int(c.Range.End.Line) - int(c.Range.Start.Line) + 1 + strings.Count(c.Text, "\n")
	}
}

// Record keeps before, the text of the file at abs that an edit graft sent
// the client has just replaced, and after, the text the edit made: the
// buffer keeps it until it next changes, which may come sooner than a
// version of the buffer is due (see history), and a block quoting it at
// the lines that change then is stale. An empty text (before of a file
// the edit created) is not kept. It makes history a workspace.History.
func (h *history) Record(abs, before, after string) {
	h.readJournal(abs)
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.fileLocked(abs)
	now := h.now()
	for _, v := range []keptVersion{{text: before, at: now, graft: true}, {text: after, at: now, graft: true, wrote: true}} {
		if v.text != "" {
			f.keep(v)
		}
	}
	h.dropUnopenedLocked()
}

// diskChanged keeps before, the text of the file at abs that a plan read
// from the disk, and that a later plan found changed there: another hand
// wrote the file (an agent's own edit, a checkout), and a block quoting
// before at the lines changed since is stale, as one quoting an earlier
// buffer is. It is the workspace.PlanCache's Changed of an answer.
func (h *history) diskChanged(abs, before string) {
	h.readJournal(abs)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fileLocked(abs).keep(keptVersion{text: before, at: h.now(), disk: true})
	h.dropUnopenedLocked()
}

// closed records that the client closed the last document of the file at
// path. Its past is kept, as the past of a file graft edited without the
// client having it open is, within historyUnopened such files: a model
// that read the file before it was closed may answer after.
func (h *history) closed(path string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	f := h.files[path]
	if f == nil {
		return
	}
	h.seq++
	f.open, f.used, f.dirty = false, h.seq, false
	h.dropUnopenedLocked()
}

// Versions returns the texts kept of the file at abs, most recent first,
// each named as a message calls it, then git's staged and HEAD texts of
// it. It makes history a workspace.History.
func (h *history) Versions(abs string) []engine.Version {
	h.readJournal(abs)
	git := h.gitVersions(abs)
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []engine.Version
	if f := h.files[abs]; f != nil {
		now := h.now()
		out = make([]engine.Version, len(f.versions), len(f.versions)+len(git))
		for i, v := range f.versions {
			out[i] = engine.Version{Name: v.name(now), Text: v.text}
		}
	}
	for _, v := range git {
		if !slices.ContainsFunc(out, func(o engine.Version) bool { return o.Text == v.Text }) {
			out = append(out, v)
		}
	}
	return out
}

// name is how a message calls v, at now: "the buffer at version 12 (2
// minutes ago)", "the text graft replaced at 22:10 (3 minutes ago)".
func (v keptVersion) name(now time.Time) string {
	if v.disk {
		return fmt.Sprintf("the file on the disk before a change seen at %s (%s)", v.at.Format("15:04:05"), ago(now.Sub(v.at)))
	}
	if v.graft {
		who, did := "graft", "replaced"
		if v.by != "" {
			who = v.by
		}
		switch {
		case v.wrote:
			did = "wrote"
		case v.shown:
			did = "showed"
		}
		return fmt.Sprintf("the text %s %s at %s (%s)", who, did, v.at.Format("15:04:05"), ago(now.Sub(v.at)))
	}
	return fmt.Sprintf("the buffer at version %d (%s)", v.version, ago(now.Sub(v.at)))
}

// ago says how long ago a time d before now was.
func ago(d time.Duration) string {
	switch {
	case d < time.Second:
		return "just now"
	case d < 2*time.Second:
		return "a second ago"
	case d < time.Minute:
		return fmt.Sprintf("%d seconds ago", int(d/time.Second))
	case d < 2*time.Minute:
		return "a minute ago"
	case d < time.Hour:
		return fmt.Sprintf("%d minutes ago", int(d/time.Minute))
	case d < 2*time.Hour:
		return "an hour ago"
	}
	return fmt.Sprintf("%d hours ago", int(d/time.Hour))
}

// keep puts v among the versions of f by its time, most recent first
// (first, for a version kept now), in place of one with the same text
// (graft's name wins over the buffer's, as the more telling), and drops
// the oldest beyond the bounds.
func (f *fileHistory) keep(v keptVersion) {
	if len(v.text) > historyBytes {
		return
	}
	for i, o := range f.versions {
		if len(o.text) == len(v.text) && o.text == v.text {
			if i == 0 && !v.graft {
				return // nothing new
			}
			if o.graft && !v.graft {
				v = o
			}
			f.drop(i)
			break
		}
	}
	// Most recent first: a version read from the journal may be older
	// than those kept already.
	at := slices.IndexFunc(f.versions, func(o keptVersion) bool { return !o.at.After(v.at) })
	if at < 0 {
		at = len(f.versions)
	}
	f.versions = slices.Insert(f.versions, at, v)
	f.bytes += len(v.text)
	for len(f.versions) > historyVersions {
		f.drop(f.thinnest())
	}
	for f.bytes > historyBytes {
		f.drop(len(f.versions) - 1)
	}
}

// thinnest returns the index of the version to drop when f keeps too
// many: a buffer version rather than a text graft replaced, and among
// them the one whose neighbours are closest in time for its age, so that
// the versions kept thin out with age, about evenly in the logarithm of
// their age (ten minutes of typing keep the last seconds densely and the
// minutes before sparsely, rather than only the last historyVersions
// gaps). The newest and the oldest are kept while there is another to
// drop.
func (f *fileHistory) thinnest() int {
	newest := f.versions[0].at
	best, density := len(f.versions)-1, -1.0
	for _, graft := range []bool{false, true} {
		for i := 1; i < len(f.versions)-1; i++ {
			if f.versions[i].graft != graft {
				continue
			}
			span := f.versions[i-1].at.Sub(f.versions[i+1].at)
			age := newest.Sub(f.versions[i].at) + time.Second
			if d := float64(span) / float64(age); density < 0 || d < density {
				best, density = i, d
			}
		}
		if density >= 0 {
			break
		}
	}
	return best
}

// drop drops the version at index i of f.
func (f *fileHistory) drop(i int) {
	f.bytes -= len(f.versions[i].text)
	f.versions = slices.Delete(f.versions, i, i+1) // which lets its text go
}

// dropUnopenedLocked drops the past of the least recently used files the
// client does not have open, beyond historyUnopened. h.mu is held.
func (h *history) dropUnopenedLocked() {
	for {
		var n int
		var oldest string
		var used uint64
		for p, f := range h.files {
			if f.open {
				continue
			}
			n++
			if oldest == "" || f.used < used {
				oldest, used = p, f.used
			}
		}
		if n <= historyUnopened {
			return
		}
		delete(h.files, oldest)
	}
}
