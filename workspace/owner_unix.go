//go:build unix

package workspace

import (
	"io/fs"
	"os"
	"syscall"
)

// owner returns the owner, the group and the number of hard links of the
// file fi describes; ok is false when the system does not say.
func owner(fi fs.FileInfo) (uid, gid int, links uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 1, false
	}
	return int(st.Uid), int(st.Gid), uint64(st.Nlink), true
}

// keepsOwners reports whether this process can give a file another owner,
// so that a rewritten file keeps its owner and group: it runs as root.
func keepsOwners() bool { return os.Geteuid() == 0 }
