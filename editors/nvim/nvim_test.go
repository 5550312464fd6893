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
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/internal/test/testenv"
)

// scenarioTimeout bounds one Neovim run; scripts wait on conditions, not
// on sleeps, so this only matters when something hangs.
const scenarioTimeout = 3 * time.Minute

// currentEnv names the wrappers of current Neovims, a list as PATH is
// (.ci/nvim-current makes them and .ci/run exports them: Debian sid's and
// trixie's): every scenario runs on each as well as on the nvim on PATH
// (Debian's 0.7.2).
const currentEnv = "GRAFT_NVIM_CURRENT"

// neovim is one Neovim the scenarios run on.
type neovim struct {
	path    string
	version string // as --version says it: "0.7.2"
}

// nvimVersion matches the first line of nvim --version.
var nvimVersion = regexp.MustCompile(`^NVIM v(\d+\.\d+\.\d+\S*)`)

// neovimAt returns the Neovim at path, with its version.
func neovimAt(path string) (neovim, error) {
	out, err := exec.Command(path, "--version").Output()
	if err != nil {
		return neovim{}, fmt.Errorf("%s --version: %w", path, err)
	}
	m := nvimVersion.FindSubmatch(out)
	if m == nil {
		return neovim{}, fmt.Errorf("%s --version says no version: %q", path, firstLine(string(out)))
	}
	return neovim{path: path, version: string(m[1])}, nil
}

// neovims returns the Neovims to run the scenarios on, the nvim on PATH
// and those $GRAFT_NVIM_CURRENT names, and why any is missing, by the
// name its subtest would have. In CI (CI set) both are required.
func neovims(t *testing.T) (found []neovim, missing map[string]string) {
	t.Helper()
	ci := os.Getenv("CI") != ""
	missing = map[string]string{}
	if p, err := exec.LookPath("nvim"); err != nil {
		if ci {
			t.Fatal("no nvim on PATH: .ci/run installs Debian's neovim")
		}
		missing["nvim-path"] = "no nvim on PATH (apt-get install -y neovim)"
	} else if nv, err := neovimAt(p); err != nil {
		t.Fatal(err)
	} else {
		found = append(found, nv)
	}
	paths := filepath.SplitList(os.Getenv(currentEnv))
	if len(paths) == 0 {
		if ci {
			t.Fatalf("$%s is not set: .ci/run sets it to the Neovims .ci/nvim-current makes", currentEnv)
		}
		missing["nvim-current"] = "$" + currentEnv + " is not set: GRAFT_NVIM_CURRENT=$(.ci/nvim-current) (as root) makes a current Neovim and runs the scenarios on it too"
	}
	for _, p := range paths {
		nv, err := neovimAt(p)
		if err != nil {
			t.Fatalf("$%s: %v", currentEnv, err)
		}
		if !slices.ContainsFunc(found, func(f neovim) bool { return f.version == nv.version }) {
			found = append(found, nv)
		}
	}
	return found, missing
}

// eachNeovim runs test as a parallel subtest on each Neovim, named by its
// version ("nvim-0.7.2"); a Neovim that is missing is a skipped subtest
// that says how to have it.
func eachNeovim(t *testing.T, test func(t *testing.T, nv neovim)) {
	t.Helper()
	found, missing := neovims(t)
	for _, nv := range found {
		t.Run("nvim-"+nv.version, func(t *testing.T) {
			t.Parallel()
			test(t, nv)
		})
	}
	for name, why := range missing {
		t.Run(name, func(t *testing.T) {
			t.Skip(why)
		})
	}
}

// atLeast reports whether nv is version major.minor or later.
func (nv neovim) atLeast(major, minor int) bool {
	var ma, mi int
	if _, err := fmt.Sscanf(nv.version, "%d.%d", &ma, &mi); err != nil {
		return false
	}
	return ma > major || (ma == major && mi >= minor)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
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
	Code     string `json:"code"`
}

// run runs the scenario script name in a workspace holding files and
// decodes what it wrote into out.
func (nv neovim) run(t *testing.T, name string, files map[string]string, out any) string {
	t.Helper()
	return nv.runWith(t, name, "", files, out)
}

// runWith is run with more options for the plugin's setup(), as Lua table
// fields ("codelens = false").
func (nv neovim) runWith(t *testing.T, name, setup string, files map[string]string, out any) string {
	t.Helper()
	if setup != "" {
		setup = ", " + setup
	}
	return nv.runConfigured(t, name, func(cmd string) string {
		return "require('graft').setup({ cmd = " + cmd + ", open_quickfix = false" + setup + " })"
	}, files, out)
}

// runConfigured is run with the plugin set up by the Lua that configure
// returns, given the server's command line as a Lua table.
func (nv neovim) runConfigured(t *testing.T, name string, configure func(cmd string) string, files map[string]string, out any) string {
	t.Helper()
	return nv.runScenario(t, name, configure, files, out, false)
}

// runLinked is run with the server's editor link on, its sockets in a
// directory of the test's ($GRAFT_EDITOR_DIR, for the graft apply the
// scenario runs too, $GRAFT_NVIM_GRAFT).
func (nv neovim) runLinked(t *testing.T, name string, files map[string]string, out any) string {
	t.Helper()
	return nv.runScenario(t, name, func(cmd string) string {
		return "require('graft').setup({ cmd = " + cmd + ", open_quickfix = false })"
	}, files, out, true)
}

// runScenario is runConfigured, with the server's editor link on when
// link is set.
func (nv neovim) runScenario(t *testing.T, name string, configure func(cmd string) string, files map[string]string, out any, link bool) string {
	t.Helper()
	bin := nv.path
	graft := testenv.Build(t)
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
	// The server's editor link (a Unix socket for graft apply) plays no
	// part but where link asks for it, in a directory short enough: a
	// socket's path may have 108 bytes, and a test's temporary directory
	// is long.
	// vim.deprecate (where Neovim has it: not 0.7) is wrapped to record
	// every deprecated function called, by the plugin or by Neovim on its
	// behalf: the scenarios report them, and a newer Neovim's deprecations
	// fail the test.
	cmdLua := `{ ` + luaString(graft) + `, 'serve', '--editor-link=false', '--log', ` + luaString(log) + ` }`
	var linkEnv []string
	if link {
		cmdLua = `{ ` + luaString(graft) + `, 'serve', '--log', ` + luaString(log) + ` }`
		short, err := os.MkdirTemp("", "gn")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(short) })
		linkEnv = []string{"GRAFT_EDITOR_DIR=" + filepath.Join(short, "graft"), "GRAFT_NVIM_GRAFT=" + graft}
	}
	initText := `_G.graft_deprecated = {}
if vim.deprecate then
  local deprecate = vim.deprecate
  vim.deprecate = function(name, alternative, ...)
    table.insert(_G.graft_deprecated, tostring(name) .. ' (use ' .. tostring(alternative) .. ')')
    return deprecate(name, alternative, ...)
  end
end
vim.opt.runtimepath:prepend(` + luaString(plugin) + `)
vim.opt.swapfile = false
vim.opt.shadafile = 'NONE'
` + configure(cmdLua) + `
`
	if err := os.WriteFile(init, []byte(initText), 0o644); err != nil {
		t.Fatal(err)
	}
	result := filepath.Join(dir, "result.json")
	script := filepath.Join(plugin, "testdata", name+".lua")

	ctx, cancel := context.WithTimeout(context.Background(), scenarioTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--headless", "-u", init, "-i", "NONE", "-n",
		"-c", "cd "+ws, "-c", "luafile "+script,
		// The scenario quits; a script that fails before it can (the
		// plugin does not load, say) exits here, rather than waiting.
		"-c", "cquit 3")
	cmd.Dir = ws
	cmd.Env = append(os.Environ(),
		"GRAFT_NVIM_WS="+ws,
		"GRAFT_NVIM_OUT="+result,
		"GRAFT_NVIM_HELPERS="+filepath.Join(plugin, "testdata", "helpers.lua"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
		"XDG_DATA_HOME="+filepath.Join(dir, "data"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"),
		"XDG_CACHE_HOME="+filepath.Join(dir, "cache"),
	)
	cmd.Env = append(cmd.Env, linkEnv...)
	var output bytes.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	cmd.Stdin = nil
	if err := cmd.Run(); err != nil {
		serverLog, _ := os.ReadFile(log)
		t.Fatalf("nvim %s: %v\n%s\nserver log:\n%s", name, err, output.String(), serverLog)
	}
	waitServerStopped(t, log, filepath.Join(dir, "state", "nvim", "lsp.log"))
	data, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("nvim %s wrote no result: %v\n%s", name, err, output.String())
	}
	var failed struct {
		Error      string   `json:"error"`
		Deprecated []string `json:"deprecated"`
		Messages   []string `json:"messages"`
	}
	if json.Unmarshal(data, &failed) == nil && failed.Error != "" {
		serverLog, _ := os.ReadFile(log)
		t.Fatalf("scenario %s failed in Neovim:\n%s\nserver log:\n%s", name, failed.Error, serverLog)
	}
	if len(failed.Deprecated) > 0 {
		t.Errorf("scenario %s called functions Neovim %s deprecates:\n%s", name, nv.version, strings.Join(failed.Deprecated, "\n"))
	}
	// What Neovim said, in :messages and on the terminal, holds no error,
	// warning or deprecation of its own (the server's and the plugin's
	// reports, "LSP[graft]" and "graft:", say what the scenario did).
	for _, said := range append(failed.Messages, strings.Split(output.String(), "\n")...) {
		if complaint.MatchString(said) {
			t.Errorf("scenario %s: Neovim %s said %q", name, nv.version, said)
		}
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("decoding %s's result: %v\n%s", name, err, data)
	}
	return ws
}

