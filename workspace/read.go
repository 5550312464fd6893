package workspace

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"unicode/utf8"
)

// sniffLen is how much of a file is searched for a NUL byte to tell binary
// from text, the same heuristic and length Git uses.
const sniffLen = 8000

// ReadFile returns the document at name, a path Path accepts. A file that
// does not exist is a Document with Exists false, not an error.
// Directories, special files, binary files and files that are not valid
// UTF-8 are refused with an *fs.PathError wrapping ErrIsDir, ErrNotRegular,
// ErrBinary or ErrNotUTF8.
func (r *Root) ReadFile(name string) (Document, error) {
	abs, err := r.Path(name)
	if err != nil {
		return Document{}, err
	}
	refuse := func(err error) (Document, error) {
		return Document{}, &fs.PathError{Op: "read", Path: r.Rel(abs), Err: err}
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Document{}, nil
	case err != nil:
		return Document{}, err
	case fi.IsDir():
		return refuse(ErrIsDir)
	case !fi.Mode().IsRegular():
		return refuse(ErrNotRegular)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return Document{}, err
	}
	if bytes.IndexByte(data[:min(len(data), sniffLen)], 0) >= 0 {
		return refuse(ErrBinary)
	}
	if !utf8.Valid(data) {
		return refuse(ErrNotUTF8)
	}
	return Document{Text: string(data), Exists: true, Mode: fi.Mode().Perm()}, nil
}

// Read is ReadFile for a Source; it fails at once if ctx is done.
func (r *Root) Read(ctx context.Context, name string) (Document, error) {
	if err := ctx.Err(); err != nil {
		return Document{}, fmt.Errorf("read %s: %w", name, err)
	}
	return r.ReadFile(name)
}
