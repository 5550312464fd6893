package workspace

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// A change is one file's part of a commit: staged first (its new content
// written to a synced temporary file beside the file), then made (the
// temporary file renamed over the file, after the file is checked to hold
// what the plan read), and undone from the text read at the start if a
// later change of the same transaction fails. Every path is relative to
// the root and every operation goes through its os.Root.
type change struct {
	root    *Root
	kind    changeKind
	src     string      // the file written, created, removed or moved
	dst     string      // where a move puts it
	temp    *tempFile   // the staged content; nil when none
	inPlace bool        // rewrite src in place: it has other hard links
	before  string      // src's text as the plan read it
	after   string      // the text to write
	mode    fs.FileMode // the permission bits src has, or gets
	link    string      // for a symbolic link removed or moved: its target
	dirs    []string    // the directories staging created, outermost first
	done    bool        // the change is made
	notes   []string    // what the report must say about how it was made
}

// A changeKind is what a change does to its file.
type changeKind int

const (
	changeWrite  changeKind = iota // replace the content of an existing file
	changeCreate                   // create a file that does not exist
	changeRemove                   // delete a file, or a symbolic link itself
	changeMove                     // move a file (or a link), maybe with new content
)

// tempMark is in the name of every temporary file graft writes.
const tempMark = ".graft-"

// stage prepares the change of f: it checks that the file may be changed
// and writes its new content to a temporary file. A read-only file is
// refused unless force is set. On error nothing is left behind.
func (r *Root) stage(f *FileChange, force bool) (c *change, err error) {
	src, err := r.local(f.abs)
	if err != nil {
		return nil, err
	}
	staged := &change{root: r, src: src, before: f.Before, after: f.After, mode: newFileMode}
	defer func() {
		if err != nil {
			staged.cleanup()
		}
	}()
	c = staged
	writable := func(fi fs.FileInfo) error {
		if fi.Mode().Perm()&0o222 == 0 && !force {
			return ErrReadOnly // the caller names the file
		}
		return nil
	}
	switch {
	case f.Existed && !f.Exists:
		c.kind = changeRemove
		if err := c.readLink(f.Path); err != nil {
			return nil, err
		}
		if c.link == "" {
			fi, err := r.fsys.Stat(src)
			if err != nil {
				return nil, err
			}
			if err := writable(fi); err != nil {
				return nil, err
			}
			c.mode = fi.Mode().Perm()
		} else {
			c.note("deleted the symbolic link %s; its target %s is kept", f.Path, c.link)
		}
		return c, nil

	case f.newAbs != "":
		c.kind = changeMove
		if c.dst, err = r.local(f.newAbs); err != nil {
			return nil, err
		}
		if err := c.readLink(f.Path); err != nil {
			return nil, err
		}
		var fi fs.FileInfo
		if c.link != "" {
			if f.After != f.Before {
				return nil, fmt.Errorf("cannot edit %s while moving it: it is a symbolic link (to %s)", f.Path, c.link)
			}
			c.note("moved the symbolic link %s itself, not its target %s", f.Path, c.link)
		} else {
			if fi, err = r.fsys.Stat(src); err != nil {
				return nil, err
			}
			if err := writable(fi); err != nil {
				return nil, err
			}
			c.mode = fi.Mode().Perm()
		}
		if _, err := r.fsys.Lstat(c.dst); err == nil {
			return nil, &fs.PathError{Op: "move", Path: f.NewPath, Err: ErrExists}
		}
		if err := c.mkdirs(filepath.Dir(c.dst)); err != nil {
			return nil, err
		}
		if f.After != f.Before {
			if c.temp, err = r.writeTemp(c.dst, f.After, c.mode, fi); err != nil {
				return nil, err
			}
		}
		return c, nil
	}

	target, err := r.follow(src)
	if err != nil {
		return nil, err
	}
	if target != src {
		c.note("%s is a symbolic link: wrote its target %s", f.Path, filepath.ToSlash(target))
		c.src = target
	}
	_, fi, err := r.read(c.src)
	if err != nil {
		return nil, err
	}
	if fi == nil {
		c.kind = changeCreate
		if err := c.mkdirs(filepath.Dir(c.src)); err != nil {
			return nil, err
		}
	} else {
		c.kind = changeWrite
		if err := writable(fi); err != nil {
			return nil, err
		}
		c.mode = fi.Mode().Perm()
		if fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid) != 0 {
			c.note("dropped the setuid and setgid bits of %s, as git does", filepath.ToSlash(c.src))
		}
		if _, _, n, ok := owner(fi); ok && n > 1 {
			c.inPlace = true
			c.note("%s has %d hard links: rewritten in place, so that every link sees the change", filepath.ToSlash(c.src), n)
			return c, nil
		}
	}
	if c.temp, err = r.writeTemp(c.src, f.After, c.mode, fi); err != nil {
		return nil, err
	}
	return c, nil
}