// waitServerStopped waits for the server that logs to log, when one
// started, to stop: Neovim quits without waiting for its language servers
// to exit, and the server writes its journal under the test's directory
// as it stops. A server that has not stopped 10 seconds after Neovim
// quit fails the test, with Neovim's LSP log (lspLog), where the server's
// standard error goes.
func waitServerStopped(t *testing.T, log, lspLog string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, err := os.ReadFile(log)
		if errors.Is(err, fs.ErrNotExist) {
			return // no server started
		}
		if strings.Contains(string(data), "graft serve stopped") {
			return
		}
		if time.Now().After(deadline) {
			stderr, _ := os.ReadFile(lspLog)
			t.Fatalf("the server did not stop within 10s of Neovim quitting; its log:\n%s\nNeovim's LSP log:\n%s", data, stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// complaint matches what Neovim says of an error, a warning or a
// deprecation: "E5108: Error executing lua", "W10: Warning", "stack
// traceback", "client.request is deprecated".
var complaint = regexp.MustCompile(`(?i:deprecat)|\b[EW]\d{1,4}: |stack traceback|\bError\b`)

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
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Applied  bool      `json:"applied"`
			Lines    []string  `json:"lines"`
			Disk     []string  `json:"disk"`
			Modified bool      `json:"modified"`
			Cursor   []int     `json:"cursor"`
			Mark     []int     `json:"mark"`
			Undone   []string  `json:"undone"`
			QF       []qfEntry `json:"qf"`
			Fold     []int     `json:"fold"`
			Again    struct {
				Applied bool      `json:"applied"`
				Status  string    `json:"status"`
				Lines   []string  `json:"lines"`
				QF      []qfEntry `json:"qf"`
			} `json:"again"`
		}
		nv.run(t, "register", map[string]string{"main.txt": mainTxt}, &got)
		equal(t, "applied", got.Applied, true)
		equal(t, "buffer", got.Lines, lines("ALPHA\nbeta\ngamma one\ngamma two\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa"))
		equal(t, "disk", got.Disk, strings.Split(mainTxt, "\n"))
		equal(t, "modified", got.Modified, true)
		equal(t, "cursor (was on theta, line 8)", got.Cursor, []int{9, 2})
		equal(t, "mark a (was on iota, line 9)", got.Mark, []int{10, 1})
		equal(t, "quickfix", len(got.QF), 0)
		equal(t, "closed fold (was iota-kappa, lines 9-10)", got.Fold, []int{10, 11})
		equal(t, "applied again", got.Again.Applied, true)
		equal(t, "status applied again", got.Again.Status, "already-applied")
		equal(t, "buffer applied again", got.Again.Lines, got.Lines)
		equal(t, "quickfix applied again", len(got.Again.QF), 0)
		equal(t, "after one undo", got.Undone, lines("ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa"))
	})
}

const otherTxt = "one\ntwo\nthree\n"

// answerMd is an agent's answer with a block for main.txt (lines 3-10)
// and one for other.txt (lines 14-21).
const answerMd = "Rename gamma:\n\n```\nmain.txt\n<<<<<<< SEARCH\ngamma\n=======\nGAMMA\n>>>>>>> REPLACE\n```\n\nAnd in other.txt:\n\n```\nother.txt\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n```\n"

var mainGAMMA = lines("alpha\nbeta\nGAMMA\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa")

func TestApplyVisualSelection(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Blocks         int      `json:"blocks"`
			Lines          []string `json:"lines"`
			AnswerModified bool     `json:"answer_modified"`
		}
		nv.run(t, "selection", map[string]string{"main.txt": mainTxt, "other.txt": otherTxt, "answer.md": answerMd}, &got)
		equal(t, "blocks sent", got.Blocks, 1)
		equal(t, "main.txt", got.Lines, mainGAMMA)
		equal(t, "answer modified", got.AnswerModified, false)
	})
}

func TestApplyAnswerBufferToOpenAndClosedFiles(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Applied     bool       `json:"applied"`
			Open        []string   `json:"open"`
			OtherLoaded bool       `json:"other_loaded"`
			Other       []string   `json:"other"`
			OtherDisk   []string   `json:"other_disk"`
			MainDisk    []string   `json:"main_disk"`
			Undone      [][]string `json:"undone"`
		}
		nv.run(t, "answerbuffer", map[string]string{"main.txt": mainTxt, "other.txt": otherTxt, "answer.md": answerMd}, &got)
		equal(t, "applied", got.Applied, true)
		equal(t, "main.txt buffer", got.Open, mainGAMMA)
		equal(t, "other.txt loaded into a buffer", got.OtherLoaded, true)
		equal(t, "other.txt buffer", got.Other, lines("one\nTWO\nthree"))
		equal(t, "other.txt on disk", got.OtherDisk, strings.Split(otherTxt, "\n"))
		equal(t, "main.txt on disk", got.MainDisk, strings.Split(mainTxt, "\n"))
		equal(t, "after one undo in each buffer", got.Undone, [][]string{lines(mainTxt), lines(otherTxt)})
	})
}

// Blocks that append to the end of a file, open or not, add their lines
// and no empty line (Neovim 0.10 and 0.11 added one, taking the server's
// insertion past the last line as whole lines).
func TestApplyAppendsToEndOfFile(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Applied bool     `json:"applied"`
			Main    []string `json:"main"`
			Other   []string `json:"other"`
		}
		nv.run(t, "append", map[string]string{"main.txt": mainTxt, "other.txt": otherTxt}, &got)
		equal(t, "applied", got.Applied, true)
		equal(t, "main.txt", got.Main, lines(mainTxt+"lambda\nmu\n"))
		equal(t, "other.txt", got.Other, lines(otherTxt+"four\n"))
	})
}

// An apply-patch that adds a file gives a buffer of exactly its lines,
// writes nothing until the person does, and one undo empties it.
func TestApplyCreatesFileExactly(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Applied   bool     `json:"applied"`
			Lines     []string `json:"lines"`
			OnDisk    bool     `json:"on_disk_before_write"`
			Written   string   `json:"written"`
			AfterUndo []string `json:"after_undo"`
		}
		nv.run(t, "newfile", map[string]string{"main.txt": mainTxt}, &got)
		content := "package pkg\n\nfunc TestStore(t *testing.T) {}\n"
		equal(t, "applied", got.Applied, true)
		equal(t, "the new buffer", got.Lines, lines(content))
		equal(t, "on disk before :write", got.OnDisk, false)
		equal(t, "written", got.Written, content)
		equal(t, "after one undo", got.AfterUndo, []string{""})
	})
}

// :GraftUndo undoes the last apply in every buffer it changed.
func TestUndoAcrossFiles(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Applied      bool     `json:"applied"`
			MainApplied  []string `json:"main_applied"`
			OtherApplied []string `json:"other_applied"`
			MainUndone   []string `json:"main_undone"`
			OtherUndone  []string `json:"other_undone"`
		}
		nv.run(t, "undo", map[string]string{"main.txt": mainTxt, "other.txt": otherTxt}, &got)
		equal(t, "applied", got.Applied, true)
		equal(t, "main.txt applied", got.MainApplied, lines(strings.Replace(mainTxt, "beta", "BETA", 1)))
		equal(t, "other.txt applied", got.OtherApplied, lines(strings.Replace(otherTxt, "two", "TWO", 1)))
		equal(t, "main.txt after :GraftUndo", got.MainUndone, lines(mainTxt))
		equal(t, "other.txt after :GraftUndo", got.OtherUndone, lines(otherTxt))
	})
}

