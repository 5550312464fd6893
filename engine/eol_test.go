package engine

import (
	"strings"
	"testing"
)

// In a file that mixes "\r\n" and "\n" line endings, an edited line keeps
// its own ending, and a line the change adds ends as the line before it.
func TestMixedLineEndings(t *testing.T) {
	const file = "alpha\r\nbeta\ngamma\r\n    delta\nomega\r\n"
	cases := []struct {
		name string
		edit Edit
		want string
	}{
		{"an LF line rewritten stays LF",
			Edit{Old: "beta\n", New: "BETA\n"},
			"alpha\r\nBETA\ngamma\r\n    delta\nomega\r\n"},
		{"a CRLF line rewritten stays CRLF, an added line ends as it",
			Edit{Old: "gamma\n", New: "GAMMA\nadded\n"},
			"alpha\r\nbeta\nGAMMA\r\nadded\r\n    delta\nomega\r\n"},
		{"lines of both kinds rewritten, one added after the LF one",
			Edit{Old: "beta\ngamma\n", New: "BETA\nGAMMA\n"},
			"alpha\r\nBETA\nGAMMA\r\n    delta\nomega\r\n"},
		{"a line added after an LF line, the CRLF one kept",
			Edit{Old: "beta\ngamma\n", New: "beta\nbeta2\ngamma\n"},
			"alpha\r\nbeta\nbeta2\ngamma\r\n    delta\nomega\r\n"},
		{"found approximately, an LF line rewritten stays LF",
			Edit{Old: "gamma  \n    delta\n", New: "gamma  \n    DELTA\nadded\n"},
			"alpha\r\nbeta\ngamma\r\n    DELTA\nadded\nomega\r\n"},
		{"found ignoring indentation",
			Edit{Old: "delta\nomega\n", New: "DELTA\nomega\n"},
			"alpha\r\nbeta\ngamma\r\n    DELTA\nomega\r\n"},
		{"inserted after an LF line",
			Edit{Op: OpInsert, Line: 2, New: "inserted\n"},
			"alpha\r\nbeta\ninserted\ngamma\r\n    delta\nomega\r\n"},
		{"every occurrence",
			Edit{Old: "a\n", New: "A\n", ReplaceAll: true},
			"alphA\r\nbetA\ngammA\r\n    deltA\nomegA\r\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := NewDocument(file)
			m, err := doc.Resolve(c.edit, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Apply(file); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// A file whose lines all end alike gives every new line that ending.
func TestUniformLineEndings(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n"} {
		file := strings.ReplaceAll("one\ntwo\nthree\n", "\n", eol)
		m, err := Resolve(file, Edit{Old: "two\n", New: "TWO\nmore\n"}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := strings.ReplaceAll("one\nTWO\nmore\nthree\n", "\n", eol)
		if got := m.Apply(file); got != want {
			t.Errorf("%q: got %q, want %q", eol, got, want)
		}
	}
}
