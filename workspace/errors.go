package workspace

import "errors"

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
