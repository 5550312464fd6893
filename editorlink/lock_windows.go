//go:build windows

package editorlink

import "fmt"

// lockDir would take the lock of the socket directory dir; the link does
// not serve on Windows (see linkSupport), so no claim ever takes it.
func lockDir(dir string) (func(), error) {
	return nil, fmt.Errorf("socket lock: %w", linkSupport())
}
