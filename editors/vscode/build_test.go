package vscode_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graft-editor/graft/lsp/lsptest"
)

// sources are the files and folders of the extension that a build reads.
var sources = []string{
	"package.json", "package-lock.json", "tsconfig.json", ".vscodeignore",
	"README.md", "CHANGELOG.md", "media", "src", "test",
}

// extensionTree copies the extension's sources into a temporary folder
// beside its packages (node_modules, installed once per lock file into the
// user's cache) and returns the folder: a build there leaves the clone as
// it is.
func extensionTree(t *testing.T, npm string) string {
	t.Helper()
	work := t.TempDir()
	for _, name := range sources {
		copyTree(t, name, filepath.Join(work, name))
	}
	if err := os.Symlink(filepath.Join(lsptest.NPMInstall(t, npm, "."), "node_modules"), filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return work
}

// packageVSIX packages the extension in the tree work as CI does, with
// vsce 3.9.2 (which runs the vscode:prepublish script, the esbuild
// bundle), and returns the .vsix's path.
func packageVSIX(t *testing.T, npm, work string) string {
	t.Helper()
	run(t, work, nil, npx(npm), "--no-install", "@vscode/vsce@3.9.2", "package",
		"--no-dependencies", "--skip-license", "--out", "graft.vsix")
	return filepath.Join(work, "graft.vsix")
}

// npx is the npx beside npm.
func npx(npm string) string {
	return filepath.Join(filepath.Dir(npm), "npx")
}

// run runs a command in dir and fails t, with its output, when it fails.
func run(t *testing.T, dir string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args, " "), err, out)
	}
	t.Logf("%s %s:\n%s", filepath.Base(name), strings.Join(args, " "), out)
}

// copyTree copies the file or folder src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatalf("copying %s: %v", src, err)
	}
}
