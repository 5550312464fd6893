//go:build unix

package workspace

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockDir tries once to take an exclusive flock on the directory dir. It
// reports busy when another process holds it.
func lockDir(dir string) (unlock func(), busy bool, err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, false, err
	}
	fd := int(f.Fd())
	for {
		err = unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	switch {
	case errors.Is(err, unix.EWOULDBLOCK):
		f.Close()
		return nil, true, nil
	case err != nil:
		f.Close()
		return nil, false, err
	}
	return func() {
		unix.Flock(fd, unix.LOCK_UN)
		f.Close()
	}, false, nil
}
