package workspace

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/graft-editor/graft/internal/test/benchtext"
)

// span returns the change that replaces bytes start to end with text.
func span(start, end int, text string) Change {
	return Change{Start: start, End: end, Text: text}
}

// whole returns the change that replaces the whole text with text.
func whole(text string) Change { return Change{Text: text, Whole: true} }

func TestBufferChange(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		changes [][]Change // notifications, in order
		want    string
	}{
		{"insert a character", "abc\ndef\n",
			[][]Change{{span(5, 5, "X")}}, "abc\ndXef\n"},
		{"replace a line", "abc\ndef\nghi",
			[][]Change{{span(4, 7, "replaced")}}, "abc\nreplaced\nghi"},
		{"insert lines", "abc\ndef",
			[][]Change{{span(1, 1, "1\n2\n3")}, {span(5, 5, ">")}}, "a1\n2\n>3bc\ndef"},
		{"delete lines", "l0\nl1\nl2\nl3\n",
			[][]Change{{span(1, 10, "")}, {span(0, 0, ">")}}, ">l3\n"},
		{"delete a whole line with its break", "l0\nl1\nl2",
			[][]Change{{span(3, 6, "")}}, "l0\nl2"},
		{"append at the end of the text", "abc\n",
			[][]Change{{span(4, 4, "tail")}, {span(8, 8, "\n")}}, "abc\ntail\n"},
		{"replace the whole text", "old\ntext",
			[][]Change{{whole("new\r\ntext")}, {span(5, 5, "+")}}, "new\r\n+text"},
		{"several changes apply in order", "abc\ndef",
			[][]Change{{
				span(0, 0, "1\n"),  // 1 / abc / def
				span(2, 5, "ABC"),  // 1 / ABC / def
				span(9, 9, "\n4"),  // 1 / ABC / def / 4
				span(1, 3, ""),     // 1BC / def / 4
				whole("fresh"),     // fresh
				span(5, 5, " end"), // fresh end
			}}, "fresh end"},
		{"a CR inserted before LF makes one CRLF", "ab\ncd",
			[][]Change{{span(2, 2, "\r")}, {span(4, 4, "X")}}, "ab\r\nXcd"},
		{"an LF inserted after a lone CR makes one CRLF", "ab\rcd",
			[][]Change{{span(3, 3, "\n")}, {span(4, 4, "X")}}, "ab\r\nXcd"},
		{"deleting what stood between CR and LF joins them", "a\rx\nb",
			[][]Change{{span(2, 3, "")}, {span(3, 3, "Y")}}, "a\r\nYb"},
		{"a CRLF replaced by CR stays a line break", "ab\r\ncd",
			[][]Change{{span(2, 4, "\r")}, {span(4, 4, "X")}}, "ab\rcXd"},
		{"a CRLF split by replacing it with CR x LF", "ab\r\ncd",
			[][]Change{{span(2, 4, "\rx\n")}, {span(5, 5, "Y")}}, "ab\rx\nYcd"},
		{"text inserted inside a CRLF splits it", "ab\r\ncd",
			[][]Change{{span(3, 3, "x")}, {span(5, 5, "Y")}}, "ab\rx\nYcd"},
		{"the LF of a CRLF deleted leaves a lone CR", "ab\r\ncd",
			[][]Change{{span(3, 4, "")}, {span(3, 3, "Y")}}, "ab\rYcd"},
		{"the CR of a CRLF deleted leaves an LF", "ab\r\ncd",
			[][]Change{{span(2, 3, "")}, {span(3, 3, "Y")}}, "ab\nYcd"},
		{"offsets count bytes", "😀a😀b\n",
			[][]Change{{span(5, 9, "X")}}, "😀aXb\n"},
		{"to an empty text and back", "abc\ndef",
			[][]Change{{span(0, 7, "")}, {span(0, 0, "x\ny")}}, "x\ny"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuffer("/w/f.txt", tt.text, 1)
			for i, changes := range tt.changes {
				if err := b.Change(int32(i+2), changes); err != nil {
					t.Fatalf("Change #%d: %v", i+1, err)
				}
			}
			s, err := b.Snapshot()
			if err != nil {
				t.Fatal(err)
			}
			if s.Text != tt.want || s.Version != int32(len(tt.changes)+1) || s.Path != "/w/f.txt" {
				t.Errorf("Snapshot() = %q v%d %s; want %q v%d", s.Text, s.Version, s.Path, tt.want, len(tt.changes)+1)
			}
			checkStore(t, &b.lines, s.Text)
		})
	}
}

