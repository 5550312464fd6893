package corpus

import (
	"slices"
	"strings"
	"testing"
)

func TestLineEntries(t *testing.T) {
	old := []string{"a", "b", "c"}
	new := []string{"a", "B", "c"}
	es := lineEntries(old, new)
	o, n := sides(es)
	if !slices.Equal(o, old) || !slices.Equal(n, new) {
		t.Errorf("lineEntries: sides %q, %q, want %q, %q", o, n, old, new)
	}
	var ops []byte
	for _, e := range es {
		ops = append(ops, e.op)
	}
	if string(ops) != "=-+=" {
		t.Errorf("lineEntries: ops %q, want \"=-+=\"", ops)
	}
}

// TestRenamedInCopyCases checks that the edit of a trap-renamed-in-copy or
// rename-kept-slip case renames a name on the lines it changes, and that
// the copy of one line it keeps differs from the file's: by the rename's
// new name for the old in a trap, by a slip of another name otherwise.
func TestRenamedInCopyCases(t *testing.T) {
	g := newTestGenerator(t)
	for _, kind := range []string{"trap-renamed-in-copy", "rename-kept-slip"} {
		cases, err := g.Cases(kind, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			old, new, file, ok := quoted(t, c)
			if !ok {
				continue
			}
			if len(new) != len(old) {
				t.Errorf("%s: %d lines of Old, %d of New; want as many", c.Name, len(old), len(new))
				continue
			}
			renames := map[[2]string]bool{}
			var kept [][2]string // the pairs of words of the kept line the copy has wrong
			for i := range old {
				if pairs, _ := wordPairs(old[i], new[i]); len(pairs) > 0 {
					for _, p := range pairs {
						renames[p] = true
					}
					if fp, _ := wordPairs(old[i], file[i]); len(fp) > 0 {
						t.Errorf("%s: line %d: the edit changes a line the copy has wrong", c.Name, c.Line+i)
					}
					continue
				}
				if fp, ok := wordPairs(old[i], file[i]); !ok || len(fp) > 0 {
					if kept != nil || !ok {
						t.Errorf("%s: line %d: a second kept line the copy has wrong, or other words", c.Name, c.Line+i)
					}
					kept = fp
				}
			}
			if len(renames) != 1 || len(kept) == 0 {
				t.Errorf("%s: renames %v, kept line's differences %v; want one rename and one kept line wrong", c.Name, renames, kept)
				continue
			}
			var rename [2]string
			for r := range renames {
				rename = r
			}
			for _, p := range kept {
				// p[0] is the copy's word, p[1] the file's.
				if c.Trap && p != [2]string{rename[1], rename[0]} {
					t.Errorf("%s: the kept line has %q where the file has %q, want the rename %q to %q", c.Name, p[0], p[1], rename[0], rename[1])
				}
				if !c.Trap && (p[1] == rename[0] || p[0] == rename[1] || similarity(p[0], p[1]) < 0.5) {
					t.Errorf("%s: the kept line has %q where the file has %q, want a slip of a name the edit does not rename (%q to %q)", c.Name, p[0], p[1], rename[0], rename[1])
				}
			}
			if !c.Trap && strings.Count(c.Want, rename[1]) == 0 {
				t.Errorf("%s: Want lacks the new name %q", c.Name, rename[1])
			}
		}
	}
}
