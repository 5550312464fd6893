package engine_test

import (
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
)

// TestScopeMessageLinesAsShown checks that a refusal inside a scope counts
// the lines of the file, not of the scope: the conflict on the file's line
// 11 says line 11, not line 3 of the section the scope opens.
func TestScopeMessageLinesAsShown(t *testing.T) {
	text := "package p\n\nfunc a() {\n\tx := 1\n\ty := 2\n\tz := 3\n}\n\nfunc b() {\n\tx := 1\n\ty := 20\n\tz := 3\n}\n"
	e := engine.Edit{
		Scope: []string{"func b() {"},
		Old:   "\tx := 1\n\ty := 2\n\tz := 3\n",
		New:   "\tx := 1\n\ty := 5\n\tz := 3\n",
	}
	_, outs := engine.ApplyEdits(text, []engine.Edit{e}, engine.Options{})
	if outs[0].Err == nil {
		t.Fatalf("applied: %+v", outs[0].Match)
	}
	msg := outs[0].Err.Error()
	if !strings.Contains(msg, "line 11") {
		t.Errorf("the refusal does not name the file's line 11:\n%s", msg)
	}
}
