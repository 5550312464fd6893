// Package history keeps and finds the earlier versions of a workspace's
// files, so that the resolver can refuse a block that quotes one of them
// at lines changed since (engine.ReasonStale): the journal of the texts
// Graft's own edits replaced, and, in a git repository, the file's staged
// and committed versions.
package history

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/workspace"
)

// The journal's bounds. A version is the whole text a write replaced: the
// resolver compares it with the file as it is, line by line, to tell
// which lines changed since, which the replaced regions alone (with some
// context) could not tell once later edits moved them. What a whole text
// costs is capped:
const (
	// MaxVersions is how many versions of one file are kept.
	MaxVersions = 20
	// MaxAge is how long a version is kept.
	MaxAge = 14 * 24 * time.Hour
	// MaxRootBytes bounds the journal of one workspace root on disk: past
	// it, the files edited least recently lose their journal first.
	MaxRootBytes = 64 << 20
	// MaxTextBytes is the largest text recorded: a bigger file is not
	// journaled.
	MaxTextBytes = 8 << 20
)

// EnvJournal names the environment variable that turns the journal off
// ("off", "0", "false", "no").
const EnvJournal = "GRAFT_JOURNAL"

// JournalOff reports whether the environment turns the journal off.
func JournalOff() bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(EnvJournal))) {
	case "off", "0", "false", "no":
		return true
	}
	return false
}

// StateDir returns the directory the journals are kept in:
// $XDG_STATE_HOME/graft/journal, else ~/.local/state/graft/journal.
func StateDir() (string, error) {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" || !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("journal: no state directory: %w", err)
		}
		base = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(base, "graft", "journal"), nil
}

// A Journal keeps, for the files of one workspace root, the texts Graft's
// writes replaced and the texts they wrote (an earlier version too, once
// another hand changes the file), in a folder private to the user, one
// JSON file per workspace file. Each is written whole to a temporary file and renamed,
// so a reader never sees half of one; Record is called under the root's
// lock (workspace.Apply), so two graft processes never record at once.
type Journal struct {
	state string // the state directory, where every root's folder is
	dir   string // the root's journal folder
	root  string // the root's real path
	// By names what wrote the files ("graft apply", "graft mcp").
	By string
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// OpenJournal returns the journal of the workspace root dir, under the
// state directory state (see StateDir), creating its folders private to
// the user (0700). A folder that another user owns, or that others may
// read or write, is refused.
func OpenJournal(state, root, by string) (*Journal, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return nil, err
	}
	dir := folder(state, real)
	if err := os.MkdirAll(filepath.Dir(state), 0o700); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	for _, d := range []string{state, dir} {
		if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("journal: %w", err)
		}
		if err := editorlink.CheckDir(d, os.Getuid()); err != nil {
			return nil, fmt.Errorf("journal: %w", err)
		}
	}
	return &Journal{state: state, dir: dir, root: real, By: by}, nil
}

// folder returns the journal folder, under the state directory state, of
// the workspace root at the real path root.
func folder(state, root string) string {
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(state, hex.EncodeToString(sum[:]))
}

// Dir returns the root's journal folder.
func (j *Journal) Dir() string { return j.dir }

// A fileJournal is the journal of one file, as a JSON file holds it.
type fileJournal struct {
	Path     string  `json:"path"`     // relative to the root, slash-separated
	Versions []Entry `json:"versions"` // most recent first
}

func (j *Journal) now() time.Time {
	if j.Now != nil {
		return j.Now()
	}
	return time.Now()
}

// real returns the real path of abs, its links resolved, and its path
// relative to the root; false when it is not under the root.
func (j *Journal) real(abs string) (real, rel string, ok bool) {
	real = abs
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		real = r
	}
	rel, ok = workspace.Within(j.root, real)
	return real, filepath.ToSlash(rel), ok
}

// fileIn returns the journal file of the workspace file rel in the
// journal folder dir.
func fileIn(dir, rel string) string {
	sum := sha256.Sum256([]byte(rel))
	return filepath.Join(dir, hex.EncodeToString(sum[:16])+".json")
}

