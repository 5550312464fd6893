package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// newFileMode is the mode of the files WriteFile creates.
const newFileMode fs.FileMode = 0o644

// WriteFile replaces the content of the file at name (a path Path accepts)
// with text, atomically: the text goes to a temporary file in the same
// directory, which is synced, given the mode of the file it replaces (0644
// for a new file) and renamed over it. Readers see the old content or the
// new, never a mix, and a failure leaves the file as it was. The parent
// directories of a new file are created.
func (r *Root) WriteFile(name, text string) error {
	abs, err := r.Path(name)
	if err != nil {
		return err
	}
	mode := newFileMode
	switch fi, err := os.Stat(abs); {
	case err == nil && !fi.Mode().IsRegular():
		return &fs.PathError{Op: "write", Path: r.Rel(abs), Err: ErrNotRegular}
	case err == nil:
		mode = fi.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	dir := filepath.Dir(abs)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeAtomic(abs, text, mode); err != nil {
		return &fs.PathError{Op: "write", Path: r.Rel(abs), Err: err}
	}
	return nil
}

// writeAtomic writes text to a temporary file beside abs and renames it
// over abs; the temporary file is removed if anything fails.
func writeAtomic(abs, text string, mode fs.FileMode) (err error) {
	f, err := os.CreateTemp(filepath.Dir(abs), "."+filepath.Base(abs)+".graft-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err := f.WriteString(text); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), abs)
}

// Remove deletes the file at name, a path Path accepts. It refuses
// directories.
func (r *Root) Remove(name string) error {
	abs, err := r.Path(name)
	if err != nil {
		return err
	}
	fi, err := os.Lstat(abs)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return &fs.PathError{Op: "remove", Path: r.Rel(abs), Err: ErrIsDir}
	}
	return os.Remove(abs)
}

// Rename moves the file at from to to, both paths Path accepts, creating
// the parent directories of to. It refuses to replace an existing file.
func (r *Root) Rename(from, to string) error {
	src, err := r.Path(from)
	if err != nil {
		return err
	}
	dst, err := r.Path(to)
	if err != nil {
		return err
	}
	if _, err := os.Lstat(dst); err == nil {
		return &os.LinkError{Op: "rename", Old: r.Rel(src), New: r.Rel(dst), Err: fs.ErrExist}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("rename %s: %w", r.Rel(src), err)
	}
	return os.Rename(src, dst)
}
