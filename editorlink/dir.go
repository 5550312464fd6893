package editorlink

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// DirEnv names an environment variable that, when set, is the socket
// directory instead of the default (for tests, and for users whose
// XDG_RUNTIME_DIR is not private).
const DirEnv = "GRAFT_EDITOR_DIR"

// ErrInsecureDir is wrapped by the errors of a socket directory that
// another user could reach: not a directory, not owned by the user, or
// with permissions for group or others.
var ErrInsecureDir = errors.New("insecure editor link directory")

// Dir returns the directory of the user's editor link sockets:
// $GRAFT_EDITOR_DIR when set, else $XDG_RUNTIME_DIR/graft when
// XDG_RUNTIME_DIR is set, else os.TempDir()/graft-<uid>. It neither
// creates nor checks it.
func Dir() string {
	if d := os.Getenv(DirEnv); d != "" {
		return d
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "graft")
	}
	return filepath.Join(os.TempDir(), "graft-"+strconv.Itoa(os.Getuid()))
}

// SocketPath returns the path of the socket of the workspace root in dir:
// dir/<first 16 bytes of SHA-256 of root's real path, in hex>.sock. The
// root must exist.
func SocketPath(dir, root string) (string, error) {
	real, err := realPath(root)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(real))
	p := filepath.Join(dir, hex.EncodeToString(sum[:16])+".sock")
	if len(p) >= maxSocketPath {
		return "", fmt.Errorf("%w: %s is longer than a Unix socket address allows (%d bytes): set %s to a shorter directory", errPathTooLong, p, maxSocketPath-1, DirEnv)
	}
	return p, nil
}

// errPathTooLong is wrapped by the error of SocketPath when the socket's
// path would not fit in a Unix socket address.
var errPathTooLong = errors.New("socket path too long")

// maxSocketPath is the size of sockaddr_un.sun_path, with its
// terminating NUL: 108 bytes on Linux and Windows, 104 on macOS.
const maxSocketPath = len(syscall.RawSockaddrUnix{}.Path)

// realPath returns the absolute path of root with its links evaluated.
func realPath(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("workspace root: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("workspace root: %w", err)
	}
	return real, nil
}

// CheckDir returns nil when dir is a directory (not a link) owned by the
// user uid with no permission for group or others, and an error wrapping
// ErrInsecureDir when it is something else; an error wrapping
// fs.ErrNotExist when there is nothing at dir. On Windows, where files
// have no user id and no mode bits, uid is ignored: dir must be owned by
// the user the process runs as (or by the Administrators or SYSTEM), and
// its access list may grant access to no one else.
func CheckDir(dir string, uid int) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	return checkDirInfo(dir, fi, uid)
}

// ensureDir creates dir with mode 0700 when it does not exist (its parent
// too, as for XDG_RUNTIME_DIR/graft), and checks it as CheckDir does.
func ensureDir(dir string) error {
	err := CheckDir(dir, os.Getuid())
	if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return fmt.Errorf("editor link directory: %w", err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("editor link directory: %w", err)
	}
	return CheckDir(dir, os.Getuid())
}
