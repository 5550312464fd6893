//go:build windows

package editorlink

import (
	"fmt"
	"io/fs"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// checkDirInfo is CheckDir on what Lstat returned. Windows files have no
// user id and no mode bits: uid is ignored, and the directory's security
// descriptor says who owns it and who may use it instead.
func checkDirInfo(dir string, fi fs.FileInfo, uid int) error {
	if fi.Mode().Type() != fs.ModeDir {
		return fmt.Errorf("%w: %s is not a directory (%s)", ErrInsecureDir, dir, fi.Mode().Type())
	}
	user, err := processUser()
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrInsecureDir, dir, err)
	}
	sd, err := windows.GetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("%w: %s: cannot read its owner and access list: %w", ErrInsecureDir, dir, err)
	}
	owner, _, err := sd.Owner()
	if err != nil || owner == nil {
		return fmt.Errorf("%w: %s: cannot read its owner", ErrInsecureDir, dir)
	}
	if !trusted(owner, user) {
		return fmt.Errorf("%w: %s is owned by %s, not %s", ErrInsecureDir, dir, account(owner), account(user))
	}
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		// No access list at all: everyone may do anything.
		return fmt.Errorf("%w: %s has no access list: everyone may use it; it must be private to its owner", ErrInsecureDir, dir)
	}
	for i := range uint32(dacl.AceCount) {
		var ace *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, i, &ace); err != nil {
			return fmt.Errorf("%w: %s: cannot read its access list: %w", ErrInsecureDir, dir, err)
		}
		switch {
		case ace.Header.AceFlags&windows.INHERIT_ONLY_ACE != 0:
			continue // for what is created inside, not for dir itself
		case ace.Header.AceType == windows.ACCESS_DENIED_ACE_TYPE:
			continue
		case ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE:
			return fmt.Errorf("%w: %s has an access entry of type %d, which graft cannot check; it must be private to its owner", ErrInsecureDir, dir, ace.Header.AceType)
		}
		sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
		if !trusted(sid, user) && !sid.IsWellKnown(windows.WinCreatorOwnerRightsSid) {
			return fmt.Errorf("%w: %s grants access to %s; it must be private to its owner", ErrInsecureDir, dir, account(sid))
		}
	}
	return nil
}

// ownedBy reports whether the file at path, which fi describes, is owned
// by the user the process runs as (uid is ignored on Windows).
func ownedBy(path string, fi fs.FileInfo, uid int) bool {
	user, err := processUser()
	if err != nil {
		return false
	}
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return false
	}
	owner, _, err := sd.Owner()
	return err == nil && owner != nil && trusted(owner, user)
}

// processUser returns the security identifier of the user the process
// runs as.
func processUser() (*windows.SID, error) {
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("cannot tell which user runs graft: %w", os.NewSyscallError("GetTokenInformation", err))
	}
	return tu.User.Sid, nil
}

// trusted reports whether sid is the user's, or that of the system or
// of the administrators, who may do anything on the machine anyway (the
// files an elevated administrator creates belong to the Administrators).
func trusted(sid, user *windows.SID) bool {
	return sid.Equals(user) || sid.IsWellKnown(windows.WinLocalSystemSid) || sid.IsWellKnown(windows.WinBuiltinAdministratorsSid)
}

// account names sid as DOMAIN\name, or as S-1-... when it has no name.
func account(sid *windows.SID) string {
	name, domain, _, err := sid.LookupAccount("")
	switch {
	case err != nil:
		return sid.String()
	case domain == "":
		return name
	}
	return domain + `\` + name
}