func TestBufferOutOfSync(t *testing.T) {
	tests := []struct {
		name    string
		changes []Change
	}{
		{"past the end", []Change{span(8, 8, "x")}},
		{"start after end", []Change{span(4, 1, "x")}},
		{"negative start", []Change{span(-1, 0, "x")}},
		{"a later change fails after earlier ones applied", []Change{
			span(0, 0, "ok"),
			span(90, 90, "bad"),
		}},
		{"an incremental change after a failed one is not applied", []Change{
			span(90, 90, "bad"),
			span(0, 0, "ok"),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuffer("/w/f.txt", "abc\ndef", 1)
			if err := b.Change(2, tt.changes); !errors.Is(err, ErrOutOfSync) {
				t.Fatalf("Change() = %v, want ErrOutOfSync", err)
			}
			if s, err := b.Snapshot(); !errors.Is(err, ErrOutOfSync) {
				t.Fatalf("Snapshot() = %q, %v; want ErrOutOfSync", s.Text, err)
			}
			// Further incremental changes cannot bring it back.
			if err := b.Change(3, []Change{span(0, 0, "x")}); !errors.Is(err, ErrOutOfSync) {
				t.Fatalf("Change() after it went out of sync = %v, want ErrOutOfSync", err)
			}
			// The whole text does.
			if err := b.Change(4, []Change{whole("again\n")}); err != nil {
				t.Fatalf("Change(whole text) = %v", err)
			}
			if s, err := b.Snapshot(); err != nil || s.Text != "again\n" || s.Version != 4 {
				t.Fatalf("Snapshot() = %q v%d, %v; want \"again\\n\" v4", s.Text, s.Version, err)
			}
		})
	}
	t.Run("a whole text later in the same notification", func(t *testing.T) {
		b := NewBuffer("/w/f.txt", "abc", 1)
		err := b.Change(2, []Change{span(70, 70, "bad"), whole("whole"), span(5, 5, "!")})
		if err != nil {
			t.Fatal(err)
		}
		if s, err := b.Snapshot(); err != nil || s.Text != "whole!" {
			t.Fatalf("Snapshot() = %q, %v; want \"whole!\"", s.Text, err)
		}
	})
	t.Run("an error finding a change", func(t *testing.T) {
		b := NewBuffer("/w/f.txt", "abc", 1)
		errFind := errors.New("no such place")
		err := b.ChangeFunc(2, 2, func(i int, _ Text) (Change, error) {
			if i == 0 {
				return Change{}, errFind
			}
			return span(0, 0, "x"), nil
		})
		if !errors.Is(err, ErrOutOfSync) || !strings.Contains(err.Error(), "change 1 of 2: no such place") {
			t.Fatalf("ChangeFunc() = %v, want ErrOutOfSync saying why", err)
		}
	})
}

