package workspace

import (
	"errors"
	"fmt"
	"io/fs"
)

// The reasons a path or a file is refused. They are wrapped with the path
// they concern, in an *fs.PathError; test for them with errors.Is.
var (
	// ErrOutsideRoot: the path leaves the workspace root, through "..",
	// as an absolute path elsewhere, or through a symbolic link that
	// points outside.
	ErrOutsideRoot = errors.New("outside the workspace root")
	// ErrBinary: the file holds a NUL byte near its start; it is not text.
	ErrBinary = errors.New("binary file, not edited")
	// ErrNotUTF8: the file is not valid UTF-8.
	ErrNotUTF8 = errors.New("not valid UTF-8, not edited")
	// ErrTooLarge: the file is larger than MaxFileSize. It is refused by
	// its size before it is read; the error that wraps it says the size
	// and the limit.
	ErrTooLarge = errors.New("too large, not edited")
	// ErrIsDir: the path names a directory where a file is needed.
	ErrIsDir = errors.New("is a directory")
	// ErrNotRegular: the path names a device, a pipe or a socket.
	ErrNotRegular = errors.New("not a regular file")
	// ErrNotDir: the workspace root is not a directory.
	ErrNotDir = errors.New("not a directory")
)

// The reasons a change is not written.
var (
	// ErrBadName: the path holds a control character (a newline, a NUL,
	// an escape), which no file an edit means has and which could forge
	// lines of a report.
	ErrBadName = errors.New("control character in the path; refused")
	// ErrReadOnly: the file has no write permission; it is changed only
	// when the caller forces it (graft apply --force).
	ErrReadOnly = errors.New("read-only file; not changed without --force")
	// ErrNotApplied: the editor that holds the document did not apply
	// the change (it was made for a version of the buffer the person has
	// edited since, or the editor refused it); the error that wraps it
	// says why.
	ErrNotApplied = errors.New("not applied by the editor")
	// ErrExists: a file appeared where one was to be created or moved to.
	// It matches fs.ErrExist too.
	ErrExists error = existsError{}
)

// existsError is ErrExists.
type existsError struct{}

func (existsError) Error() string        { return "already exists; not overwritten" }
func (existsError) Is(target error) bool { return target == fs.ErrExist }

// tooLargeError is ErrTooLarge for a file of size bytes; a size of 0 or
// less is not known, only that it is over the limit (the file grew while
// it was read).
type tooLargeError struct{ size int64 }

func (e *tooLargeError) Error() string {
	size := "over"
	if e.size > 0 {
		size = fmt.Sprintf("%s (%d bytes), over", ByteSize(e.size), e.size)
	}
	return fmt.Sprintf("%v: %s the %s limit on a file Graft edits; check that the block names the file it means, or change this one another way",
		ErrTooLarge, size, ByteSize(MaxFileSize))
}

func (e *tooLargeError) Unwrap() error { return ErrTooLarge }

// ByteSize returns n bytes in the largest binary unit it fills, as the
// messages about sizes say it: "512 bytes", "32 MiB", "1.5 GiB".
func ByteSize(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return fmt.Sprintf("%d bytes", n)
	}
	f, u := float64(n)/1024, 0
	for f >= 1024 && u < len(units)-1 {
		f, u = f/1024, u+1
	}
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d %ciB", int64(f), units[u])
	}
	return fmt.Sprintf("%.1f %ciB", f, units[u])
}
