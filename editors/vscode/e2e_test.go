//go:build linux

package vscode_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graft-editor/graft/internal/test/testenv"
)

// OutEnv names an environment variable that, when set, names the folder
// that keeps TestCodeServer's screenshots (one per step) and, in logs/, the
// logs of code-server, its extension host and the Graft output; otherwise
// the screenshots go to a temporary folder that the test removes.
const OutEnv = "GRAFT_E2E_OUT"

// TestCodeServer runs the packaged extension in a real VS Code, as a
// person uses it: code-server (VS Code 1.100 served to a browser,
// installed once into the user's cache) in Debian's headless Chromium,
// driven by e2e/drive.mjs through playwright-core. The extension's graft
// serve is the binary built from this module. In a workspace with an
// unsaved change, the person selects an agent's answer and runs "Graft:
// Apply Selection as Edit Blocks" from the command palette, and the test
// reads the buffer from the editor (the disk stays as it was), undoes the
// apply with one Ctrl+Z, finds the failing block in the Problems panel
// and the result in the status bar, previews the answer in a diff editor,
// and applies a block from the lightbulb. Then, in an answer of three
// blocks for one file, it applies block 1 from the lightbulb and the rest
// with "Apply all 2 edit blocks": each block's code is in the file once,
// every block's lens reads "Applied", no error shows on the answer and no
// Apply is offered. An apply-patch's new file holds exactly its lines, on
// disk at once (never empty), and one Ctrl+Z deletes it; an apply-patch of
// two files and a block after it are blocks 1 and 2, "Apply all 2 edit
// blocks", "Graft: 2 applied". An agent's graft apply, run at the folder
// above the workspace, lands in an open buffer with an unsaved line, not
// on the disk, and one Ctrl+Z takes it back. It is skipped only when
// node, npm or chromium is missing.
func TestCodeServer(t *testing.T) {
	if testing.Short() {
		t.Skip("drives code-server in Chromium for about a minute: not with -short")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the end-to-end test needs Node.js 20 (code-server 4.100.3 runs on it)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the end-to-end test installs code-server and playwright-core with it")
	}
	chromium, err := lookChromium()
	if err != nil {
		t.Skip("chromium is not installed: the end-to-end test drives VS Code in headless Chromium (apt-get install chromium)")
	}
	// The package for this machine, with its own graft built from this
	// module: installing it is all a person does.
	vsix := packageVSIX(t, node, extensionTree(t, npm), hostTarget(t))
	entry := installCodeServer(t, node, npm)
	driver := driverTree(t, npm)

	root := t.TempDir()
	workspace := filepath.Join(root, "workspace")
	writeWorkspace(t, workspace)
	vs := &vscode{
		node:       node,
		entry:      entry,
		config:     filepath.Join(root, "config.yaml"),
		userData:   filepath.Join(root, "user-data"),
		extensions: filepath.Join(root, "extensions"),
		// code-server keeps its own files under the XDG folders, and
		// graft serve its journal: not in the user's home.
		env: []string{"XDG_CONFIG_HOME=" + filepath.Join(root, "xdg-config"), "XDG_DATA_HOME=" + filepath.Join(root, "xdg-data"), "XDG_STATE_HOME=" + filepath.Join(root, "xdg-state")},
	}
	// The editor link's sockets, which graft apply finds the extension's
	// graft serve by, in a folder of the test's, short enough for a
	// socket's path.
	sockets, err := os.MkdirTemp("", "gv")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockets) })
	sockets = filepath.Join(sockets, "graft")
	vs.env = append(vs.env, "GRAFT_EDITOR_DIR="+sockets)
	if err := os.WriteFile(vs.config, []byte("auth: none\ncert: false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSettings(t, vs.userData)
	vs.installExtension(t, vsix)
	url := vs.serve(t, workspace, filepath.Join(root, "code-server.log"))

	out := os.Getenv(OutEnv)
	if out == "" {
		out = t.TempDir()
	} else if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s (set %s to keep them)", out, OutEnv)

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "drive.mjs")
	cmd.Dir = driver
	cmd.Env = append(os.Environ(),
		"GRAFT_E2E_URL="+url,
		"GRAFT_E2E_WORKSPACE="+workspace,
		"GRAFT_E2E_OUT="+out,
		"GRAFT_E2E_CHROMIUM="+chromium,
		"GRAFT_E2E_USER_DATA="+vs.userData,
		// An agent's graft apply, run by the driver at the folder above
		// the workspace, finds the editor through the link.
		"GRAFT_E2E_GRAFT="+testenv.Build(t),
		"GRAFT_EDITOR_DIR="+sockets,
		"XDG_STATE_HOME="+filepath.Join(root, "xdg-state"),
	)
	// The driver and its Chromium go as a group; SIGTERM first, so that
	// playwright closes the browser.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM) }
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	output, err := cmd.CombinedOutput()
	t.Logf("drive.mjs (%v):\n%s", time.Since(start).Round(time.Millisecond), output)
	if err != nil {
		t.Errorf("drive.mjs: %v (ctx: %v)", err, ctx.Err())
		vs.dumpLogs(t)
	}
	if os.Getenv(OutEnv) != "" {
		vs.keepLogs(t, filepath.Join(out, "logs"))
	}
	// The server was the graft that came in the package.
	bundled := regexp.MustCompile(`started (` + regexp.QuoteMeta(vs.extensions) + `/graft-editor\.graft-[^/]+/bin/graft) serve \(the binary that comes with the extension\)`)
	if m := bundled.FindSubmatch(vs.graftLog()); m == nil {
		t.Errorf("the Graft output does not say the extension started its own graft:\n%s", vs.graftLog())
	} else {
		t.Logf("the extension ran %s", m[1])
	}
}

