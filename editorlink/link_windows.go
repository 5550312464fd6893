//go:build windows

package editorlink

import "errors"

// linkSupport returns why the link cannot work on Windows: no server
// listens, and clients go to the disk (ErrLinkDisabled).
func linkSupport() error {
	return errors.New("the editor link is not available on Windows: its sockets cannot tell which user connects")
}
