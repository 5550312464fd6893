package vscode_test

import (
	"os"
	"testing"

	"github.com/graft-editor/graft/internal/test/testenv"
)

// TestMain keeps the state of the graft processes the tests start (the
// journal that graft serve reads and writes) in a temporary directory,
// never the user's: the Node tests and code-server pass the environment
// on to them.
func TestMain(m *testing.M) {
	os.Exit(testenv.RunPrivateState(m))
}
