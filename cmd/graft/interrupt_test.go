package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// interruptAfter starts cmd, sends it SIGINT after delay, and returns its
// exit status and how long it took to exit after the signal; the test
// fails when it has not exited 10 s after the signal.
func interruptAfter(t *testing.T, cmd *exec.Cmd, delay time.Duration) (code int, exited time.Duration) {
	t.Helper()
	return signalAfter(t, cmd, syscall.SIGINT, delay)
}

// signalAfter is interruptAfter for another signal, sig.
func signalAfter(t *testing.T, cmd *exec.Cmd, sig os.Signal, delay time.Duration) (code int, exited time.Duration) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(delay)
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		switch {
		case err == nil:
			return 0, time.Since(sent)
		case errors.As(err, &exit):
			return exit.ExitCode(), time.Since(sent)
		default:
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("graft did not exit within 10 s of %v", sig)
	}
	return 0, 0
}

// TestInterruptWhileReadingStdin sends SIGINT to graft apply while it
// reads an answer from a pipe that never ends: it stops at once with
// status 130 and writes nothing.
func TestInterruptWhileReadingStdin(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.txt"), "one\n")
	cmd := exec.Command(graftBinary(t), "apply")
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	// A whole block, and then nothing: the pipe stays open.
	go io.WriteString(stdin, "a.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n")

	code, _ := interruptAfter(t, cmd, 300*time.Millisecond)
	if code != exitInterrupted {
		t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitInterrupted, &stderr)
	}
	if !strings.Contains(stderr.String(), "interrupted while reading stdin") {
		t.Errorf("stderr does not say it was interrupted while reading:\n%s", &stderr)
	}
	checkFile(t, filepath.Join(dir, "a.txt"), "one\n")
}

// TestInterruptWhilePlanning sends SIGINT to graft apply while it plans
// 10,000 blocks against a 20,000-line file (several seconds of work): it
// stops at once with status 130 and leaves the file as it was.
func TestInterruptWhilePlanning(t *testing.T) {
	dir := t.TempDir()
	var file, answer strings.Builder
	answer.WriteString("big.txt\n")
	for i := range 20000 {
		fmt.Fprintf(&file, "line %d says %d\n", i, 7*i)
		if i%2 == 0 {
			fmt.Fprintf(&answer, "<<<<<<< SEARCH\nline %d says %d\n=======\nLINE %d\n>>>>>>> REPLACE\n", i, 7*i, i)
		}
	}
	big := filepath.Join(dir, "big.txt")
	writeFile(t, big, file.String())
	writeFile(t, filepath.Join(dir, "answer.md"), answer.String())

	for _, mode := range []string{"--dry-run", "--atomic", "--json"} {
		t.Run(mode, func(t *testing.T) {
			cmd := exec.Command(graftBinary(t), "apply", mode, "answer.md")
			cmd.Dir = dir
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			code, took := interruptAfter(t, cmd, 500*time.Millisecond)
			if code == 0 {
				t.Skipf("graft finished its plan within 500 ms, before the signal: nothing to interrupt")
			}
			if code != exitInterrupted {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitInterrupted, &stderr)
			}
			if took > 2*time.Second {
				t.Errorf("graft took %v to exit after SIGINT", took)
			}
			if !strings.Contains(stderr.String(), "interrupted before anything was written") {
				t.Errorf("stderr does not say it was interrupted:\n%s", &stderr)
			}
			switch {
			case mode == "--json":
				// The error, with the status the process exits with.
				var e struct {
					Error      string `json:"error"`
					ExitStatus int    `json:"exitStatus"`
				}
				if err := json.Unmarshal(stdout.Bytes(), &e); err != nil || e.ExitStatus != exitInterrupted || !strings.Contains(e.Error, "interrupted") {
					t.Errorf("JSON error %+v (%v), want exitStatus %d:\n%s", e, err, exitInterrupted, &stdout)
				}
			case stdout.Len() > 0:
				t.Errorf("an interrupted run printed a report:\n%s", &stdout)
			}
			checkFile(t, big, file.String())
		})
	}
}

// runOnTerminal runs graft with args on a pseudo-terminal made by
// script(1), its input typed there, and returns what the terminal showed.
func runOnTerminal(t *testing.T, dir, input string, args ...string) string {
	t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to run graft on a terminal")
	}
	line := graftBinary(t)
	for _, a := range args {
		line += " '" + a + "'"
	}
	// -q: no banner; -e: graft's exit status; -c: the command line.
	cmd := exec.Command(script, "-qec", line, "/dev/null")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(input)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return string(out)
}

// TestStdinOnTerminal checks that graft apply says it reads the answer
// from standard input, and how to end it, when that is a terminal.
func TestStdinOnTerminal(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.txt"), "one\n")
	// Ctrl-D (EOT) on a line of its own ends the input.
	out := runOnTerminal(t, dir, "a.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n\x04", "apply")
	for _, want := range []string{"reading the answer from standard input", "Ctrl-D", "block 1: applied a.txt:1"} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal does not show %q:\n%s", want, out)
		}
	}
	checkFile(t, filepath.Join(dir, "a.txt"), "two\n")
}