// An ambiguous block's quickfix entries name every place it resembles,
// under :GraftApply and :GraftSuggest alike; :GraftSuggestions opens the
// list it fills.
func TestAmbiguousBlockInQuickfix(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Apply           []int  `json:"apply"`
			Suggest         []int  `json:"suggest"`
			SuggestionsOpen bool   `json:"suggestions_open"`
			Listed          int    `json:"listed"`
			UnderlineMin    int    `json:"underline_min"`
			Title           string `json:"title"`
		}
		nv.runWith(t, "ambiguous", "open_quickfix = true", map[string]string{"dup.txt": "start()\nrun()\nwait()\nstart()\nrun()\nstop()\n"}, &got)
		equal(t, "quickfix lines under :GraftApply", got.Apply, []int{1, 4})
		equal(t, "quickfix lines under :GraftSuggest", got.Suggest, []int{1, 4})
		equal(t, "suggestions listed", got.Listed, 1)
		equal(t, "the least severity underlined (warning)", got.UnderlineMin, 2)
		equal(t, ":GraftSuggestions opens the quickfix window", got.SuggestionsOpen, true)
	})
}

// An ambiguous block suggested waits for the person to choose its place:
// a diagnostic on each place, code actions offering both; the place
// chosen gets the hunk, drawn there alone, and accepting it changes
// exactly that place, undone by one u.
func TestSuggestChoosePlace(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		type at struct {
			Lnum int    `json:"lnum"`
			Code string `json:"code"`
		}
		var got struct {
			Places      int      `json:"places"`
			Offered     []at     `json:"offered"`
			DrawnBefore []int    `json:"drawn_before"`
			Titles      []string `json:"titles"`
			Chosen      []at     `json:"chosen"`
			Drawn       []int    `json:"drawn"`
			Unchanged   []string `json:"unchanged"`
			Accepted    []string `json:"accepted"`
			Undone      []string `json:"undone"`
		}
		dup := "start()\nrun()\nwait()\nstart()\nrun()\nstop()\n"
		nv.run(t, "choose", map[string]string{"dup.txt": dup}, &got)
		equal(t, "places in the reply", got.Places, 2)
		equal(t, "diagnostics offered", got.Offered, []at{{0, "ambiguous"}, {3, "ambiguous"}})
		equal(t, "hunks drawn before the choice", len(got.DrawnBefore), 0)
		equal(t, "code actions on the second place", got.Titles, []string{"Suggest at lines 4-5: `start()`", "Suggest at lines 1-2: `start()`", "Reject suggestion (choose no place)"})
		equal(t, "diagnostics once chosen", got.Chosen, []at{{4, "suggestion"}})
		if len(got.Drawn) == 0 || slices.ContainsFunc(got.Drawn, func(row int) bool { return row != 4 }) {
			t.Errorf("hunk marks on rows %v, want on row 4 (line 5) only", got.Drawn)
		}
		equal(t, "dup.txt before the accept", got.Unchanged, lines(dup))
		equal(t, "dup.txt accepted", got.Accepted, []string{"start()", "run()", "wait()", "start()", "run(fast)", "stop()"})
		equal(t, "dup.txt after u", got.Undone, lines(dup))
	})
}

// An apply says what it did once: no label of the edit, no second
// message from the server.
func TestApplySaysItOnce(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Said     []string `json:"said"`
			Messages []string `json:"messages"`
		}
		nv.run(t, "quiet", map[string]string{"main.txt": mainTxt}, &got)
		equal(t, "notifications", got.Said, []string{"graft: 1 applied, 0 failed"})
		for _, m := range got.Messages {
			if strings.Contains(m, "Workspace edit") || strings.Contains(m, "LSP[graft]") {
				t.Errorf("message %q beside the command's own", m)
			}
		}
	})
}

// An answer pasted into an unnamed buffer and written to a file attaches
// when it is written, as one opened with :edit does.
func TestAnswerAttachesWhenSaved(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Diagnostics int `json:"diagnostics"`
		}
		nv.run(t, "saved", map[string]string{"main.txt": mainTxt}, &got)
		equal(t, "diagnostics of the saved answer", got.Diagnostics, 1)
	})
}

func TestFailedBlockGoesToQuickfix(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Statuses []string  `json:"statuses"`
			Lines    []string  `json:"lines"`
			Modified bool      `json:"modified"`
			QF       []qfEntry `json:"qf"`
			Older    string    `json:"older"`
		}
		nv.run(t, "failing", map[string]string{"main.txt": mainTxt, "other.txt": otherTxt}, &got)
		t.Logf("statuses %v, quickfix %+v", got.Statuses, got.QF)
		equal(t, "main.txt", got.Lines, lines(mainTxt))
		equal(t, "main.txt modified", got.Modified, false)
		if len(got.QF) != 1 {
			t.Fatalf("quickfix: got %d entries, want 1: %+v", len(got.QF), got.QF)
		}
		e := got.QF[0]
		equal(t, "quickfix file", e.File, "main.txt")
		equal(t, "quickfix line (the best candidate, epsilon)", e.Lnum, 5)
		if !strings.HasPrefix(e.Text, "block 1 failed: ") || !strings.Contains(e.Text, "similar") {
			t.Errorf("quickfix text %q does not give block 1's reason", e.Text)
		}
		equal(t, "statuses", got.Statuses, []string{"failed", "applied"})
		equal(t, "the quickfix list before (:colder)", got.Older, "mine")
	})
}

func TestPreviewChangesNothing(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Filetype string   `json:"filetype"`
			Buftype  string   `json:"buftype"`
			Preview  []string `json:"preview"`
			Lines    []string `json:"lines"`
			Modified bool     `json:"modified"`
			Disk     []string `json:"disk"`
		}
		nv.run(t, "preview", map[string]string{"main.txt": mainTxt}, &got)
		equal(t, "filetype", got.Filetype, "diff")
		equal(t, "buftype", got.Buftype, "nofile")
		text := strings.Join(got.Preview, "\n")
		for _, want := range []string{"# block 1 main.txt: would apply (", "\n-gamma\n+GAMMA"} {
			if !strings.Contains(text, want) {
				t.Errorf("preview lacks %q:\n%s", want, text)
			}
		}
		equal(t, "main.txt buffer", got.Lines, lines(mainTxt))
		equal(t, "modified", got.Modified, false)
		equal(t, "disk", got.Disk, strings.Split(mainTxt, "\n"))
	})
}

func TestAnswerDiagnosticsAndCodeAction(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Diagnostics []diagnostic `json:"diagnostics"`
			Titles      []string     `json:"titles"`
			Lines       []string     `json:"lines"`
		}
		nv.run(t, "codeaction", map[string]string{"main.txt": mainTxt, "other.txt": otherTxt, "answer.md": answerMd}, &got)
		t.Logf("diagnostics %+v, actions %q", got.Diagnostics, got.Titles)
		if len(got.Diagnostics) != 2 {
			t.Fatalf("diagnostics: got %d, want one per block: %+v", len(got.Diagnostics), got.Diagnostics)
		}
		if got.Diagnostics[0].Lnum < 2 || got.Diagnostics[0].Lnum > 9 || got.Diagnostics[1].Lnum < 13 || got.Diagnostics[1].Lnum > 20 {
			t.Errorf("diagnostics not on their blocks: %+v", got.Diagnostics)
		}
		equal(t, "main.txt after the code action", got.Lines, mainGAMMA)
	})
}

func TestSuggestApplyAndDismiss(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Suggested int          `json:"suggested"`
			Shown     []diagnostic `json:"shown"`
			Unchanged []string     `json:"unchanged"`
			Listed    []qfEntry    `json:"listed"`
			Titles    []string     `json:"titles"`
			Applied   []string     `json:"applied"`
			Left      []qfEntry    `json:"left"`
			Final     []string     `json:"final"`
		}
		nv.run(t, "suggest", map[string]string{"main.txt": mainTxt}, &got)
		t.Logf("shown %+v, actions %q", got.Shown, got.Titles)
		equal(t, "suggestions", got.Suggested, 2)
		equal(t, "buffer before", got.Unchanged, lines(mainTxt))
		if len(got.Shown) != 2 || got.Shown[0].Lnum != 1 || got.Shown[1].Lnum != 7 {
			t.Errorf("suggestion diagnostics: %+v, want on lines 2 and 8", got.Shown)
		}
		if len(got.Listed) != 2 || got.Listed[0].Lnum != 2 || got.Listed[1].Lnum != 8 || got.Listed[0].File != "main.txt" {
			t.Errorf(":GraftSuggestions quickfix: %+v, want main.txt lines 2 and 8", got.Listed)
		}
		applied := lines("alpha\nBETA\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa")
		equal(t, "after Apply suggestion", got.Applied, applied)
		equal(t, "suggestions left after the dismissal", len(got.Left), 0)
		equal(t, "buffer at the end", got.Final, applied)
	})
}