// readLink records the target of src when src is a symbolic link.
func (c *change) readLink(name string) error {
	fi, err := c.root.fsys.Lstat(c.src)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	c.link, err = c.root.fsys.Readlink(c.src)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// note records what the report must say about the change.
func (c *change) note(format string, args ...any) {
	c.notes = append(c.notes, fmt.Sprintf(format, args...))
}

// mkdirs creates dir and its missing parents, recording those it creates
// so that cleanup can remove them.
func (c *change) mkdirs(dir string) error {
	var missing []string
	for d := dir; d != "." && d != string(filepath.Separator); d = filepath.Dir(d) {
		if _, err := c.root.fsys.Lstat(d); err == nil {
			break
		}
		missing = append([]string{d}, missing...)
	}
	if len(missing) == 0 {
		return nil
	}
	if err := c.root.fsys.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	c.dirs = missing
	return nil
}

// A tempFile is a temporary file graft wrote. It holds its directory open,
// so that it is removed from there even when the directory's path has
// changed meanwhile (a folder renamed, swapped for a link).
type tempFile struct {
	rel  string   // its path under the root, when it was made
	dir  *os.Root // its directory
	name string   // its name in dir
	done bool     // its directory is released
}

// remove deletes the temporary file and releases its directory.
func (t *tempFile) remove() error {
	err := t.dir.Remove(t.name)
	t.release()
	return err
}

// release releases the temporary file's directory, once.
func (t *tempFile) release() {
	if !t.done {
		t.dir.Close()
		t.done = true
	}
}

// writeTemp writes text to a new temporary file beside the file at rel,
// syncs it and gives it mode and the owner and group of was (when the
// process may), and returns it. On error it is removed.
func (r *Root) writeTemp(rel, text string, mode fs.FileMode, was fs.FileInfo) (temp *tempFile, err error) {
	base := filepath.Base(rel)
	for len(base) > 200 {
		_, n := utf8.DecodeLastRuneInString(base)
		base = base[:len(base)-n]
	}
	var rnd [8]byte
	for i := range rnd {
		rnd[i] = byte(rand.Uint32())
	}
	dirRel := filepath.Dir(rel)
	cannot := func(err error) (*tempFile, error) {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot write a file in %s: %w", filepath.ToSlash(dirRel), err)
	}
	dir, err := r.fsys.OpenRoot(dirRel)
	if err != nil {
		return cannot(err)
	}
	name := "." + base + tempMark + hex.EncodeToString(rnd[:])
	f, err := dir.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		dir.Close()
		return cannot(err)
	}
	temp = &tempFile{rel: filepath.Join(dirRel, name), dir: dir, name: name}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			temp.remove()
			temp = nil
		}
	}()
	if _, err := f.WriteString(text); err != nil {
		return temp, err
	}
	if was != nil && keepsOwners() {
		if uid, gid, _, ok := owner(was); ok {
			if err := f.Chown(uid, gid); err != nil {
				return temp, err
			}
		}
	}
	if err := f.Chmod(mode); err != nil {
		return temp, err
	}
	return temp, f.Sync()
}

// check fails with ErrChangedOnDisk unless the file at rel still holds
// what the plan read: the re-check made right before the change.
func (c *change) check(rel string, existed bool) error {
	doc, _, err := c.root.read(rel)
	if err != nil {
		return err
	}
	if doc.Exists != existed || doc.Text != c.before {
		return ErrChangedOnDisk
	}
	return nil
}

// commit makes the staged change, after checking that the file is still
// what the plan read.
func (c *change) commit() error {
	fsys := c.root.fsys
	if err := c.check(c.src, c.kind != changeCreate); err != nil {
		return err
	}
	switch c.kind {
	case changeRemove:
		if err := fsys.Remove(c.src); err != nil {
			return err
		}
	case changeWrite:
		if c.inPlace {
			if err := c.rewriteInPlace(); err != nil {
				return err
			}
			break
		}
		if err := fsys.Rename(c.temp.rel, c.src); err != nil {
			return err
		}
		c.temp.release()
		c.temp = nil
	case changeCreate:
		if err := c.root.placeTemp(c.temp, c.src); err != nil {
			return err
		}
		c.temp = nil
	case changeMove:
		if c.temp == nil {
			if err := c.root.place(c.src, c.dst, func() error { return fsys.Remove(c.src) }); err != nil {
				return err
			}
			break
		}
		if err := c.root.placeTemp(c.temp, c.dst); err != nil {
			return err
		}
		c.temp = nil
		if err := fsys.Remove(c.src); err != nil {
			fsys.Remove(c.dst)
			return err
		}
	}
	c.done = true
	return nil
}

