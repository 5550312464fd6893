package workspace

import (
	"io/fs"
)

// newFileMode is the mode of the files WriteFile creates.
const newFileMode fs.FileMode = 0o644

// WriteFile replaces the content of the file at name (a path Path accepts)
// with text, atomically: the text goes to a temporary file in the same
// directory, which is synced, given the mode of the file it replaces (0644
// for a new file) and renamed over it. Readers see the old content or the
// new, never a mix, and a failure leaves the file as it was. The parent
// directories of a new file are created. A symbolic link inside the root
// is written through, to its target. Unlike CommitWith, WriteFile, Remove
// and Rename change read-only files too: the caller asks for that file.
func (r *Root) WriteFile(name, text string) error {
	return r.change(name, func(f *FileChange) error {
		f.After, f.Exists = text, true
		return nil
	})
}

// Remove deletes the file at name, a path Path accepts; a symbolic link is
// deleted itself, not its target. It refuses directories.
func (r *Root) Remove(name string) error {
	return r.change(name, func(f *FileChange) error {
		if !f.Existed {
			return &fs.PathError{Op: "remove", Path: f.Path, Err: fs.ErrNotExist}
		}
		f.After, f.Exists = "", false
		return nil
	})
}

// Rename moves the file at from to to, both paths Path accepts, creating
// the parent directories of to. A symbolic link is moved itself. It
// refuses to replace an existing file.
func (r *Root) Rename(from, to string) error {
	dst, err := r.Path(to)
	if err != nil {
		return err
	}
	return r.change(from, func(f *FileChange) error {
		if !f.Existed {
			return &fs.PathError{Op: "rename", Path: f.Path, Err: fs.ErrNotExist}
		}
		f.newAbs, f.NewPath = dst, r.Rel(dst)
		return nil
	})
}

// change makes one change to the file at name, as edit describes it on a
// FileChange holding the file as it is now.
func (r *Root) change(name string, edit func(*FileChange) error) error {
	_, abs, err := r.resolve(name)
	if err != nil {
		return err
	}
	doc, err := r.ReadFile(abs)
	if err != nil {
		return err
	}
	f := &FileChange{Path: r.Rel(abs), abs: abs, Before: doc.Text, After: doc.Text, Existed: doc.Exists, Exists: doc.Exists}
	if err := edit(f); err != nil {
		return err
	}
	c, err := r.stage(f, true)
	if err != nil {
		return err
	}
	defer c.cleanup()
	return c.commit()
}
