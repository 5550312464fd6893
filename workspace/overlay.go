package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// ErrNoRoot reports that a path was resolved while there is no workspace
// folder to resolve it in.
var ErrNoRoot = errors.New("no workspace folder is open")

// defaultMode is the mode a document that is open but not on disk has.
const defaultMode fs.FileMode = 0o644

// An Overlay is a Source over one or more workspace folders that reads
// the editor's open buffers in front of the disk: a document that is open
// is read from its buffer, any other from disk through the root that holds
// it. Paths are confined to the roots exactly as Root.Path confines them.
//
// A buffer is found under the path it was opened with and under its real
// path (symbolic links evaluated), so that an edit naming a link finds the
// buffer of its target, and the other way round. A buffer outside every
// root is kept too (an agent's answer in a scratch buffer, say); it is
// never an edit's target, since Path refuses its path.
//
// An Overlay is safe for concurrent use.
type Overlay struct {
	mu    sync.RWMutex
	roots []*Root
	open  map[string]*openBuffer // by the clean path it was opened under
	seq   int                    // counts Open calls, to order the buffers
}

// An openBuffer is a buffer and where it is.
type openBuffer struct {
	buf  *Buffer
	key  string // the clean path it was opened under
	real string // key with symbolic links evaluated, at Open
	seq  int    // when it was opened
}

// NewOverlay returns an overlay over roots, in order, with no buffer open.
func NewOverlay(roots ...*Root) *Overlay {
	return &Overlay{roots: slices.Clone(roots), open: make(map[string]*openBuffer)}
}

// SetRoots replaces the workspace folders, as when the editor's change.
// Open buffers stay open.
func (o *Overlay) SetRoots(roots []*Root) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.roots = slices.Clone(roots)
}

// Roots returns the workspace folders, in order.
func (o *Overlay) Roots() []*Root {
	o.mu.RLock()
	defer o.mu.RUnlock()
	return slices.Clone(o.roots)
}

// Open opens a buffer at path, the absolute path the editor has for the
// document, holding text at version, and returns it. A buffer already open
// under path is replaced.
func (o *Overlay) Open(path, text string, version int32) *Buffer {
	b := NewBuffer(path, text, version)
	o.Put(b)
	return b
}

// Put makes b the buffer open at its path (the path it was made for),
// replacing the one open there, as if Open had just made it. An editor
// that has one file open under two names for one path (two spellings of
// its URI) keeps a buffer for each, and puts back the one it reads from.
func (o *Overlay) Put(b *Buffer) {
	key := filepath.Clean(b.Path())
	real, err := evalExisting(key)
	if err != nil {
		real = key
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seq++
	o.open[key] = &openBuffer{buf: b, key: key, real: real, seq: o.seq}
}

// Close closes the buffer opened under path, if any. Reads of its document
// go to the disk again.
func (o *Overlay) Close(path string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.open, filepath.Clean(path))
}

// Buffer returns the buffer open at path, found by the path it was opened
// under or by its real path; nil when none is open there. When the editor
// opened one file under two names, the buffer opened under path itself
// wins, then the one opened last.
func (o *Overlay) Buffer(path string) *Buffer {
	key := filepath.Clean(path)
	if b := o.lookup(key); b != nil {
		return b
	}
	real, err := evalExisting(key)
	if err != nil || real == key {
		return nil
	}
	return o.lookup(real)
}

// lookup returns the buffer opened under the clean path p, or else the
// last one opened whose real path is p.
func (o *Overlay) lookup(p string) *Buffer {
	o.mu.RLock()
	defer o.mu.RUnlock()
	if ob := o.open[p]; ob != nil {
		return ob.buf
	}
	var found *openBuffer
	for _, ob := range o.open {
		if ob.real == p && (found == nil || ob.seq > found.seq) {
			found = ob
		}
	}
	if found == nil {
		return nil
	}
	return found.buf
}

