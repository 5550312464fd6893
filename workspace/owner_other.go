//go:build !unix

package workspace

import "io/fs"

// owner returns the owner, the group and the number of hard links of the
// file fi describes; ok is false when the system does not say, as here.
func owner(fi fs.FileInfo) (uid, gid int, links uint64, ok bool) { return 0, 0, 1, false }

// keepsOwners reports whether this process can give a file another owner;
// on this system files are not given owners.
func keepsOwners() bool { return false }
