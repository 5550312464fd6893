package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := newTree(t, map[string]string{
		"text.go":      "package a\n",
		"crlf.txt":     "a\r\nb\r\n",
		"empty":        "",
		"bin.png":      "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"latin1.txt":   "caf\xe9\n",
		"late-nul.txt": strings.Repeat("x", sniffLen) + "\x00",
		"dir/":         "/",
	}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		want    Document
		wantErr error
	}{
		{name: "text.go", want: Document{Text: "package a\n", Exists: true, Mode: 0o644}},
		{name: "crlf.txt", want: Document{Text: "a\r\nb\r\n", Exists: true, Mode: 0o644}},
		{name: "empty", want: Document{Exists: true, Mode: 0o644}},
		{name: "missing.go", want: Document{}},
		{name: "new/dir/missing.go", want: Document{}},
		{name: "bin.png", wantErr: ErrBinary},
		{name: "latin1.txt", wantErr: ErrNotUTF8},
		// A NUL past the sniffed prefix is not taken for binary, and
		// NUL is valid UTF-8.
		{name: "late-nul.txt", want: Document{Text: strings.Repeat("x", sniffLen) + "\x00", Exists: true, Mode: 0o644}},
		{name: "dir", wantErr: ErrIsDir},
		{name: "../elsewhere.go", wantErr: ErrOutsideRoot},
	}
	for _, tt := range tests {
		got, err := root.ReadFile(tt.name)
		if tt.wantErr != nil {
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("ReadFile(%q) error = %v, want %v", tt.name, err, tt.wantErr)
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.name) {
				t.Errorf("ReadFile(%q) error %q does not name the path", tt.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ReadFile(%q) error: %v", tt.name, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ReadFile(%q) = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestReadFileKeepsMode(t *testing.T) {
	dir := newTree(t, map[string]string{"run.sh": "#!/bin/sh\n"}, nil)
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o750); err != nil {
		t.Fatal(err)
	}
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := root.ReadFile("run.sh")
	if err != nil {
		t.Fatal(err)
	}
	if doc.Mode != 0o750 {
		t.Errorf("Mode = %v, want %v", doc.Mode, fs.FileMode(0o750))
	}
}

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
