// Package vscode_test checks the VS Code extension in this directory: it
// type-checks and bundles it, packages the .vsix as the marketplace takes
// it, drives the real graft serve as the extension's language client
// (vscode-languageclient 9) does, and runs the packaged extension in a real
// VS Code (code-server in headless Chromium) as a person uses it.
package vscode_test

import (
	"archive/zip"
	"os/exec"
	"strings"
	"testing"

	"github.com/graft-editor/graft/internal/test/testenv"
)

// TestExtension builds the extension as CI does (npm ci, tsc --noEmit,
// esbuild, vsce 3.9.2 package) in a copy of this directory, checks the
// .vsix, and runs the Node tests: test/report.test.mjs on what the
// extension shows, test/binary.test.mjs on finding graft.path,
// test/newfiles.test.mjs on the files a workspace edit creates,
// test/server.test.mjs against the graft binary built from this module.
// The packages are installed once per lock file into the user's cache,
// outside the clone. It is skipped only when node or npm is missing.
// TestCodeServer runs the packaged extension in a real VS Code.
func TestExtension(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the extension's build and tests need Node.js 20")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the extension's build needs it")
	}
	bin := testenv.Build(t)
	work := extensionTree(t, npm)

	t.Run("tsc", func(t *testing.T) {
		run(t, work, nil, npx(npm), "--no-install", "tsc", "--noEmit")
	})
	t.Run("package", func(t *testing.T) {
		vsix := packageVSIX(t, node, work, "")
		checkVSIX(t, vsix)
		zr, err := zip.OpenReader(vsix)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			if strings.HasPrefix(f.Name, "extension/bin/") {
				t.Errorf("the package for every platform holds %s: a binary is for one platform", f.Name)
			}
		}
	})
	t.Run("node", func(t *testing.T) {
		// The tests read the extension's VS Code-free modules, bundled as
		// ES modules into out/.
		run(t, work, nil, npx(npm), "--no-install", "esbuild", "src/report.ts", "src/preview.ts", "src/binary.ts", "src/newfiles.ts", "--bundle",
			"--platform=node", "--format=esm", "--outdir=out", "--out-extension:.js=.mjs", "--log-level=warning")
		run(t, work, []string{"GRAFT_BIN=" + bin}, node, "--test", "--test-reporter=spec", "test/report.test.mjs", "test/binary.test.mjs", "test/newfiles.test.mjs", "test/server.test.mjs")
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
		"extension/license.txt",
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
	for _, want := range []string{`Id="graft"`, `Publisher="graft-editor"`, `Microsoft.VisualStudio.Code.Engine" Value="^1.82.0"`, "extension/media/icon.png",
		`<License>extension/LICENSE.txt</License>`} {
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