// readIn returns the journal of the file rel in the journal folder dir;
// an empty one when there is none or it cannot be read.
func readIn(dir, rel string) fileJournal {
	var e fileJournal
	data, err := os.ReadFile(fileIn(dir, rel))
	if err != nil || json.Unmarshal(data, &e) != nil || e.Path != rel {
		return fileJournal{Path: rel}
	}
	return e
}

// An Entry is one text a journal keeps of a file: a text a write
// replaced, or the text it wrote.
type Entry struct {
	// At is when the write was made.
	At time.Time `json:"at"`
	// By names what wrote ("graft apply", "graft mcp", "graft serve").
	By string `json:"by"`
	// Text is the file's text.
	Text string `json:"text"`
	// Wrote says the write wrote Text, which no later write has replaced
	// since; otherwise the write replaced it.
	Wrote bool `json:"wrote,omitempty"`
	// Shown says Graft wrote nothing but showed Text: a block refused in
	// the file quoted its lines (see RecordShown).
	Shown bool `json:"shown,omitempty"`
}

// Name is how a message calls the text e keeps, at now: "the text graft
// apply replaced at 2026-11-26 22:10 (3 minutes ago)".
func (e Entry) Name(now time.Time) string {
	did := "replaced"
	switch {
	case e.Wrote:
		did = "wrote"
	case e.Shown:
		did = "showed"
	}
	return fmt.Sprintf("the text %s %s at %s (%s)", e.By, did, e.At.Local().Format("2006-01-02 15:04"), Ago(now.Sub(e.At)))
}

// Entries returns the texts Graft's writes replaced in the file at abs
// and the text the last one wrote, most recent first, each text once; at
// most MaxVersions, none older than MaxAge.
//
// They are read from the journal of every root the file is under, not
// only this one: graft apply run in a repository and then in one of its
// folders (--root, or another working directory) writes the same file
// under two roots, and a block quoting what the first run replaced is as
// stale in the second. The folders of those roots are named by their
// paths (see folder), each directory the file is in, and are private to
// the user as the state directory is, which OpenJournal checked.
func (j *Journal) Entries(abs string) []Entry {
	real, _, ok := j.real(abs)
	if !ok {
		return nil
	}
	var all []Entry
	for dir := filepath.Dir(real); ; dir = filepath.Dir(dir) {
		rel, _ := workspace.Within(dir, real)
		all = append(all, readIn(folder(j.state, dir), filepath.ToSlash(rel)).Versions...)
		if filepath.Dir(dir) == dir {
			break
		}
	}
	slices.SortStableFunc(all, func(a, b Entry) int { return b.At.Compare(a.At) })
	now := j.now()
	seen := map[string]bool{}
	var es []Entry
	for _, v := range all {
		if now.Sub(v.At) > MaxAge || len(es) == MaxVersions {
			break
		}
		if !seen[v.Text] {
			seen[v.Text] = true
			es = append(es, v)
		}
	}
	return es
}

// Versions returns the entries of the file at abs (see Entries) as the
// resolver takes them, each named by when and by what it was replaced or
// written.
func (j *Journal) Versions(abs string) []engine.Version {
	now := j.now()
	var vs []engine.Version
	for _, e := range j.Entries(abs) {
		vs = append(vs, engine.Version{Name: e.Name(now), Text: e.Text})
	}
	return vs
}

// Ago says how long ago a duration d before now was, as the names of
// versions say it: "just now", "3 minutes ago", "2 days ago".
func Ago(d time.Duration) string {
	n := func(k int, unit string) string {
		if k == 1 {
			return "1 " + unit + " ago"
		}
		return fmt.Sprintf("%d %ss ago", k, unit)
	}
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return n(int(d/time.Minute), "minute")
	case d < 48*time.Hour:
		return n(int(d/time.Hour), "hour")
	}
	return n(int(d/(24*time.Hour)), "day")
}

// Record keeps before, the text of the file at abs that a write has just
// replaced, and after, the text it wrote, as its most recent versions,
// and drops what the bounds no longer allow. The text the write before
// wrote is most often before: it is kept once, as replaced now. An empty
// text (a file created) is not kept. It is called under the root's lock;
// a failure to record is returned, never a reason to fail the write that
// was made.
func (j *Journal) Record(abs, before, after string) error {
	return j.RecordWrites(abs, []Write{{Before: before, After: after}})
}

