package testenv

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// NPMInstall installs the packages of the package.json and
// package-lock.json in dir with npm ci, into a folder of the user's cache
// named after the lock file, once per lock file, and returns that folder:
// it holds the two files and node_modules. Tests install there rather than
// in the clone, so that a second run is fast and the clone stays clean.
// Install scripts stay off (esbuild's binary comes in its platform
// package).
func NPMInstall(tb testing.TB, npm, dir string) string {
	tb.Helper()
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		tb.Fatal(err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256(lock)
	work := filepath.Join(cache, "graft-npm", hex.EncodeToString(sum[:8]))
	done := filepath.Join(work, "node_modules", ".graft-installed")
	if _, err := os.Stat(done); err == nil {
		return work
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		tb.Fatal(err)
	}
	for _, name := range []string{"package.json", "package-lock.json"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, name), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	cmd := exec.Command(npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	cmd.Dir = work
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("npm ci in %s: %v\n%s", work, err, out)
	}
	if err := os.WriteFile(done, nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	return work
}