func TestCRLFAndEmoji(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Applied    bool     `json:"applied"`
			Fileformat string   `json:"fileformat"`
			Dos        []string `json:"dos"`
			Emoji      []string `json:"emoji"`
			DosDisk    []string `json:"dos_disk"`
		}
		nv.run(t, "encodings", map[string]string{
			"dos.txt":   "one\r\ntwo\r\nthree\r\n",
			"emoji.txt": "start\nsay(\"🙂🙂 hi\", old) // 🙂 stays\nend\n",
		}, &got)
		equal(t, "applied", got.Applied, true)
		equal(t, "fileformat", got.Fileformat, "dos")
		equal(t, "dos.txt buffer", got.Dos, lines("one\nTWO\ntwo and a half\nthree"))
		equal(t, "dos.txt written", got.DosDisk, []string{"one\r", "TWO\r", "two and a half\r", "three\r", ""})
		equal(t, "emoji.txt buffer", got.Emoji, lines("start\nsay(\"🙂🙂 hi\", new) // 🙂 stays\nend"))
	})
}

// The help tags ship in doc/tags, so that :help graft works right after
// install, with no :helptags by hand; they are what each Neovim's
// :helptags makes of doc/graft.txt.
func TestHelpTagsShipped(t *testing.T) {
	t.Parallel()
	shipped, err := os.ReadFile(filepath.Join("doc", "tags"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("doc", "graft.txt"))
	if err != nil {
		t.Fatal(err)
	}
	eachNeovim(t, func(t *testing.T, nv neovim) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "graft.txt"), doc, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), scenarioTimeout)
		defer cancel()
		out, err := exec.CommandContext(ctx, nv.path, "--headless", "--clean", "-c", "helptags "+dir, "-c", "qa!").CombinedOutput()
		if err != nil {
			t.Fatalf(":helptags: %v\n%s", err, out)
		}
		made, err := os.ReadFile(filepath.Join(dir, "tags"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(made, shipped) {
			t.Errorf("doc/tags is not what :helptags makes of doc/graft.txt; run nvim --headless --clean -c 'helptags editors/nvim/doc' -c qa\nmade:\n%s\nshipped:\n%s", made, shipped)
		}
	})
}

// The plugin installed as lazy.nvim and packer do it by the documented
// specs, a clone of the repository with editors/nvim on 'runtimepath' and
// the binary built into the clone's bin/, works with setup() given no
// options: its server is the clone's bin/graft, and :help graft opens.
func TestInstalledInAClone(t *testing.T) {
	t.Parallel()
	src, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	clone := t.TempDir()
	plugin := filepath.Join(clone, "editors", "nvim")
	for _, d := range []string{"lua/graft", "plugin", "lsp", "doc"} {
		copyDir(t, filepath.Join(src, d), filepath.Join(plugin, d))
	}
	if err := os.MkdirAll(filepath.Join(clone, "cmd", "graft"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(clone, "go.mod"), []byte("module github.com/graft-editor/graft\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// bin/graft is the built binary, run as the tests run it (the editor
	// link's socket would not fit under a test's temporary directory).
	bin := filepath.Join(clone, "bin", "graft")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := "#!/bin/sh\nif [ \"$1\" = serve ]; then shift; exec " + testenv.Build(t) + " serve --editor-link=false \"$@\"; fi\nexec " + testenv.Build(t) + " \"$@\"\n"
	if err := os.WriteFile(bin, []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Cmd    []string `json:"cmd"`
			Help   string   `json:"help"`
			Health []string `json:"health"`
			Lines  []string `json:"lines"`
		}
		nv.runConfigured(t, "installed", func(string) string {
			return "vim.opt.runtimepath:remove(" + luaString(src) + ")\nvim.opt.runtimepath:append(" + luaString(plugin) + ")\nrequire('graft').setup()"
		}, map[string]string{"main.txt": mainTxt}, &got)
		equal(t, "the server's command line", got.Cmd, []string{bin, "serve"})
		equal(t, ":help graft", got.Help, filepath.Join(plugin, "doc", "graft.txt"))
		health := healthOK.ReplaceAllString(strings.Join(got.Health, "\n"), "- OK ")
		if !strings.Contains(health, "- OK graft binary: "+bin) || strings.Contains(health, "ERROR") {
			t.Errorf(":checkhealth graft:\n%s", health)
		}
		equal(t, "main.txt", got.Lines, mainGAMMA)
	})
}

// copyDir copies the files of the folder from into the folder to.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// healthOK matches how each Neovim marks a :checkhealth success.
var healthOK = regexp.MustCompile(`- (?:✅ )?OK:? `)

func TestHealthAndInfo(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Info     []string `json:"info"`
			Health   []string `json:"health"`
			Commands []string `json:"commands"`
			Maps     string   `json:"maps"`
			Asked    []string `json:"asked"`
			Help     []string `json:"help"`
		}
		ws := nv.run(t, "info", map[string]string{"main.txt": mainTxt}, &got)
		t.Logf("info %q\nhealth %q", got.Info, got.Health)
		info := strings.Join(got.Info, "\n")
		for _, want := range []string{" serve --editor-link=false --log ", "root: " + ws, "server log: "} {
			if !strings.Contains(info, want) {
				t.Errorf(":GraftInfo lacks %q:\n%s", want, info)
			}
		}
		// Neovim 0.7 to 0.9 write "- OK: msg", 0.10 "- OK msg", 0.12 "- ✅ OK msg".
		health := healthOK.ReplaceAllString(strings.Join(got.Health, "\n"), "- OK ")
		for _, want := range []string{"- OK graft binary: ", "- OK workspace root: " + ws, "- OK server running"} {
			if !strings.Contains(health, want) {
				t.Errorf(":checkhealth graft lacks %q:\n%s", want, health)
			}
		}
		if strings.Contains(health, "ERROR") {
			t.Errorf(":checkhealth graft reports an error:\n%s", health)
		}
		equal(t, "commands", got.Commands, []string{"GraftAccept", "GraftAcceptAll", "GraftApply", "GraftApplyBuffer", "GraftInfo", "GraftNextHunk", "GraftPrevHunk", "GraftPreview", "GraftReject", "GraftRejectAll", "GraftSuggest", "GraftSuggestions", "GraftUndo"})
		equal(t, "mappings made without being asked", got.Maps, "")
		equal(t, ":help tags", got.Help, []string{"graft.txt:*graft*", "graft.txt:*:GraftApply*", "graft.txt:*graft.setup()*", "graft.txt:*graft-codelens*", "graft.txt:*graft-mappings*", "graft.txt:*graft-install*", "graft.txt:*graft-lsp-enable*"})
		equal(t, "mappings asked for in setup", got.Asked, []string{":GraftApply<CR>", ":GraftApply<CR>"})
	})
}

// With no graft binary, :checkhealth graft gives the exact commands that
// build one in the plugin's clone (this repository) and point the plugin
// at it, or install it on $PATH.
func TestHealthWithoutBinary(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Health []string `json:"health"`
		}
		nv.runConfigured(t, "health_missing", func(string) string {
			return "require('graft').setup({ cmd = { 'graft-not-installed', 'serve' } })"
		}, map[string]string{"main.txt": mainTxt}, &got)
		health := strings.Join(got.Health, "\n")
		t.Logf("health:\n%s", health)
		want := []string{"ERROR", "graft binary not found: graft-not-installed is not on $PATH",
			`require('graft').setup({ cmd = { "` + root + `/bin/graft", "serve" } })`,
			"go install github.com/graft-editor/graft/cmd/graft@latest"}
		if _, err := os.Stat(filepath.Join(root, "bin", "graft")); err != nil {
			want = append(want, "cd '"+root+"' && go build -o bin/graft ./cmd/graft")
		}
		for _, w := range want {
			if !strings.Contains(health, w) {
				t.Errorf(":checkhealth graft lacks %q:\n%s", w, health)
			}
		}
	})
}

func TestApplyBlockWithoutFileToCurrentBuffer(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Applied bool     `json:"applied"`
			Lines   []string `json:"lines"`
			Other   []string `json:"other"`
			QFTitle string   `json:"qf_title"`
		}
		nv.run(t, "bare", map[string]string{"main.txt": mainTxt, "other.txt": "delta\n"}, &got)
		equal(t, "applied", got.Applied, true)
		equal(t, "main.txt", got.Lines, lines("alpha\nbeta\ngamma\nDELTA\nepsilon\nzeta\neta\ntheta\niota\nkappa"))
		equal(t, "other.txt", got.Other, []string{"delta"})
		equal(t, "quickfix list after an apply without failures", got.QFTitle, "mine")
	})
}