// lookChromium finds Debian's chromium (or another distribution's name for it).
func lookChromium() (string, error) {
	var err error
	for _, name := range []string{"chromium", "chromium-browser"} {
		var p string
		if p, err = exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", err
}

// driverTree returns a folder holding e2e/drive.mjs beside its packages
// (playwright-core, installed once per lock file into the user's cache).
func driverTree(t *testing.T, npm string) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, filepath.Join("e2e", "drive.mjs"), filepath.Join(dir, "drive.mjs"))
	if err := os.Symlink(filepath.Join(testenv.NPMInstall(t, npm, "e2e"), "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeWorkspace writes the files of e2e/testdata/workspace.txtar into dir.
func writeWorkspace(t *testing.T, dir string) {
	t.Helper()
	testenv.WriteTxtar(t, filepath.Join("e2e", "testdata", "workspace.txtar"), dir)
}

// writeSettings writes the user settings: no graft.path (the extension
// runs the graft it comes with); the language client's trace of every
// message, with its params and result, in the Graft output (which
// GRAFT_E2E_OUT keeps); nothing else opens or asks (welcome page,
// workspace trust, telemetry, updates), and files are saved only when the
// person saves them (VS Code in a browser saves after a delay by default).
// The built-in merge-conflict support keeps its defaults, as the
// extension sets them.
func writeSettings(t *testing.T, userData string) {
	t.Helper()
	settings := map[string]any{
		"graft.trace.server":               "verbose",
		"workbench.startupEditor":          "none",
		"workbench.tips.enabled":           false,
		"workbench.enableExperiments":      false,
		"security.workspace.trust.enabled": false,
		"telemetry.telemetryLevel":         "off",
		"update.mode":                      "none",
		"extensions.autoCheckUpdates":      false,
		"extensions.autoUpdate":            false,
		"files.autoSave":                   "off",
		"git.enabled":                      false,
		"editor.minimap.enabled":           false,
	}
	data, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(userData, "User")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// vscode is one code-server: its install and its folders.
type vscode struct {
	node, entry                  string // node runs entry, code-server
	config, userData, extensions string
	env                          []string
	log                          string // the server's output
}

// command returns code-server with its folders and args.
func (vs *vscode) command(args ...string) *exec.Cmd {
	cmd := exec.Command(vs.node, append([]string{vs.entry,
		"--config", vs.config, "--user-data-dir", vs.userData, "--extensions-dir", vs.extensions}, args...)...)
	cmd.Env = append(os.Environ(), vs.env...)
	return cmd
}

// installExtension installs the .vsix, offline, as `code --install-extension` does.
func (vs *vscode) installExtension(t *testing.T, vsix string) {
	t.Helper()
	out, err := vs.command("--install-extension", vsix).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "successfully installed") {
		t.Fatalf("code-server --install-extension %s: %v\n%s", vsix, err, out)
	}
}

// listening is the line in which code-server says where it serves.
var listening = regexp.MustCompile(`HTTP server listening on (http://\S+)`)

// serve starts code-server on a free port with the workspace open, waits
// until it answers, and returns its address. code-server, its extension
// host and the extension's graft serve are one process group, ended when
// the test ends.
func (vs *vscode) serve(t *testing.T, workspace, logFile string) string {
	t.Helper()
	log, err := os.Create(logFile)
	if err != nil {
		t.Fatal(err)
	}
	vs.log = logFile
	cmd := vs.command("--auth", "none", "--bind-addr", "127.0.0.1:0",
		"--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override",
		workspace)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		log.Close()
		close(exited)
	}()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
		}
		// The extension host and graft serve too, whatever became of the server.
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	url, err := vs.address(exited)
	if err != nil {
		vs.dumpLogs(t)
		t.Fatal(err)
	}
	return url
}

