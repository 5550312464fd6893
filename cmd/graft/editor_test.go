package main

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
)

// These tests take the editor route end to end: the built graft serve,
// driven by fakeeditor's editor with a buffer that differs from the disk, and
// the built graft apply --editor sending an answer to it over the editor
// link.

// editorDisk is main.go on disk; editorBuffer is the editor's unsaved
// buffer of it, with a line the disk does not have.
const (
	editorDisk   = "package main\n\nfunc answer() int {\n\treturn 41\n}\n"
	editorBuffer = "package main\n\n// unsaved\nfunc answer() int {\n\treturn 41\n}\n"
	editorAnswer = "main.go\n<<<<<<< SEARCH\n\treturn 41\n=======\n\treturn 42\n>>>>>>> REPLACE\n"
)

// editorEnv returns the environment of graft processes whose editor link
// sockets live in dir.
func editorEnv(dir string) []string {
	return append(os.Environ(), editorlink.DirEnv+"="+dir)
}

// editorWorkspace returns a workspace root holding main.go as editorDisk,
// and a private socket directory.
func editorWorkspace(t *testing.T) (root, sockets string) {
	t.Helper()
	root = t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "main.go"), []byte(editorDisk), 0o644); err != nil {
		t.Fatal(err)
	}
	// A short directory: a socket's path must fit in 108 bytes, and
	// t.TempDir's are long.
	short, err := os.MkdirTemp("", "gl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	return root, filepath.Join(short, "graft")
}

// startEditor starts graft serve for root with main.go open as
// editorBuffer, and waits for its socket.
func startEditor(t *testing.T, root, sockets string) *fakeeditor.Editor {
	t.Helper()
	return startEditorOn(t, sockets, []string{root}, map[string]string{filepath.Join(root, "main.go"): editorBuffer})
}

// startEditorOn starts graft serve for the workspace folders with the
// buffers (path → text) open, and waits for each folder's socket.
func startEditorOn(t *testing.T, sockets string, folders []string, buffers map[string]string) *fakeeditor.Editor {
	t.Helper()
	opt := fakeeditor.VSCode(folders...)
	opt.Env = editorEnv(sockets)
	e, _ := fakeeditor.StartReady(t, opt)
	for path, text := range buffers {
		if err := e.Open(path, "go", text); err != nil {
			t.Fatal(err)
		}
	}
	served(t, e)
	for _, f := range folders {
		waitSocket(t, sockets, f, true)
	}
	return e
}

// served returns once graft serve has handled every message e sent: a
// request's reply comes after them, as the editor's own next request
// would. A routed request sent after it finds the buffers e opened.
func served(t *testing.T, e *fakeeditor.Editor) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var list []json.RawMessage
	if err := e.Command(ctx, "graft.suggestions", map[string]any{}, &list); err != nil {
		t.Fatalf("graft.suggestions: %v", err)
	}
}

// waitSocket waits until a server answers on root's socket (up), or until
// there is no socket file (!up).
func waitSocket(t *testing.T, sockets, root string, up bool) string {
	t.Helper()
	path, err := editorlink.SocketPath(sockets, root)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if up {
			if c, err := net.Dial("unix", path); err == nil {
				c.Close()
				return path
			}
		} else if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
			return path
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("socket %s: not %s after 10s", path, map[bool]string{true: "listening", false: "removed"}[up])
	return ""
}

