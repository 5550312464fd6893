package lsp

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/workspace"
)

// TestPlanKey checks which changes of an answer a plan must see again: a
// line that goes on a block still being written is not one, unless it
// changes what the block waits for; any change of a finished block is.
func TestPlanKey(t *testing.T) {
	const head = "Intro.\n\na.go\n```go\n<<<<<<< SEARCH\nfunc one() int {\n"
	for _, tc := range []struct {
		name string
		a, b string
		same bool
	}{
		{"a line more in the search", head, head + "\treturn 1\n", true},
		{"the divider", head, head + "=======\n", false},
		{"a line more in the replacement", head + "=======\nfunc one() int {\n", head + "=======\nfunc one() int {\n\treturn 2\n", true},
		{"the block ends", head + "=======\nx\n", head + "=======\nx\n>>>>>>> REPLACE\n", false},
		{"prose after a finished block", head + "=======\nx\n>>>>>>> REPLACE\n```\n", head + "=======\nx\n>>>>>>> REPLACE\n```\n\nThat is all.\n", true},
		{"a line above the block", head, "Well.\n" + head, false},
		{"another file", head, "Intro.\n\nb.go\n```go\n<<<<<<< SEARCH\nfunc one() int {\n", false},
		{"a finished block's replacement", head + "=======\nx\n>>>>>>> REPLACE\n", head + "=======\ny\n>>>>>>> REPLACE\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := dialect.Parse(tc.a, dialect.Options{})
			if err != nil {
				t.Fatal(err)
			}
			b, err := dialect.Parse(tc.b, dialect.Options{})
			if err != nil {
				t.Fatal(err)
			}
			same := len(a) == len(b)
			for i := range a {
				same = same && keyOf(a[i]).equal(keyOf(b[i]))
			}
			if same != tc.same {
				t.Errorf("same plan = %v, want %v (blocks %+v, %+v)", same, tc.same, a, b)
			}
		})
	}
}

// sameFate tells results that say the same of a block, the time taken
// aside: a refusal by the engine must be the very one, which a result the
// plan cache kept is, since a diagnostic reads its candidates.
func TestSameFate(t *testing.T) {
	refusal := &engine.Error{Reason: engine.ReasonNotFound}
	unfinished := fmt.Errorf("line 3: %w", dialect.ErrUnfinished)
	base := workspace.BlockResult{Index: 2, Number: 3, Path: "a.go", Status: engine.StatusFailed, Message: "m", Err: refusal, Elapsed: time.Millisecond}
	with := func(f func(r *workspace.BlockResult)) workspace.BlockResult {
		r := base
		f(&r)
		return r
	}
	tests := []struct {
		name string
		a, b workspace.BlockResult
		want bool
	}{
		{"the same refusal, in another time", base, with(func(r *workspace.BlockResult) { r.Elapsed = time.Second }), true},
		{"another refusal that reads the same", base, with(func(r *workspace.BlockResult) { r.Err = &engine.Error{Reason: engine.ReasonNotFound} }), false},
		{"another message", base, with(func(r *workspace.BlockResult) { r.Message = "n" }), false},
		{"another status", base, with(func(r *workspace.BlockResult) { r.Status = engine.StatusApplied; r.Err = nil }), false},
		{"applied, the same", with(func(r *workspace.BlockResult) { r.Status, r.Err = engine.StatusApplied, nil }), with(func(r *workspace.BlockResult) { r.Status, r.Err = engine.StatusApplied, nil }), true},
		{"an error against none", with(func(r *workspace.BlockResult) { r.Err = errors.New("x") }), with(func(r *workspace.BlockResult) { r.Err = nil }), false},
		{"errors that read the same", with(func(r *workspace.BlockResult) { r.Err = errors.New("x") }), with(func(r *workspace.BlockResult) { r.Err = errors.New("x") }), true},
		{"unfinished or not, reading the same", with(func(r *workspace.BlockResult) { r.Err = unfinished }), with(func(r *workspace.BlockResult) { r.Err = errors.New(unfinished.Error()) }), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameFate(&tt.a, &tt.b); got != tt.want {
				t.Errorf("sameFate = %v, want %v", got, tt.want)
			}
			if got := sameFate(&tt.b, &tt.a); got != tt.want {
				t.Errorf("sameFate, the other way = %v, want %v", got, tt.want)
			}
		})
	}
}