// address waits, bounded, for code-server to say where it listens and to
// answer there.
func (vs *vscode) address(exited <-chan struct{}) (string, error) {
	deadline := time.Now().Add(90 * time.Second)
	url := ""
	for {
		if url == "" {
			if m := listening.FindSubmatch(readFile(vs.log)); m != nil {
				url = strings.TrimSuffix(string(m[1]), "/") + "/"
			}
		}
		if url != "" {
			resp, err := http.Get(url + "healthz")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					return url, nil
				}
			}
		}
		select {
		case <-exited:
			return "", errors.New("code-server exited before it served")
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("code-server did not serve within 90 s (at %q)", url)
		}
	}
}

// dumpLogs logs code-server's output, its extension host's log and the
// extension's output channel (the Graft output, with the server's log and
// the language client's trace).
func (vs *vscode) dumpLogs(t *testing.T) {
	t.Helper()
	if vs.log != "" {
		t.Logf("code-server's output:\n%s", readFile(vs.log))
	}
	for _, pattern := range []string{"remoteexthost.log", "*Graft*.log"} {
		var found []string
		filepath.WalkDir(filepath.Join(vs.userData, "logs"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if ok, _ := filepath.Match(pattern, d.Name()); ok {
					found = append(found, p)
				}
			}
			return nil
		})
		for _, p := range found {
			t.Logf("%s:\n%s", p, tail(readFile(p), 200))
		}
	}
}

// keepLogs copies code-server's output, its extension host's log and the
// Graft output (the language client's trace of every message) into dir,
// beside the screenshots, to read a run's steps against them.
func (vs *vscode) keepLogs(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	logs := []string{vs.log}
	filepath.WalkDir(filepath.Join(vs.userData, "logs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			for _, pattern := range []string{"remoteexthost.log", "*Graft*.log"} {
				if ok, _ := filepath.Match(pattern, d.Name()); ok {
					logs = append(logs, p)
				}
			}
		}
		return nil
	})
	for i, p := range logs {
		// Each session's logs are in their own folder: number them.
		name := fmt.Sprintf("%02d-%s", i, filepath.Base(p))
		if err := os.WriteFile(filepath.Join(dir, name), readFile(p), 0o644); err != nil {
			t.Errorf("keeping %s: %v", p, err)
		}
	}
}

// graftLog returns the text of the extension's Graft output channel.
func (vs *vscode) graftLog() []byte {
	var out []byte
	filepath.WalkDir(filepath.Join(vs.userData, "logs"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if ok, _ := filepath.Match("*Graft*.log", d.Name()); ok {
				out = append(out, readFile(p)...)
			}
		}
		return nil
	})
	return out
}

// readFile returns a file's bytes, or nothing when it cannot be read.
func readFile(p string) []byte {
	data, _ := os.ReadFile(p)
	return data
}

// tail returns the last n lines of text.
func tail(text []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(text), "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("... (%d lines before)", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// hostTarget is the vsce target of this machine, whose package the
// end-to-end test installs: the extension with its own graft, as a person
// gets it.
func hostTarget(t *testing.T) string {
	t.Helper()
	for _, p := range platformTargets {
		if p.goos == runtime.GOOS && p.goarch == runtime.GOARCH {
			return p.target
		}
	}
	t.Skipf("the extension has no package for %s/%s", runtime.GOOS, runtime.GOARCH)
	return ""
}