// lens is a code lens as the scripts write it: its 0-based line and title.
type lens struct {
	Line  int    `json:"line"`
	Title string `json:"title"`
}

func TestCodeLensesApplyBlock(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Lenses      []lens   `json:"lenses"`
			Offered     []string `json:"offered"`
			Lines       []string `json:"lines"`
			OtherLoaded bool     `json:"other_loaded"`
			After       []lens   `json:"after"`
			Suggestion  []lens   `json:"suggestion"`
			SugOffered  []string `json:"suggestion_offered"`
			Suggested   []string `json:"suggested"`
		}
		nv.run(t, "codelens", map[string]string{"main.txt": mainTxt, "other.txt": otherTxt, "answer.md": answerMd}, &got)
		t.Logf("lenses %+v\noffered %q\nafter %+v", got.Lenses, got.Offered, got.After)
		// answerMd's blocks start (their SEARCH lines) on lines 5 and 16,
		// 0-based 4 and 15.
		equal(t, "lenses on the answer buffer", got.Lenses, []lens{
			{4, "Apply → main.txt"}, {4, "Preview"},
			{15, "Apply → other.txt"}, {15, "Preview"},
		})
		equal(t, "lenses offered by vim.lsp.codelens.run() on line 5", got.Offered, []string{"Apply → main.txt", "Preview"})
		equal(t, "main.txt after the Apply lens", got.Lines, mainGAMMA)
		equal(t, "other.txt loaded (its block was not run)", got.OtherLoaded, false)
		equal(t, "lenses after the apply", got.After, []lens{
			{4, "Applied → main.txt"},
			{15, "Apply → other.txt"}, {15, "Preview"},
		})
		// theta is line 8 of main.txt, 0-based 7.
		equal(t, "suggestion lenses in main.txt", got.Suggestion, []lens{{7, "Accept (exact)"}, {7, "Reject"}})
		equal(t, "suggestion lenses offered", got.SugOffered, []string{"Accept (exact)", "Reject"})
		equal(t, "main.txt after the suggestion's Apply lens", got.Suggested, lines("alpha\nbeta\nGAMMA\ndelta\nepsilon\nzeta\neta\nTHETA\niota\nkappa"))
	})
}

func TestCodeLensesOptOut(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Server int    `json:"server"`
			Shown  []lens `json:"shown"`
		}
		nv.runWith(t, "codelens_off", "codelens = false", map[string]string{"main.txt": mainTxt, "other.txt": otherTxt, "answer.md": answerMd}, &got)
		if got.Server < 4 {
			t.Errorf("the server gave %d lenses for the answer, want 4 (the test proves nothing without them)", got.Server)
		}
		equal(t, "lenses shown with codelens = false", len(got.Shown), 0)
	})
}

// shapesGo is the file applied.lua's answer edits; shapesAnswer's blocks
// rewrite Area (1), insert Sides after Name (2: its replacement keeps its
// search, so an answer applied twice would double Name), and rewrite
// Perimeter (3).
const shapesGo = "package shapes\n\nfunc Area(w, h int) int {\n\treturn w * h\n}\n\nfunc Perimeter(w, h int) int {\n\treturn 2 * (w + h)\n}\n\nfunc Name() string {\n\treturn \"rect\"\n}\n"

const shapesAnswer = "Here are the changes.\n" +
	"\nshapes.go\n```go\n<<<<<<< SEARCH\nfunc Area(w, h int) int {\n\treturn w * h\n}\n=======\nfunc Area(w, h int) int {\n\treturn h * w\n}\n>>>>>>> REPLACE\n```\n" +
	"\nshapes.go\n```go\n<<<<<<< SEARCH\nfunc Name() string {\n\treturn \"rect\"\n}\n=======\nfunc Name() string {\n\treturn \"rect\"\n}\n\nfunc Sides() int {\n\treturn 4\n}\n>>>>>>> REPLACE\n```\n" +
	"\nshapes.go\n```go\n<<<<<<< SEARCH\nfunc Perimeter(w, h int) int {\n\treturn 2 * (w + h)\n}\n=======\nfunc Perimeter(w, h int) int {\n\treturn 2*w + 2*h\n}\n>>>>>>> REPLACE\n```\n"

// codedDiagnostic is a diagnostic with its code, as helpers.lua writes it.
type codedDiagnostic struct {
	Lnum     int    `json:"lnum"`
	Severity int    `json:"severity"`
	Message  string `json:"message"`
	Code     string `json:"code"`
}

// vim.diagnostic.severity.HINT and ERROR.
const (
	severityError = 1
	severityHint  = 4
)

// One block of an answer applied from its code action, then "Apply all":
// each block's code is in the file once, and every block of the answer is
// shown applied (hints coded "already-applied", nothing left to apply).
func TestApplyOneBlockThenAllShowsEveryBlockApplied(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Before       []codedDiagnostic `json:"before"`
			Offered1     []string          `json:"offered1"`
			After1       []string          `json:"after1"`
			Diagnostics1 []codedDiagnostic `json:"diagnostics1"`
			OfferedAll   []string          `json:"offered_all"`
			Lines        []string          `json:"lines"`
			Diagnostics  []codedDiagnostic `json:"diagnostics"`
			Left         []string          `json:"left"`
			Modified     bool              `json:"modified"`
			Timeouts     []string          `json:"timeouts"`
		}
		nv.run(t, "applied", map[string]string{"shapes.go": shapesGo, "answer.md": shapesAnswer}, &got)
		t.Logf("offered on block 1: %q; then %q", got.Offered1, got.OfferedAll)
		if len(got.Timeouts) > 0 {
			t.Errorf("timed out waiting for %q", got.Timeouts)
		}
		codes := func(ds []codedDiagnostic) []string {
			var out []string
			for _, d := range ds {
				out = append(out, d.Code)
			}
			return out
		}
		equal(t, "diagnostic codes before", codes(got.Before), []string{"exact", "exact", "exact"})
		afterArea := strings.Replace(shapesGo, "return w * h", "return h * w", 1)
		equal(t, "shapes.go after block 1's code action", got.After1, lines(afterArea))
		equal(t, "diagnostic codes after block 1", codes(got.Diagnostics1), []string{"already-applied", "exact", "exact"})
		if len(got.Diagnostics1) == 3 && (got.Diagnostics1[0].Severity != severityHint || !strings.HasPrefix(got.Diagnostics1[0].Message, "already applied: shapes.go lines 3-5")) {
			t.Errorf("block 1 after its apply: %+v, want a hint saying it is applied at lines 3-5", got.Diagnostics1[0])
		}
		if !contains(got.OfferedAll, "Apply all 2 edit blocks") || containsPrefix(got.OfferedAll, "Apply edit block") {
			t.Errorf("actions on block 1 once applied: %q, want \"Apply all 2 edit blocks\" and no Apply edit block", got.OfferedAll)
		}

		want := strings.Replace(afterArea, "return 2 * (w + h)", "return 2*w + 2*h", 1)
		want = strings.Replace(want, "\treturn \"rect\"\n}\n", "\treturn \"rect\"\n}\n\nfunc Sides() int {\n\treturn 4\n}\n", 1)
		equal(t, "shapes.go after Apply all", got.Lines, lines(want))
		text := strings.Join(got.Lines, "\n")
		for _, code := range []string{"return h * w", "func Sides() int {", "return 2*w + 2*h", "func Name() string {"} {
			if n := strings.Count(text, code); n != 1 {
				t.Errorf("%q %d times in shapes.go, want once:\n%s", code, n, text)
			}
		}
		equal(t, "shapes.go modified (in the buffer, not on disk)", got.Modified, true)

		equal(t, "diagnostic codes after Apply all", codes(got.Diagnostics), []string{"already-applied", "already-applied", "already-applied"})
		for k, d := range got.Diagnostics {
			if d.Severity != severityHint {
				t.Errorf("block %d: severity %d (%q), want a hint (%d)", k+1, d.Severity, d.Message, severityHint)
			}
			if d.Severity == severityError {
				t.Errorf("block %d: an error diagnostic once applied: %q", k+1, d.Message)
			}
		}
		if containsPrefix(got.Left, "Apply") {
			t.Errorf("actions offered with every block applied: %q, want no Apply", got.Left)
		}
	})
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsPrefix(list []string, prefix string) bool {
	for _, x := range list {
		if strings.HasPrefix(x, prefix) {
			return true
		}
	}
	return false
}

