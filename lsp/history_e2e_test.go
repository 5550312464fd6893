package lsp_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
	"github.com/graft-editor/graft/internal/test/testenv"
)

// These tests drive the built graft serve over a document whose text
// changes (by graft's own edit, by the person typing) before a block that
// quotes its earlier text arrives: the block is refused as stale, naming
// the version it quotes, and the document keeps its text.

// sumGo is the document the blocks edit.
const sumGo = "package sum\n\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n\nfunc Name() string {\n\treturn \"sum\"\n}\n"

var (
	// sumLoop rewrites Sum's loop.
	sumLoop = [2]string{
		"\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n",
		"\tvar total int\n\tfor i := range xs {\n\t\ttotal += xs[i]\n\t}\n",
	}
	// sumPositive quotes the loop as sumGo has it, and its return.
	sumPositive = [2]string{
		"\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n",
		"\ttotal := 0\n\tfor _, x := range xs {\n\t\tif x > 0 {\n\t\t\ttotal += x\n\t\t}\n\t}\n\treturn total\n",
	}
	// sumName rewrites Name, which no other change touches.
	sumName = [2]string{
		"func Name() string {\n\treturn \"sum\"\n}\n",
		"func Name() string {\n\treturn \"total\"\n}\n",
	}
)

// sumAnswer returns an answer with one SEARCH/REPLACE block for sum.go
// per change.
func sumAnswer(changes ...[2]string) string {
	var b strings.Builder
	b.WriteString("Here is the change.\n")
	for _, c := range changes {
		b.WriteString("\nsum.go\n```go\n<<<<<<< SEARCH\n" + c[0] + "=======\n" + c[1] + ">>>>>>> REPLACE\n```\n")
	}
	return b.String()
}

// historyEditors are the editors the tests run as.
var historyEditors = []struct {
	name string
	opt  func(folders ...string) fakeeditor.Options
}{
	{"vscode", fakeeditor.VSCode},
	{"neovim-0.7.2", fakeeditor.Neovim072},
}

// applyAnswer executes graft.apply on answer and returns the reply.
func applyAnswer(t *testing.T, e *fakeeditor.Editor, answer string) applyReply {
	t.Helper()
	var r applyReply
	if err := execute(t, e, "graft.apply", map[string]any{"text": answer}, &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Blocks) == 0 {
		t.Fatalf("no blocks in the reply %+v", r)
	}
	return r
}

// wantStale fails t unless every block of r failed as stale against a
// version named like name.
func wantStale(t *testing.T, r applyReply, name string) {
	t.Helper()
	for _, b := range r.Blocks {
		if b.Status != "failed" || b.Reason != "stale" || !strings.Contains(b.Message, name) {
			t.Errorf("block %d: %s, reason %q: %s; want failed as stale against %q", b.Index, b.Status, b.Reason, b.Message, name)
		}
	}
}

// editedByGraft starts an editor on a folder holding sum.go, opens it, and
// applies sumLoop to it through graft.apply; it returns the editor, the
// file and its text after the edit.
func editedByGraft(t *testing.T, opt func(folders ...string) fakeeditor.Options) (e *fakeeditor.Editor, path, after string) {
	t.Helper()
	dir := writeFiles(t, t.TempDir(), map[string]string{"sum.go": sumGo})
	e, _ = fakeeditor.StartReady(t, opt(dir))
	path = filepath.Join(dir, "sum.go")
	if err := e.Open(path, "go", sumGo); err != nil {
		t.Fatal(err)
	}
	r := applyAnswer(t, e, sumAnswer(sumLoop))
	if !r.Applied || statuses(r.Blocks) != "applied" {
		t.Fatalf("first edit: %+v", r)
	}
	after = strings.Replace(sumGo, sumLoop[0], sumLoop[1], 1)
	waitText(t, e, path, after)
	return e, path, after
}

