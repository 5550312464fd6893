package mcpserver_test

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graft-editor/graft/internal/test/testenv"
)

func TestCommandLine(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	tests := []struct {
		name   string
		args   []string
		status int
		stdout string
		stderr string
	}{
		{name: "help", args: []string{"mcp", "-h"}, status: 0, stdout: "usage: graft mcp [--root DIR] [--editor auto|always|never]"},
		{name: "graft help mcp", args: []string{"help", "mcp"}, status: 0, stdout: "preview_edits"},
		{name: "a root that does not exist", args: []string{"mcp", "--root", missing}, status: 2, stderr: "--root: workspace root"},
		{name: "an unknown editor mode", args: []string{"mcp", "--editor", "sometimes"}, status: 2, stderr: `--editor: editor mode "sometimes"`},
		{name: "an argument", args: []string{"mcp", "extra"}, status: 2, stderr: "unexpected arguments"},
		{name: "the client hangs up at once", args: []string{"mcp"}, status: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(testenv.Build(t), tt.args...)
			cmd.Dir = t.TempDir()
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if err != nil && !errors.As(err, &exit) {
				t.Fatal(err)
			}
			if code := cmd.ProcessState.ExitCode(); code != tt.status {
				t.Errorf("status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.status, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), tt.stdout) {
				t.Errorf("stdout does not say %q:\n%s", tt.stdout, stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr does not say %q:\n%s", tt.stderr, stderr.String())
			}
		})
	}
}
