package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine/internal/loose"
	"github.com/graft-editor/graft/engine/internal/texttest"
)

// TestDocumentApply checks that the Document an applied match leads to,
// which carries over what was computed for the lines the match left
// alone, is the Document prepared from scratch for the new text.
func TestDocumentApply(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		changes []Change
	}{
		{"a line changed inside", "a\nbb\nc\n", []Change{{3, 4, "X"}}},
		{"a line inserted", "a\nb\nc\n", []Change{{2, 2, "new\n"}}},
		{"lines deleted", "a\nb\nc\nd\n", []Change{{2, 6, ""}}},
		{"a line ending removed", "a\nb\nc\n", []Change{{1, 2, ""}}},
		{"a line ending added", "ab\nc\n", []Change{{1, 1, "\n"}}},
		{"appended to a text without a final newline", "a\nb", []Change{{3, 3, "\nc"}}},
		{"the final newline removed", "a\nb\n", []Change{{3, 4, ""}}},
		{"the final newline added", "a\nb", []Change{{3, 3, "\n"}}},
		{"everything deleted", "a\nb\n", []Change{{0, 4, ""}}},
		{"an empty text filled", "", []Change{{0, 0, "a\nb\n"}}},
		{"after a byte order mark", bom + "a\nb\n", []Change{{5, 6, "X"}}},
		{"a carriage return brought in", "a\nb\n", []Change{{1, 2, "\r\n"}}},
		{"in a CRLF text", "a\r\nb\r\nc\r\n", []Change{{3, 4, "X"}}},
		{"several changes", "a\nb\nc\nd\ne\n", []Change{{0, 1, "A"}, {6, 8, "C\nD\nE\n"}}},
		{"blank lines", "\n\n\n", []Change{{1, 1, "x"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkApply(t, tc.text, &Match{Changes: tc.changes})
		})
	}
}

// TestDocumentEditedSplitsTheChange checks that an edit splits again only
// the lines it touches, whatever the text's line endings, so that the
// index of every other line is carried over: a text with "\r\n" endings
// is not prepared again from scratch for each edit.
func TestDocumentEditedSplitsTheChange(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		change  Change
		a, b, k int
	}{
		// Lines [a, b) are the lines from the change's first byte to the
		// one after its last, which may start the line after it.
		{"LF", "head\nb\nc\nd\n", Change{5, 6, "X\nY"}, 1, 2, 2},
		{"CRLF", "head\r\nb\r\nc\r\nd\r\n", Change{6, 7, "X\r\nY"}, 1, 2, 2},
		{"mixed", "head\r\nb\nc\r\nd\n", Change{6, 7, "X"}, 1, 2, 1},
		{"CRLF, the last line without one", "head\r\nb\r\nc", Change{9, 10, "C"}, 2, 3, 1},
		{"CRLF lines deleted", "head\r\nb\r\nc\r\nd\r\n", Change{6, 12, ""}, 1, 4, 1},
		{"the first CRLF brought in", "head\nb\nc\n", Change{6, 7, "\r\n"}, 1, 3, 2},
		{"the last CRLF taken out", "head\nb\r\nc\n", Change{6, 8, "\n"}, 1, 3, 2},
		{"a carriage return before a kept line feed", "head\nbc\nd\n", Change{7, 7, "\r"}, 1, 2, 1},
		{"the byte order mark's bytes", bom + "head\r\nb\r\n", Change{0, 3, ""}, 0, 2, 2},
		{"a byte order mark written", "head\nb\n", Change{0, 0, bom}, 0, 2, 2},
		{"the first bytes of a text without one", "head\nb\nc\n", Change{0, 1, "H"}, 0, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := newDocument(tc.text)
			m := &Match{Changes: []Change{tc.change}}
			_, a, b, k := d.edited(m.Apply(tc.text), tc.change.Start, tc.change.End)
			if a != tc.a || b != tc.b || k != tc.k {
				t.Errorf("lines [%d, %d) became %d lines at %d, want [%d, %d) and %d", a, b, k, a, tc.a, tc.b, tc.k)
			}
			checkApply(t, tc.text, m)
		})
	}
}