// Neovim 0.11+'s vim.lsp.config and vim.lsp.enable, as the docs show
// them beside setup(), start the server from the plugin's lsp/graft.lua,
// and the plugin's commands use it: with the plugin's plugin/ sourced at
// start-up, and without (lazy.nvim puts it on 'runtimepath' in its config,
// after Neovim sourced plugin/; plugin/graft.lua's guard stands for that).
func TestLspEnable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, before string }{
		{"plugin sourced", ""},
		{"plugin not sourced", "vim.g.loaded_graft = true\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			eachNeovim(t, func(t *testing.T, nv neovim) {
				if !nv.atLeast(0, 11) {
					t.Skipf("vim.lsp.enable is Neovim 0.11's; this is %s", nv.version)
				}
				var got struct {
					Root         string   `json:"root"`
					Cmd          []string `json:"cmd"`
					Applied      bool     `json:"applied"`
					Lines        []string `json:"lines"`
					Clients      int      `json:"clients"`
					Undone       []string `json:"undone"`
					Lenses       []lens   `json:"lenses"`
					ClientsAfter int      `json:"clients_after"`
					Unnamed      struct {
						Name        string       `json:"name"`
						Diagnostics []diagnostic `json:"diagnostics"`
					} `json:"unnamed"`
					ClientsUnnamed int `json:"clients_unnamed"`
				}
				ws := nv.runConfigured(t, "lspenable", func(cmd string) string {
					return tc.before + "vim.lsp.config('graft', { cmd = " + cmd + " })\nvim.lsp.enable('graft')"
				}, map[string]string{"main.txt": mainTxt, "other.txt": otherTxt, "answer.md": answerMd}, &got)
				equal(t, "root", got.Root, ws)
				if len(got.Cmd) < 4 || got.Cmd[1] != "serve" || got.Cmd[2] != "--editor-link=false" {
					t.Errorf("the server's command line is %q, not the one given to vim.lsp.config", got.Cmd)
				}
				equal(t, "applied", got.Applied, true)
				equal(t, "main.txt", got.Lines, lines("ALPHA\nbeta\nGAMMA\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa"))
				equal(t, "graft servers after :GraftApply", got.Clients, 1)
				equal(t, "after one undo", got.Undone, lines("ALPHA\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa"))
				equal(t, "lenses on answer.md", got.Lenses, []lens{
					{4, "Apply → main.txt"}, {4, "Preview"},
					{15, "Apply → other.txt"}, {15, "Preview"},
				})
				equal(t, "graft servers at the end", got.ClientsAfter, 1)
				if !strings.HasPrefix(got.Unnamed.Name, "graft://answer/") || len(got.Unnamed.Diagnostics) != 1 {
					t.Errorf("unnamed answer: %+v, want a graft://answer/N name and its block's diagnostic", got.Unnamed)
				}
				equal(t, "graft servers with the unnamed answer", got.ClientsUnnamed, 1)
			})
		})
	}
}

// hunkMark is one mark of the hunks drawn in a buffer, as hunks.lua
// reports it.
type hunkMark struct {
	Row    int        `json:"row"`
	HL     string     `json:"hl"`
	EndRow int        `json:"end_row"`
	Virt   [][]string `json:"virt"`
}

// A block with two separate changes is two hunks, drawn inline without a
// change to the text; accepted and rejected one by one from the cursor;
// one undo takes the accepted one back.
func TestHunksDrawnAcceptedRejected(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Hunks      int               `json:"hunks"`
			Drawn      []hunkMark        `json:"drawn"`
			Signs      []int             `json:"signs"`
			SignsLeft  []int             `json:"signs_left"`
			SignsFinal []int             `json:"signs_final"`
			Unchanged  []string          `json:"unchanged"`
			Links      map[string]string `json:"links"`
			Next1      int               `json:"next1"`
			Next2      int               `json:"next2"`
			Prev       int               `json:"prev"`
			Accepted   []string          `json:"accepted"`
			Left       []hunkMark        `json:"left"`
			Rejected   []string          `json:"rejected"`
			FinalMarks []hunkMark        `json:"final_marks"`
			Undone     []string          `json:"undone"`
		}
		nv.run(t, "hunks", map[string]string{"main.txt": mainTxt}, &got)
		t.Logf("drawn %+v", got.Drawn)
		equal(t, "hunks suggested", got.Hunks, 2)
		first := []hunkMark{
			{Row: 1, HL: "GraftHunkDelete", EndRow: 1, Virt: [][]string{}},
			{Row: 1, HL: "", EndRow: -1, Virt: [][]string{{"BETA", "GraftHunkAdd"}}},
		}
		second := []hunkMark{
			{Row: 4, HL: "GraftHunkDelete", EndRow: 4, Virt: [][]string{}},
			{Row: 4, HL: "", EndRow: -1, Virt: [][]string{{"EPSILON", "GraftHunkAdd"}}},
		}
		equal(t, "marks of both hunks", got.Drawn, append(slices.Clone(first), second...))
		equal(t, "signs shown", got.Signs, []int{2, 5})
		equal(t, "signs after the accept", got.SignsLeft, []int{5})
		equal(t, "signs after the reject", len(got.SignsFinal), 0)
		equal(t, "buffer while pending", got.Unchanged, lines(mainTxt))
		equal(t, "highlight links", got.Links, map[string]string{"delete": "DiffDelete", "add": "DiffAdd"})
		equal(t, ":GraftNextHunk from line 1", got.Next1, 2)
		equal(t, ":GraftNextHunk again", got.Next2, 5)
		equal(t, ":GraftPrevHunk", got.Prev, 2)
		accepted := lines("alpha\nBETA\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa")
		equal(t, "after :GraftAccept on the first hunk", got.Accepted, accepted)
		equal(t, "marks left after the accept", got.Left, second)
		equal(t, "after :GraftReject on the second hunk", got.Rejected, accepted)
		equal(t, "marks left after the reject", len(got.FinalMarks), 0)
		equal(t, "after one u", got.Undone, lines(mainTxt))
	})
}

// An answer streamed into a chat buffer line by line: the block still
// being written is information ("unfinished"), never an error, at every
// line; once closed it resolves, and nothing is applied.
func TestStreamedAnswerNoErrorOnUnfinishedBlock(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Errors     []map[string]any `json:"errors"`
			Unfinished []struct {
				After    int `json:"after"`
				Count    int `json:"count"`
				Severity int `json:"severity"`
			} `json:"unfinished"`
			Final []diagnostic `json:"final"`
			Main  []string     `json:"main"`
		}
		nv.run(t, "streamed", map[string]string{"main.txt": mainTxt}, &got)
		t.Logf("unfinished %+v, final %+v", got.Unfinished, got.Final)
		equal(t, "errors or warnings while streaming", len(got.Errors), 0)
		if len(got.Errors) > 0 {
			t.Logf("errors: %v", got.Errors)
		}
		// Lines 5 to 9 of the answer are inside the unfinished block.
		equal(t, "lines seen unfinished", len(got.Unfinished), 5)
		for _, u := range got.Unfinished {
			if u.Count != 1 || u.Severity != 3 {
				t.Errorf("after line %d: %d diagnostics, severity %d; want one, information", u.After, u.Count, u.Severity)
			}
		}
		if len(got.Final) != 1 || got.Final[0].Severity != 4 || got.Final[0].Code == "unfinished" {
			t.Errorf("diagnostics of the finished block: %+v, want one hint", got.Final)
		}
		equal(t, "main.txt", got.Main, lines(mainTxt))
	})
}

// With file watching turned on through setup()'s capabilities (Neovim
// 0.9+), an answer follows the file it names on the disk, which no buffer
// holds: the agent's own write of the block's change there turns the
// block's diagnostic to "already applied", the answer untouched. Neovim
// 0.7.2 watches no files.
func TestAnswerFollowsTheDisk(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		if !nv.atLeast(0, 9) {
			t.Skip("Neovim " + nv.version + " watches no files for its servers")
		}
		var got struct {
			Advertised bool   `json:"advertised"`
			Before     string `json:"before"`
			After      string `json:"after"`
			Modified   bool   `json:"modified"`
		}
		answer := "main.txt\n<<<<<<< SEARCH\ngamma\n=======\nGAMMA\n>>>>>>> REPLACE\n"
		nv.runWith(t, "diskwatch", watchFiles, map[string]string{"main.txt": mainTxt, "answer.md": answer}, &got)
		equal(t, "advertised", got.Advertised, true)
		equal(t, "before", got.Before, "applies exactly: main.txt line 3")
		equal(t, "after", got.After, "already applied: main.txt line 3")
		equal(t, "answer modified", got.Modified, false)
	})
}

