package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/graft-editor/graft/internal/test/testenv"
)

// TestMain lets the test binary run as the graft command, so that the
// scripts exercise graft as a real process: its exit status, its stdout
// and its stderr.
//
// A race-enabled binary sleeps a second at exit by default; the graft
// processes the tests start (this binary, run as graft) need not.
//
// The journal of the graft processes the tests start (see package
// history) is kept in a temporary state directory, never the user's.
func TestMain(m *testing.M) {
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	testscript.Main(privateState{m}, map[string]func(){"graft": main})
}

// privateState runs the tests with XDG_STATE_HOME in a temporary
// directory, removed after them. testscript.Main calls Run only to run
// the tests, not when this binary runs as graft.
type privateState struct{ m *testing.M }

func (p privateState) Run() int { return testenv.RunPrivateState(p.m) }

// TestScripts runs the scripts in testdata/script (see the testscript
// package for the language).
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			// Each script has its own state directory, beside its work
			// directory: $STATE/graft/journal holds its journals.
			state := env.WorkDir + ".state"
			env.Setenv("STATE", state)
			env.Setenv("XDG_STATE_HOME", state)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status": cmdStatus,
			"write":  cmdWrite,
			"perm":   cmdPerm,
		},
	})
}

// cmdStatus runs a command and checks its exit status:
//
//	status N command [args...]
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("%v", err)
		}
		got = exit.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdWrite writes a file whose content is given with the escapes of a Go
// string literal, for the bytes a txtar archive cannot hold (NUL, invalid
// UTF-8) and the text that needs $WORK expanded:
//
//	write FILE 'line\nbyte \x00\n'
func cmdWrite(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: write FILE TEXT")
	}
	content, err := strconv.Unquote(`"` + args[1] + `"`)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(content), 0o644))
}

// cmdPerm checks the permission bits of a file, in octal:
//
//	perm FILE 0755
func cmdPerm(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: perm FILE MODE")
	}
	fi, err := os.Stat(ts.MkAbs(args[0]))
	ts.Check(err)
	if got := fmt.Sprintf("%#o", fi.Mode().Perm()); got != args[1] {
		ts.Fatalf("%s has mode %s, want %s", args[0], got, args[1])
	}
}
