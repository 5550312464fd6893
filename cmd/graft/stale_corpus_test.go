package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/graft-editor/graft/internal/corpus"
	"github.com/graft-editor/graft/workspace"
)

// staleShare is the least share of the sample each route must refuse as
// stale; none may change the file.
const staleShare = 0.95

// staleSample returns the stale cases of the corpus (corpus.StaleCases)
// the end-to-end tests send: 48 spread over shapes and changes, 16 with
// -short, and logs how many the engine, in-process, refuses as stale given
// the text before (what it does not refuse is measured per shape and
// change in engine/corpus_test.go).
func staleSample(t *testing.T) []corpus.StaleCase {
	t.Helper()
	sample := corpus.RoutedStaleSample(t)
	rows := map[string]int{}
	refused := 0
	for _, s := range sample {
		rows[s.Shape+"/"+s.Change]++
		if _, stale := s.Resolve(); stale {
			refused++
		}
	}
	t.Logf("a sample of %d stale cases, %d refused as stale by the engine in-process: %v", len(sample), refused, rows)
	return sample
}

// A staleTally counts what a route made of the sample's stale blocks.
type staleTally struct {
	blocks, stale, changed int
	others                 []string // the blocks not refused as stale, or that changed the file
}

// add counts one block: refused as stale or not, the file changed or not,
// and what happened otherwise.
func (s *staleTally) add(name string, stale, changed bool, what string) {
	s.blocks++
	if stale {
		s.stale++
	}
	if changed {
		s.changed++
	}
	if !stale || changed {
		s.others = append(s.others, fmt.Sprintf("%s: changed %v: %s", name, changed, what))
	}
}

// judge counts the stale block of sc, which graft apply answered with
// code and r: refused as stale against a version whose name holds
// version, and the file left as sc.Now.
func (s *staleTally) judge(t *testing.T, sc corpus.StaleCase, code int, r workspace.Report, file, version string) {
	t.Helper()
	ok, what := staleVerdict(code, r)
	if ok && !strings.Contains(r.Blocks[0].Message, version) {
		ok, what = false, "stale against another version: "+r.Blocks[0].Message
	}
	s.add(sc.Name, ok, readText(t, file) != sc.Now, what)
}

// check logs the tally and fails t unless staleShare of the blocks were
// refused as stale and none changed the file.
func (s *staleTally) check(t *testing.T, route string) {
	t.Helper()
	t.Logf("%s: %d stale blocks, %d refused as stale, %d changed the file", route, s.blocks, s.stale, s.changed)
	for _, o := range s.others[:min(len(s.others), 5)] {
		t.Logf("%s: %s", route, o)
	}
	if s.changed > 0 || float64(s.stale) < staleShare*float64(s.blocks) {
		t.Errorf("%s: %d of %d stale blocks refused as stale (want %.0f%%), %d changed the file (want none)", route, s.stale, s.blocks, 100*staleShare, s.changed)
	}
}

// staleWorkspace writes the case's text before into a new workspace, at
// the path its answers name, and returns the workspace and the file.
func staleWorkspace(t *testing.T, s corpus.StaleCase) (root, file string) {
	t.Helper()
	root = t.TempDir()
	file = filepath.Join(root, filepath.FromSlash(corpus.AnswerPath(s.Case)))
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(s.Before), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, file
}

// staleAnswers writes the first edit and the stale block as answers of
// SEARCH/REPLACE blocks, in a folder outside the workspace.
func staleAnswers(t *testing.T, s corpus.StaleCase) (first, stale string) {
	t.Helper()
	dir := t.TempDir()
	for _, a := range []struct {
		c    corpus.Case
		name *string
	}{{s.FirstCase(), &first}, {s.StaleBlockCase(), &stale}} {
		text, ok := corpus.Render(a.c, corpus.SearchReplace)
		if !ok {
			t.Fatalf("%s: cannot be written as SEARCH/REPLACE", a.c.Name)
		}
		*a.name = filepath.Join(dir, strings.ReplaceAll(a.c.Name, "/", "-")+".md")
		if err := os.WriteFile(*a.name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return first, stale
}

// runStaleApply runs graft apply --json in root with env and the args, and
// returns its exit status and report.
func runStaleApply(t *testing.T, graft, root string, env []string, args ...string) (int, workspace.Report, string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), graft, append([]string{"apply", "--json", "--editor", "never", "--root", root}, args...)...)
	cmd.Dir, cmd.Env = root, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := 0
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatal(err)
		}
		code = exit.ExitCode()
	}
	var r workspace.Report
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("graft apply exited %d without a JSON report (%v); stderr:\n%s", code, err, &stderr)
	}
	return code, r, stderr.String()
}