// watchFiles is the setup() option that turns file watching on.
var watchFiles = "capabilities = { workspace = { didChangeWatchedFiles = { dynamicRegistration = true } } }"

// The chat buffers of codecompanion.nvim and avante.nvim, made as those
// plugins make them, with their filetypes in answer_filetypes and
// answerLanguages as the README says: Graft attaches to both, and the
// answer streamed into them gets its diagnostics, never an error while
// the block is being written; nothing is applied.
func TestChatPluginBuffers(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Errors        []map[string]any `json:"errors"`
			CodeCompanion []diagnostic     `json:"codecompanion"`
			Avante        []diagnostic     `json:"avante"`
			Main          []string         `json:"main"`
		}
		langs := "{ 'markdown', 'codecompanion', 'Avante' }"
		nv.runWith(t, "chatbuffers", "answer_filetypes = "+langs+", init_options = { answerLanguages = "+langs+" }",
			map[string]string{"main.txt": mainTxt}, &got)
		equal(t, "errors or warnings while streaming", len(got.Errors), 0)
		if len(got.Errors) > 0 {
			t.Logf("errors: %v", got.Errors)
		}
		for name, d := range map[string][]diagnostic{"codecompanion": got.CodeCompanion, "avante": got.Avante} {
			if len(d) != 1 || d[0].Severity != 4 || d[0].Code != "exact" {
				t.Errorf("%s chat: diagnostics %+v, want one hint, exact", name, d)
			}
		}
		equal(t, "main.txt", got.Main, lines(mainTxt))
	})
}

// The drawn hunks follow the buffer as it is edited, with no command: an
// insertion above moves them, a rewritten hunk stops being drawn.
func TestHunksFollowEdits(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Drawn        []int    `json:"drawn"`
			Moved        []int    `json:"moved"`
			Listed       int      `json:"listed"`
			AfterRewrite []int    `json:"after_rewrite"`
			Lines        []string `json:"lines"`
		}
		nv.run(t, "hunks_follow", map[string]string{"main.txt": mainTxt}, &got)
		equal(t, "hunks drawn", got.Drawn, []int{1, 4})
		equal(t, "after a line inserted above", got.Moved, []int{2, 5})
		equal(t, "hunks listed after the insertion", got.Listed, 2)
		equal(t, "after the first hunk's line is rewritten", got.AfterRewrite, []int{5})
		equal(t, "buffer", got.Lines, lines("new first line\nalpha\nbravo\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa"))
	})
}

// setup({ mappings = true }) makes the hunk review mappings, and they work
// as keys.
func TestHunkMappings(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Maps   map[string]string `json:"maps"`
			Cursor int               `json:"cursor"`
			Lines  []string          `json:"lines"`
		}
		nv.runWith(t, "mappings", "mappings = true", map[string]string{"main.txt": mainTxt}, &got)
		equal(t, "mappings", got.Maps, map[string]string{
			"<leader>ha": ":GraftAccept<CR>", "<leader>hr": ":GraftReject<CR>",
			"<leader>hA": ":GraftAccept!<CR>", "<leader>hR": ":GraftReject!<CR>",
			"]h": ":GraftNextHunk<CR>", "[h": ":GraftPrevHunk<CR>",
		})
		equal(t, "cursor after ]h", got.Cursor, 5)
		equal(t, "after <leader>ha", got.Lines, lines("alpha\nbeta\ngamma\ndelta\nEPSILON\nzeta\neta\ntheta\niota\nkappa"))
	})
}

// A change of part of a line is drawn within the line: the old words
// highlighted, the new ones beside them.
func TestHunkWithinALine(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		type mark struct {
			Row    int    `json:"row"`
			Col    int    `json:"col"`
			HL     string `json:"hl"`
			EndCol int    `json:"end_col"`
			Virt   string `json:"virt"`
		}
		var got struct {
			Ranges    [][]int  `json:"ranges"`
			Marks     []mark   `json:"marks"`
			Unchanged []string `json:"unchanged"`
			Accepted  []string `json:"accepted"`
		}
		nv.run(t, "hunks_subline", map[string]string{"main.txt": "one two three four\nfive\n"}, &got)
		t.Logf("ranges %v marks %+v", got.Ranges, got.Marks)
		equal(t, "hunk ranges", got.Ranges, [][]int{{0, 4, 0, 13}})
		// Inside the line from 0.10 (inline virtual text); at its end,
		// after an arrow, before.
		virt := "2 3"
		if strings.HasPrefix(nv.version, "0.7.") {
			virt = "→ 2 3"
		}
		equal(t, "marks", got.Marks, []mark{
			{Row: 0, Col: 4, HL: "GraftHunkDelete", EndCol: 13},
			{Row: 0, Col: 13, EndCol: -1, Virt: virt},
		})
		equal(t, "buffer while pending", got.Unchanged, []string{"one two three four", "five"})
		equal(t, "after :GraftAccept", got.Accepted, []string{"one 2 3 four", "five"})
	})
}

// With no graft binary, files open with their text and the person is
// told once in the session, not for each buffer (Neovim's own "Spawning
// language server ... failed" for each, and on 0.10+ the plugin's error
// aborting the :edit that opened the file); an apply says why it cannot.
func TestMissingBinarySaidOnce(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Lines      [][]string `json:"lines"`
			Main       []string   `json:"main"`
			ApplyError string     `json:"apply_error"`
			Clients    int        `json:"clients"`
			Messages   []string   `json:"messages"`
		}
		nv.runConfigured(t, "missing", func(string) string {
			return "require('graft').setup({ cmd = { 'graft-not-installed', 'serve' }, open_quickfix = false })"
		}, map[string]string{"main.txt": mainTxt, "other.txt": otherTxt, "answer.md": answerMd}, &got)
		t.Logf("messages %q, apply %q", got.Messages, got.ApplyError)
		equal(t, "buffers opened", got.Lines, [][]string{lines(mainTxt), lines(otherTxt), lines(answerMd)})
		equal(t, "main.txt after the apply", got.Main, lines(mainTxt))
		equal(t, "clients", got.Clients, 0)
		const said = "graft: graft binary not found: graft-not-installed is not on $PATH: run :checkhealth graft for the fix"
		// The apply's own reply may be in :messages too (0.12 keeps a
		// command's error there); nothing else is.
		var others []string
		for _, m := range got.Messages {
			if !strings.HasPrefix(m, "graft: apply: ") {
				others = append(others, m)
			}
		}
		equal(t, ":messages", others, []string{said})
		if !strings.Contains(got.ApplyError, "graft: apply: graft binary not found: graft-not-installed is not on $PATH") {
			t.Errorf(":GraftApply said %q", got.ApplyError)
		}
	})
}

