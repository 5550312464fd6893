//go:build linux || darwin

package main

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graft-editor/graft/internal/test/testenv"
)

// These tests run the built graft apply on files far larger than
// workspace.MaxFileSize and check, by the process's peak memory, that it
// refuses them without reading them.

// maxRSS is the peak resident memory a graft apply that refuses a huge
// file may reach: the binary's own few tens of MiB, far below the GiB the
// file would take.
const maxRSS = 200 << 20

// sparseFile makes path a file of size bytes that starts with head, the
// rest a hole: a file of a GiB costs no disk and no time to make.
func sparseFile(t *testing.T, path, head string, size int64) {
	t.Helper()
	if err := os.WriteFile(path, []byte(head), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
}

// runBuilt runs the built graft with args in dir, stdin (when not nil) as
// its input, and returns its combined output, exit status and peak
// resident memory in bytes.
func runBuilt(t *testing.T, dir string, stdin io.Reader, args ...string) (string, int, int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, testenv.Build(t), args...)
	cmd.Dir = dir
	cmd.Env = childEnv()
	if stdin != nil {
		cmd.Stdin = stdin
	}
	start := time.Now()
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	if runtime.GOOS != "darwin" {
		rss <<= 10 // Linux counts KiB
	}
	t.Logf("graft %s: exit %d in %v, max RSS %d MiB", strings.Join(args, " "), cmd.ProcessState.ExitCode(), time.Since(start).Round(time.Millisecond), rss>>20)
	return string(out), cmd.ProcessState.ExitCode(), int64(rss)
}

func TestApplyRefusesAHugeFileUnread(t *testing.T) {
	root := t.TempDir()
	// A line of text, then a hole that reads as NUL bytes: binary, but
	// a reader that does not check the size first reads a GiB to learn it.
	sparseFile(t, filepath.Join(root, "huge.log"), "line one\n", 1<<30)
	answer := filepath.Join(root, "answer.md")
	writeFile(t, answer, "huge.log\n<<<<<<< SEARCH\nline one\n=======\nline 1\n>>>>>>> REPLACE\n")

	out, code, rss := runBuilt(t, root, nil, "apply", "--dry-run", "answer.md")
	if code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	want := "read huge.log: too large, not edited: 1 GiB (1073741824 bytes), over the 32 MiB limit on a file Graft edits"
	if !strings.Contains(out, want) {
		t.Errorf("output does not say %q:\n%s", want, out)
	}
	if rss > maxRSS {
		t.Errorf("max RSS %d MiB, want under %d MiB: the file was read", rss>>20, maxRSS>>20)
	}
}

// endless yields the byte x without end, as a runaway pipe would.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestApplyRefusesAHugeAnswer(t *testing.T) {
	root := t.TempDir()
	huge := filepath.Join(root, "huge.md")
	sparseFile(t, huge, "a.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n", 1<<30)
	redirected, err := os.Open(huge)
	if err != nil {
		t.Fatal(err)
	}
	defer redirected.Close()
	const (
		over  = "too large: 1 GiB (1073741824 bytes), over the 32 MiB limit on an answer; pass the model's answer itself"
		grown = "graft apply: stdin: too large: over the 32 MiB limit on an answer"
	)
	tests := []struct {
		name  string
		stdin io.Reader
		args  []string
		want  string
	}{
		// A file, and stdin redirected from one: refused by their size.
		{name: "file", args: []string{"huge.md"}, want: "graft apply: huge.md: " + over},
		{name: "stdin from a file", stdin: redirected, want: "graft apply: stdin: " + over},
		// A pipe: refused once a byte past the limit is read.
		{name: "stdin from a pipe", stdin: endless{}, want: grown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, code, rss := runBuilt(t, root, tt.stdin, append([]string{"apply", "--dry-run"}, tt.args...)...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(out, tt.want) {
				t.Errorf("output does not say %q:\n%s", tt.want, out)
			}
			if rss > maxRSS {
				t.Errorf("max RSS %d MiB, want under %d MiB", rss>>20, maxRSS>>20)
			}
		})
	}
}