// TestDocumentApplyRandom checks Document.Apply on random changes to
// random texts of a few lines, blank and CRLF lines among them.
func TestDocumentApplyRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "b c", "\t}", "", " ", "\n", "\n", "\r\n", "“x”", bom}
	for k := range 3000 {
		text := texttest.Pieces(rng, pieces, rng.IntN(12))
		lo := rng.IntN(len(text) + 1)
		hi := lo + rng.IntN(len(text)-lo+1)
		m := &Match{Changes: []Change{{lo, hi, texttest.Pieces(rng, pieces, rng.IntN(4))}}}
		t.Run(fmt.Sprint(k), func(t *testing.T) { checkApply(t, text, m) })
	}
}

func checkApply(t *testing.T, text string, m *Match) {
	t.Helper()
	doc := NewDocument(text)
	if ix := doc.index(); ix.Lines() > 0 {
		ix.View(0) // a loose view computed before is carried over too
		for i := 0; i < ix.Lines(); i += 2 {
			ix.Key(i) // and so are the keys of the lines hashed before
		}
		for i := 1; i < ix.Lines(); i += 4 {
			ix.Measure(i) // and the measures of lines only measured
		}
	}
	got := doc.Apply(m)
	want := NewDocument(m.Apply(text))
	want.index()
	// The new text's lines are those of a new document, but for how the
	// edit moved them from the text as it was.
	if len(got.d.moved) != 1 {
		t.Fatalf("%q with %+v: the document records %d edits that moved its lines, want 1", text, m.Changes, len(got.d.moved))
	}
	want.d.moved = got.d.moved
	if !reflect.DeepEqual(got.d, want.d) {
		t.Fatalf("%q with %+v: the document is\n%+v\nwant\n%+v", text, m.Changes, got.d, want.d)
	}
	if a, b := got.ix.AllKeys(), want.ix.AllKeys(); !reflect.DeepEqual(a, b) {
		t.Fatalf("%q with %+v: the keys are\n%x\nwant\n%x", text, m.Changes, a, b)
	}
	for i := range got.d.lineCount() {
		gn, gsig := got.ix.Measure(i)
		wn, wsig := want.ix.Measure(i)
		if gn != wn || gsig != wsig {
			t.Fatalf("%q with %+v: line %d is measured %d, %x, want %d, %x", text, m.Changes, i, gn, gsig, wn, wsig)
		}
		if a, b := got.ix.View(i), want.ix.View(i); a != b {
			t.Fatalf("%q with %+v: line %d reads %q loosely, want %q", text, m.Changes, i, a, b)
		}
	}
}

// TestTallyFromPostings checks that a tally taken from the lists of where
// each line is, as a Document serving several searches takes it, is the
// tally taken by reading the lines that may be the search's: the same
// counts, the same first places, the same votes. The lines differ in
// white space inside and at their ends, in unicode white space and
// punctuation, so that a line looked at only at its ends and never hashed
// would be missed.
func TestTallyFromPostings(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	lines := []string{"}", "\treturn err", "", "\tif err != nil {", "x := f(a)", "  x:=f(a)", "y := g(b)", "// ...", "z",
		"x := f(a) \t", "\u00a0x := f(a)", "x := f(a)\u2003", "s := \u201cx\u201d", "s := \"x\"", "// \u2026", "\u2014 z", "- z", "\xffz", "z\xff", "\u3000"}
	for k := range 300 {
		var text strings.Builder
		for range rng.IntN(300) {
			text.WriteString(lines[rng.IntN(len(lines))] + "\n")
		}
		var search []string
		for range 1 + rng.IntN(8) {
			search = append(search, lines[rng.IntN(len(lines))])
		}
		s := newSlines(search)
		ix := newIndex(newDocument(text.String()))
		want := newTally(ix, s)
		// The lines the tally compared with the search's lines rather
		// than hashed have the keys, lengths and signatures hashing gives.
		for i := range ix.Lines() {
			if !ix.Keyed(i) {
				continue
			}
			gotKey := ix.Key(i)
			gotN, gotSig := ix.Measure(i)
			if key, n, sig := loose.Key(ix.Line(i)); gotKey != key || gotN != n || gotSig != sig {
				t.Fatalf("case %d: line %d, %q, is keyed %x, %d, %x; want %x, %d, %x", k, i, ix.Line(i), gotKey, gotN, gotSig, key, n, sig)
			}
		}
		ix.buildPostings()
		got := newTally(ix, s)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: %q in %q: the tally from postings is\n%+v\nwant\n%+v", k, search, text.String(), got, want)
		}
	}
}