// TestProgress checks that a run of more than 50 blocks shows its
// progress on a terminal, and nowhere else: not with --json, not when
// standard error is not a terminal.
func TestProgress(t *testing.T) {
	dir := t.TempDir()
	var file, answer strings.Builder
	answer.WriteString("a.txt\n")
	for i := range 400 {
		fmt.Fprintf(&file, "line %d\n", i)
		fmt.Fprintf(&answer, "<<<<<<< SEARCH\nline %d\n=======\nLINE %d\n>>>>>>> REPLACE\n", i, i)
	}
	writeFile(t, filepath.Join(dir, "a.txt"), file.String())
	writeFile(t, filepath.Join(dir, "answer.md"), answer.String())

	out := runOnTerminal(t, dir, "", "apply", "--dry-run", "answer.md")
	if !strings.Contains(out, "graft: resolved ") || !strings.Contains(out, " of 400 blocks") {
		t.Errorf("no progress on the terminal:\n%.2000s", out)
	}
	if !strings.Contains(out, "400 applied") {
		t.Errorf("no summary on the terminal:\n%.2000s", out)
	}
	if out := runOnTerminal(t, dir, "", "apply", "--dry-run", "--json", "answer.md"); strings.Contains(out, "graft: resolved") {
		t.Errorf("progress shown with --json:\n%.2000s", out)
	}

	cmd := exec.Command(graftBinary(t), "apply", "--dry-run", "answer.md")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr.String(), "resolved") || strings.Contains(stderr.String(), "\r") {
		t.Errorf("progress shown when stderr is not a terminal:\n%.2000s", &stderr)
	}
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func checkFile(t *testing.T, name, want string) {
	t.Helper()
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s = %.200q, want %.200q", filepath.Base(name), got, want)
	}
}

// TestInterruptWhileWriting sends SIGINT to graft apply as soon as the
// first of 5,000 files is written: graft exits with status 130, every
// file holds either its old or its new content, whole, no temporary file
// is left, and with --atomic every file is as it was.
func TestInterruptWhileWriting(t *testing.T) {
	const n = 5000
	for _, atomic := range []bool{false, true} {
		t.Run(fmt.Sprintf("atomic=%v", atomic), func(t *testing.T) {
			dir := t.TempDir()
			var answer strings.Builder
			for i := range n {
				writeFile(t, filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)), fmt.Sprintf("old %d\n", i))
				fmt.Fprintf(&answer, "f%04d.txt\n<<<<<<< SEARCH\nold %d\n=======\nnew %d\n>>>>>>> REPLACE\n", i, i, i)
			}
			answerFile := filepath.Join(t.TempDir(), "answer.md")
			writeFile(t, answerFile, answer.String())
			args := []string{"apply", answerFile}
			if atomic {
				args = append(args, "--atomic")
			}
			cmd := exec.Command(graftBinary(t), args...)
			cmd.Dir = dir
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// Wait for the first file to be written.
			first := filepath.Join(dir, "f0000.txt")
			deadline := time.Now().Add(20 * time.Second)
			for {
				if b, _ := os.ReadFile(first); string(b) == "new 0\n" {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("graft wrote nothing within 20 s")
				}
				time.Sleep(200 * time.Microsecond)
			}
			cmd.Process.Signal(syscall.SIGINT)
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatal("graft did not exit within 10 s of SIGINT")
			}
			var exit *exec.ExitError
			if err == nil {
				t.Skip("graft wrote every file before the signal: nothing to interrupt")
			}
			if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
				t.Fatalf("graft: %v, want exit status %d; stderr:\n%s", err, exitInterrupted, &stderr)
			}
			if !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("stderr does not say it was interrupted:\n%.2000s", &stderr)
			}
			if strings.Count(stderr.String(), "\n") > 1 {
				t.Errorf("stderr says more than one line:\n%.2000s", &stderr)
			}
			written := 0
			for i := range n {
				b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)))
				if err != nil {
					t.Fatal(err)
				}
				switch string(b) {
				case fmt.Sprintf("new %d\n", i):
					written++
				case fmt.Sprintf("old %d\n", i):
				default:
					t.Errorf("f%04d.txt holds %q", i, b)
				}
			}
			// The report says which files were written.
			if got := strings.Count(stdout.String(), "\n    f"); !atomic && got < n-written {
				t.Errorf("the report says %d files were not written, want %d:\n%.2000s", got, n-written, &stdout)
			}
			if want := fmt.Sprintf("; %d files changed\n", written); !strings.HasSuffix(stdout.String(), want) && !(written == 1 && strings.HasSuffix(stdout.String(), "; 1 file changed\n")) {
				t.Errorf("the report does not end with %q:\n%.2000s", want, stdout.String()[max(0, stdout.Len()-2000):])
			}
			if atomic && written > 0 {
				t.Errorf("--atomic: %d files written after the interruption, want none", written)
			}
			t.Logf("%d of %d files written before graft stopped", written, n)
			noTempFiles(t, dir)
		})
	}
}

// TestMCPStopsOnSignal stops graft mcp, serving a client that says
// nothing, with each signal that ends a run: it exits with status 130
// and says nothing, a stop being no error.
func TestMCPStopsOnSignal(t *testing.T) {
	for _, sig := range []os.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(graftBinary(t), "mcp")
			cmd.Dir = t.TempDir()
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			defer stdin.Close()
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			code, _ := signalAfter(t, cmd, sig, 300*time.Millisecond)
			if code != exitInterrupted {
				t.Errorf("exit status %d, want %d", code, exitInterrupted)
			}
			if stderr.Len() > 0 {
				t.Errorf("graft mcp said on stopping:\n%s", &stderr)
			}
		})
	}
}
