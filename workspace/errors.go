package workspace

import (
	"errors"
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
	// ErrExists: a file appeared where one was to be created or moved to.
	// It matches fs.ErrExist too.
	ErrExists error = existsError{}
)

// existsError is ErrExists.
type existsError struct{}

func (existsError) Error() string        { return "already exists; not overwritten" }
func (existsError) Is(target error) bool { return target == fs.ErrExist }
