package engine

import (
	"testing"

	"github.com/graft-editor/graft/engine/internal/loose"
)

func TestCarry(t *testing.T) {
	tests := []struct {
		name       string
		b, f, t    string
		want       string
		conflicted bool
	}{
		{name: "a rename keeps aligned columns",
			b: "_C_int = C.int", f: "_C_int             = C.int", t: "_C_int_2 = C.int",
			want: "_C_int_2             = C.int"},
		{name: "trailing blanks stay",
			b: "x := f(a)", f: "x := f(a)  ", t: "x := f(b)", want: "x := f(b)  "},
		{name: "an operator changes inside the file's spacing",
			b: "meta.hiddenLockfile||!meta.loadedFromDisk", f: "meta.hiddenLockfile || !meta.loadedFromDisk",
			t: "meta.hiddenLockfile&&!meta.loadedFromDisk", want: "meta.hiddenLockfile && !meta.loadedFromDisk"},
		{name: "an inner tab stays",
			b: "case 1: return x", f: "case 1:\treturn x", t: "case 1: return y", want: "case 1:\treturn y"},
		{name: "an argument added keeps the file's spacing",
			b: "foo(a)", f: "foo( a )", t: "foo(a, b)", want: "foo( a, b )"},
		{name: "an argument deleted",
			b: "foo(a, b)", f: "foo(a,  b)", t: "foo(a)", want: "foo(a)"},
		{name: "a comment appended to a line with trailing blanks",
			b: "x := 1", f: "x := 1  ", t: "x := 1 // one", want: "x := 1 // one  "},
		{name: "an operator shortened inside the file's spacing",
			b: "if absx>=Ln2X56 {", f: "if absx >= Ln2X56 {", t: "if absx>Ln2X56 {", want: "if absx > Ln2X56 {"},
		{name: "an operator lengthened inside the file's spacing",
			b: "x[i]<byte(max)", f: "x[i] < byte(max)", t: "x[i]<=byte(max)", want: "x[i] <= byte(max)"},
		{name: "two names renamed side by side keep the columns between them",
			b: "element element", f: "element      element", t: "newElement newElement", want: "newElement      newElement"},
		{name: "spacing the model really changed",
			b: "a+b", f: "a+b", t: "a + b", want: "a + b"},
		{name: "a change apart from a stale name merges",
			b: "var hashs Hash = 1", f: "var hash Hash = 1", t: "var hashs Hash = 2", want: "var hash Hash = 2"},
		{name: "a change on a stale name conflicts",
			b: "var hashs Hash", f: "var hash Hash", t: "var hashsTmp Hash", conflicted: true},
		{name: "a change away from a stale name merges",
			b: "debugs(x)", f: "debug(x)", t: "debugs(x, y)", conflicted: false, want: "debug(x, y)"},
		{name: "a rename beside a stale name merges",
			b: "Greate   CCMask = 1 << 1", f: "Greater   CCMask = 1 << 1", t: "Greate   CCMaskVal = 1 << 1", want: "Greater   CCMaskVal = 1 << 1"},
		{name: "the model fixing its own slip agrees with the file",
			b: "fmt.Pritnln(x)", f: "fmt.Println(x)", t: "fmt.Println(y)", want: "fmt.Println(y)"},
		{name: "curly quotes in the copy are the file's straight ones",
			b: "say(\u201chi\u201d, n)", f: "say(\"hi\", n)", t: "say(\u201chi\u201d, m)", want: "say(\"hi\", m)"},
		{name: "a whole line rewritten over a whitespace-only difference",
			b: "return  nil", f: "return nil", t: "panic(err)", want: "panic(err)"},
		{name: "a line deleted before a line that starts as it does keeps the file's indentation",
			b: "\t# one\n\t# two\n\n\t#", f: "# one\n# two\n\n#", t: "\t# one\n\n\t#", want: "# one\n\n#"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := carry(tc.b, tc.f, tc.t)
			if tc.conflicted {
				if ok {
					t.Fatalf("carry(%q, %q, %q) = %q, want a conflict", tc.b, tc.f, tc.t, got)
				}
				return
			}
			if !ok || got != tc.want {
				t.Fatalf("carry(%q, %q, %q) = %q, %v, want %q", tc.b, tc.f, tc.t, got, ok, tc.want)
			}
		})
	}
}

// FuzzCarry checks carry's invariants: a change carried onto a file line
// equal to the model's copy is the model's new line (unicode punctuation
// aside); no change leaves the file's line as it is; and whatever the
// three lines, carry does not panic.
func FuzzCarry(f *testing.F) {
	f.Add("x := f(a)", "x  :=  f(a)  ", "x := f(b)")
	f.Add("a||!b", "a || !b", "a&&!b")
	f.Add("var hashs Hash", "var hash Hash", "var hashsTmp Hash")
	f.Add("foo(a, b)", "foo(a,\tb)", "foo(a)")
	f.Add("say(\u201chi\u201d)", "say(\"hi\")", "say(\u201cho\u201d)")
	f.Fuzz(func(t *testing.T, b, file, new string) {
		// Unicode punctuation the model kept stays the file's (here the
		// same line's), so the new line comes back as it is but for it.
		if got, ok := carry(b, b, new); !ok || got != new && loose.View(got) != loose.View(new) {
			t.Fatalf("carry(%q, %q, %q) = %q, %v; want the new line", b, b, new, got, ok)
		}
		if got, ok := carry(b, file, b); !ok || got != file {
			t.Fatalf("carry(%q, %q, %q) = %q, %v; want the file's line", b, file, b, got, ok)
		}
		carry(b, file, new)
	})
}

// TestSideOn checks which of two twin lines a search line sides with, on
// each difference between them, the search line written as the chosen
// twin's (indented otherwise or not), as the other's, or as neither.
func TestSideOn(t *testing.T) {
	tests := []struct {
		name    string
		s, a, b string
		want    sides
	}{
		{"the chosen line", "s.WriteAddr(x)", "s.WriteAddr(x)", "s.WriteWeakAddr(x)", sides{chosen: 1}},
		{"the chosen line, indented otherwise", "    s.WriteAddr(x)  ", "\ts.WriteAddr(x)", "\ts.WriteWeakAddr(x)", sides{chosen: 1}},
		{"the other line", "s.WriteWeakAddr(x)", "s.WriteAddr(x)", "s.WriteWeakAddr(x)", sides{other: 1}},
		{"a third name", "s.WriteSeekAddr(x)", "s.WriteAddr(x)", "s.WriteWeakAddr(x)", sides{neither: 1}},
		{"two differences, one each way", "f(a, y)", "f(a, b)", "f(x, y)", sides{chosen: 1, other: 1}},
		{"the chosen line, spaced otherwise inside", "f(a,b)", "f(a, b)", "f(x, y)", sides{chosen: 2}},
		{"twins alike", "f(q)", "f(a)", "f(a)", sides{}},
	}
	for _, tt := range tests {
		if got := sideOn(tt.s, tt.a, tt.b); got != tt.want {
			t.Errorf("%s: sideOn(%q, %q, %q) = %+v, want %+v", tt.name, tt.s, tt.a, tt.b, got, tt.want)
		}
	}
}
