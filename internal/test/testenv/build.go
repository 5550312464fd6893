package testenv

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// BinaryEnv names an environment variable that, when set, holds the path of
// a graft binary to use instead of building one.
const BinaryEnv = "GRAFT_TEST_BIN"

var build struct {
	once sync.Once
	path string
	err  error
}

// Build builds ./cmd/graft of the enclosing module once per test process and
// returns the binary's path; a failed build fails tb. The binary lives in the
// user's cache directory, one per module root, replaced atomically by each
// build, so test runs do not leave binaries behind.
func Build(tb testing.TB) string {
	tb.Helper()
	build.once.Do(func() {
		if p := os.Getenv(BinaryEnv); p != "" {
			build.path = p
			if f, err := os.Open(p); err == nil { // for go test's cache, as touchSources
				f.Close()
			}
			return
		}
		build.path, build.err = buildGraft()
	})
	if build.err != nil {
		tb.Fatalf("testenv: %v", build.err)
	}
	return build.path
}

func buildGraft() (string, error) {
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(cache, "graft-testenv", hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("creating build directory: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "graft-*.tmp")
	if err != nil {
		return "", fmt.Errorf("creating build output: %w", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	cmd := exec.Command("go", "build", "-o", tmp.Name(), "./cmd/graft")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/graft in %s: %v\n%s", root, err, out)
	}
	bin := filepath.Join(dir, "graft")
	if err := os.Rename(tmp.Name(), bin); err != nil {
		return "", fmt.Errorf("installing test binary: %w", err)
	}
	if err := touchSources(root); err != nil {
		return "", err
	}
	return bin, nil
}

// touchSources opens every source file of the module that the binary is
// built from, so that go test's result cache, which tracks the files a
// test opens, knows that the results depend on them: a change in the
// server's code then reruns the tests that drive it.
func touchSources(root string) error {
	cmd := exec.Command("go", "list", "-deps", "-f",
		`{{if .Module}}{{if .Module.Main}}{{$d := .Dir}}{{range .GoFiles}}{{$d}}{{"\n"}}{{.}}{{"\n"}}{{end}}{{end}}{{end}}`, "./cmd/graft")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("listing the sources of ./cmd/graft: %v", err)
	}
	files := []string{filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum")}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i := 0; i+1 < len(lines); i += 2 {
		files = append(files, filepath.Join(lines[i], lines[i+1]))
	}
	for _, f := range files {
		if fh, err := os.Open(f); err == nil {
			fh.Close()
		}
	}
	return nil
}

// moduleRoot is the directory of the main module's go.mod, as `go env
// GOMOD` reports it from the current directory, or found by walking up.
func moduleRoot() (string, error) {
	if out, err := exec.Command("go", "env", "GOMOD").Output(); err == nil {
		gomod := strings.TrimSpace(string(out))
		if gomod != "" && gomod != os.DevNull {
			return filepath.Dir(gomod), nil
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding module root: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the current directory")
		}
		dir = parent
	}
}

// RunPrivateState runs m with XDG_STATE_HOME set to a temporary directory,
// removed after, and returns its status: the graft processes the tests
// start keep their journals there (see package history), never in the
// user's state directory.
func RunPrivateState(m *testing.M) int {
	state, err := os.MkdirTemp("", "graft-test-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(state)
	os.Setenv("XDG_STATE_HOME", state)
	return m.Run()
}