// Path maps name, a path as an edit wrote it, to an absolute path inside
// one of the workspace folders, its symbolic links evaluated, as Root.Path
// does for one. An absolute name must land inside a root. A relative name
// resolves in the first root where it exists, on disk or as an open
// buffer, or else in the first root. With no root, every name is refused
// with an error wrapping ErrNoRoot.
func (o *Overlay) Path(name string) (string, error) {
	return resolve(o.Roots(), name, func(abs string) bool { return o.lookup(abs) != nil })
}

// Rel returns abs relative to the innermost root that holds it,
// slash-separated, for reports; a path outside every root is returned
// whole.
func (o *Overlay) Rel(abs string) string { return rel(o.Roots(), abs) }

// Read returns the document at name, a path Path accepts: the open
// buffer's text when the document is open (Exists is true, Mode is the
// file's on disk or 0644), else the file on disk, read by Root.ReadFile.
// A buffer out of sync is an error wrapping ErrOutOfSync, and text too
// large, binary or not UTF-8 is refused as ReadFile refuses it.
func (o *Overlay) Read(ctx context.Context, name string) (Document, error) {
	if err := ctx.Err(); err != nil {
		return Document{}, fmt.Errorf("read %s: %w", name, err)
	}
	roots := o.Roots()
	abs, err := resolve(roots, name, func(abs string) bool { return o.lookup(abs) != nil })
	if err != nil {
		return Document{}, err
	}
	b := o.lookup(abs)
	if b == nil {
		return readDisk(roots, abs)
	}
	snap, err := b.Snapshot()
	if err != nil {
		return Document{}, &fs.PathError{Op: "read", Path: rel(roots, abs), Err: err}
	}
	return bufferDocument(roots, abs, snap)
}

// A View is an Overlay frozen at one moment: its roots and the snapshots
// of its buffers, so that a plan and the edit built from it agree on the
// versions they read. Paths still resolve against the disk as it is.
//
// A View is safe for concurrent use.
type View struct {
	roots []*Root
	// base, when set, is the folder relative names are read in, one
	// that holds the roots (see Under).
	base string
	open map[string]frozen // by the clean path opened under
	real map[string]frozen // by real path, the buffer opened last

	// paths holds what Path made of each name it was asked for: a view
	// is a moment, and the blocks of an answer name the same few files,
	// each looked up on disk folder by folder. rels holds what Rel made
	// of each path, which a plan asks for each block.
	mu    sync.Mutex
	paths map[string]resolvedPath
	rels  map[string]string
}

// A resolvedPath is what Path made of a name.
type resolvedPath struct {
	abs string
	err error
}

// A frozen buffer is a snapshot, or why there is none.
type frozen struct {
	snap Snapshot
	err  error // the buffer is out of sync
}

// View returns the overlay as it is now, frozen: later changes, buffers
// opened or closed and roots set are not seen by it.
func (o *Overlay) View() *View {
	o.mu.RLock()
	defer o.mu.RUnlock()
	v := &View{
		roots: slices.Clone(o.roots),
		open:  make(map[string]frozen, len(o.open)),
		real:  make(map[string]frozen, len(o.open)),
	}
	obs := make([]*openBuffer, 0, len(o.open))
	for key, ob := range o.open {
		snap, err := ob.buf.Snapshot()
		v.open[key] = frozen{snap, err}
		obs = append(obs, ob)
	}
	slices.SortFunc(obs, func(a, b *openBuffer) int { return a.seq - b.seq })
	for _, ob := range obs {
		v.real[ob.real] = v.open[ob.key]
	}
	return v
}

// lookup returns the frozen buffer at the clean path p, opened under it or
// with p as its real path.
func (v *View) lookup(p string) (frozen, bool) {
	if f, ok := v.open[p]; ok {
		return f, true
	}
	f, ok := v.real[p]
	return f, ok
}

// Snapshot returns the frozen buffer at abs, a real absolute path as Path
// returns it, or a path a buffer was opened under. ok is false when no
// buffer was open there, and when the buffer was out of sync (Read then
// says so).
func (v *View) Snapshot(abs string) (snap Snapshot, ok bool) {
	f, ok := v.lookup(filepath.Clean(abs))
	if !ok || f.err != nil {
		return Snapshot{}, false
	}
	return f.snap, true
}

