//go:build unix

package editorlink

import (
	"fmt"
	"io/fs"
	"syscall"
)

// checkDirInfo is CheckDir on what Lstat returned.
func checkDirInfo(dir string, fi fs.FileInfo, uid int) error {
	if !fi.IsDir() {
		return fmt.Errorf("%w: %s is not a directory (%s)", ErrInsecureDir, dir, fi.Mode().Type())
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("%w: %s: cannot read its owner", ErrInsecureDir, dir)
	}
	if int(st.Uid) != uid {
		return fmt.Errorf("%w: %s is owned by uid %d, not %d", ErrInsecureDir, dir, st.Uid, uid)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("%w: %s has mode %#o; it must be 0700, private to its owner", ErrInsecureDir, dir, perm)
	}
	return nil
}

// ownedBy reports whether the file at path, which fi describes, is owned
// by the user uid.
func ownedBy(path string, fi fs.FileInfo, uid int) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == uid
}