// TestDocumentResolvesInTurn checks that a Document resolving edits one
// after another, which reuses for each what it prepared for the ones
// before (its index, its postings, the patterns of search lines),
// answers each as a Document prepared for that edit alone does.
func TestDocumentResolvesInTurn(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	text := texttest.Code(400)
	lines := strings.SplitAfter(text, "\n")
	doc := NewDocument(text)
	for k := range 60 {
		i := rng.IntN(len(lines))
		j := min(len(lines), i+1+rng.IntN(8))
		old := strings.Join(lines[i:j], "")
		if k%2 == 1 { // shifted and mistyped
			old = strings.ReplaceAll(strings.Replace(old, "r", "R", 1), "\t", "   ")
		}
		e := Edit{Op: OpReplace, Old: old, New: "// changed\n" + old}
		m, err := doc.Resolve(e, Options{})
		wm, werr := NewDocument(text).Resolve(e, Options{})
		if !reflect.DeepEqual(m, wm) || fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Fatalf("edit %d: the Document gave\n%+v %v\nwant\n%+v %v", k, m, err, wm, werr)
		}
	}
	// The patterns of each edit's search lines are taken back for the
	// next: no more are kept than one edit of at most 8 lines needs in
	// its readings.
	if n := len(doc.ix.patterns.all); n > 3*8 {
		t.Errorf("the Document keeps %d patterns after %d edits", n, 60)
	}
}

// emptyAsNil returns d with its empty slices nil: a document made in the
// arrays of another has them empty where a new one may have none.
func emptyAsNil(d document) document {
	for _, p := range []*[]int{&d.start, &d.end, &d.lfStart} {
		if len(*p) == 0 {
			*p = nil
		}
	}
	return d
}

// TestDocumentRebased checks that a Document rebased after edits resolves
// as one prepared from scratch for its text: the lines the edits moved
// are counted as they are now, in the matches and in the refusals'
// candidates, and a block that quotes what an edit replaced is judged as
// any block is, not as the answer's own earlier text.
func TestDocumentRebased(t *testing.T) {
	var text strings.Builder
	for i := range 40 {
		fmt.Fprintf(&text, "line %d of the file\n", i)
	}
	doc := NewDocument(text.String())
	for _, e := range []Edit{
		{Old: "line 3 of the file\n", New: "one\ntwo\nthree\n"},
		{Old: "line 30 of the file\n", New: ""},
	} {
		m, err := doc.Resolve(e, Options{})
		if err != nil {
			t.Fatal(err)
		}
		doc = doc.Apply(m)
	}
	later := []Edit{
		{Old: "line 20 of the file\n", New: "twenty\n"},
		{Old: "line 2 of the file\none\n", New: "x\n"},
		{Old: "line 3 of the file\n", New: "y\n"},
		{Old: "of the file\nline 9 of the fil\n", New: "z\n"},
		{Old: "line 12 of the file\nline 13 of the fiel\nline 14 of the file\n", New: "w\n"},
	}
	for _, e := range later {
		got, gotErr := doc.Rebased().Resolve(e, Options{})
		want, wantErr := NewDocument(doc.Text()).Resolve(e, Options{})
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%q: rebased resolves to %+v, %v\nwant %+v, %v", e.Old, got, gotErr, want, wantErr)
		}
	}
	if a, b := doc.Rebased().Shown(5, 6); a != 5 || b != 6 {
		t.Errorf("rebased shows lines 5-6 as %d-%d", a, b)
	}
}
