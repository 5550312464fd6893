package engine

import "testing"

// TestEditEqual checks that edits that differ in any field are told apart,
// their Scope line by line, and equal ones are not.
func TestEditEqual(t *testing.T) {
	base := func() Edit {
		return Edit{Path: "a.go", Old: "x\n", New: "y\n", Line: 3, Scope: []string{"func f() {"}, Dialect: "search-replace", Source: Span{2, 6}}
	}
	for _, tc := range []struct {
		name   string
		change func(e *Edit)
		equal  bool
	}{
		{"the same", func(e *Edit) {}, true},
		{"an equal scope of its own", func(e *Edit) { e.Scope = []string{"func f() {"} }, true},
		{"path", func(e *Edit) { e.Path = "b.go" }, false},
		{"op", func(e *Edit) { e.Op = OpInsert }, false},
		{"old", func(e *Edit) { e.Old = "z\n" }, false},
		{"new", func(e *Edit) { e.New = "z\n" }, false},
		{"line", func(e *Edit) { e.Line = 4 }, false},
		{"replace all", func(e *Edit) { e.ReplaceAll = true }, false},
		{"new path", func(e *Edit) { e.NewPath = "c.go" }, false},
		{"scope", func(e *Edit) { e.Scope = []string{"func g() {"} }, false},
		{"no scope", func(e *Edit) { e.Scope = nil }, false},
		{"end of file", func(e *Edit) { e.EndOfFile = true }, false},
		{"dialect", func(e *Edit) { e.Dialect = "unified-diff" }, false},
		{"source", func(e *Edit) { e.Source.EndLine++ }, false},
	} {
		a, b := base(), base()
		tc.change(&b)
		if got := a.Equal(b); got != tc.equal {
			t.Errorf("%s: Equal = %v, want %v", tc.name, got, tc.equal)
		}
	}
}