// RecordShown keeps text, the text of the file at abs that a refused
// block's message has just quoted for the model, as its most recent
// version, unless it is that already (the text the last write wrote,
// most often): once another hand changes the file, a block quoting the
// lines shown is stale. It is called under the root's lock.
func (j *Journal) RecordShown(abs, text string) error {
	_, rel, ok := j.real(abs)
	if !ok {
		return nil
	}
	e := readIn(j.dir, rel)
	if text == "" || len(text) > MaxTextBytes || len(e.Versions) > 0 && e.Versions[0].Text == text {
		return nil
	}
	e.Versions = append([]Entry{{At: j.now(), By: j.By, Text: text, Shown: true}}, e.Versions...)
	return j.write(rel, e)
}

// A Write is one write of a file: the text it replaced and the text it
// wrote, and when (now, when zero).
type Write struct {
	Before, After string
	At            time.Time
}

// RecordWrites records the writes of the file at abs, in the order they
// were made, as Record records one, rewriting the file's journal once.
func (j *Journal) RecordWrites(abs string, ws []Write) error {
	_, rel, ok := j.real(abs)
	if !ok {
		return nil
	}
	now := j.now()
	e := readIn(j.dir, rel)
	for _, w := range ws {
		at := w.At
		if at.IsZero() {
			at = now
		}
		for _, v := range []Entry{{At: at, By: j.By, Text: w.Before}, {At: at, By: j.By, Text: w.After, Wrote: true}} {
			switch {
			case v.Text == "" || len(v.Text) > MaxTextBytes:
			case len(e.Versions) > 0 && e.Versions[0].Text == v.Text:
				e.Versions[0] = v
			default:
				e.Versions = append([]Entry{v}, e.Versions...)
			}
		}
	}
	return j.write(rel, e)
}

// write writes e, the journal of the file rel, within the bounds: at most
// MaxVersions versions, none older than MaxAge, a quarter of the root's
// bytes; then it prunes the root's journal.
func (j *Journal) write(rel string, e fileJournal) error {
	now := j.now()
	keep := e.Versions[:0]
	for _, v := range e.Versions {
		if len(keep) < MaxVersions && now.Sub(v.At) <= MaxAge {
			keep = append(keep, v)
		}
	}
	// One file's journal keeps to a quarter of the root's bound, so that
	// a large file edited often does not push out every other file's.
	size := 0
	for k, v := range keep {
		size += len(v.Text)
		if k > 0 && size > MaxRootBytes/4 {
			keep = keep[:k]
			break
		}
	}
	e.Versions = keep
	data, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if err := writeFile(fileIn(j.dir, rel), data); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return j.prune(fileIn(j.dir, rel))
}

// writeFile writes data to name through a temporary file, private to the
// user (0600), renamed over it.
func writeFile(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o600)
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// prune keeps the root's journal within MaxRootBytes, removing the
// journals of the files written least recently, and those whose every
// version is older than MaxAge; keep, just written, goes last.
func (j *Journal) prune(keep string) error {
	ents, err := os.ReadDir(j.dir)
	if err != nil {
		return err
	}
	type file struct {
		name string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	now := j.now()
	for _, de := range ents {
		info, err := de.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		name := filepath.Join(j.dir, de.Name())
		if strings.HasPrefix(de.Name(), ".tmp-") {
			if now.Sub(info.ModTime()) > time.Hour {
				os.Remove(name) // left by a process that was killed
			}
			continue
		}
		if name != keep && now.Sub(info.ModTime()) > MaxAge {
			os.Remove(name)
			continue
		}
		files = append(files, file{name, info.Size(), info.ModTime()})
		total += info.Size()
	}
	sort.Slice(files, func(a, b int) bool {
		if (files[a].name == keep) != (files[b].name == keep) {
			return files[b].name == keep
		}
		return files[a].mod.Before(files[b].mod)
	})
	for _, f := range files {
		if total <= MaxRootBytes {
			break
		}
		os.Remove(f.name)
		total -= f.size
	}
	return nil
}