// Roots returns the workspace roots of the view.
func (v *View) Roots() []*Root { return slices.Clone(v.roots) }

// Within returns the view confined to root, one of its roots: the same
// buffers, but names resolve in root alone, so that a relative name is
// root's file even when another root has one of the same name, and a name
// that leads out of root (into another root too) is refused as outside
// the workspace root. Rel is relative to root.
func (v *View) Within(root *Root) *View {
	return &View{roots: []*Root{root}, open: v.open, real: v.real}
}

// Under returns the view of a request made in dir, a folder that holds
// some of v's roots (graft apply run at the top of a repository whose
// folder the editor has open): the same buffers, names relative to dir,
// confined to the roots inside it, a name that leads out of them refused
// as outside the workspace root. Rel is relative to dir. ok is false when
// no root of v lies inside dir.
func (v *View) Under(dir string) (view *View, ok bool) {
	var roots []*Root
	for _, r := range v.roots {
		if _, in := Within(dir, r.Dir()); in {
			roots = append(roots, r)
		}
	}
	if len(roots) == 0 {
		return nil, false
	}
	return &View{roots: roots, base: dir, open: v.open, real: v.real}, true
}

// Path maps name as Overlay.Path does, over the view's roots and buffers,
// each name once.
func (v *View) Path(name string) (string, error) {
	v.mu.Lock()
	r, ok := v.paths[name]
	v.mu.Unlock()
	if ok {
		return r.abs, r.err
	}
	r.abs, r.err = v.resolve(name)
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.paths == nil {
		v.paths = map[string]resolvedPath{}
	}
	v.paths[name] = r
	if r.err == nil {
		v.paths[r.abs] = resolvedPath{abs: r.abs} // a real path maps to itself
	}
	return r.abs, r.err
}

// resolve is Path, asking the disk and the buffers.
func (v *View) resolve(name string) (string, error) {
	isOpen := func(abs string) bool { _, ok := v.lookup(abs); return ok }
	p := filepath.FromSlash(name)
	if v.base == "" || name == "" || filepath.IsAbs(p) {
		return resolve(v.roots, name, isOpen)
	}
	abs, err := resolve(v.roots, filepath.Join(v.base, p), isOpen)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		// Say the name as the edit wrote it.
		err = &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	}
	return abs, err
}