// runGraft runs the built graft with args in dir, the answer on stdin,
// and returns its stdout, stderr and exit status.
func runGraft(t *testing.T, sockets, dir, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(testenv.Build(t), args...)
	cmd.Dir = dir
	cmd.Env = editorEnv(sockets)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// routedReport is graft apply --json's report on the editor route, as
// the contract spells its fields (docs/cli.md), read apart from the type
// that writes it.
type routedReport struct {
	Via    string `json:"via"`
	Blocks []struct {
		Path      string `json:"path"`
		Status    string `json:"status"`
		Strategy  string `json:"strategy"`
		StartLine int    `json:"startLine"`
		URI       string `json:"uri"`
	} `json:"blocks"`
	Applied       int               `json:"applied"`
	EditorApplied bool              `json:"editorApplied"`
	Suggest       bool              `json:"suggest"`
	Suggestions   []json.RawMessage `json:"suggestions"`
}

// decodeRouted decodes a routed report, with n blocks.
func decodeRouted(t *testing.T, out string, n int) routedReport {
	t.Helper()
	var rep routedReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Blocks) != n {
		t.Fatalf("report, want %d blocks: %v\n%s", n, err, out)
	}
	return rep
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEditorRouteChangesTheBufferNotTheDisk(t *testing.T) {
	for _, mode := range []string{"auto", "always"} {
		t.Run(mode, func(t *testing.T) {
			root, sockets := editorWorkspace(t)
			e := startEditor(t, root, sockets)
			main := filepath.Join(root, "main.go")

			out, stderr, code := runGraft(t, sockets, root, editorAnswer, "apply", "--editor", mode)
			if code != 0 {
				t.Fatalf("graft apply --editor %s: status %d\nstdout:\n%s\nstderr:\n%s", mode, code, out, stderr)
			}
			if want := strings.Replace(editorBuffer, "41", "42", 1); e.Text(main) != want {
				t.Errorf("buffer:\n%s\nwant:\n%s", e.Text(main), want)
			}
			if got := readFile(t, main); got != editorDisk {
				t.Errorf("the disk changed behind the editor:\n%s", got)
			}
			if !strings.Contains(out, "block 1: applied main.go:5") || !strings.Contains(out, "sent to the editor") {
				t.Errorf("summary does not say where the edit went, or where it landed in the buffer:\n%s", out)
			}
			if n := len(e.AppliedEdits()); n != 1 {
				t.Errorf("%d workspace/applyEdit requests, want 1", n)
			}
			// The person is told whose edit changed the buffer.
			const said = "Graft: an agent's answer: 1 applied to main.go"
			if _, err := e.WaitMessage(func(m fakeeditor.ShowMessage) bool { return m.Message == said }, 10*time.Second); err != nil {
				t.Errorf("the editor was not told %q: %v; told %+v", said, err, e.Messages())
			}
		})
	}
}

func TestEditorRouteJSONReport(t *testing.T) {
	root, sockets := editorWorkspace(t)
	startEditor(t, root, sockets)
	out, stderr, code := runGraft(t, sockets, root, editorAnswer, "apply", "--json")
	if code != 0 {
		t.Fatalf("status %d\n%s\n%s", code, out, stderr)
	}
	rep := decodeRouted(t, out, 1)
	if rep.Via != "editor" || !rep.EditorApplied || rep.Applied != 1 ||
		rep.Blocks[0].Status != "applied" || rep.Blocks[0].StartLine != 5 || !strings.HasSuffix(rep.Blocks[0].URI, "/main.go") {
		t.Errorf("report:\n%s", out)
	}
}

func TestEditorRouteReresolvesAgainstTheBufferAsItIsWhenItsTurnComes(t *testing.T) {
	// The editor changes the buffer (a didChange) and the answer arrives
	// right after it: the answer is resolved against the changed buffer,
	// since it takes its turn after the didChange.
	root, sockets := editorWorkspace(t)
	e := startEditor(t, root, sockets)
	main := filepath.Join(root, "main.go")
	changed := strings.Replace(editorBuffer, "// unsaved\n", "// unsaved\n// and more\n", 1)
	if err := e.SetText(main, changed); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runGraft(t, sockets, root, editorAnswer, "apply")
	if code != 0 {
		t.Fatalf("status %d\n%s\n%s", code, out, stderr)
	}
	if want := strings.Replace(changed, "41", "42", 1); e.Text(main) != want {
		t.Errorf("buffer:\n%s\nwant:\n%s", e.Text(main), want)
	}
	if !strings.Contains(out, "main.go:6") {
		t.Errorf("the block did not land on line 6 of the changed buffer:\n%s", out)
	}
}

func TestEditorRouteResolvesAgainWhenTheBufferChangedMeanwhile(t *testing.T) {
	// The person types in the buffer while the edit is on its way: the
	// editor refuses the edit made for the old version, and the server
	// resolves the answer again against the new one.
	root, sockets := editorWorkspace(t)
	main := filepath.Join(root, "main.go")
	opt := fakeeditor.VSCode(root)
	opt.Env = editorEnv(sockets)
	typed := false
	opt.BeforeApplyEdit = func(e *fakeeditor.Editor, params json.RawMessage) {
		if !typed {
			typed = true
			e.Edit(main, &protocol.Range{}, "// typed\n")
		}
	}
	e, _ := fakeeditor.StartReady(t, opt)
	if err := e.Open(main, "go", editorBuffer); err != nil {
		t.Fatal(err)
	}
	waitSocket(t, sockets, root, true)
	out, stderr, code := runGraft(t, sockets, root, editorAnswer, "apply")
	if code != 0 {
		t.Fatalf("status %d\n%s\n%s", code, out, stderr)
	}
	if want := "// typed\n" + strings.Replace(editorBuffer, "41", "42", 1); e.Text(main) != want {
		t.Errorf("buffer:\n%s\nwant:\n%s", e.Text(main), want)
	}
	if !strings.Contains(out, "main.go:6") {
		t.Errorf("the report is not the second resolution's:\n%s", out)
	}
	if n := len(e.ServerRequests()); n < 2 {
		t.Errorf("%d requests from the server, want the refused edit and the one resolved again", n)
	}
}

func TestEditorRouteRefusesWhatItCannotCarry(t *testing.T) {
	root, sockets := editorWorkspace(t)
	e := startEditor(t, root, sockets)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"an unknown mode", []string{"--editor", "sometimes"}, `--editor "sometimes"`},
		{"a threshold the editor does not take", []string{"--threshold", "0.95"}, "--threshold cannot go to the editor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runGraft(t, sockets, root, editorAnswer, append([]string{"apply"}, tt.args...)...)
			if code != 2 || !strings.Contains(stderr, tt.want) {
				t.Fatalf("status %d, want 2 saying %q\n%s", code, tt.want, stderr)
			}
		})
	}
	if e.Text(filepath.Join(root, "main.go")) != editorBuffer || readFile(t, filepath.Join(root, "main.go")) != editorDisk {
		t.Error("a refused run changed the buffer or the disk")
	}
}