// Two answers pasted at once into unnamed buffers (:vnew, :set
// ft=markdown) each get their diagnostics and working code actions: each
// is named graft://answer/N, which Neovim gives the server as its URI
// (unnamed, both were "file://", and their diagnostics went to a buffer
// named "/"). :write says the answer has no file; :write {file} saves it
// and names the buffer after it, and the server follows the rename.
func TestAnswerInUnnamedBuffers(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Names       []string       `json:"names"`
			Diagnostics [][]diagnostic `json:"diagnostics"`
			TitlesA     []string       `json:"titles_a"`
			TitlesB     []string       `json:"titles_b"`
			Main        []string       `json:"main"`
			Other       []string       `json:"other"`
			Answers     [][]string     `json:"answers"`
			Buffers     []string       `json:"buffers"`
			Write       struct {
				OK       bool     `json:"ok"`
				Err      string   `json:"err"`
				Said     []string `json:"said"`
				Modified bool     `json:"modified"`
				Windows  bool     `json:"windows"`
			} `json:"write"`
			Saved struct {
				Name        string       `json:"name"`
				Modified    bool         `json:"modified"`
				Disk        []string     `json:"disk"`
				Attached    int          `json:"attached"`
				Diagnostics []diagnostic `json:"diagnostics"`
			} `json:"saved"`
			Left []string `json:"left"`
		}
		ws := nv.run(t, "unnamed", map[string]string{"main.txt": mainTxt, "other.txt": otherTxt}, &got)
		t.Logf("names %q, diagnostics %+v, actions %q %q, buffers %q", got.Names, got.Diagnostics, got.TitlesA, got.TitlesB, got.Buffers)
		if len(got.Names) != 2 || got.Names[0] == got.Names[1] || !strings.HasPrefix(got.Names[0], "graft://answer/") || !strings.HasPrefix(got.Names[1], "graft://answer/") {
			t.Errorf("answer buffer names: %q, want two graft://answer/N", got.Names)
		}
		if len(got.Diagnostics) != 2 || len(got.Diagnostics[0]) != 1 || len(got.Diagnostics[1]) != 1 {
			t.Fatalf("diagnostics: %+v, want one on each answer", got.Diagnostics)
		}
		if d := got.Diagnostics[0][0]; d.Lnum > 7 {
			t.Errorf("first answer's diagnostic off its block: %+v", d)
		}
		if d := got.Diagnostics[1][0]; d.Lnum < 2 || d.Lnum > 9 {
			t.Errorf("second answer's diagnostic off its block: %+v", d)
		}
		if !containsPrefix(got.TitlesA, "Apply edit block → main.txt") || !containsPrefix(got.TitlesB, "Apply edit block → other.txt") {
			t.Errorf("code actions: %q and %q", got.TitlesA, got.TitlesB)
		}
		equal(t, "main.txt after the first answer's action", got.Main, lines("alpha\nBETA\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa"))
		equal(t, "other.txt after the second answer's action", got.Other, lines("one\nTWO\nthree"))
		equal(t, "answers unchanged", got.Answers, [][]string{
			lines("main.txt\n```\n<<<<<<< SEARCH\nbeta\n=======\nBETA\n>>>>>>> REPLACE\n```"),
			lines("Then:\n\nother.txt\n```\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n```"),
		})
		if contains(got.Buffers, "") || contains(got.Buffers, "/") {
			t.Errorf("buffers: %q", got.Buffers)
		}
		t.Logf(":write, :wq: %+v", got.Write)
		if !got.Write.Modified || !got.Write.Windows {
			t.Errorf(":write and :wq of the unsaved answer: %+v, want it still modified, in its window", got.Write)
		}
		noFile := "graft: this answer is in no file yet: :write {file} saves it"
		equal(t, ":write and :wq of the unsaved answer said", got.Write.Said, []string{noFile, noFile})
		if entries, err := os.ReadDir(ws); err != nil {
			t.Fatal(err)
		} else {
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), "graft:") {
					t.Errorf(":write wrote %s", e.Name())
				}
			}
		}
		equal(t, "saved answer's buffer", got.Saved.Name, "answer.md")
		equal(t, "saved answer modified", got.Saved.Modified, false)
		equal(t, "answer.md on disk", got.Saved.Disk, append(got.Answers[0], ""))
		equal(t, "graft clients of the saved answer", got.Saved.Attached, 1)
		if len(got.Saved.Diagnostics) != 2 {
			t.Errorf("saved answer's diagnostics after a block is added: %+v", got.Saved.Diagnostics)
		}
		if len(got.Left) != 1 {
			t.Errorf("graft:// buffers left: %q, want the second answer's", got.Left)
		}
	})
}

// answerPatchMd is an answer whose first block is an apply-patch of
// main.txt and other.txt (lines 3-17) and whose second, a SEARCH/REPLACE
// of main.txt (lines 21-28), searches for a line that is not there.
const answerPatchMd = "First, both files:\n\n```\n*** Begin Patch\n*** Update File: main.txt\n@@\n alpha\n-beta\n+BETA\n gamma\n*** Update File: other.txt\n@@\n one\n-two\n+TWO\n three\n*** End Patch\n```\n\nThen:\n\n```\nmain.txt\n<<<<<<< SEARCH\nno such line\n=======\nNOTHING\n>>>>>>> REPLACE\n```\n"

// An apply-patch of two files is one block, as the person sees it: the
// second visible block is "block 2" in the quickfix list and in what the
// server says, the code action applies "2 edit blocks", and what an apply
// did is counted in those blocks (it counted the patch's files).
func TestBlocksNumberedAsSeen(t *testing.T) {
	t.Parallel()
	eachNeovim(t, func(t *testing.T, nv neovim) {
		type outcome struct {
			Said  []string  `json:"said"`
			Main  []string  `json:"main"`
			Other []string  `json:"other"`
			QF    []qfEntry `json:"qf"`
		}
		type block struct {
			Block  int    `json:"block"`
			Path   string `json:"path"`
			Status string `json:"status"`
		}
		var got struct {
			Diagnostics []diagnostic `json:"diagnostics"`
			Titles      []string     `json:"titles"`
			Action      outcome      `json:"action"`
			Apply       outcome      `json:"apply"`
			Blocks      []block      `json:"blocks"`
			Report      []string     `json:"report"`
		}
		nv.run(t, "blocknumbers", map[string]string{"main.txt": mainTxt, "other.txt": otherTxt, "answer.md": answerPatchMd}, &got)
		t.Logf("diagnostics %+v\ntitles %q\naction %+v\napply %+v\nreport %q", got.Diagnostics, got.Titles, got.Action, got.Apply, got.Report)
		mainBETA := lines("alpha\nBETA\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa")
		otherTWO := lines("one\nTWO\nthree")

		// One diagnostic per file of the patch, on the patch; the failed
		// block's error on it.
		if len(got.Diagnostics) != 3 {
			t.Fatalf("diagnostics: %+v", got.Diagnostics)
		}
		for i, d := range got.Diagnostics {
			inPatch := d.Lnum >= 2 && d.Lnum <= 17
			if (i < 2) != inPatch || (i == 2) != (d.Severity == 1 && d.Lnum >= 20 && d.Lnum <= 28) {
				t.Errorf("diagnostic %d not on its block: %+v", i, d)
			}
		}
		if !contains(got.Titles, "Apply all 2 edit blocks") {
			t.Errorf("code actions %q lack \"Apply all 2 edit blocks\"", got.Titles)
		}
		equal(t, "main.txt after the code action", got.Action.Main, mainBETA)
		equal(t, "other.txt after the code action", got.Action.Other, otherTWO)
		if len(got.Action.Said) != 1 || !strings.HasPrefix(got.Action.Said[0], "graft: 1 applied, 1 failed: block 2 (main.txt): not found") {
			t.Errorf("the code action said %q, want one message counting 1 applied, 1 failed, block 2", got.Action.Said)
		}

		equal(t, "blocks of the reply", got.Blocks, []block{{1, "main.txt", "applied"}, {1, "other.txt", "applied"}, {2, "main.txt", "failed"}})
		equal(t, "main.txt after :GraftApplyBuffer", got.Apply.Main, mainBETA)
		equal(t, "other.txt after :GraftApplyBuffer", got.Apply.Other, otherTWO)
		equal(t, ":GraftApplyBuffer said", got.Apply.Said, []string{"graft: 1 applied, 1 failed; see the quickfix list"})
		if len(got.Apply.QF) != 1 || got.Apply.QF[0].File != "main.txt" || !strings.HasPrefix(got.Apply.QF[0].Text, "block 2 failed: not found") {
			t.Errorf("quickfix: %+v, want block 2's failure in main.txt", got.Apply.QF)
		}
		for _, l := range got.Report {
			if strings.HasPrefix(l, "block 3") {
				t.Errorf("report %q numbers a third block", got.Report)
			}
		}
	})
}

// TestAgentAnswerLandsInTheBuffer runs graft apply, as an agent at the top
// of the repository does, while Neovim has its folder web/ open with an
// unsaved change: the answer goes through the editor link into the
// buffer, the unsaved line kept, the disk untouched, a message says so,
// and one `u` takes it back.
func TestAgentAnswerLandsInTheBuffer(t *testing.T) {
	eachNeovim(t, func(t *testing.T, nv neovim) {
		var got struct {
			Code     int      `json:"code"`
			Via      string   `json:"via"`
			Paths    []string `json:"paths"`
			Buffer   []string `json:"buffer"`
			Modified bool     `json:"modified"`
			Disk     []string `json:"disk"`
			Undone   []string `json:"undone"`
			Messages []string `json:"messages"`
		}
		nv.runLinked(t, "agent", map[string]string{"web/app.txt": mainTxt, "web/.git/HEAD": "ref: refs/heads/main\n"}, &got)
		unsaved := append([]string{"ALPHA (unsaved)"}, lines(mainTxt)[1:]...)
		applied := slices.Clone(unsaved)
		applied[1] = "BETA"
		equal(t, "exit status", got.Code, 0)
		equal(t, "via", got.Via, "editor")
		equal(t, "blocks", got.Paths, []string{"web/app.txt applied"})
		equal(t, "buffer", got.Buffer, applied)
		equal(t, "buffer modified", got.Modified, true)
		equal(t, "disk", got.Disk, append(lines(mainTxt), "")) // readfile(, "b"): the final newline ends an empty last item
		equal(t, "after u", got.Undone, unsaved)
		if !slices.ContainsFunc(got.Messages, func(m string) bool { return strings.Contains(m, "an agent's answer: 1 applied to web/app.txt") }) {
			t.Errorf("no message says an agent's answer changed web/app.txt: %q", got.Messages)
		}
	})
}