// rewriteInPlace writes the new text over the file itself, for a file
// with other hard links, as Vim's backupcopy does: a synced copy of the
// old text is written beside it first, and removed once the file holds
// the new text, or the old one again after a failure; if the file holds
// neither, the copy is kept and the error names it.
func (c *change) rewriteInPlace() error {
	backup, err := c.root.writeTemp(c.src, c.before, c.mode, nil)
	if err != nil {
		return fmt.Errorf("cannot back it up before rewriting it in place: %w", err)
	}
	err = c.root.rewrite(c.src, c.after, c.before)
	if err != nil {
		if doc, _, rerr := c.root.read(c.src); rerr != nil || doc.Text != c.before {
			backup.release()
			return fmt.Errorf("%w; its old content is kept in %s", err, filepath.ToSlash(backup.rel))
		}
	}
	backup.remove()
	return err
}

// undo reverses a change made, from the text read at the start.
func (c *change) undo() error {
	if !c.done {
		return nil
	}
	r, fsys := c.root, c.root.fsys
	restore := func(rel string) error { // recreate rel with the old text
		temp, err := r.writeTemp(rel, c.before, c.mode, nil)
		if err != nil {
			return err
		}
		if err := r.placeTemp(temp, rel); err != nil {
			temp.remove()
			return err
		}
		return nil
	}
	var err error
	switch c.kind {
	case changeRemove:
		if c.link != "" {
			err = fsys.Symlink(c.link, c.src)
		} else {
			err = restore(c.src)
		}
	case changeWrite:
		if c.inPlace {
			err = r.rewrite(c.src, c.before, c.after)
			break
		}
		var temp *tempFile
		if temp, err = r.writeTemp(c.src, c.before, c.mode, nil); err == nil {
			if err = fsys.Rename(temp.rel, c.src); err != nil {
				temp.remove()
			} else {
				temp.release()
			}
		}
	case changeCreate:
		err = fsys.Remove(c.src)
	case changeMove:
		if c.after == c.before {
			err = r.place(c.dst, c.src, func() error { return fsys.Remove(c.dst) })
		} else if err = restore(c.src); err == nil {
			err = fsys.Remove(c.dst)
		}
	}
	if err != nil {
		return err
	}
	c.done = false
	return nil
}

// cleanup removes the temporary file, and the directories staging created
// when the change is not made.
func (c *change) cleanup() {
	if c.temp != nil {
		c.temp.remove()
		c.temp = nil
	}
	if c.done {
		return
	}
	for i := len(c.dirs) - 1; i >= 0; i-- {
		c.root.fsys.Remove(c.dirs[i]) // fails, harmlessly, once one is not empty
	}
}

// placeTemp gives the temporary file the name to, as place does; it is
// removed from its directory either way.
func (r *Root) placeTemp(temp *tempFile, to string) error {
	err := r.place(temp.rel, to, temp.remove)
	if err == nil {
		temp.release()
	}
	return err
}

// place gives the file at from the name to, which must not exist: a hard
// link, then the removal of from (by remove), so that a file created
// meanwhile at to is never replaced. Where hard links are not supported,
// it checks and renames.
func (r *Root) place(from, to string, remove func() error) error {
	err := r.fsys.Link(from, to)
	switch {
	case err == nil:
		return remove()
	case errors.Is(err, fs.ErrExist):
		return &fs.PathError{Op: "create", Path: filepath.ToSlash(to), Err: ErrExists}
	}
	if _, err := r.fsys.Lstat(to); err == nil {
		return &fs.PathError{Op: "create", Path: filepath.ToSlash(to), Err: ErrExists}
	}
	return r.fsys.Rename(from, to)
}

// rewrite writes text over the content of the file at rel in place, for a
// file with other hard links, and syncs it; if that fails it writes back
// old, which the file held.
//
// A read-only file (one that --force let through) is made writable by
// its owner for the time of the write, and given its mode back.
func (r *Root) rewrite(rel, text, old string) error {
	f, err := r.fsys.OpenFile(rel, os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrPermission) {
		fi, serr := r.fsys.Stat(rel)
		if serr == nil && fi.Mode().Perm()&0o200 == 0 && r.fsys.Chmod(rel, fi.Mode().Perm()|0o200) == nil {
			defer r.fsys.Chmod(rel, fi.Mode().Perm())
			f, err = r.fsys.OpenFile(rel, os.O_WRONLY, 0)
		}
	}
	if err != nil {
		return err
	}
	defer f.Close()
	put := func(s string) error {
		if _, err := f.WriteAt([]byte(s), 0); err != nil {
			return err
		}
		if err := f.Truncate(int64(len(s))); err != nil {
			return err
		}
		return f.Sync()
	}
	if err := put(text); err != nil {
		if rerr := put(old); rerr != nil {
			return fmt.Errorf("%w; restoring the old content failed too: %v", err, rerr)
		}
		return err
	}
	return nil
}
