package vscode_test

import (
	"archive/zip"
	"bytes"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/internal/test/testenv"
)

// sources are the files and folders of the extension that a build reads.
var sources = []string{
	"package.json", "package-lock.json", "tsconfig.json", ".vscodeignore",
	"README.md", "CHANGELOG.md", "media", "scripts", "src", "test",
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
	if err := os.Symlink(filepath.Join(testenv.NPMInstall(t, npm, "."), "node_modules"), filepath.Join(work, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return work
}

// packageVSIX packages the extension in the tree work as a release does,
// with scripts/package.mjs: vsce 3.9.2 (which runs the vscode:prepublish
// script, the esbuild bundle) with the repository's LICENSE, and for a
// platform target the graft binary of this module cross-compiled for it.
// It returns the .vsix's path; target "" is the package for every
// platform, without a binary.
func packageVSIX(t *testing.T, node, work, target string) string {
	t.Helper()
	out, err := packageTarget(node, work, target)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	t.Logf("scripts/package.mjs %s:\n%s", target, out)
	return vsixPath(work, target)
}

// packageTarget runs scripts/package.mjs for target in work and returns
// its output.
func packageTarget(node, work, target string) ([]byte, error) {
	module, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return nil, err
	}
	args := []string{filepath.Join("scripts", "package.mjs"), "--out", work, "--module", module}
	if target != "" {
		args = append(args, target)
	}
	cmd := exec.Command(node, args...)
	cmd.Dir = work
	out, err := cmd.CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("scripts/package.mjs %s: %w", target, err)
	}
	return out, nil
}

// vsixPath is where scripts/package.mjs puts the .vsix of target.
func vsixPath(dir, target string) string {
	if target == "" {
		return filepath.Join(dir, "graft.vsix")
	}
	return filepath.Join(dir, "graft-"+target+".vsix")
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

// platformTargets are the platforms a release packages the extension for,
// each with its graft binary: vsce's target, Go's platform, the binary's
// name in the extension.
var platformTargets = []struct {
	target, goos, goarch, exe string
}{
	{"linux-x64", "linux", "amd64", "graft"},
	{"linux-arm64", "linux", "arm64", "graft"},
	{"darwin-x64", "darwin", "amd64", "graft"},
	{"darwin-arm64", "darwin", "arm64", "graft"},
	{"win32-x64", "windows", "amd64", "graft.exe"},
}

// TestPlatformPackages packages the extension for each platform as a
// release does (scripts/package.mjs: graft cross-compiled with
// CGO_ENABLED=0, then vsce package --target), so that installing the
// extension is all a person does. Each .vsix must be for its target, carry
// the LICENSE, and hold in bin/ one graft binary, executable, of its
// platform's format and architecture (ELF, Mach-O, PE); the one of this
// machine's platform must run. A platform graft does not build for yet
// (unix-only code) is skipped, saying so; any other failure fails. It is
// skipped only when node or npm is missing.
func TestPlatformPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-compiles graft five times: not with -short")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the extension's build needs Node.js 20")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the extension's build needs it")
	}
	work := extensionTree(t, npm)
	for _, tc := range platformTargets {
		t.Run(tc.target, func(t *testing.T) {
			start := time.Now()
			out, err := packageTarget(node, work, tc.target)
			if err != nil {
				if why := unixOnly.Find(out); why != nil {
					t.Skipf("graft does not build for %s/%s yet, so there is no %s package: its unix-only code (%s) has no %s counterpart",
						tc.goos, tc.goarch, tc.target, why, tc.goos)
				}
				t.Fatalf("%v\n%s", err, out)
			}
			vsix := vsixPath(work, tc.target)
			checkVSIX(t, vsix)
			info, err := os.Stat(vsix)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d bytes (%.1f MiB), made in %v", filepath.Base(vsix), info.Size(), float64(info.Size())/(1<<20), time.Since(start).Round(100*time.Millisecond))

			zr, err := zip.OpenReader(vsix)
			if err != nil {
				t.Fatal(err)
			}
			defer zr.Close()
			if m := readZip(t, zr, "extension.vsixmanifest"); !strings.Contains(m, `TargetPlatform="`+tc.target+`"`) {
				t.Errorf("the manifest is not for %s:\n%s", tc.target, m)
			}
			var bins []string
			for _, f := range zr.File {
				if strings.HasPrefix(f.Name, "extension/bin/") {
					bins = append(bins, f.Name)
					if tc.goos != "windows" && f.Mode()&0o111 != 0o111 {
						t.Errorf("%s is not executable in the .vsix: mode %v", f.Name, f.Mode())
					}
				}
			}
			if want := []string{"extension/bin/" + tc.exe}; !slices.Equal(bins, want) {
				t.Fatalf("binaries in the .vsix: %q, want %q", bins, want)
			}
			data := []byte(readZip(t, zr, "extension/bin/"+tc.exe))
			if err := checkBinary(data, tc.goos, tc.goarch); err != nil {
				t.Error(err)
			}
			if tc.goos == runtime.GOOS && tc.goarch == runtime.GOARCH {
				exe := filepath.Join(t.TempDir(), tc.exe)
				if err := os.WriteFile(exe, data, 0o755); err != nil {
					t.Fatal(err)
				}
				out, err := exec.Command(exe, "version").CombinedOutput()
				if err != nil || !strings.HasPrefix(string(out), "graft ") {
					t.Errorf("the packaged graft version: %v\n%s", err, out)
				}
				t.Logf("the packaged binary says: %s", strings.TrimSpace(string(out)))
			}
		})
	}
}

// unixOnly finds, in the output of a failed cross-build, the compiler
// saying that graft's unix-only code has no counterpart for the platform.
var unixOnly = regexp.MustCompile(`(editorlink|history)/\S+\.go:\d+:\d+: undefined: (unix|syscall)\.\w+`)

// checkBinary checks that data is an executable of goos's format for goarch.
func checkBinary(data []byte, goos, goarch string) error {
	r := bytes.NewReader(data)
	switch goos {
	case "linux":
		f, err := elf.NewFile(r)
		if err != nil {
			return fmt.Errorf("not an ELF binary: %w", err)
		}
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[goarch]
		if f.Machine != want || f.Type != elf.ET_EXEC {
			return fmt.Errorf("an ELF %v for %v, want an executable for %v", f.Type, f.Machine, want)
		}
	case "darwin":
		f, err := macho.NewFile(r)
		if err != nil {
			return fmt.Errorf("not a Mach-O binary: %w", err)
		}
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[goarch]
		if f.Cpu != want || f.Type != macho.TypeExec {
			return fmt.Errorf("a Mach-O %v for %v, want an executable for %v", f.Type, f.Cpu, want)
		}
	case "windows":
		f, err := pe.NewFile(r)
		if err != nil {
			return fmt.Errorf("not a PE binary: %w", err)
		}
		want := map[string]uint16{"amd64": pe.IMAGE_FILE_MACHINE_AMD64, "arm64": pe.IMAGE_FILE_MACHINE_ARM64}[goarch]
		if f.Machine != want || f.Characteristics&pe.IMAGE_FILE_EXECUTABLE_IMAGE == 0 {
			return fmt.Errorf("a PE for machine %#x (characteristics %#x), want an executable for %#x", f.Machine, f.Characteristics, want)
		}
	default:
		return fmt.Errorf("no check for %s binaries", goos)
	}
	return nil
}