// staleVerdict says whether graft apply refused the one block of r as
// stale, with exit status 1, and what it did otherwise.
func staleVerdict(code int, r workspace.Report) (bool, string) {
	if len(r.Blocks) != 1 {
		return false, fmt.Sprintf("exit %d, %d blocks", code, len(r.Blocks))
	}
	b := r.Blocks[0]
	return code == 1 && b.Status == "failed" && b.Reason == "stale", fmt.Sprintf("exit %d, %s %q: %s", code, b.Status, b.Reason, b.Message)
}

// readText returns the content of file.
func readText(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestStaleCorpusJournal sends a sample of the corpus's stale cases
// through graft apply with its journal, as an agent makes them: graft
// apply makes the first edit, recording the text it replaced; then a
// block quoting that text, in lines the first edit changed, is refused as
// stale (exit status 1, reason "stale") and the file keeps the first
// edit, byte for byte.
func TestStaleCorpusJournal(t *testing.T) {
	graft := graftBinary(t)
	env := append(childEnv(), "XDG_STATE_HOME="+t.TempDir(), "GRAFT_JOURNAL=")
	var tally staleTally
	for _, s := range staleSample(t) {
		root, file := staleWorkspace(t, s)
		first, stale := staleAnswers(t, s)
		if code, r, stderr := runStaleApply(t, graft, root, env, first); code != 0 || readText(t, file) != s.Now {
			t.Fatalf("%s: the first edit: exit %d, %+v\n%s", s.Name, code, r.Blocks, stderr)
		}
		code, r, _ := runStaleApply(t, graft, root, env, stale)
		tally.judge(t, s, code, r, file, "the text graft apply replaced at ")
	}
	tally.check(t, "graft apply, journal")
}

// TestStaleCorpusGit sends a sample of the corpus's stale cases through
// graft apply in a git repository, with the journal off: the text before
// is committed, the file holds the text after the first edit (written by
// the test, as a person or another tool would), and the stale block is
// refused as stale against the commit, naming it; the file is left as it
// is.
func TestStaleCorpusGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git: the stale blocks against HEAD need it")
	}
	graft := graftBinary(t)
	env := append(childEnv(), "XDG_STATE_HOME="+t.TempDir(), "GRAFT_JOURNAL=off")
	var tally staleTally
	for _, s := range staleSample(t) {
		root, file := staleWorkspace(t, s)
		git := func(args ...string) string {
			cmd := exec.Command("git", append([]string{"-C", root, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false"}, args...)...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
			return strings.TrimSpace(string(out))
		}
		git("init", "-q")
		git("add", ".")
		git("commit", "-qm", "before")
		commit := git("rev-parse", "--short", "HEAD")
		if err := os.WriteFile(file, []byte(s.Now), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stale := staleAnswers(t, s)
		code, r, _ := runStaleApply(t, graft, root, env, "--journal=false", stale)
		tally.judge(t, s, code, r, file, "the file at HEAD (commit "+commit+")")
	}
	tally.check(t, "graft apply, git")
}

// TestStaleCorpusJournalAfterOthersEdit sends a sample of the corpus's
// stale cases through graft apply with its journal, where the text the
// stale block quotes is one graft apply wrote and another hand changed
// since: graft apply writes the text before (a diff from the text after,
// which holds none of the block's search), a person or a formatter then
// makes the first edit, and the block quoting what graft apply wrote, in
// lines changed since, is refused as stale against that text, and the
// file is left as the other hand left it.
func TestStaleCorpusJournalAfterOthersEdit(t *testing.T) {
	graft := graftBinary(t)
	env := append(childEnv(), "XDG_STATE_HOME="+t.TempDir(), "GRAFT_JOURNAL=")
	var tally staleTally
	for _, s := range staleSample(t) {
		root, file := staleWorkspace(t, s)
		if err := os.WriteFile(file, []byte(s.Now), 0o644); err != nil {
			t.Fatal(err)
		}
		rel := corpus.AnswerPath(s.Case)
		write := filepath.Join(t.TempDir(), "write.diff")
		if err := os.WriteFile(write, []byte(udiff.Unified("a/"+rel, "b/"+rel, s.Now, s.Before)), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, r, stderr := runStaleApply(t, graft, root, env, "--format", "unified-diff", write); code != 0 || readText(t, file) != s.Before {
			t.Fatalf("%s: graft apply writing the text before: exit %d, %+v\n%s", s.Name, code, r.Blocks, stderr)
		}
		if err := os.WriteFile(file, []byte(s.Now), 0o644); err != nil { // by another hand
			t.Fatal(err)
		}
		_, stale := staleAnswers(t, s)
		code, r, _ := runStaleApply(t, graft, root, env, stale)
		tally.judge(t, s, code, r, file, "the text graft apply wrote at ")
	}
	tally.check(t, "graft apply, journal, another hand")
}
