//go:build linux

package vscode_test

import (
	"archive/tar"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The VS Code the end-to-end test runs: code-server 4.100.3 (VS Code
// 1.100.3), the last release that runs on Node 20.
const codeServerVersion = "4.100.3"

// The @vscode/ripgrep that code-server 4.100.3's VS Code pins, and the rg
// release it downloads on install from a host these machines cannot
// reach; its download cache is seeded with Debian's rg instead.
const (
	ripgrepPackage = "1.15.11"
	ripgrepRelease = "v13.0.0-10"
)

// installedMarker names the file that marks a finished install.
const installedMarker = ".graft-installed"

// installCodeServer installs code-server into the user's cache, outside
// the clone, once per version, and returns the path of its entry script
// (run it with node). It follows code-server's npm install: npm install
// --unsafe-perm code-server@VERSION, with the ripgrep download cache
// seeded, then code-server's postinstall.sh when npm left it out (npm 11
// may). The install happens in a fresh folder that is renamed into place
// with its marker once it works, so an install that broke half way is
// never taken, and is redone.
func installCodeServer(t *testing.T, node, npm string) string {
	t.Helper()
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	parent := filepath.Join(cache, "graft-code-server")
	dir := filepath.Join(parent, codeServerVersion)
	entry := filepath.Join(dir, "node_modules", "code-server", "out", "node", "entry.js")
	if _, err := os.Stat(filepath.Join(dir, installedMarker)); err == nil {
		return entry
	}
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Fatal("ripgrep (rg) is not installed: apt-get install ripgrep (code-server's install takes it instead of downloading one)")
	}
	target, err := ripgrepTarget()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := os.RemoveAll(dir); err != nil { // an install that never finished
		t.Fatal(err)
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	removeStale(t, parent)
	tmp, err := os.MkdirTemp(parent, codeServerVersion+".partial-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)

	// @vscode/ripgrep's install looks for its download in
	// $TMPDIR/vscode-ripgrep-cache-VERSION/ first.
	tmpdir := filepath.Join(tmp, "tmp")
	seed := filepath.Join(tmpdir, "vscode-ripgrep-cache-"+ripgrepPackage, "ripgrep-"+ripgrepRelease+"-"+target+".tar.gz")
	if err := writeRipgrepTarball(seed, rg); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"TMPDIR=" + tmpdir,
		fmt.Sprintf("npm_config_user_agent=npm/%s node/%s linux %s", version(t, npm, "-v"), version(t, node, "-v"), nodeArch()),
		"npm_config_unsafe_perm=true",
		// postinstall.sh runs npx node-gyp, which asks before installing.
		"npm_config_yes=true",
	}
	install(t, tmp, env, npm, "install", "--unsafe-perm", "--no-audit", "--no-fund", "code-server@"+codeServerVersion)
	pkg := filepath.Join(tmp, "node_modules", "code-server")
	// postinstall.sh installs VS Code's own packages and links
	// node_modules.asar to node_modules; npm versions that skip a
	// package's scripts leave that to us.
	if _, err := os.Lstat(filepath.Join(pkg, "lib", "vscode", "node_modules.asar")); err != nil {
		t.Logf("npm left code-server's postinstall.sh out; running it")
		install(t, pkg, env, "sh", "postinstall.sh")
	}
	for _, want := range []string{
		filepath.Join(pkg, "lib", "vscode", "node_modules", "@vscode", "ripgrep", "bin", "rg"),
		filepath.Join(pkg, "lib", "vscode", "extensions", "node_modules"),
	} {
		if _, err := os.Stat(want); err != nil {
			t.Fatalf("code-server's install did not finish: %v", err)
		}
	}
	if err := os.RemoveAll(tmpdir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(tmp, installedMarker), []byte(codeServerVersion+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp made it private
		t.Fatal(err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another test process may have finished first.
		if _, statErr := os.Stat(filepath.Join(dir, installedMarker)); statErr != nil {
			t.Fatalf("installing code-server into %s: %v", dir, err)
		}
	}
	t.Logf("installed code-server %s into %s in %v", codeServerVersion, dir, time.Since(start).Round(time.Second))
	return entry
}

// install runs an install command in dir, failing t with its output.
func install(t *testing.T, dir string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s in %s: %v\n%s\n(code-server builds native modules: apt-get install libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev pkg-config build-essential python3)",
			name, strings.Join(args, " "), dir, err, out)
	}
}

// version returns what `tool -v` prints (npm 11.4.2, node v20.19.0).
func version(t *testing.T, tool, flag string) string {
	t.Helper()
	out, err := exec.Command(tool, flag).Output()
	if err != nil {
		t.Fatalf("%s %s: %v", tool, flag, err)
	}
	return strings.TrimSpace(string(out))
}

// nodeArch is Node's name for this machine's architecture.
func nodeArch() string {
	if runtime.GOARCH == "amd64" {
		return "x64"
	}
	return runtime.GOARCH
}

// ripgrepTarget is the name @vscode/ripgrep gives this machine's rg build.
func ripgrepTarget() (string, error) {
	switch runtime.GOARCH {
	case "amd64":
		return "x86_64-unknown-linux-musl", nil
	case "arm64":
		return "aarch64-unknown-linux-musl", nil
	}
	return "", fmt.Errorf("no @vscode/ripgrep target known for %s", runtime.GOARCH)
}

// writeRipgrepTarball writes a .tar.gz holding the binary rg as "rg" at
// its top, the layout @vscode/ripgrep's install unpacks into its bin/.
func writeRipgrepTarball(path, rg string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	src, err := os.Open(rg)
	if err != nil {
		return err
	}
	defer src.Close()
	info, err := src.Stat()
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(f)
	tw := tar.NewWriter(zw)
	err = tw.WriteHeader(&tar.Header{Name: "rg", Mode: 0o755, Size: info.Size(), ModTime: info.ModTime(), Typeflag: tar.TypeReg})
	if err == nil {
		_, err = io.Copy(tw, src)
	}
	for _, c := range []io.Closer{tw, zw, f} {
		if cerr := c.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// removeStale removes the folders of installs that died over an hour ago.
func removeStale(t *testing.T, parent string) {
	t.Helper()
	stale, _ := filepath.Glob(filepath.Join(parent, "*.partial-*"))
	for _, p := range stale {
		if info, err := os.Stat(p); err == nil && time.Since(info.ModTime()) > time.Hour {
			if err := os.RemoveAll(p); err != nil {
				t.Logf("removing a stale install: %v", err)
			}
		}
	}
}