// TestStaleAfterOwnEdit applies an edit through graft.apply, then a block
// quoting the text before it, over the lines it changed: the block is
// refused as stale against the text graft replaced, and the buffer keeps
// the first edit. A block quoting the current text still applies, and
// sent again it is already applied, not stale.
func TestStaleAfterOwnEdit(t *testing.T) {
	for _, tc := range historyEditors {
		t.Run(tc.name, func(t *testing.T) {
			e, path, after := editedByGraft(t, tc.opt)
			edits := len(e.AppliedEdits())

			r := applyAnswer(t, e, sumAnswer(sumPositive))
			wantStale(t, r, "the text graft replaced at ")
			if got := e.Text(path); got != after {
				t.Errorf("the stale block changed the buffer:\n%s", got)
			}
			if n := len(e.AppliedEdits()); n != edits {
				t.Errorf("%d edits sent for a stale block", n-edits)
			}

			// graft.preview says the same.
			var pr previewReply
			if err := execute(t, e, "graft.preview", map[string]any{"text": sumAnswer(sumPositive)}, &pr); err != nil {
				t.Fatal(err)
			}
			wantStale(t, applyReply{Blocks: pr.Blocks}, "the text graft replaced at ")

			// A block quoting the current text applies; sent again, it
			// stands already.
			r = applyAnswer(t, e, sumAnswer(sumName))
			if statuses(r.Blocks) != "applied" {
				t.Fatalf("a block quoting the current text: %+v", r.Blocks)
			}
			after = strings.Replace(after, sumName[0], sumName[1], 1)
			waitText(t, e, path, after)
			r = applyAnswer(t, e, sumAnswer(sumName))
			if statuses(r.Blocks) != "already-applied" {
				t.Errorf("the block sent again: %s %q %s", r.Blocks[0].Status, r.Blocks[0].Reason, r.Blocks[0].Message)
			}
			if got := e.Text(path); got != after {
				t.Errorf("the block sent again changed the buffer:\n%s", got)
			}
		})
	}
}

// TestStaleAfterClose applies an edit through graft.apply to an open
// document, which the person saves and closes; then a block quoting the
// text before the edit, over the lines it changed, arrives for the file,
// now read from disk: it is refused as stale against the text graft
// replaced, which the server kept past the close, no edit is sent, and
// the file keeps the first edit.
func TestStaleAfterClose(t *testing.T) {
	for _, tc := range historyEditors {
		t.Run(tc.name, func(t *testing.T) {
			e, path, after := editedByGraft(t, tc.opt)
			// The person saves and closes the file.
			if err := os.WriteFile(path, []byte(after), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := e.Close(path); err != nil {
				t.Fatal(err)
			}
			edits := len(e.AppliedEdits())

			r := applyAnswer(t, e, sumAnswer(sumPositive))
			wantStale(t, r, "the text graft replaced at ")
			if data, err := os.ReadFile(path); err != nil || string(data) != after {
				t.Errorf("the stale block changed the file (%v):\n%s", err, data)
			}
			if n := len(e.AppliedEdits()); n != edits {
				t.Errorf("%d edits sent for a stale block", n-edits)
			}
		})
	}
}

// TestStaleAfterPersonsEdit has the person change lines of the buffer,
// then an answer quote them as they were: the answer's diagnostics and
// graft.apply both refuse the block as stale against the buffer's earlier
// version, and nothing is merged into the person's change.
func TestStaleAfterPersonsEdit(t *testing.T) {
	for _, tc := range historyEditors {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), map[string]string{"sum.go": sumGo})
			e, _ := fakeeditor.StartReady(t, tc.opt(dir))
			path := filepath.Join(dir, "sum.go")
			if err := e.Open(path, "go", sumGo); err != nil {
				t.Fatal(err)
			}
			// The person types: total += x becomes total += 2 * x.
			if err := e.Edit(path, &protocol.Range{
				Start: protocol.Position{Line: 5, Character: 11},
				End:   protocol.Position{Line: 5, Character: 12},
			}, "2 * x"); err != nil {
				t.Fatal(err)
			}
			typed := strings.Replace(sumGo, "total += x", "total += 2 * x", 1)
			if got := e.Text(path); got != typed {
				t.Fatalf("typed text %q", got)
			}

			// An answer buffer shows the block as stale.
			answer := filepath.Join(dir, "answer.md")
			if err := e.Open(answer, "markdown", sumAnswer(sumPositive)); err != nil {
				t.Fatal(err)
			}
			diags, err := e.WaitDiagnostics(fakeeditor.URI(answer), func(d []protocol.Diagnostic) bool { return len(d) > 0 }, answerWait)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(diags[0].Message, "stale") || !strings.Contains(diags[0].Message, "the buffer at version") {
				t.Errorf("the answer's diagnostic: %q, want stale against the buffer", diags[0].Message)
			}

			r := applyAnswer(t, e, sumAnswer(sumPositive))
			wantStale(t, r, "the buffer at version ")
			if got := e.Text(path); got != typed {
				t.Errorf("the stale block changed the buffer:\n%s", got)
			}

			// Quoting the lines as the person left them applies.
			current := [2]string{strings.Replace(sumPositive[0], "total += x", "total += 2 * x", 1), strings.Replace(sumPositive[1], "total += x", "total += 2 * x", 1)}
			r = applyAnswer(t, e, sumAnswer(current))
			if statuses(r.Blocks) != "applied" {
				t.Fatalf("a block quoting the current text: %+v", r.Blocks)
			}
			waitText(t, e, path, strings.Replace(typed, current[0], current[1], 1))
		})
	}
}

