// Package vscode_test checks the VS Code extension in this directory: it
// type-checks and bundles it, packages the .vsix as the marketplace takes
// it, and drives the real graft serve as the extension's language client
// (vscode-languageclient 9) does.
package vscode_test

import (
	"archive/zip"
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

// TestExtension builds the extension as CI does (npm ci, tsc --noEmit,
// esbuild, vsce 3.9.2 package) in a copy of this directory, checks the
// .vsix, and runs the Node tests: test/report.test.mjs on what the
// extension shows, test/binary.test.mjs on finding graft.path,
// test/server.test.mjs against the graft binary built from this module. The packages are installed once per lock file into the
// user's cache, outside the clone. It is skipped only when node or npm is
// missing.
func TestExtension(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the extension's build and tests need Node.js 20")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the extension's build needs it")
	}
	bin := lsptest.Build(t)
	work := t.TempDir()
	for _, name := range sources {
		copyTree(t, name, filepath.Join(work, name))
	}
	if err := os.Symlink(filepath.Join(lsptest.NPMInstall(t, npm, "."), "node_modules"), filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	npx := filepath.Join(filepath.Dir(npm), "npx")

	t.Run("tsc", func(t *testing.T) {
		run(t, work, nil, npx, "--no-install", "tsc", "--noEmit")
	})
	t.Run("package", func(t *testing.T) {
		// vsce runs the vscode:prepublish script: the esbuild bundle.
		run(t, work, nil, npx, "--no-install", "@vscode/vsce@3.9.2", "package",
			"--no-dependencies", "--skip-license", "--out", "graft.vsix")
		checkVSIX(t, filepath.Join(work, "graft.vsix"))
	})
	t.Run("node", func(t *testing.T) {
		// The tests read the extension's VS Code-free modules, bundled as
		// ES modules into out/.
		run(t, work, nil, npx, "--no-install", "esbuild", "src/report.ts", "src/preview.ts", "src/binary.ts", "--bundle",
			"--platform=node", "--format=esm", "--outdir=out", "--out-extension:.js=.mjs", "--log-level=warning")
		run(t, work, []string{"GRAFT_BIN=" + bin}, node, "--test", "--test-reporter=spec", "test/report.test.mjs", "test/binary.test.mjs", "test/server.test.mjs")
	})
}

// checkVSIX checks that the package holds what the marketplace and VS Code
// need, and nothing from the development tree.
func checkVSIX(t *testing.T, path string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("opening the .vsix: %v", err)
	}
	defer zr.Close()
	have := map[string]int64{}
	for _, f := range zr.File {
		have[strings.ToLower(f.Name)] = int64(f.UncompressedSize64)
	}
	for _, want := range []string{
		"extension.vsixmanifest", "extension/package.json", "extension/dist/extension.js",
		"extension/readme.md", "extension/changelog.md", "extension/media/icon.png",
	} {
		if have[want] == 0 {
			t.Errorf(".vsix lacks %s (or it is empty); it holds %v", want, have)
		}
	}
	for name := range have {
		if strings.Contains(name, "node_modules/") || strings.HasPrefix(name, "extension/src/") || strings.HasPrefix(name, "extension/test/") {
			t.Errorf(".vsix holds %s: the bundle should be all it ships", name)
		}
	}
	manifest := readZip(t, zr, "extension.vsixmanifest")
	for _, want := range []string{`Id="graft"`, `Publisher="graft-editor"`, `Microsoft.VisualStudio.Code.Engine" Value="^1.82.0"`, "extension/media/icon.png"} {
		if !strings.Contains(manifest, want) {
			t.Errorf("extension.vsixmanifest lacks %s:\n%s", want, manifest)
		}
	}
}

// readZip returns the text of a file in the archive.
func readZip(t *testing.T, zr *zip.ReadCloser, name string) string {
	t.Helper()
	f, err := zr.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := f.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return b.String()
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