func TestEditorRouteWithoutServer(t *testing.T) {
	t.Run("auto applies to the disk", func(t *testing.T) {
		root, sockets := editorWorkspace(t)
		out, stderr, code := runGraft(t, sockets, root, editorAnswer, "apply", "--editor", "auto")
		if code != 0 {
			t.Fatalf("status %d\n%s\n%s", code, out, stderr)
		}
		if got, want := readFile(t, filepath.Join(root, "main.go")), strings.Replace(editorDisk, "41", "42", 1); got != want {
			t.Errorf("disk:\n%s\nwant:\n%s", got, want)
		}
		if strings.Contains(out, "editor") {
			t.Errorf("the summary says the editor took it:\n%s", out)
		}
	})
	t.Run("always fails with status 2 and changes nothing", func(t *testing.T) {
		root, sockets := editorWorkspace(t)
		out, stderr, code := runGraft(t, sockets, root, editorAnswer, "apply", "--editor", "always")
		if code != 2 || !strings.Contains(stderr, "no graft serve is serving this workspace") {
			t.Fatalf("status %d, want 2\n%s\n%s", code, out, stderr)
		}
		if got := readFile(t, filepath.Join(root, "main.go")); got != editorDisk {
			t.Errorf("disk changed:\n%s", got)
		}
	})
	t.Run("never applies to the disk while an editor runs", func(t *testing.T) {
		root, sockets := editorWorkspace(t)
		e := startEditor(t, root, sockets)
		_, _, code := runGraft(t, sockets, root, editorAnswer, "apply", "--editor", "never")
		if code != 0 {
			t.Fatalf("status %d", code)
		}
		if got := readFile(t, filepath.Join(root, "main.go")); got == editorDisk {
			t.Error("the disk did not change")
		}
		if e.Text(filepath.Join(root, "main.go")) != editorBuffer {
			t.Error("the buffer changed")
		}
	})
	t.Run("a stale socket is no server", func(t *testing.T) {
		root, sockets := editorWorkspace(t)
		path := staleSocket(t, sockets, root)
		out, stderr, code := runGraft(t, sockets, root, editorAnswer, "apply")
		if code != 0 {
			t.Fatalf("status %d\n%s\n%s", code, out, stderr)
		}
		if got := readFile(t, filepath.Join(root, "main.go")); got == editorDisk {
			t.Errorf("the disk did not change: %s", path)
		}
	})
	t.Run("an insecure directory is refused with always", func(t *testing.T) {
		root, sockets := editorWorkspace(t)
		if err := os.MkdirAll(sockets, 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chmod(sockets, 0o755)
		_, stderr, code := runGraft(t, sockets, root, editorAnswer, "apply", "--editor", "always")
		if code != 2 || !strings.Contains(stderr, "mode 0755") {
			t.Fatalf("status %d, want 2\n%s", code, stderr)
		}
	})
}

// staleSocket leaves at root's socket in dir a socket nobody listens on,
// as a killed server does.
func staleSocket(t *testing.T, dir, root string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path, err := editorlink.SocketPath(dir, root)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	return path
}

func TestEditorServeReplacesAStaleSocketAndRemovesItsOwnOnExit(t *testing.T) {
	root, sockets := editorWorkspace(t)
	staleSocket(t, sockets, root)
	e := startEditor(t, root, sockets)
	main := filepath.Join(root, "main.go")
	if _, _, code := runGraft(t, sockets, root, editorAnswer, "apply", "--editor", "always"); code != 0 {
		t.Fatalf("status %d", code)
	}
	if e.Text(main) == editorBuffer {
		t.Fatal("the buffer did not change")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.Exit(); err != nil {
		t.Fatal(err)
	}
	if code, err := e.Wait(10 * time.Second); err != nil || code != 0 {
		t.Fatalf("exit: %d, %v", code, err)
	}
	waitSocket(t, sockets, root, false)
}

func TestEditorRouteSuggestShowsSuggestionsInTheEditor(t *testing.T) {
	root, sockets := editorWorkspace(t)
	e := startEditor(t, root, sockets)
	t.Setenv(editorlink.DirEnv, sockets)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rep, err := editorlink.Send(ctx, root, nil, &editorlink.Request{Text: editorAnswer, Suggest: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Blocks) != 1 || rep.Blocks[0].ID == "" || len(rep.Suggestions) != 1 || rep.Applied {
		t.Fatalf("reply: %+v", rep)
	}
	main := filepath.Join(root, "main.go")
	if e.Text(main) != editorBuffer || readFile(t, main) != editorDisk {
		t.Error("a suggestion changed the buffer or the disk")
	}
	var list []struct {
		Block string `json:"block"`
		State string `json:"state"`
	}
	if err := e.Command(ctx, "graft.suggestions", map[string]any{}, &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Block != rep.Blocks[0].ID || list[0].State != "pending" {
		t.Errorf("graft.suggestions: %+v", list)
	}
	if _, err := e.WaitDiagnostics(fakeeditor.URI(main), func(d []protocol.Diagnostic) bool { return len(d) > 0 }, 10*time.Second); err != nil {
		t.Errorf("no diagnostic shows the suggestion: %v", err)
	}
}

func TestEditorRouteWithSeveralFolders(t *testing.T) {
	a, sockets := editorWorkspace(t)
	b, _ := editorWorkspace(t)
	if err := os.WriteFile(filepath.Join(b, "only.go"), []byte("package b\n\nconst x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := fakeeditor.VSCode(a, b)
	opt.Env = editorEnv(sockets)
	e, _ := fakeeditor.StartReady(t, opt)
	waitSocket(t, sockets, a, true)
	waitSocket(t, sockets, b, true)

	t.Run("a name both folders have resolves in the client's folder", func(t *testing.T) {
		// Both folders have main.go; the server alone would resolve a
		// bare name in the first folder that has it, which is not the
		// one graft apply was run in.
		out, stderr, code := runGraft(t, sockets, b, editorAnswer, "apply", "--json")
		if code != 0 {
			t.Fatalf("status %d\n%s\n%s", code, out, stderr)
		}
		bMain := filepath.Join(b, "main.go")
		if got, want := e.Text(bMain), strings.Replace(editorDisk, "41", "42", 1); got != want {
			t.Errorf("b/main.go's buffer:\n%s\nwant:\n%s", got, want)
		}
		if got := e.Text(filepath.Join(a, "main.go")); strings.Contains(got, "42") {
			t.Errorf("a/main.go's buffer changed:\n%s", got)
		}
		rep := decodeRouted(t, out, 1)
		if got := rep.Blocks[0]; got.Path != "main.go" || got.URI != string(fakeeditor.URI(bMain)) {
			t.Errorf("the report names %s (%s), want main.go (%s)", got.Path, got.URI, fakeeditor.URI(bMain))
		}
	})
	t.Run("a name only the client's folder has goes through", func(t *testing.T) {
		answer := "only.go\n<<<<<<< SEARCH\nconst x = 1\n=======\nconst x = 2\n>>>>>>> REPLACE\n"
		out, stderr, code := runGraft(t, sockets, b, answer, "apply", "--editor", "always")
		if code != 0 {
			t.Fatalf("status %d\n%s\n%s", code, out, stderr)
		}
		// The editor had not opened it: it opens it and changes the
		// buffer, as VS Code does, leaving the disk to the person.
		only := filepath.Join(b, "only.go")
		if got := e.Text(only); !strings.Contains(got, "const x = 2") {
			t.Errorf("only.go's buffer:\n%s", got)
		}
		if got := readFile(t, only); strings.Contains(got, "const x = 2") {
			t.Errorf("only.go changed on disk:\n%s", got)
		}
	})
	t.Run("the sockets follow the folders", func(t *testing.T) {
		c, _ := editorWorkspace(t)
		if err := e.ChangeFolders([]string{c}, []string{a}); err != nil {
			t.Fatal(err)
		}
		waitSocket(t, sockets, c, true)
		waitSocket(t, sockets, a, false)
		if _, stderr, code := runGraft(t, sockets, a, editorAnswer, "apply", "--editor", "always"); code != 2 {
			t.Errorf("a removed folder: status %d, want 2\n%s", code, stderr)
		}
	})
}

// graft apply --suggest sends the blocks to the editor as pending
// suggestions: nothing changes, the editor shows them; with no editor
// serving the root it fails with status 2 and changes nothing.
func TestApplySuggestThroughTheEditor(t *testing.T) {
	root, sockets := editorWorkspace(t)
	main := filepath.Join(root, "main.go")

	out, errOut, code := runGraft(t, sockets, root, editorAnswer, "apply", "--suggest")
	if code != exitUsage || !strings.Contains(errOut, "--suggest") || readFile(t, main) != editorDisk {
		t.Fatalf("--suggest without an editor: status %d\nstdout %s\nstderr %s", code, out, errOut)
	}

	e := startEditor(t, root, sockets)
	out, errOut, code = runGraft(t, sockets, root, editorAnswer, "apply", "--suggest")
	if code != exitOK || !strings.Contains(out, "1 suggested, 0 failed, 0 skipped") {
		t.Fatalf("--suggest: status %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if e.Text(main) != editorBuffer || readFile(t, main) != editorDisk {
		t.Error("a suggestion changed the buffer or the disk")
	}
	if _, err := e.WaitDiagnostics(fakeeditor.URI(main), func(d []protocol.Diagnostic) bool { return len(d) > 0 }, 10*time.Second); err != nil {
		t.Errorf("no diagnostic shows the suggestion: %v", err)
	}
	out, _, code = runGraft(t, sockets, root, editorAnswer, "apply", "--suggest", "--json")
	if rep := decodeRouted(t, out, 1); code != exitOK || rep.Via != "editor" || !rep.Suggest || len(rep.Suggestions) != 1 {
		t.Errorf("--suggest --json: status %d\n%s", code, out)
	}
}

// The editor link serves a workspace only once the editor has said it is
// initialized: before that it has not opened its buffers yet, and a
// routed edit would be computed from the disk behind them.
func TestEditorLinkWaitsForInitialized(t *testing.T) {
	root, sockets := editorWorkspace(t)
	opt := fakeeditor.VSCode(root)
	opt.Env = editorEnv(sockets)
	e := fakeeditor.Start(t, opt)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := e.Initialize(ctx); err != nil {
		t.Fatal(err)
	}
	path, err := editorlink.SocketPath(sockets, root)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // time enough to listen, were it to
	if c, err := net.Dial("unix", path); err == nil {
		c.Close()
		t.Fatal("the link serves the workspace before initialized")
	}
	if err := e.Initialized(); err != nil {
		t.Fatal(err)
	}
	waitSocket(t, sockets, root, true)
}

// TestEditorRouteFromAFolderOfTheWorkspace runs graft apply in a folder
// of the workspace the editor has open, as an agent's shell does after a
// cd, and with --root naming it: the answer goes to the editor that
// serves the workspace above, confined to the folder as on the disk, and
// the disk is not written behind the editor's back.
func TestEditorRouteFromAFolderOfTheWorkspace(t *testing.T) {
	root, sockets := editorWorkspace(t)
	sub := filepath.Join(root, "pkg", "util")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	const utilDisk = "package util\n\nfunc Half(x int) int {\n\treturn x / 2\n}\n"
	util := filepath.Join(sub, "util.go")
	if err := os.WriteFile(util, []byte(utilDisk), 0o644); err != nil {
		t.Fatal(err)
	}
	e := startEditor(t, root, sockets)
	answer := "util.go\n<<<<<<< SEARCH\n\treturn x / 2\n=======\n\treturn x >> 1\n>>>>>>> REPLACE\n"
	for _, run := range []struct {
		name string
		dir  string
		args []string
	}{
		{"in the folder", sub, []string{"apply", "--json"}},
		{"with --root", root, []string{"apply", "--json", "--root", sub}},
	} {
		t.Run(run.name, func(t *testing.T) {
			if err := os.WriteFile(util, []byte(utilDisk), 0o644); err != nil {
				t.Fatal(err)
			}
			out, stderr, code := runGraft(t, sockets, run.dir, answer, run.args...)
			if code != 0 {
				t.Fatalf("status %d\n%s\n%s", code, out, stderr)
			}
			rep := decodeRouted(t, out, 1)
			if rep.Via != "editor" || rep.Blocks[0].Path != "util.go" || rep.Blocks[0].Status != "already-applied" && rep.Blocks[0].Status != "applied" {
				t.Errorf("report: via %q, %+v; want via the editor, util.go applied", rep.Via, rep.Blocks)
			}
			if got := e.Text(util); !strings.Contains(got, "return x >> 1") {
				t.Errorf("util.go's buffer:\n%s", got)
			}
			if got := readFile(t, util); got != utilDisk {
				t.Errorf("the disk changed behind the editor:\n%s", got)
			}
		})
	}
	t.Run("a name above the folder is outside its root", func(t *testing.T) {
		up := "../../main.go\n<<<<<<< SEARCH\n\treturn 41\n=======\n\treturn 42\n>>>>>>> REPLACE\n"
		out, stderr, code := runGraft(t, sockets, sub, up, "apply")
		if code != 1 || !strings.Contains(out+stderr, "outside") {
			t.Errorf("status %d, want 1 with the block outside the root:\n%s\n%s", code, out, stderr)
		}
		if got := e.Text(filepath.Join(root, "main.go")); got != editorBuffer {
			t.Errorf("main.go's buffer changed:\n%s", got)
		}
	})
}

// TestEditorRouteFromTheFolderAbove runs graft apply at the top of a
// repository whose folder web/ an editor has open, as an agent does: an
// answer that changes web/ only lands in the editor's buffer, named as
// the agent wrote it; one that changes web/ and a file outside it is
// refused whole, nothing written anywhere, the error naming both and the
// way out; one that changes no file of web/ is written to the disk, which
// no editor holds there.
func TestEditorRouteFromTheFolderAbove(t *testing.T) {
	top, sockets := editorWorkspace(t)
	web := filepath.Join(top, "web")
	const appDisk = "package web\n\nfunc port() int {\n\treturn 80\n}\n"
	const appBuffer = "package web\n\n// unsaved\nfunc port() int {\n\treturn 80\n}\n"
	app := filepath.Join(web, "app.go")
	writeTree(t, top, map[string]string{"web/app.go": appDisk})
	e := startEditorOn(t, sockets, []string{web}, map[string]string{app: appBuffer})
	main := filepath.Join(top, "main.go")
	const toApp = "web/app.go\n<<<<<<< SEARCH\n\treturn 80\n=======\n\treturn 8080\n>>>>>>> REPLACE\n"

	t.Run("an answer for a file in the editor's folder goes to the editor", func(t *testing.T) {
		out, stderr, code := runGraft(t, sockets, top, toApp, "apply", "--json")
		if code != 0 {
			t.Fatalf("status %d\n%s\n%s", code, out, stderr)
		}
		rep := decodeRouted(t, out, 1)
		if rep.Via != "editor" || rep.Blocks[0].Path != "web/app.go" || rep.Blocks[0].Status != "applied" {
			t.Errorf("report: via %q, %+v; want via the editor, web/app.go applied", rep.Via, rep.Blocks)
		}
		if got, want := e.Text(app), strings.Replace(appBuffer, "80", "8080", 1); got != want {
			t.Errorf("app.go's buffer:\n%s\nwant:\n%s", got, want)
		}
		if got := readFile(t, app); got != appDisk {
			t.Errorf("the disk changed behind the editor:\n%s", got)
		}
	})

	t.Run("an answer for the editor's folder and beyond is refused whole", func(t *testing.T) {
		before := e.Text(app)
		both := toApp + "\nmain.go\n<<<<<<< SEARCH\n\treturn 41\n=======\n\treturn 42\n>>>>>>> REPLACE\n"
		out, stderr, code := runGraft(t, sockets, top, both, "apply")
		if code != 2 {
			t.Fatalf("status %d, want 2\n%s\n%s", code, out, stderr)
		}
		for _, want := range []string{"web/app.go (in web/", "main.go (which no editor serves)", "Nothing was written", "--root " + web, "--editor never"} {
			if !strings.Contains(stderr, want) {
				t.Errorf("the error does not say %q:\n%s", want, stderr)
			}
		}
		if got := e.Text(app); got != before {
			t.Errorf("app.go's buffer changed:\n%s", got)
		}
		if got := readFile(t, app); got != appDisk {
			t.Errorf("app.go changed on disk:\n%s", got)
		}
		if got := readFile(t, main); got != editorDisk {
			t.Errorf("main.go changed on disk:\n%s", got)
		}
	})

	t.Run("an answer for no file of the editor's folder goes to the disk", func(t *testing.T) {
		before := e.Text(app)
		out, stderr, code := runGraft(t, sockets, top, editorAnswer, "apply")
		if code != 0 {
			t.Fatalf("status %d\n%s\n%s", code, out, stderr)
		}
		if got := readFile(t, main); !strings.Contains(got, "return 42") {
			t.Errorf("main.go on disk:\n%s", got)
		}
		if got := e.Text(app); got != before {
			t.Errorf("app.go's buffer changed:\n%s", got)
		}
		out, stderr, code = runGraft(t, sockets, top, editorAnswer, "apply", "--editor", "always")
		if code != 2 || !strings.Contains(stderr, "--editor always") {
			t.Errorf("--editor always with no editor for main.go: status %d, want 2\n%s\n%s", code, out, stderr)
		}
	})
}

// TestEditorRouteFromAboveTwoFolders runs graft apply at the top of a
// repository whose folders web/ and api/ one editor has open: an answer
// that changes a file of each goes to that editor whole, each file named
// as the agent wrote it, and nothing is written to the disk.
func TestEditorRouteFromAboveTwoFolders(t *testing.T) {
	top, sockets := editorWorkspace(t)
	web, api := filepath.Join(top, "web"), filepath.Join(top, "api")
	files := map[string]string{"web/app.go": "package web\n\nconst port = 80\n", "api/api.go": "package api\n\nconst version = 1\n"}
	writeTree(t, top, files)
	disk := map[string]string{} // by absolute path
	for name, text := range files {
		disk[filepath.Join(top, filepath.FromSlash(name))] = text
	}
	e := startEditorOn(t, sockets, []string{web, api}, disk)
	answer := "web/app.go\n<<<<<<< SEARCH\nconst port = 80\n=======\nconst port = 8080\n>>>>>>> REPLACE\n\n" +
		"api/api.go\n<<<<<<< SEARCH\nconst version = 1\n=======\nconst version = 2\n>>>>>>> REPLACE\n"
	out, stderr, code := runGraft(t, sockets, top, answer, "apply", "--json")
	if code != 0 {
		t.Fatalf("status %d\n%s\n%s", code, out, stderr)
	}
	rep := decodeRouted(t, out, 2)
	if rep.Via != "editor" || rep.Blocks[0].Path != "web/app.go" || rep.Blocks[1].Path != "api/api.go" {
		t.Errorf("report: via %q, %+v; want both files via the editor, named from the top", rep.Via, rep.Blocks)
	}
	for path, text := range disk {
		if got := e.Text(path); !strings.Contains(got, "8080") && !strings.Contains(got, "version = 2") {
			t.Errorf("%s's buffer unchanged:\n%s", path, got)
		}
		if got := readFile(t, path); got != text {
			t.Errorf("%s changed on disk behind the editor:\n%s", path, got)
		}
	}
}
