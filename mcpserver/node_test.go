package mcpserver_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/graft-editor/graft/internal/test/testenv"
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
	bin := testenv.Build(t)
	work := testenv.NPMInstall(t, npm, nodeDir)
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
