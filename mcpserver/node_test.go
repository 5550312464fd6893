package mcpserver_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/graft-editor/graft/lsp/lsptest"
)

// nodeDir holds the Node test and its package files.
const nodeDir = "testdata/node"

// TestNodeClient drives graft mcp with the official TypeScript SDK
// (testdata/node): it lists the tools and checks their schemas, applies an
// edit, gets a refusal with a candidate and previews. The packages are
// installed with npm ci from the committed lock file, into the user's
// cache rather than the clone, once per lock file. The test is skipped
// only when node or npm is missing.
func TestNodeClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the TypeScript SDK test needs Node.js 18 or later")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the TypeScript SDK test needs it to install @modelcontextprotocol/sdk")
	}
	bin := lsptest.Build(t)
	work := nodeWorkDir(t, npm)
	test := filepath.Join(work, "graft_mcp.test.mjs")
	copyFile(t, filepath.Join(nodeDir, "graft_mcp.test.mjs"), test)
	cmd := exec.Command(node, "--test", "--test-reporter=spec", test)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GRAFT_BIN="+bin)
	out, err := cmd.CombinedOutput()
	t.Logf("node --test:\n%s", out)
	if err != nil {
		t.Fatalf("node --test: %v", err)
	}
}

// nodeWorkDir returns a directory outside the clone holding the Node
// test's package files and their node_modules, installed by npm ci when
// missing.
func nodeWorkDir(t *testing.T, npm string) string {
	t.Helper()
	lock, err := os.ReadFile(filepath.Join(nodeDir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256(lock)
	work := filepath.Join(cache, "graft-mcptest", "node-"+hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"package.json", "package-lock.json"} {
		copyFile(t, filepath.Join(nodeDir, name), filepath.Join(work, name))
	}
	if _, err := os.Stat(filepath.Join(work, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err == nil {
		return work
	}
	cmd := exec.Command(npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", work, err, out)
	}
	return work
}

// copyFile copies the file src to dst.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
