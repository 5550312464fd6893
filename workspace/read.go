package workspace

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// sniffLen is how much of a file is searched for a NUL byte to tell binary
// from text, the same heuristic and length Git uses. It is read first, and
// the rest of a file only when it holds none.
const sniffLen = 8000

// MaxFileSize is the largest file, in bytes, that Graft reads to edit: 32
// MiB. A larger file is refused with an error wrapping ErrTooLarge, by the
// size Stat gives, before a byte of it is read; an editor's buffer larger
// than that is refused alike. It is the one limit on every path that reads
// a workspace file: Root.ReadFile, the overlay's reads from disk and from
// buffers, the plan, and the checks before a write.
//
// The files an agent edits are source, configuration and documentation:
// the largest hand-kept sources run to a few MiB (SQLite's amalgamation,
// sqlite3.c, is about 9 MiB), and a model whose context holds a million
// tokens reads about 4 MiB of code. 32 MiB leaves ample room over those,
// lies between the 20 MB past which VS Code stops highlighting a file and
// the 50 MB past which it hides a buffer from extensions (and so from
// graft serve), and matches the 32 MiB bound on a request over the editor
// link. Past it a file is a log, a data dump or a build output, which a
// block names by mistake. At it, reading a file takes tens of milliseconds
// and its size in memory, and a plan and its diff hold about three times
// its size (the text, the text after, the engine's line index): see
// BenchmarkReadFileAtLimit and BenchmarkPlanAtLimit.
const MaxFileSize = 32 << 20

// ReadFile returns the document at name, a path Path accepts. A file that
// does not exist is a Document with Exists false, not an error.
// Directories, special files, files larger than MaxFileSize, binary files
// and files that are not valid UTF-8 are refused with an *fs.PathError
// wrapping ErrIsDir, ErrNotRegular, ErrTooLarge, ErrBinary or ErrNotUTF8.
// The file is read through the root's os.Root: a symbolic link is followed
// only while it stays inside the root.
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
// with the file's information (nil when it does not exist). What can be
// refused without reading is refused first: the kind of file and its
// size, by Stat and again by the open file's Stat; then whether its head
// is binary; only then is the rest read.
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
	case fi.Size() > MaxFileSize:
		return refuse(&tooLargeError{fi.Size()})
	}
	// O_NONBLOCK: a pipe swapped in after the Stat does not hang the read.
	f, err := r.fsys.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return Document{}, nil, err
	}
	defer f.Close()
	fi, err = f.Stat()
	switch {
	case err != nil:
		return Document{}, nil, err
	case !fi.Mode().IsRegular():
		return refuse(ErrNotRegular)
	case fi.Size() > MaxFileSize: // a larger file swapped in after the Stat
		return refuse(&tooLargeError{fi.Size()})
	}
	text, err := readText(f, fi.Size())
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return Document{}, nil, err // the read failed; it names the file
		}
		return refuse(err)
	}
	return Document{Text: text, Exists: true, Mode: fi.Mode().Perm()}, fi, nil
}

// readText reads the text of a file from f, whose Stat gave size bytes: its
// first sniffLen bytes, refused with ErrBinary when they hold a NUL, then
// the rest, refused when it goes past MaxFileSize (the file grew) or is
// not valid UTF-8. The text is read into one buffer of the file's size and
// returned without a copy, so that a file costs its size in memory once.
func readText(f io.Reader, size int64) (string, error) {
	var b strings.Builder
	b.Grow(int(min(max(size, 0), MaxFileSize)) + 1) // one more: the end is seen without growing
	if _, err := io.CopyN(&b, f, sniffLen); err != nil && err != io.EOF {
		return "", err
	}
	if strings.IndexByte(b.String(), 0) >= 0 {
		return "", ErrBinary
	}
	if _, err := io.Copy(&b, io.LimitReader(f, MaxFileSize+1-int64(b.Len()))); err != nil {
		return "", err
	}
	if b.Len() > MaxFileSize {
		return "", &tooLargeError{}
	}
	if !utf8.ValidString(b.String()) {
		return "", ErrNotUTF8
	}
	return b.String(), nil
}

// Read is ReadFile for a Source; it fails at once if ctx is done.
func (r *Root) Read(ctx context.Context, name string) (Document, error) {
	if err := ctx.Err(); err != nil {
		return Document{}, fmt.Errorf("read %s: %w", name, err)
	}
	return r.ReadFile(name)
}