// TestStaleAfterPersonsEditOfGraftsEdit applies an edit through
// graft.apply, then has the person change a line of it at once, sooner
// than the server keeps a version of the buffer for typing; then a block
// quoting the edit's lines as graft wrote them arrives: it is refused as
// stale against the text graft wrote, and the person's change stays.
func TestStaleAfterPersonsEditOfGraftsEdit(t *testing.T) {
	for _, tc := range historyEditors {
		t.Run(tc.name, func(t *testing.T) {
			e, path, written := editedByGraft(t, tc.opt)

			// The person types: total += xs[i] becomes total += 2 * xs[i].
			if err := e.Edit(path, &protocol.Range{
				Start: protocol.Position{Line: 5, Character: 11},
				End:   protocol.Position{Line: 5, Character: 11},
			}, "2 * "); err != nil {
				t.Fatal(err)
			}
			typed := strings.Replace(written, "total += xs[i]", "total += 2 * xs[i]", 1)
			if got := e.Text(path); got != typed {
				t.Fatalf("typed text %q", got)
			}

			// The model quotes the loop as graft wrote it.
			quoting := [2]string{sumLoop[1], strings.Replace(sumLoop[1], "total += xs[i]", "total += xs[i] * xs[i]", 1)}
			r := applyAnswer(t, e, sumAnswer(quoting))
			wantStale(t, r, "the text graft wrote at ")
			if got := e.Text(path); got != typed {
				t.Errorf("the stale block changed the buffer:\n%s", got)
			}
		})
	}
}