// ChangeFunc shows each change the text the changes before it left, by
// lines, as it stands in the buffer.
func TestBufferChangeFuncText(t *testing.T) {
	b := NewBuffer("/w/f.txt", "ab\r\ncd\ref\n", 1)
	var seen [][]string
	err := b.ChangeFunc(2, 3, func(i int, text Text) (Change, error) {
		var lines []string
		for l := range text.Lines() {
			start, line := text.Line(l)
			lines = append(lines, fmt.Sprintf("%d:%q", start, line))
		}
		seen = append(seen, lines)
		switch i {
		case 0:
			return span(0, 0, "x\n"), nil
		case 1:
			return whole("one"), nil
		}
		return span(3, 3, "\n"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{`0:"ab\r\n"`, `4:"cd\r"`, `7:"ef\n"`, `10:""`},
		{`0:"x\n"`, `2:"ab\r\n"`, `6:"cd\r"`, `9:"ef\n"`, `12:""`},
		{`0:"one"`},
	}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("the changes saw\n%q\nwant\n%q", seen, want)
	}
	if s, _ := b.Snapshot(); s.Text != "one\n" {
		t.Errorf("Snapshot() = %q, want \"one\\n\"", s.Text)
	}
}

func TestSnapshotIsFrozen(t *testing.T) {
	b := NewBuffer("/w/f.txt", "a😀\nb", 1)
	s1, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	starts1 := s1.LineStarts()
	if again, _ := b.Snapshot(); &again.LineStarts()[0] != &starts1[0] {
		t.Error("two snapshots of an unchanged buffer counted their lines twice")
	}
	if err := b.Change(2, []Change{span(6, 6, "new ")}); err != nil {
		t.Fatal(err)
	}
	s2, _ := b.Snapshot()
	if s1.Text != "a😀\nb" || s1.Version != 1 || !slices.Equal(s1.LineStarts(), []int{0, 6}) {
		t.Errorf("the first snapshot changed: %q v%d, lines at %v", s1.Text, s1.Version, s1.LineStarts())
	}
	if s2.Text != "a😀\nnew b" || s2.Version != 2 || !slices.Equal(s2.LineStarts(), []int{0, 6}) {
		t.Errorf("the second snapshot = %q v%d, lines at %v", s2.Text, s2.Version, s2.LineStarts())
	}
}

func TestSnapshotLineStarts(t *testing.T) {
	for _, text := range []string{"", "a", "a\n", "a\r\nb\rc\n\nd", "\n\r", benchtext.GoLines(1000)} {
		b := NewBuffer("/w/f.txt", text, 1)
		s, err := b.Snapshot()
		if err != nil {
			t.Fatal(err)
		}
		want := LineStarts(text)
		if !slices.Equal(s.LineStarts(), want) {
			t.Errorf("%q: buffer snapshot lines start at %v, want %v", text, s.LineStarts(), want)
		}
		if got := (Snapshot{Text: text}).LineStarts(); !slices.Equal(got, want) {
			t.Errorf("%q: a snapshot not made by a buffer finds lines at %v, want %v", text, got, want)
		}
	}
}

func TestBufferConcurrentChanges(t *testing.T) {
	b := NewBuffer("/w/f.txt", "", 0)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				if err := b.Change(1, []Change{span(0, 0, "x\n")}); err != nil {
					t.Error(err)
				}
				if _, err := b.Snapshot(); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	s, _ := b.Snapshot()
	if want := strings.Repeat("x\n", 400); s.Text != want {
		t.Errorf("after 400 concurrent inserts the text has %d bytes, want %d", len(s.Text), len(want))
	}
}

// applyReference applies one notification's changes to text the plain
// way, by slicing the string. ok is false when the result is out of sync.
func applyReference(text string, changes []Change) (string, bool) {
	ok := true
	for _, c := range changes {
		if c.Whole {
			text, ok = c.Text, true
			continue
		}
		if !ok {
			continue
		}
		if c.Start < 0 || c.End < c.Start || c.End > len(text) {
			ok = false
			continue
		}
		text = text[:c.Start] + c.Text + text[c.End:]
	}
	return text, ok
}

// checkStore checks the invariants of s, which must hold text.
func checkStore(t *testing.T, s *lineStore, text string) {
	t.Helper()
	if got := s.String(); got != text {
		t.Fatalf("store holds %q, want %q", got, text)
	}
	var lines []string
	at := 0 // where chunk i starts
	for i, c := range s.chunks {
		if len(c) == 0 || len(c) > chunkMax {
			t.Fatalf("chunk %d has %d lines", i, len(c))
		}
		size := 0
		for _, l := range c {
			size += len(l)
		}
		if s.sizes[i] != size || s.at.sum(i) != at {
			t.Fatalf("chunk %d counts %d bytes from %d; it holds %d from %d", i, s.sizes[i], s.at.sum(i), size, at)
		}
		at += size
		if f := s.lengths[i]; f != nil {
			for j := range c {
				if f.sum(j+1)-f.sum(j) != len(c[j]) {
					t.Fatalf("chunk %d counts %d bytes on line %d; it holds %d", i, f.sum(j+1)-f.sum(j), j, len(c[j]))
				}
			}
		}
		if s.first[i] != len(lines) {
			t.Fatalf("chunk %d starts at line %d, want %d", i, s.first[i], len(lines))
		}
		lines = append(lines, c...)
	}
	if want := splitLines(text); !slices.Equal(lines, want) {
		t.Fatalf("store lines %q, want %q", lines, want)
	}
	if joined, starts := s.join(); joined != text || !slices.Equal(starts, LineStarts(text)) {
		t.Fatalf("store's joined text has line starts %v, want %v", starts, LineStarts(text))
	}
	if s.n != len(lines) || s.size != len(text) || len(s.first) != len(s.chunks) || len(s.at) != len(s.chunks) || len(s.sizes) != len(s.chunks) || len(s.lengths) != len(s.chunks) {
		t.Fatalf("store counts %d lines and %d bytes; it holds %d and %d", s.n, s.size, len(lines), len(text))
	}
	if want := invalid(lines); s.bad != want {
		t.Fatalf("store counts %d lines that are not UTF-8; it holds %d", s.bad, want)
	}
	// Every line is found where it starts, by its number and by its
	// offset, and so is every byte in it.
	text2 := Text{s}
	for i, start := range LineStarts(text) {
		if got, line := text2.Line(i); got != start || line != lines[i] {
			t.Fatalf("Line(%d) = %d, %q; want %d, %q", i, got, line, start, lines[i])
		}
		for col := range len(lines[i]) + 1 {
			if col == len(lines[i]) && i+1 < len(lines) {
				break // the start of the next line
			}
			if p, c := s.find(start + col); s.first[p.c]+p.j != i || c != col {
				t.Fatalf("find(%d) = line %d, column %d; want %d, %d", start+col, s.first[p.c]+p.j, c, i, col)
			}
		}
	}
}

// pieces are what random texts are made of.
var pieces = []string{"a", "bc", "é", "世", "😀", "\u0301", "\r", "\n", "\r\n", "\n\r", " "}

func randomText(r *rand.Rand, n int) string {
	var sb strings.Builder
	for range n {
		sb.WriteString(pieces[r.IntN(len(pieces))])
	}
	return sb.String()
}

// randomChange returns a change to text that is usually valid, and
// sometimes a whole text, out of the text or reversed. Its offsets fall
// anywhere: inside a UTF-8 sequence, between the CR and the LF of a line
// break.
func randomChange(r *rand.Rand, text string) Change {
	if r.IntN(30) == 0 {
		return whole(randomText(r, r.IntN(20)))
	}
	off := func() int {
		if r.IntN(50) == 0 {
			return len(text) + 1 + r.IntN(3) // past the end
		}
		return r.IntN(len(text) + 1)
	}
	start, end := off(), off()
	if r.IntN(20) != 0 && end < start {
		start, end = end, start
	}
	if r.IntN(4) == 0 && start <= len(text) {
		end = min(len(text), start+r.IntN(3)) // short spans around line breaks
	}
	return span(start, end, randomText(r, r.IntN(4)))
}

// checkAgainstReference applies notifications to a Buffer and to the
// reference and compares them after each.
func checkAgainstReference(t *testing.T, text string, notes [][]Change) {
	t.Helper()
	b := NewBuffer("/w/f", text, 0)
	want, inSync := text, true
	for i, changes := range notes {
		err := b.Change(int32(i+1), changes)
		if inSync {
			want, inSync = applyReference(want, changes)
		} else {
			// Out of sync: only a whole text counts, and what follows it.
			for j, c := range changes {
				if c.Whole {
					want, inSync = applyReference("", changes[j:])
				}
			}
		}
		s, serr := b.Snapshot()
		if !inSync {
			if !errors.Is(err, ErrOutOfSync) || !errors.Is(serr, ErrOutOfSync) {
				t.Fatalf("notification %d %v: Change() = %v, Snapshot() = %v; want ErrOutOfSync", i, changes, err, serr)
			}
			continue
		}
		if err == nil && !utf8.ValidString(want) {
			if !errors.Is(serr, ErrNotUTF8) {
				t.Fatalf("notification %d %v: Snapshot() of %q = %v, want ErrNotUTF8", i, changes, want, serr)
			}
			checkStore(t, &b.lines, want)
			continue
		}
		if err != nil || serr != nil {
			t.Fatalf("notification %d %v on %q: Change() = %v, Snapshot() = %v", i, changes, want, err, serr)
		}
		if s.Text != want {
			t.Fatalf("notification %d %v: buffer %q, reference %q", i, changes, s.Text, want)
		}
		checkStore(t, &b.lines, want)
		if !slices.Equal(s.LineStarts(), LineStarts(want)) {
			t.Fatalf("notification %d: the snapshot's lines start at %v, want %v", i, s.LineStarts(), LineStarts(want))
		}
	}
}

func TestBufferMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for range 600 {
		text := randomText(r, r.IntN(30))
		var notes [][]Change
		cur := text
		for range 20 {
			var changes []Change
			for range 1 + r.IntN(3) {
				c := randomChange(r, cur)
				changes = append(changes, c)
				if next, ok := applyReference(cur, []Change{c}); ok {
					cur = next
				}
			}
			notes = append(notes, changes)
		}
		checkAgainstReference(t, text, notes)
	}
}

