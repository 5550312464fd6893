// Package nvim_test drives the Neovim plugin in editors/nvim in a real,
// headless Neovim against the graft binary built from this module: each
// scenario is a Lua script under testdata/ that acts as a person would
// (registers, commands, code actions, undo) and writes what the editor then
// holds (buffer lines, quickfix entries, marks, diagnostics) as JSON.
package nvim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/lsp/lsptest"
)

// scenarioTimeout bounds one Neovim run; scripts wait on conditions, not
// on sleeps, so this only matters when something hangs.
const scenarioTimeout = 3 * time.Minute

// nvim returns the path of the nvim binary, skipping the test without one.
func nvim(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim is not installed (apt-get install -y neovim); skipping the Neovim plugin tests")
	}
	return p
}

// qfEntry is a quickfix entry as the scripts write it.
type qfEntry struct {
	File string `json:"file"`
	Lnum int    `json:"lnum"`
	Text string `json:"text"`
}

// diagnostic is a diagnostic as the scripts write it.
type diagnostic struct {
	Lnum     int    `json:"lnum"`
	Severity int    `json:"severity"`
	Message  string `json:"message"`
}

// run runs the scenario script name in a workspace holding files and
// decodes what it wrote into out.
func run(t *testing.T, name string, files map[string]string, out any) string {
	t.Helper()
	bin := nvim(t)
	graft := lsptest.Build(t)
	plugin, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.MkdirAll(filepath.Join(ws, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, text := range files {
		full := filepath.Join(ws, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	log := filepath.Join(dir, "graft.log")
	init := filepath.Join(dir, "init.lua")
	initText := `vim.opt.runtimepath:prepend(` + luaString(plugin) + `)
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
require('graft').setup({ cmd = { ` + luaString(graft) + `, 'serve', '--log', ` + luaString(log) + ` }, open_quickfix = false })
`
	if err := os.WriteFile(init, []byte(initText), 0o644); err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(dir, "result.json")
	script := filepath.Join(plugin, "testdata", name+".lua")

	ctx, cancel := context.WithTimeout(context.Background(), scenarioTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "-u", init, "-i", "NONE", "-n",
		"-c", "cd "+ws, "-c", "luafile "+script)
	cmd.Dir = ws
	cmd.Env = append(os.Environ(),
		"GRAFT_NVIM_WS="+ws,
		"GRAFT_NVIM_OUT="+result,
		"GRAFT_NVIM_HELPERS="+filepath.Join(plugin, "testdata", "helpers.lua"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"),
		"XDG_RUNTIME_DIR="+filepath.Join(dir, "run"),
	)
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	cmd.Stdin = nil
	if err := cmd.Run(); err != nil {
		serverLog, _ := os.ReadFile(log)
		t.Fatalf("nvim %s: %v\n%s\nserver log:\n%s", name, err, output.String(), serverLog)
	}
	data, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("nvim %s wrote no result: %v\n%s", name, err, output.String())
	}
	var failed struct {
		Error string `json:"error"`
	}
	if json.Unmarshal(data, &failed) == nil && failed.Error != "" {
		serverLog, _ := os.ReadFile(log)
		t.Fatalf("scenario %s failed in Neovim:\n%s\nserver log:\n%s", name, failed.Error, serverLog)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("decoding %s's result: %v\n%s", name, err, data)
	}
	return ws
}

// luaString quotes s as a Lua string literal.
func luaString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// lines splits a file's text into lines, as a buffer holds them.
func lines(text string) []string {
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

func equal[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %#v\nwant %#v", what, got, want)
	}
}

const mainTxt = "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa\n"

func TestApplyRegisterIntoUnsavedBuffer(t *testing.T) {
	t.Parallel()
	var got struct {
		Applied  bool      `json:"applied"`
		Lines    []string  `json:"lines"`
		Disk     []string  `json:"disk"`
		Modified bool      `json:"modified"`
		Cursor   []int     `json:"cursor"`
		Mark     []int     `json:"mark"`
		Undone   []string  `json:"undone"`
		QF       []qfEntry `json:"qf"`
	}
	run(t, "register", map[string]string{"main.txt": mainTxt}, &got)
	equal(t, "applied", got.Applied, true)
	equal(t, "buffer", got.Lines, lines("ALPHA\nbeta\ngamma one\ngamma two\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa"))
	equal(t, "disk", got.Disk, strings.Split(mainTxt, "\n"))
	equal(t, "modified", got.Modified, true)
	equal(t, "cursor (was on theta, line 8)", got.Cursor, []int{9, 2})
	equal(t, "mark a (was on iota, line 9)", got.Mark, []int{10, 1})
	equal(t, "quickfix", len(got.QF), 0)
	equal(t, "after one undo", got.Undone, lines("ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa"))
}
