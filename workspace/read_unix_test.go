//go:build unix

package workspace

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadFileRefusesSpecialFiles makes a named pipe with syscall.Mkfifo,
// which only Unix has.
func TestReadFileRefusesSpecialFiles(t *testing.T) {
	dir := newTree(t, nil, nil)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("no named pipes: %v", err)
	}
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Reading a pipe would block forever: it must be refused unopened.
	if _, err := root.ReadFile("pipe"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadFile(pipe) error = %v, want %v", err, ErrNotRegular)
	}
}
