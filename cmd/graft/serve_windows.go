//go:build windows

package main

import "github.com/graft-editor/graft/editorlink"

// removeOnSIGTERM returns a function that does nothing: on Windows the
// editor link holds no socket to remove (it does not serve there), and
// the process ends on a console's close as it always did.
func removeOnSIGTERM(srv *editorlink.Server) (stop func()) {
	return func() {}
}
