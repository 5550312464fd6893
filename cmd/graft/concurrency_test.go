package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graft-editor/graft/workspace"
)

// graftBinary returns the graft command the tests run: the test binary
// itself, installed in $PATH by testscript.Main.
func graftBinary(t *testing.T) string {
	t.Helper()
	graft, err := exec.LookPath("graft")
	if err != nil {
		t.Fatal(err)
	}
	return graft
}

// childEnv is the environment of the graft processes the tests start: the
// tests' own, and when graft is built with -race, no second of sleep at
// exit (the race detector's default), which would dominate the rounds.
func childEnv() []string {
	return append(os.Environ(), "GORACE="+strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
}

// A graftRun is one graft apply process and what it reported.
type graftRun struct {
	code   int
	report workspace.Report
	stderr string
}

// applied reports whether every block of the run applied and its file
// counts as changed.
func (r graftRun) applied() bool {
	if r.code != 0 || r.report.Failed+r.report.Skipped > 0 || len(r.report.Blocks) == 0 {
		return false
	}
	for _, f := range r.report.Files {
		if !f.Changed {
			return false
		}
	}
	return true
}

// notWritten reports whether the run says that its change was not made.
func (r graftRun) notWritten() bool {
	for _, b := range r.report.Blocks {
		if b.Status != "applied" {
			return true
		}
	}
	return false
}

// startApply starts graft apply --json on the answer in file, in root.
func startApply(t *testing.T, graft, root, answer string, extra ...string) (*exec.Cmd, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	args := append([]string{"apply", "--root", root, "--json"}, extra...)
	cmd := exec.CommandContext(t.Context(), graft, append(args, answer)...)
	cmd.Env = childEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &stdout, &stderr
}

// waitApply waits for a process startApply started and decodes its report.
func waitApply(t *testing.T, cmd *exec.Cmd, stdout, stderr *bytes.Buffer) graftRun {
	t.Helper()
	r := graftRun{}
	if err := cmd.Wait(); err != nil {
		exit, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		r.code = exit.ExitCode()
	}
	r.stderr = stderr.String()
	if err := json.Unmarshal(stdout.Bytes(), &r.report); err != nil {
		t.Fatalf("graft apply (exit %d) wrote no JSON report: %v\nstdout: %s\nstderr: %s", r.code, err, stdout, stderr)
	}
	return r
}

// runConcurrently starts one graft apply per answer at once, and returns
// what each reported.
func runConcurrently(t *testing.T, graft, root string, answers ...string) []graftRun {
	t.Helper()
	type proc struct {
		cmd            *exec.Cmd
		stdout, stderr *bytes.Buffer
	}
	procs := make([]proc, len(answers))
	for i, a := range answers {
		procs[i].cmd, procs[i].stdout, procs[i].stderr = startApply(t, graft, root, a)
	}
	runs := make([]graftRun, len(answers))
	for i, p := range procs {
		runs[i] = waitApply(t, p.cmd, p.stdout, p.stderr)
	}
	return runs
}

// writeTree writes files (name → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// writeAnswer writes an answer file outside the workspace and returns its path.
func writeAnswer(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// searchReplace is a SEARCH/REPLACE answer for file.
func searchReplace(file, search, replace string) string {
	return fmt.Sprintf("%s\n<<<<<<< SEARCH\n%s\n=======\n%s\n>>>>>>> REPLACE\n", file, search, replace)
}

// rounds is how many times each concurrency test races two processes,
// as the issue measured; -short runs fewer.
func rounds() int {
	if testing.Short() {
		return 10
	}
	return 50
}

// TestConcurrentEditsOfOneFile races two graft processes, each editing
// another line of one file, and requires that no edit reported applied is
// lost: each is in the file, or its process says it was not written.
func TestConcurrentEditsOfOneFile(t *testing.T) {
	graft := graftBinary(t)
	for _, lines := range []int{20, 20000} {
		t.Run(fmt.Sprintf("%d lines", lines), func(t *testing.T) {
			var text strings.Builder
			for i := 1; i <= lines; i++ {
				fmt.Fprintf(&text, "row %05d of the file\n", i)
			}
			answers := t.TempDir()
			first, second := 3, lines-2
			a := writeAnswer(t, answers, "a.md", searchReplace("f.txt", fmt.Sprintf("row %05d of the file", first), "edited by A"))
			b := writeAnswer(t, answers, "b.md", searchReplace("f.txt", fmt.Sprintf("row %05d of the file", second), "edited by B"))
			bothApplied, lost, deadline := 0, 0, time.Now().Add(2*time.Minute)
			for round := 0; round < rounds() && time.Now().Before(deadline); round++ {
				root := t.TempDir()
				file := filepath.Join(root, "f.txt")
				if err := os.WriteFile(file, []byte(text.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				runs := runConcurrently(t, graft, root, a, b)
				got, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				for i, edit := range []string{"edited by A\n", "edited by B\n"} {
					present := strings.Contains(string(got), edit)
					switch {
					case runs[i].applied() && !present:
						lost++
						t.Errorf("round %d: process %c reported its edit applied, and it is gone", round, 'A'+i)
					case !runs[i].applied() && present:
						t.Fatalf("round %d: process %c reported its edit not applied, and it is there\nreport: %+v", round, 'A'+i, runs[i].report)
					case !runs[i].applied() && !runs[i].notWritten():
						t.Fatalf("round %d: process %c neither applied nor said why (exit %d): %s", round, 'A'+i, runs[i].code, runs[i].stderr)
					}
				}
				if runs[0].applied() && runs[1].applied() {
					bothApplied++
				}
				if want := lines; strings.Count(string(got), "\n") != want {
					t.Fatalf("round %d: the file has %d lines, want %d", round, strings.Count(string(got), "\n"), want)
				}
				noTempFiles(t, root)
			}
			t.Logf("both edits applied in %d rounds; %d edits reported applied were lost", bothApplied, lost)
		})
	}
}

// TestConcurrentCreatesOfOneFile races two graft processes creating the
// same new file with other contents: one wins, the other says it did not
// overwrite it.
func TestConcurrentCreatesOfOneFile(t *testing.T) {
	graft := graftBinary(t)
	answers := t.TempDir()
	a := writeAnswer(t, answers, "a.md", "*** Begin Patch\n*** Add File: new.txt\n+from A\n*** End Patch\n")
	b := writeAnswer(t, answers, "b.md", "*** Begin Patch\n*** Add File: new.txt\n+from B\n*** End Patch\n")
	overwritten, deadline := 0, time.Now().Add(time.Minute)
	defer func() { t.Logf("%d creates reported done were overwritten", overwritten) }()
	for round := 0; round < rounds() && time.Now().Before(deadline); round++ {
		root := t.TempDir()
		runs := runConcurrently(t, graft, root, a, b)
		got, err := os.ReadFile(filepath.Join(root, "new.txt"))
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		winners := 0
		for i, want := range []string{"from A\n", "from B\n"} {
			if !runs[i].applied() {
				if !runs[i].notWritten() {
					t.Fatalf("round %d: process %c neither applied nor said why: %s", round, 'A'+i, runs[i].stderr)
				}
				continue
			}
			winners++
			if string(got) != want {
				overwritten++
				t.Errorf("round %d: process %c reported creating new.txt, which holds %q", round, 'A'+i, got)
			}
		}
		if winners != 1 && overwritten == 0 {
			t.Fatalf("round %d: %d processes reported creating new.txt, want 1", round, winners)
		}
		noTempFiles(t, root)
	}
}

// noTempFiles fails the test when a temporary file of graft is left
// anywhere under dir.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".graft-") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

// TestSwappedFolderNeverLeadsOutside runs graft while another goroutine
// swaps a folder of the root for a symbolic link to a folder outside, and
// requires that nothing is ever written outside and no temporary file is
// left anywhere.
func TestSwappedFolderNeverLeadsOutside(t *testing.T) {
	graft := graftBinary(t)
	top := t.TempDir()
	root, outside := filepath.Join(top, "root"), filepath.Join(top, "outside")
	for _, d := range []string{filepath.Join(root, "d"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The file outside holds what the edit searches for, so that an edit
	// that escaped would apply there.
	for _, d := range []string{outside, filepath.Join(root, "d")} {
		if err := os.WriteFile(filepath.Join(d, "a.txt"), []byte("inside\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	answer := writeAnswer(t, top, "answer.md", "*** Begin Patch\n*** Add File: d/new.txt\n+new\n"+
		"*** Update File: d/a.txt\n@@\n-inside\n+edited\n*** End Patch\n")

	stop := make(chan struct{})
	var swapping sync.Mutex // held while d is not the folder
	var wg sync.WaitGroup
	wg.Add(1)
	swaps := 0
	go func() {
		defer wg.Done()
		d, real := filepath.Join(root, "d"), filepath.Join(root, "d.real")
		for {
			select {
			case <-stop:
				os.Remove(d)
				os.Rename(real, d)
				return
			default:
			}
			swapping.Lock()
			if os.Rename(d, real) == nil {
				os.Symlink(outside, d)
				time.Sleep(50 * time.Microsecond)
				os.Remove(d)
				if os.Rename(real, d) != nil {
					// graft made a new d/ in the moment d was missing:
					// move it aside (still inside, checked at the end
					// for temporary files), and put the folder back.
					os.Rename(d, filepath.Join(root, fmt.Sprintf("made-%d", swaps)))
					os.Rename(real, d)
				}
				swaps++
			}
			swapping.Unlock()
			time.Sleep(200 * time.Microsecond)
		}
	}()
	tries, escapes, applied, deadline := 0, 0, 0, time.Now().Add(20*time.Second)
	max := 300
	if testing.Short() {
		max = 50
	}
	for ; tries < max && time.Now().Before(deadline); tries++ {
		cmd, stdout, stderr := startApply(t, graft, root, answer)
		if waitApply(t, cmd, stdout, stderr).applied() {
			applied++
		}
		swapping.Lock()
		os.Remove(filepath.Join(root, "d", "new.txt"))
		os.WriteFile(filepath.Join(root, "d", "a.txt"), []byte("inside\n"), 0o644)
		swapping.Unlock()
		if entries, _ := os.ReadDir(outside); len(entries) != 1 {
			escapes++
			t.Errorf("try %d: graft wrote outside the root: %v", tries, entries)
			for _, e := range entries {
				if e.Name() != "a.txt" {
					os.Remove(filepath.Join(outside, e.Name()))
				}
			}
		}
		if got, _ := os.ReadFile(filepath.Join(outside, "a.txt")); string(got) != "inside\n" {
			escapes++
			t.Errorf("try %d: graft edited outside/a.txt: %q", tries, got)
			os.WriteFile(filepath.Join(outside, "a.txt"), []byte("inside\n"), 0o644)
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d tries (%d applied), %d swaps, %d writes outside", tries, applied, swaps, escapes)

	noTempFiles(t, top)
}
