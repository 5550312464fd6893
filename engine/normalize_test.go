package engine

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"github.com/graft-editor/graft/engine/internal/loose"
	"github.com/graft-editor/graft/engine/internal/texttest"
)

func TestIsElision(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"...", true},
		{"    …", true},
		{"// ... existing code ...", true},
		{"  # ... rest of the function ...", true},
		{"/* ... */", true},
		{"<!-- ... unchanged ... -->", true},
		{"-- ...", true},
		{"// ...existing code", true},
		{"..", false},
		{"// ........", true},
		{"//.....................................................................", false},
		{"x := f(...)", false},
		{"fmt.Println(args...)", false},
		{"// see the docs...", false},
		{"return ...", false},
		{"_ Format = (1 << iota) / 4 // Sequence of 0, 0, 1, 2, 4, 8, etc...", false},
		{"... rest of the function ...", true},
		{"...existing code...", true},
		{"          ...existingData,", false},
		{"  ...rest", false},
		{"    ...otherProps}", false},
		{"...previousState, count: n", false},
		{"...rest of the file...", true},
		{"        ...(data.pet_restrictions && { pet_restrictions: data.pet_restrictions }),", false},
		{"// ... other methods ...", true},
		{"# ...the restrictions stay as they are...", true},
		{"...restrictions apply...", false},
		{"", false},
	} {
		if got := isElision(tc.line); got != tc.want {
			t.Errorf("isElision(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestLevel(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"\tx = 1", "\tx = 1", levelExact},
		{"\tx = 1  ", "\tx = 1", levelTrailing},
		{"    x = 1", "\tx = 1", levelIndent},
		{"x  =  1", "x = 1", levelInnerWS},
		{"f( a,b )", "f(a, b)", levelInnerWS},
		{"s = ‘a’", "s = 'a'", levelUnicode},
		{"x = 2", "x = 1", levelSimilar},
	} {
		if got := level(tc.a, tc.b); got != tc.want {
			t.Errorf("level(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestStripLineNumbers(t *testing.T) {
	for _, tc := range []struct {
		name           string
		old, new       string
		wantOld        string
		wantNew        string
		wantFirst      int
		wantRecognized bool
	}{
		{"pipe", "  41 | a := 1\n  42 |     b()\n  43 |\n", "  41 | a := 2\n  42 |     b()\n", "a := 1\n    b()\n\n", "a := 2\n    b()\n", 41, true},
		{"cat -n", "     7\tfoo()\n     8\tbar()\n", "     7\tfoo()\n\tbaz()\n", "foo()\nbar()\n", "foo()\n\tbaz()\n", 7, true},
		{"colon", "10: x\n11: y", "10: x\n11: z", "x\ny", "x\nz", 10, true},
		{"arrow", "   3→if x {\n   4→}\n", "   3→if y {\n   4→}\n", "if x {\n}\n", "if y {\n}\n", 3, true},
		{"decreasing numbers are code", "3: a\n2: b\n", "", "", "", 0, false},
		{"one unnumbered line is code", "1: a\nb\n", "", "", "", 0, false},
		{"plain code", "x := 1\n", "x := 2\n", "", "", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, n, first, ok := stripLineNumbers(tc.old, tc.new)
			if ok != tc.wantRecognized {
				t.Fatalf("recognized = %v, want %v", ok, tc.wantRecognized)
			}
			if !ok {
				return
			}
			if o != tc.wantOld || n != tc.wantNew || first != tc.wantFirst {
				t.Errorf("got (%q, %q, %d), want (%q, %q, %d)", o, n, first, tc.wantOld, tc.wantNew, tc.wantFirst)
			}
		})
	}
}

func TestUnescape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`a\nb`, "a\nb"},
		{`\tx`, "\tx"},
		{`say(\"hi\")`, `say("hi")`},
		{`a\\nb`, `a\nb`},
		{`line\r\nnext`, "line\nnext"},
		{`keep \d`, `keep \d`},
	} {
		if got := unescape(tc.in); got != tc.want {
			t.Errorf("unescape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestIsTypo(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"if err != nill {", "if err != nil {", true},
		{"recieve(msg)", "receive(msg)", true},
		{"\tx  = compute(a)", "x = compute(a)", true},
		{"conection.Close()", "connection.Close()", true},
		{"timeout := 30", "timeout := 60", false},
		{"x := a", "x := b", false},
		{"f.Read(b)", "f.Write(b)", false},
		{"return true", "return false", false},
		{`"this should be fixed"`, `"this should be failed"`, false},
		{"f.Read(b)", "f.ReadAt(b)", false},
		{"a(b, c)", "a(b c)", false},
	} {
		if got := isTypo(tc.a, tc.b); got != tc.want {
			t.Errorf("isTypo(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestEachTokenPair checks how two lines are read token by token: words
// and single other characters, white space only between them, and every
// pair visited only when both lines have as many tokens.
func TestEachTokenPair(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		pairs string // the pairs visited, "x=y" each
		same  bool
	}{
		{"x := f(a_1)", "x:=f( a_1 )", "x=x :=: === f=f (=( a_1=a_1 )=)", true},
		{"\tif é {", "if e {", "if=if é=e {={", true},
		{"a b", "a b c", "a=a b=b", false},
		{"a b c", "a b", "a=a b=b", false},
		{"", "  \t", "", true},
		{"stop here", "stop there", "stop=stop here=there", false}, // f refuses the second pair
	} {
		var pairs []string
		same := eachTokenPair(tc.a, tc.b, func(x, y string) bool {
			pairs = append(pairs, x+"="+y)
			return x != "here"
		})
		if got := strings.Join(pairs, " "); got != tc.pairs || same != tc.same {
			t.Errorf("eachTokenPair(%q, %q) visited %q and reported %v, want %q and %v", tc.a, tc.b, got, same, tc.pairs, tc.same)
		}
	}
}

func TestReindenter(t *testing.T) {
	// The model wrote four spaces where the file has a tab, and its block
	// sits one level shallower than the file's.
	pairs := [][2]string{
		{"func f() {", "\tfunc f() {"},
		{"    x := 1", "\t\tx := 1"},
	}
	re := newReindenter(pairs, []string{"\tfunc f() {", "\t\tx := 1"}, nil)
	for _, tc := range []struct{ ind, refModel, refFile, want string }{
		{"    ", "    ", "\t\t", "\t\t"},
		{"        ", "    ", "\t\t", "\t\t\t"},
		{"", "    ", "\t\t", "\t"},
		{"      ", "    ", "\t\t", "\t\t  "},
	} {
		if got := re.indent(tc.ind, tc.refModel, tc.refFile); got != tc.want {
			t.Errorf("indent(%q) = %q, want %q", tc.ind, got, tc.want)
		}
	}
}

// TestEqualNoSpace checks equalNoSpace against building both strings
// without white space, on random strings of white space, ASCII, unicode
// punctuation and invalid bytes.
func TestEqualNoSpace(t *testing.T) {
	noSpace := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return -1
			}
			return r
		}, s)
	}
	pieces := []string{" ", "\t", "\u00a0", "\u2003", "a", "b", "\u201c", "\xff", "\ufffd", "\xe2\x80"}
	rng := rand.New(rand.NewPCG(3, 4))
	random := func() string { return texttest.Pieces(rng, pieces, rng.IntN(6)) }
	for range 20000 {
		a, b := random(), random()
		if got, want := equalNoSpace(a, b), noSpace(a) == noSpace(b); got != want {
			t.Fatalf("equalNoSpace(%q, %q) = %v, want %v", a, b, got, want)
		}
	}
}

// TestNewSlinesLooseViews checks the loose views newSlines writes into
// one string, lines of ASCII and lines beyond it in turn (white space and
// punctuation that fold, after ASCII or before it), against loose.View;
// and loose.View against loose.Map, whose view looseHits builds only where
// loose.View finds the search.
func TestNewSlinesLooseViews(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{" ", "\t", "a", "{", "\u00a0", "\u201c", "é", "\u2026", "\u3000", "x y", "\xff", "\xe2\x80"}
	for range 500 {
		lines := make([]string, r.IntN(6))
		for i := range lines {
			lines[i] = texttest.Pieces(r, pieces, r.IntN(8))
		}
		if text := strings.Join(lines, "\n"); loose.View(text) != func() string { v, _ := loose.Map(text); return v }() {
			t.Fatalf("loose.View(%q) is not loose.Map's view", text)
		}
		for i, l := range newSlines(lines) {
			want := ""
			if l.n > 0 {
				want = loose.View(lines[i])
			}
			if l.loose != want {
				t.Fatalf("line %q of %q: loose view %q, want %q", lines[i], lines, l.loose, want)
			}
			if k, n, sig := loose.Key(lines[i]); l.key != k || l.n != n || l.sig != sig {
				t.Fatalf("line %q: key, length and signature %x %d %x, want loose.Key's %x %d %x", lines[i], l.key, l.n, l.sig, k, n, sig)
			}
		}
	}
}
