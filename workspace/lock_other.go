//go:build !unix

package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// lockFile is the file whose exclusive creation is the root's lock where
// there is no flock, as git's index.lock is.
const lockFile = ".graft.lock"

// lockDir tries once to create dir's lock file exclusively. It reports
// busy when the file exists: another process holds the lock (or died
// holding it, and the file must be removed by hand).
func lockDir(dir string) (unlock func(), busy bool, err error) {
	p := filepath.Join(dir, lockFile)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case errors.Is(err, fs.ErrExist):
		return nil, true, nil
	case err != nil:
		return nil, false, err
	}
	f.Close()
	return func() { os.Remove(p) }, false, nil
}