// A buffer whose text is not UTF-8 gives no snapshot, whatever the
// changes that made it so, until changes make it UTF-8 again: the count of
// its bad lines follows every change.
func TestBufferNotUTF8(t *testing.T) {
	b := NewBuffer("/w/f.txt", "ok\ncaf\xe9 = 1\n", 1)
	_, err := b.Snapshot()
	if !errors.Is(err, ErrNotUTF8) || !strings.Contains(err.Error(), "byte 0xe9 on line 2, at byte 4 of the line") {
		t.Fatalf("Snapshot() = %v", err)
	}
	// The bad byte replaced: valid again.
	if err := b.Change(2, []Change{span(6, 7, "é")}); err != nil {
		t.Fatal(err)
	}
	if s, err := b.Snapshot(); err != nil || s.Text != "ok\ncafé = 1\n" {
		t.Fatalf("Snapshot() = %q, %v", s.Text, err)
	}
	// A change brings a bad byte in; a whole text that is UTF-8 ends it.
	if err := b.Change(3, []Change{span(0, 0, "\xff\n")}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Snapshot(); !errors.Is(err, ErrNotUTF8) {
		t.Fatalf("Snapshot() after a change with a bad byte = %v", err)
	}
	if err := b.Change(4, []Change{whole("clean\n")}); err != nil {
		t.Fatal(err)
	}
	if s, err := b.Snapshot(); err != nil || s.Text != "clean\n" {
		t.Fatalf("Snapshot() = %q, %v", s.Text, err)
	}
	// U+FFFD is a character like any other.
	if err := b.Change(5, []Change{whole("\ufffd")}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Snapshot(); err != nil {
		t.Fatal(err)
	}
	// Half of a character deleted leaves bytes that are not UTF-8; the
	// other half deleted makes it UTF-8 again.
	if err := b.Change(6, []Change{span(0, 1, "")}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Snapshot(); !errors.Is(err, ErrNotUTF8) {
		t.Fatalf("Snapshot() after a byte of U+FFFD deleted = %v", err)
	}
	if err := b.Change(7, []Change{span(0, 2, "")}); err != nil {
		t.Fatal(err)
	}
	if s, err := b.Snapshot(); err != nil || s.Text != "" {
		t.Fatalf("Snapshot() = %q, %v", s.Text, err)
	}
}

// Random changes that bring bad bytes in and take them out, on texts of
// several chunks, keep the count of bad lines right.
func TestBufferNotUTF8MatchesReference(t *testing.T) {
	bad := []string{"\xe9", "\xff", "\xe4\xb8", "\xed\xa0\x80"}
	r := rand.New(rand.NewPCG(3, 3))
	for range 40 {
		var lines []string
		for i := range r.IntN(3 * chunkMax) {
			l := fmt.Sprintf("line %d", i)
			if r.IntN(50) == 0 {
				l += bad[r.IntN(len(bad))]
			}
			lines = append(lines, l)
		}
		text := strings.Join(lines, "\n")
		var notes [][]Change
		cur := text
		for range 40 {
			c := randomChange(r, cur)
			if r.IntN(3) == 0 {
				c.Text += bad[r.IntN(len(bad))]
			}
			if r.IntN(10) == 0 && !c.Whole {
				// Many lines at once, bad ones among them.
				c.Start, c.End = 0, r.IntN(len(cur)+1)
			}
			notes = append(notes, []Change{c})
			if next, ok := applyReference(cur, []Change{c}); ok {
				cur = next
			}
		}
		checkAgainstReference(t, text, notes)
	}
}

// TestBufferAcrossChunks makes changes on texts of several chunks: long
// deletions and insertions across chunk boundaries, chunks that split and
// join.
func TestBufferAcrossChunks(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	var lines []string
	for i := range 3 * chunkMax {
		lines = append(lines, fmt.Sprintf("line %d é😀", i))
	}
	text := strings.Join(lines, "\r\n") + "\n"
	var notes [][]Change
	cur := text
	for i := range 300 {
		starts := LineStarts(cur)
		sl := r.IntN(len(starts))
		el := min(len(starts)-1, sl+r.IntN(chunkMax+chunkMax/2))
		c := span(min(len(cur), starts[sl]+r.IntN(12)), min(len(cur), starts[el]+r.IntN(12)), "")
		if c.End < c.Start {
			c.End = c.Start
		}
		switch i % 3 {
		case 0: // delete many lines
		case 1: // insert many lines
			c.End = c.Start
			c.Text = strings.Repeat("new\n", r.IntN(2*chunkMax))
		case 2: // replace lines with fewer
			c.Text = strings.Repeat("x\r\n", r.IntN(8))
		}
		notes = append(notes, []Change{c})
		cur, _ = applyReference(cur, []Change{c})
		if len(cur) < 1000 {
			notes = append(notes, []Change{whole(text)})
			cur = text
		}
	}
	checkAgainstReference(t, text, notes)
}

// A change that spans every chunk and leaves few lines has no neighbour
// chunk to join: the buffer is that one short chunk. (Selecting all but
// the last line of a long file and deleting it once panicked here, and
// left the buffer out of step with the editor.)
func TestBufferChangeSpanningEveryChunk(t *testing.T) {
	for _, n := range []int{chunkMax + 1, 3 * chunkMax} {
		text := strings.Repeat("line\n", n)
		for _, c := range []Change{
			span(0, len(text), ""),
			span(2, len(text)-4, "x\ny"),
			span(0, len(text)-1, "z"),
		} {
			b := NewBuffer("/w/f", text, 1)
			if err := b.Change(2, []Change{c}); err != nil {
				t.Fatal(err)
			}
			want, _ := applyReference(text, []Change{c})
			if s, err := b.Snapshot(); err != nil || s.Text != want {
				t.Fatalf("%d lines, change %v: buffer %q, %v; want %q", n, c, s.Text, err, want)
			}
			checkStore(t, &b.lines, want)
		}
	}
}

func FuzzBufferChange(f *testing.F) {
	f.Add("abc\ndef\r\nghi", uint64(1))
	f.Add("a\rb\n😀世", uint64(2))
	f.Add("", uint64(3))
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		if len(text) > 512 {
			text = text[:512]
		}
		r := rand.New(rand.NewPCG(seed, seed>>32))
		var notes [][]Change
		cur := text
		for range 8 {
			c := randomChange(r, cur)
			notes = append(notes, []Change{c})
			if next, ok := applyReference(cur, []Change{c}); ok {
				cur = next
			}
		}
		checkAgainstReference(t, text, notes)
	})
}

// BenchmarkBufferChange measures one didChange on a 100,000-line buffer
// (about 4 MB). Each pair of operations undoes itself so that the buffer
// stays the same size; "whole text" is the cost of re-reading the buffer,
// for comparison.
func BenchmarkBufferChange(b *testing.B) {
	text := benchtext.GoLines(100_000)
	starts := LineStarts(text)
	replacement := strings.Repeat("y", len("\tx := computeSomething(a, b, c) + 42"))
	benches := []struct {
		name   string
		change func(i int) Change
	}{
		{"insert character", func(i int) Change {
			at := starts[1+10*(i/2%9000)] + 5
			if i%2 == 0 {
				return span(at, at, "z")
			}
			return span(at, at+1, "")
		}},
		{"replace line", func(i int) Change {
			at := starts[1+10*(i%9000)]
			return span(at, at+len(replacement), replacement)
		}},
		{"split and join line", func(i int) Change {
			at := starts[1+10*(i/2%9000)] + 5
			if i%2 == 0 {
				return span(at, at, "\n")
			}
			return span(at, at+1, "")
		}},
		{"whole text", func(int) Change { return whole(text) }},
	}
	for _, bb := range benches {
		b.Run(bb.name, func(b *testing.B) {
			buf := NewBuffer("/w/big.go", text, 0)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				if err := buf.Change(int32(i), []Change{bb.change(i)}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkBufferSnapshot measures a change followed by a snapshot of the
// 100,000-line buffer, which joins its text and counts its lines.
func BenchmarkBufferSnapshot(b *testing.B) {
	text := benchtext.GoLines(100_000)
	starts := LineStarts(text)
	buf := NewBuffer("/w/big.go", text, 0)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		at := starts[1+10*(i/2%9000)] + 5
		c := span(at, at, "z")
		if i%2 == 1 {
			c = span(at, at+1, "")
		}
		if err := buf.Change(int32(i), []Change{c}); err != nil {
			b.Fatal(err)
		}
		if _, err := buf.Snapshot(); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
