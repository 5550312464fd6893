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

	"github.com/graft-editor/graft/workspace"
)

// The answers in testdata/answers are realistic agent answers, each in a
// directory with the workspace it edits: answer.md, the tree it starts from
// in input/, the tree it must leave in expected/, and report.txt, the
// report graft must give, one block a line:
//
//	status dialect path [| words of the message]
//
// (path "-" for a block that names no file; "#" starts a comment line). An optional args.txt holds more flags for
// graft apply, such as --target, whose paths are relative to the workspace.
// See testdata/answers/README.md for what each answer checks.

// TestAnswers runs every answer through the graft binary, in a copy of its
// input/: once applied, which must leave expected/, and once with
// --dry-run, which must leave input/ as it was; both must give the blocks
// of report.txt, and exit 0 when they all apply, 1 otherwise.
func TestAnswers(t *testing.T) {
	graft, err := exec.LookPath("graft") // installed in $PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	answers, err := filepath.Glob(filepath.Join("..", "..", "testdata", "answers", "*", "answer.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(answers) == 0 {
		t.Fatal("no answers in testdata/answers")
	}
	for _, answer := range answers {
		dir := filepath.Dir(answer)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want := readWantReport(t, filepath.Join(dir, "report.txt"))
			for _, dryRun := range []bool{false, true} {
				name := "apply"
				if dryRun {
					name = "dry-run"
				}
				t.Run(name, func(t *testing.T) {
					runAnswer(t, graft, dir, want, dryRun)
				})
			}
		})
	}
}

// A wantBlock is one line of report.txt.
type wantBlock struct {
	status, dialect, path string
	// says is a piece of the block's message, "" when the line names none.
	says string
}

func (w wantBlock) String() string {
	path := w.path
	if path == "" {
		path = "-"
	}
	return fmt.Sprintf("%s %s %s", w.status, w.dialect, path)
}

// readWantReport reads report.txt.
func readWantReport(t *testing.T, file string) []wantBlock {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var want []wantBlock
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		head, says, _ := strings.Cut(line, "|")
		fields := strings.Fields(head)
		if len(fields) != 3 {
			t.Fatalf("%s:%d: want \"status dialect path [| message]\", found %q", file, n+1, line)
		}
		path := fields[2]
		if path == "-" {
			path = ""
		}
		want = append(want, wantBlock{fields[0], fields[1], path, strings.TrimSpace(says)})
	}
	return want
}

// runAnswer applies the answer in dir to a copy of its input/ and checks
// the report, the exit status and the tree left.
func runAnswer(t *testing.T, graft, dir string, want []wantBlock, dryRun bool) {
	work := t.TempDir()
	input := filepath.Join(dir, "input")
	if err := os.CopyFS(work, os.DirFS(input)); err != nil {
		t.Fatal(err)
	}
	answer, err := filepath.Abs(filepath.Join(dir, "answer.md"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"apply", "--root", ".", "--json"}
	if dryRun {
		args = append(args, "--dry-run")
	}
	if extra, err := os.ReadFile(filepath.Join(dir, "args.txt")); err == nil {
		args = append(args, strings.Fields(string(extra))...)
	} else if !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	args = append(args, answer)

	cmd := exec.CommandContext(t.Context(), graft, args...)
	cmd.Dir = work
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
	var report workspace.Report
	if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
		t.Fatalf("graft exited %d without a JSON report (%v); stderr:\n%s", code, err, &stderr)
	}

	wantCode := 0
	for _, w := range want {
		if w.status != "applied" {
			wantCode = 1
		}
	}
	if code != wantCode {
		t.Errorf("graft exited %d, want %d; stderr:\n%s", code, wantCode, &stderr)
	}
	checkReport(t, report, want)

	wantTree := filepath.Join(dir, "expected")
	if dryRun {
		wantTree = input
	}
	if diff := compareTrees(readTree(t, work), readTree(t, wantTree)); diff != "" {
		t.Errorf("the tree differs from %s:\n%s", filepath.Base(wantTree), diff)
	}
}

// checkReport checks the blocks of a JSON report against report.txt.
func checkReport(t *testing.T, report workspace.Report, want []wantBlock) {
	t.Helper()
	for i := range max(len(report.Blocks), len(want)) {
		switch {
		case i >= len(want):
			b := report.Blocks[i]
			t.Errorf("block %d: unexpected %s %s %s: %s", i, b.Status, b.Dialect, b.Path, b.Message)
		case i >= len(report.Blocks):
			t.Errorf("block %d: missing %s", i, want[i])
		default:
			b, w := report.Blocks[i], want[i]
			got := wantBlock{b.Status, b.Dialect, b.Path, w.says}
			if got != w {
				t.Errorf("block %d: %s, want %s; message: %s", i, got, w, b.Message)
			} else if !strings.Contains(b.Message, w.says) {
				t.Errorf("block %d: message %q does not say %q", i, b.Message, w.says)
			}
		}
	}
}
