package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"unicode/utf8"
)

// sniffLen is how much of a file is searched for a NUL byte to tell binary
// from text, the same heuristic and length Git uses.
const sniffLen = 8000

// ReadFile returns the document at name, a path Path accepts. A file that
// does not exist is a Document with Exists false, not an error.
// Directories, special files, binary files and files that are not valid
// UTF-8 are refused with an *fs.PathError wrapping ErrIsDir, ErrNotRegular,
// ErrBinary or ErrNotUTF8. The file is read through the root's os.Root: a
// symbolic link is followed only while it stays inside the root.
func (r *Root) ReadFile(name string) (Document, error) {
	abs, err := r.Path(name)
	if err != nil {
		return Document{}, err
	}
	rel, err := r.local(abs)
	if err != nil {
		return Document{}, err
	}
	doc, _, err := r.read(rel)
	return doc, err
}

// read reads the document at rel, a path under the root, and returns it
// with the file's information (nil when it does not exist).
func (r *Root) read(rel string) (Document, fs.FileInfo, error) {
	refuse := func(err error) (Document, fs.FileInfo, error) {
		return Document{}, nil, &fs.PathError{Op: "read", Path: filepath.ToSlash(rel), Err: err}
	}
	fi, err := r.fsys.Stat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Document{}, nil, nil
	case err != nil:
		return Document{}, nil, err
	case fi.IsDir():
		return refuse(ErrIsDir)
	case !fi.Mode().IsRegular():
		return refuse(ErrNotRegular)
	}
	// O_NONBLOCK: a pipe swapped in after the Stat does not hang the read.
	f, err := r.fsys.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return Document{}, nil, err
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return Document{}, nil, err
	}
	if !fi.Mode().IsRegular() {
		return refuse(ErrNotRegular)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return Document{}, nil, err
	}
	if bytes.IndexByte(data[:min(len(data), sniffLen)], 0) >= 0 {
		return refuse(ErrBinary)
	}
	if !utf8.Valid(data) {
		return refuse(ErrNotUTF8)
	}
	return Document{Text: string(data), Exists: true, Mode: fi.Mode().Perm()}, fi, nil
}

// Read is ReadFile for a Source; it fails at once if ctx is done.
func (r *Root) Read(ctx context.Context, name string) (Document, error) {
	if err := ctx.Err(); err != nil {
		return Document{}, fmt.Errorf("read %s: %w", name, err)
	}
	return r.ReadFile(name)
}