// Rel returns abs relative to the innermost of the view's roots that holds
// it, as Overlay.Rel does, or to the folder of a view Under it; each path
// once.
func (v *View) Rel(abs string) string {
	v.mu.Lock()
	r, ok := v.rels[abs]
	v.mu.Unlock()
	if ok {
		return r
	}
	if sub, in := Within(v.base, abs); v.base != "" && in {
		r = filepath.ToSlash(sub)
	} else {
		r = rel(v.roots, abs)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.rels == nil {
		v.rels = map[string]string{}
	}
	v.rels[abs] = r
	return r
}

// Read returns the document at name as Overlay.Read does, from the frozen
// buffers and the disk.
func (v *View) Read(ctx context.Context, name string) (Document, error) {
	if err := ctx.Err(); err != nil {
		return Document{}, fmt.Errorf("read %s: %w", name, err)
	}
	abs, err := v.Path(name)
	if err != nil {
		return Document{}, err
	}
	f, ok := v.lookup(abs)
	if !ok {
		return readDisk(v.roots, abs)
	}
	if f.err != nil {
		return Document{}, &fs.PathError{Op: "read", Path: rel(v.roots, abs), Err: f.err}
	}
	return bufferDocument(v.roots, abs, f.snap)
}

var (
	_ Source = (*Overlay)(nil)
	_ Source = (*View)(nil)
)

// resolve maps name to an absolute path inside one of roots, as
// Overlay.Path describes; isOpen reports whether a buffer is open at a
// clean absolute path.
func resolve(roots []*Root, name string, isOpen func(abs string) bool) (string, error) {
	if len(roots) == 0 {
		return "", &fs.PathError{Op: "resolve", Path: name, Err: ErrNoRoot}
	}
	if len(roots) == 1 || name == "" {
		return roots[0].Path(name)
	}
	p := filepath.FromSlash(name)
	if filepath.IsAbs(p) {
		p = filepath.Clean(p)
		var refusal error
		for _, r := range roots {
			abs, err := r.Path(name)
			if err == nil {
				return abs, nil
			}
			if refusal == nil || r.Contains(p) {
				refusal = err // the root the name is in says best why not
			}
		}
		if errors.Is(refusal, ErrOutsideRoot) && !inAny(roots, p) {
			refusal = &fs.PathError{Op: "resolve", Path: name,
				Err: fmt.Errorf("%w: in none of the %d workspace folders", ErrOutsideRoot, len(roots))}
		}
		return "", refusal
	}
	for _, r := range roots {
		lexical := filepath.Join(r.Dir(), p)
		if _, err := os.Lstat(lexical); err == nil || isOpen(lexical) {
			return r.Path(name)
		}
		if abs, err := r.Path(name); err == nil && isOpen(abs) {
			return abs, nil
		}
	}
	return roots[0].Path(name)
}

// inAny reports whether the clean absolute path p lies in one of roots.
func inAny(roots []*Root, p string) bool {
	return slices.ContainsFunc(roots, func(r *Root) bool { return r.Contains(p) })
}

// holder returns the innermost of roots that holds the clean absolute path
// abs, or nil.
func holder(roots []*Root, abs string) *Root {
	var in *Root
	for _, r := range roots {
		if r.Contains(abs) && (in == nil || len(r.Dir()) > len(in.Dir())) {
			in = r
		}
	}
	return in
}

// rel returns abs relative to the innermost of roots that holds it.
func rel(roots []*Root, abs string) string {
	if r := holder(roots, abs); r != nil {
		return r.Rel(abs)
	}
	return filepath.ToSlash(abs)
}

// readDisk reads the file at abs, a path resolve returned, through the
// root that holds it.
func readDisk(roots []*Root, abs string) (Document, error) {
	r := holder(roots, abs)
	if r == nil {
		return Document{}, &fs.PathError{Op: "read", Path: abs, Err: ErrOutsideRoot}
	}
	return r.ReadFile(abs)
}

// bufferDocument returns the document of an open buffer's snapshot at
// abs, refusing text larger than MaxFileSize, binary text and text that
// is not UTF-8 as ReadFile does: a file is edited the same whether or not
// the editor has it open. The buffer checked its text is UTF-8 already,
// line by line as it changed: a plan reads each of its files, and an
// answer's diagnostics plan after every change of the answer.
func bufferDocument(roots []*Root, abs string, snap Snapshot) (Document, error) {
	text := snap.Text
	refuse := func(err error) (Document, error) {
		return Document{}, &fs.PathError{Op: "read", Path: rel(roots, abs), Err: err}
	}
	if len(text) > MaxFileSize {
		return refuse(&tooLargeError{int64(len(text))})
	}
	if strings.IndexByte(text[:min(len(text), sniffLen)], 0) >= 0 {
		return refuse(ErrBinary)
	}
	if !snap.utf8 && !utf8.ValidString(text) {
		return refuse(ErrNotUTF8)
	}
	mode := defaultMode
	if fi, err := os.Stat(abs); err == nil && fi.Mode().IsRegular() {
		mode = fi.Mode().Perm()
	}
	return Document{Text: text, Exists: true, Mode: mode}, nil
}

// Exists reports whether name, as an edit wrote it, is an open buffer or a
// regular file inside the view's roots: what dialect.Options.Exists asks.
func (v *View) Exists(name string) bool {
	abs, err := v.Path(name)
	if err != nil {
		return false
	}
	if _, ok := v.lookup(abs); ok {
		return true
	}
	return isRegular(abs)
}