// TestStaleAcrossRestartsAndRoutes keeps the history where the server's
// memory does not reach: graft serve records its edits in the journal
// graft apply keeps, and reads a file's journal and git's versions of it
// the first time it meets the file. So a block quoting the text before an
// edit is stale after the editor restarted in between (the person saved
// and quit, and opened the file again; or the editor ended the server
// with SIGTERM), after the edit was graft apply's
// on the disk before the editor opened the file, and when the edit was
// made since the last commit, before the editor opened the file.
func TestStaleAcrossRestartsAndRoutes(t *testing.T) {
	after := strings.Replace(sumGo, sumLoop[0], sumLoop[1], 1)
	// The server is stopped as the editor quits, or as an editor that
	// will not wait for it ends it (Neovim's forced stop: :LspStop!, an
	// exit_timeout run out): the edit made just before is recorded either
	// way, though the server gathers its edits for a second.
	for _, stop := range []struct {
		name string
		stop func(t *testing.T, e *fakeeditor.Editor)
	}{
		{"the editor restarted", func(t *testing.T, e *fakeeditor.Editor) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := e.Shutdown(ctx); err != nil {
				t.Fatal(err)
			}
			e.Exit()
		}},
		{"the editor stopped the server with SIGTERM", func(t *testing.T, e *fakeeditor.Editor) {
			if runtime.GOOS == "windows" {
				t.Skip("no SIGTERM")
			}
			server, err := os.FindProcess(e.Pid())
			if err != nil {
				t.Fatal(err)
			}
			if err := server.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			if _, err := e.Wait(10 * time.Second); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(stop.name, func(t *testing.T) {
			dir := writeFiles(t, t.TempDir(), map[string]string{"sum.go": sumGo})
			path := filepath.Join(dir, "sum.go")
			opt := fakeeditor.VSCode(dir)
			opt.State = t.TempDir()
			first, _ := fakeeditor.StartReady(t, opt)
			if err := first.Open(path, "go", sumGo); err != nil {
				t.Fatal(err)
			}
			if r := applyAnswer(t, first, sumAnswer(sumLoop)); !r.Applied {
				t.Fatalf("first edit: %+v", r)
			}
			waitText(t, first, path, after)
			if err := os.WriteFile(path, []byte(after), 0o644); err != nil { // saved
				t.Fatal(err)
			}
			stop.stop(t, first)

			second, _ := fakeeditor.StartReady(t, opt)
			if err := second.Open(path, "go", after); err != nil {
				t.Fatal(err)
			}
			r := applyAnswer(t, second, sumAnswer(sumPositive))
			wantStale(t, r, "the text graft serve replaced at ")
			if got := second.Text(path); got != after {
				t.Errorf("the stale block changed the buffer:\n%s", got)
			}
		})
	}
	t.Run("--journal=false", func(t *testing.T) {
		dir := writeFiles(t, t.TempDir(), map[string]string{"sum.go": sumGo})
		path := filepath.Join(dir, "sum.go")
		opt := fakeeditor.VSCode(dir)
		opt.State = t.TempDir()
		opt.Args = []string{"--journal=false"}
		e, _ := fakeeditor.StartReady(t, opt)
		if err := e.Open(path, "go", sumGo); err != nil {
			t.Fatal(err)
		}
		if r := applyAnswer(t, e, sumAnswer(sumLoop)); !r.Applied {
			t.Fatalf("first edit: %+v", r)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := e.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
		if ents, err := os.ReadDir(opt.State); err != nil || len(ents) != 0 {
			t.Errorf("the state folder holds %d entries (%v), want none", len(ents), err)
		}
	})
	t.Run("changed since the commit, before the editor opened it", func(t *testing.T) {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("no git")
		}
		dir := writeFiles(t, t.TempDir(), map[string]string{"sum.go": sumGo})
		for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-qm", "sum"}} {
			cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		path := filepath.Join(dir, "sum.go")
		if err := os.WriteFile(path, []byte(after), 0o644); err != nil { // by another hand
			t.Fatal(err)
		}
		e, _ := fakeeditor.StartReady(t, fakeeditor.VSCode(dir))
		if err := e.Open(path, "go", after); err != nil {
			t.Fatal(err)
		}
		r := applyAnswer(t, e, sumAnswer(sumPositive))
		wantStale(t, r, "the file at HEAD (commit ")
		if got := e.Text(path); got != after {
			t.Errorf("the stale block changed the buffer:\n%s", got)
		}
	})
	t.Run("graft apply edited the file before", func(t *testing.T) {
		dir := writeFiles(t, t.TempDir(), map[string]string{"sum.go": sumGo, "first.md": sumAnswer(sumLoop)})
		path := filepath.Join(dir, "sum.go")
		state := t.TempDir()
		cmd := exec.Command(testenv.Build(t), "apply", "--editor", "never", "first.md")
		cmd.Dir, cmd.Env = dir, append(os.Environ(), "XDG_STATE_HOME="+state, "GRAFT_JOURNAL=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("graft apply: %v\n%s", err, out)
		}
		opt := fakeeditor.VSCode(dir)
		opt.State = state
		e, _ := fakeeditor.StartReady(t, opt)
		if err := e.Open(path, "go", after); err != nil {
			t.Fatal(err)
		}
		r := applyAnswer(t, e, sumAnswer(sumPositive))
		wantStale(t, r, "the text graft apply replaced at ")
		if got := e.Text(path); got != after {
			t.Errorf("the stale block changed the buffer:\n%s", got)
		}
	})
}

// TestStaleRouted has the person change lines of the buffer, then an edit
// routed over the editor link (as graft apply --editor and graft mcp send
// one) quote them as they were: it fails as stale, and the buffer keeps
// the person's change.
func TestStaleRouted(t *testing.T) {
	dir := writeFiles(t, t.TempDir(), map[string]string{"sum.go": sumGo})
	short, err := os.MkdirTemp("", "gl") // a socket path fits in 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(short) })
	sockets := filepath.Join(short, "graft")
	t.Setenv(editorlink.DirEnv, sockets) // for the server and for Send
	opt := fakeeditor.VSCode(dir)
	opt.Env = os.Environ()
	e, _ := fakeeditor.StartReady(t, opt)
	path := filepath.Join(dir, "sum.go")
	if err := e.Open(path, "go", sumGo); err != nil {
		t.Fatal(err)
	}
	typed := strings.Replace(sumGo, "total += x", "total += 2 * x", 1)
	if err := e.SetText(path, typed); err != nil {
		t.Fatal(err)
	}
	edit, _ := json.Marshal(map[string]any{"filePath": "sum.go", "oldString": sumPositive[0], "newString": sumPositive[1]})
	var rep *editorlink.Reply
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		rep, err = editorlink.Send(context.Background(), dir, nil, &editorlink.Request{Edits: []json.RawMessage{edit}})
		if err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		t.Fatalf("routed edit: %v", err)
	}
	if rep.Applied || len(rep.Blocks) != 1 || rep.Blocks[0].Reason != "stale" || !strings.Contains(rep.Blocks[0].Message, "the buffer at version") {
		t.Errorf("routed stale edit: %+v", rep)
	}
	if got := e.Text(path); got != typed {
		t.Errorf("the stale edit changed the buffer:\n%s", got)
	}
}
