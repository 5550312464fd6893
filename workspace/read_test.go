package workspace

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// sparse makes dir/name a file of size bytes that starts with head and
// holds NUL bytes after it; os.Truncate makes the rest a hole, so that a
// file of any size costs no disk and no time to make.
func sparse(t testing.TB, dir, name, head string, size int64) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(head), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, size); err != nil {
		t.Fatal(err)
	}
}

func TestReadFileSizeLimit(t *testing.T) {
	text := strings.Repeat("x", sniffLen)
	tests := []struct {
		name    string
		head    string
		size    int64
		wantErr error
	}{
		// NUL bytes past the sniffed head are text, valid UTF-8: the
		// files are read whole, up to the limit itself.
		{name: "under.txt", head: text, size: MaxFileSize - 1},
		{name: "at.txt", head: text, size: MaxFileSize},
		{name: "over.txt", head: text, size: MaxFileSize + 1, wantErr: ErrTooLarge},
		{name: "huge.txt", head: text, size: 1 << 30, wantErr: ErrTooLarge},
		// The size is checked before the content.
		{name: "huge.bin", head: "\x00", size: 1 << 30, wantErr: ErrTooLarge},
		{name: "huge-latin1.txt", head: "caf\xe9", size: MaxFileSize + 1, wantErr: ErrTooLarge},
		// Under it, the head is sniffed, and the rest checked as UTF-8.
		{name: "bin-at.txt", head: "\x00", size: MaxFileSize, wantErr: ErrBinary},
		{name: "latin1-at.txt", head: text + "caf\xe9", size: MaxFileSize, wantErr: ErrNotUTF8},
	}
	dir := newTree(t, nil, nil)
	for _, tt := range tests {
		sparse(t, dir, tt.name, tt.head, tt.size)
	}
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := root.ReadFile(tt.name)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("ReadFile: %v", err)
				}
				if int64(len(doc.Text)) != tt.size || !strings.HasPrefix(doc.Text, tt.head) {
					t.Errorf("ReadFile read %d bytes, want %d starting with the head", len(doc.Text), tt.size)
				}
				return
			}
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("ReadFile error = %v, want %v", err, tt.wantErr)
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) || pe.Path != tt.name {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestTooLargeMessage(t *testing.T) {
	tests := []struct {
		size int64
		want string
	}{
		{1 << 30, "read f: too large, not edited: 1 GiB (1073741824 bytes), over the 32 MiB limit on a file Graft edits;"},
		{MaxFileSize + 1, "read f: too large, not edited: 32.0 MiB (33554433 bytes), over the 32 MiB limit"},
		{3 << 29, "1.5 GiB (1610612736 bytes), over"},
		{0, "read f: too large, not edited: over the 32 MiB limit"}, // grew while read
	}
	for _, tt := range tests {
		err := error(&fs.PathError{Op: "read", Path: "f", Err: &tooLargeError{tt.size}})
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("size %d: %q, want it to hold %q", tt.size, err, tt.want)
		}
		if !strings.Contains(err.Error(), "check that the block names the file it means") {
			t.Errorf("size %d: %q gives no hint", tt.size, err)
		}
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("size %d: %v is not ErrTooLarge", tt.size, err)
		}
	}
}

// countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// zeros yields NUL bytes without end.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestReadTextReadsNoMoreThanItChecks(t *testing.T) {
	text := strings.Repeat("x", sniffLen)
	tests := []struct {
		name     string
		content  io.Reader
		size     int64 // as Stat said
		wantErr  error
		wantRead int64 // at most
	}{
		// A NUL in the head: the rest is never read.
		{name: "binary head", content: io.MultiReader(strings.NewReader("\x00"), zeros{}), size: 1 << 30,
			wantErr: ErrBinary, wantRead: sniffLen},
		{name: "NUL at the head's last byte", content: io.MultiReader(strings.NewReader(text[1:]+"\x00"), zeros{}), size: 1 << 30,
			wantErr: ErrBinary, wantRead: sniffLen},
		// A file that grows past the limit while it is read: no more than
		// the limit and a byte are read.
		{name: "grows", content: io.MultiReader(strings.NewReader(text), zeros{}), size: 100,
			wantErr: ErrTooLarge, wantRead: MaxFileSize + 1},
		{name: "NUL past the head", content: strings.NewReader(text + "\x00"), size: sniffLen + 1,
			wantRead: sniffLen + 1},
		{name: "empty", content: strings.NewReader(""), size: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &countingReader{r: tt.content}
			_, err := readText(c, tt.size)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("readText error = %v, want %v", err, tt.wantErr)
			}
			if c.n > tt.wantRead {
				t.Errorf("readText read %d bytes, want at most %d", c.n, tt.wantRead)
			}
		})
	}
}
