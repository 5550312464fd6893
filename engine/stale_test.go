package engine_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestStaleNeedsHistory resolves the stale golden cases without their
// versions: what Resolve did before it consulted history, each case
// either merged the block into the changed lines or refused it for
// another reason. With the versions, each is refused as stale.
func TestStaleNeedsHistory(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/engine/stale/*.txtar")
	stale := 0
	for _, path := range paths {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		c := map[string]string{}
		for _, f := range ar.Files {
			c[f.Name] = string(f.Data)
		}
		if !strings.Contains(string(ar.Comment), "reason: stale") {
			continue
		}
		stale++
		e := engine.Edit{Old: c["old"], New: c["new"]}
		m, err := engine.Resolve(c["file"], e, engine.Options{})
		if err, ok := err.(*engine.Error); ok && err.Reason == engine.ReasonStale {
			t.Errorf("%s: stale without history", path)
		}
		if m != nil {
			t.Logf("%s: without history, merged at lines %d-%d (%s %.2f)", path, m.StartLine, m.EndLine, m.Strategy, m.Score)
		}
		_, err = engine.Resolve(c["file"], e, engine.Options{History: []engine.Version{{Name: "v", Text: c["version.1"]}}})
		if err, ok := err.(*engine.Error); !ok || err.Reason != engine.ReasonStale {
			t.Errorf("%s: with history: %v", path, err)
		}
	}
	if stale < 3 {
		t.Fatalf("%d stale cases", stale)
	}
}

// TestStaleTable covers what the golden cases leave out: the version
// order, a search the version holds twice, white space, a deleted region,
// and a fuzzy match elsewhere.
func TestStaleTable(t *testing.T) {
	v := func(texts ...string) []engine.Version {
		var h []engine.Version
		for i, s := range texts {
			h = append(h, engine.Version{Name: "v" + string(rune('1'+i)), Text: s})
		}
		return h
	}
	base := "func f() {\n\ta := 1\n\tb := 2\n\tc := 3\n\treturn\n}\n"
	changed := strings.Replace(base, "b := 2", "b := 20", 1)
	cases := []struct {
		name, text, old, new string
		history              []engine.Version
		stale                bool
		in                   string // substring of the message
	}{
		{"second version", changed, "\tb := 2\n\tc := 3\n", "\tb := 2\n\tc := 4\n", v("unrelated\n", base), true, "quotes v2"},
		{"verbatim twice in version", "x\ny\n", "a\n", "b\n", v("a\nq\na\n"), false, ""},
		{"white space aside", changed, "b := 2\nc := 3\n", "b := 3\nc := 3\n", v(base), true, "lines 3-4"},
		{"deleted since", "func f() {\n\treturn\n}\n", "\ta := 1\n\tb := 2\n\tc := 3\n", "\ta := 1\n\tb := 5\n\tc := 3\n", v(base), true, "deleted since"},
		{"crlf version", changed, "\tb := 2\n\tc := 3\n", "\tb := 2\n\tc := 4\n", v(strings.ReplaceAll(base, "\n", "\r\n")), true, "stale"},
		{"no history", changed, "\tb := 2\n\tc := 3\n", "\tb := 2\n\tc := 4\n", nil, false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := engine.Resolve(c.text, engine.Edit{Old: c.old, New: c.new}, engine.Options{History: c.history})
			e, _ := err.(*engine.Error)
			got := e != nil && e.Reason == engine.ReasonStale
			if got != c.stale {
				t.Fatalf("stale = %v, want %v: %v", got, c.stale, err)
			}
			if c.stale && !strings.Contains(err.Error(), c.in) {
				t.Fatalf("message lacks %q:\n%v", c.in, err)
			}
		})
	}
}

// BenchmarkStaleLookup is the cost of the history on a miss: a fuzzy
// block (a typo in a function's copy) resolved against a 3,000-line file
// without history, and with 20 earlier versions (each the file with
// another function changed), none of which holds the search. Exact blocks
// never consult the history, so they cost the same with or without it.
func BenchmarkStaleLookup(b *testing.B) {
	f := generateGo(3000, 7)
	c := fuzzyBlockAt(f, f.funcs[len(f.funcs)/2])
	var history []engine.Version
	for i := range 20 {
		fn := f.funcs[i]
		lines := strings.Split(f.text, "\n")
		lines[fn.start] += " // changed"
		history = append(history, engine.Version{Name: fmt.Sprint("version ", i), Text: strings.Join(lines, "\n")})
	}
	for _, bc := range []struct {
		name    string
		history []engine.Version
	}{{"none", nil}, {"20-versions", history}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := engine.Resolve(c.text, c.edit, engine.Options{History: bc.history}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
