package lsp

import (
	"testing"

	"github.com/graft-editor/graft/engine/dialect"
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
