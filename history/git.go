package history

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/graft-editor/graft/engine"
)

// GitTimeout bounds each git command.
const GitTimeout = 3 * time.Second

// Git finds a file's staged and committed (HEAD) versions through the git
// binary. Without git, outside a repository, or for a file git does not
// track, it finds none, and nothing fails.
type Git struct {
	// Binary is the git program; "git" when empty.
	Binary string
}

// Versions returns the staged version of the file at abs when it differs
// from HEAD's, then HEAD's, most recent first.
func (g Git) Versions(abs string) []engine.Version {
	dir, base := filepath.Dir(abs), "./"+filepath.Base(abs)
	if !inRepository(dir) {
		return nil
	}
	head, ok := g.show(dir, "HEAD:"+base)
	var vs []engine.Version
	if staged, sok := g.show(dir, ":"+base); sok && (!ok || staged != head) {
		vs = append(vs, engine.Version{Name: "the staged file", Text: staged})
	}
	if ok {
		name := "the file at HEAD"
		if c, cok := g.run(dir, "rev-parse", "--short", "HEAD"); cok {
			name += " (commit " + strings.TrimSpace(c) + ")"
		}
		vs = append(vs, engine.Version{Name: name, Text: head})
	}
	return vs
}

// inRepository reports whether dir may be in a git repository: a folder
// at or above it holds .git, or GIT_DIR names one. Elsewhere git is not
// run at all: a look-up costs a few stats rather than two processes.
func inRepository(dir string) bool {
	if os.Getenv("GIT_DIR") != "" {
		return true
	}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		if filepath.Dir(d) == d {
			return false
		}
	}
}

// show returns the text of a git object named like "HEAD:./a.go".
func (g Git) show(dir, object string) (string, bool) {
	out, ok := g.run(dir, "show", object)
	if !ok || !utf8.ValidString(out) || strings.IndexByte(out, 0) >= 0 {
		return "", false
	}
	return out, true
}

// run runs git in dir, and returns its output when it succeeded.
func (g Git) run(dir string, args ...string) (string, bool) {
	bin := g.Binary
	if bin == "" {
		bin = "git"
	}
	ctx, cancel := context.WithTimeout(context.Background(), GitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"-C", dir, "--no-pager", "-c", "core.quotepath=off"}, args...)...)
	cmd.Env = append(cmd.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		return "", false
	}
	return out.String(), true
}
