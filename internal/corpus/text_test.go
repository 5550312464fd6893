package corpus

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func TestFormRender(t *testing.T) {
	lines := []string{"a", "", "b"}
	tests := []struct {
		form form
		want string
	}{
		{form{}, "a\n\nb\n"},
		{form{crlf: true}, "a\r\n\r\nb\r\n"},
		{form{bom: true}, "\ufeffa\n\nb\n"},
		{form{noFinalNL: true}, "a\n\nb"},
		{form{crlf: true, bom: true, noFinalNL: true}, "\ufeffa\r\n\r\nb"},
	}
	for _, tt := range tests {
		if got := tt.form.render(lines); got != tt.want {
			t.Errorf("%+v: render = %q, want %q", tt.form, got, tt.want)
		}
	}
}

func TestNumberLines(t *testing.T) {
	lines := []string{"\tx := 1", ""}
	tests := []struct {
		style int
		want  []string
	}{
		{0, []string{"  42 | \tx := 1", "  43 |"}},
		{1, []string{"    42\t\tx := 1", "    43\t"}},
		{2, []string{"42: \tx := 1", "43:"}},
	}
	for _, tt := range tests {
		got := numberLines(lines, 42, tt.style)
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("style %d: %q, want %q", tt.style, got, tt.want)
		}
	}
}

func TestOverEscape(t *testing.T) {
	in := "if s == \"a\\n\" {\n\treturn\n}\n"
	want := `if s == \"a\\n\" {\n\treturn\n}\n`
	if got := overEscape(in); got != want {
		t.Errorf("overEscape(%q) = %q, want %q", in, got, want)
	}
}

func TestScan(t *testing.T) {
	goLang, shell := langNamed(t, "go"), langNamed(t, "shell")
	tests := []struct {
		lang *lang
		line string
		want []string // the tokens' text
	}{
		{goLang, `	n := len("a // b") + 42 // count`, []string{"n", "len", `"a // b"`, "42"}},
		{goLang, "x := `raw \\` + y", []string{"x", "`raw \\`", "y"}},
		{goLang, `s := "unterminated`, []string{"s"}},
		{shell, `echo "$x" # note`, []string{"echo", `"$x"`}},
	}
	for _, tt := range tests {
		var got []string
		for _, tok := range scan(tt.lang, tt.line) {
			got = append(got, tt.line[tok.start:tok.end])
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("scan(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestReplaceWord(t *testing.T) {
	tests := []struct {
		s, word, with, want string
		count               int
	}{
		{"buf := bufio.NewReader(buf)", "buf", "b", "b := bufio.NewReader(b)", 2},
		{"x.buf_len + buf", "buf", "b", "x.buf_len + b", 1},
		{"nothing here", "buf", "b", "nothing here", 0},
	}
	for _, tt := range tests {
		if got := replaceWord(tt.s, tt.word, tt.with); got != tt.want {
			t.Errorf("replaceWord(%q, %q) = %q, want %q", tt.s, tt.word, got, tt.want)
		}
		if got := countWord(tt.s, tt.word); got != tt.count {
			t.Errorf("countWord(%q, %q) = %d, want %d", tt.s, tt.word, got, tt.count)
		}
	}
}

func TestTypo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	line := "\treturn fmt.Errorf(\"reading %s: %w\", name, err)"
	for range 50 {
		got := typo(rng, line)
		if got == line || len(got) < len(line)-1 || len(got) > len(line) {
			t.Fatalf("typo(%q) = %q: want one letter swapped or dropped", line, got)
		}
		if similarity(got, line) < 0.9 {
			t.Errorf("typo(%q) = %q: too far from the line", line, got)
		}
	}
	if words := typoWords("\t}, x, y := 1, 2"); len(words) != 0 {
		t.Errorf("typoWords found %d words in a line without any", len(words))
	}
}

func TestSimilarity(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"abc", "abc", 1},
		{"abcd", "abce", 0.75},
		{"", "ab", 0},
		{"kitten", "sitting", 1 - 3.0/7},
	}
	for _, tt := range tests {
		if got := similarity(tt.a, tt.b); got != tt.want {
			t.Errorf("similarity(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestInsertionIndent(t *testing.T) {
	goSource := &source{lang: langNamed(t, "go"), unit: "\t"}
	tests := []struct {
		region []string
		at     int
		want   string // the indentation, or "-" for no place
	}{
		{[]string{"func f() {", "\tx := 1", "}"}, 1, "\t"},
		{[]string{"\tif ok {", "\t\treturn", "\t}"}, 1, "\t\t"},
		{[]string{"\tx := g(a,", "\t\tb)"}, 1, "-"},              // inside a call
		{[]string{"const (", "\tA = 1", "\tB = 2", ")"}, 2, "-"}, // a declaration block
		{[]string{"type T struct {", "\tA int", "}"}, 1, "-"},    // a type
		{[]string{"\t// one", "\t// two"}, 1, "-"},               // a comment
	}
	for _, tt := range tests {
		base, _, ok := insertionIndent(goSource, tt.region, tt.at)
		if !ok {
			base = "-"
		}
		if base != tt.want {
			t.Errorf("insertionIndent(%q, %d) = %q, want %q", tt.region, tt.at, base, tt.want)
		}
	}
}

// langNamed returns the catalog's language of that name.
func langNamed(t *testing.T, name string) *lang {
	t.Helper()
	langs := languages()
	for i := range langs {
		if langs[i].name == name {
			return &langs[i]
		}
	}
	t.Fatalf("no language %q", name)
	return nil
}
