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
)

// rng returns a Range from line sl, character sc to line el, character ec.
func rng(sl, sc, el, ec int) *Range {
	return &Range{Position{sl, sc}, Position{el, ec}}
}

func TestBufferChange(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		enc     Encoding
		changes [][]Change // notifications, in order
		want    string
	}{
		{"insert a character", "abc\ndef\n", UTF16,
			[][]Change{{{rng(1, 1, 1, 1), "X"}}}, "abc\ndXef\n"},
		{"replace a line", "abc\ndef\nghi", UTF16,
			[][]Change{{{rng(1, 0, 1, 3), "replaced"}}}, "abc\nreplaced\nghi"},
		{"insert lines", "abc\ndef", UTF16,
			[][]Change{{{rng(0, 1, 0, 1), "1\n2\n3"}}, {{rng(2, 0, 2, 0), ">"}}}, "a1\n2\n>3bc\ndef"},
		{"delete lines", "l0\nl1\nl2\nl3\n", UTF16,
			[][]Change{{{rng(0, 1, 3, 1), ""}}, {{rng(0, 0, 0, 0), ">"}}}, ">l3\n"},
		{"delete a whole line with its break", "l0\nl1\nl2", UTF16,
			[][]Change{{{rng(1, 0, 2, 0), ""}}}, "l0\nl2"},
		{"append at the end of the text", "abc\n", UTF16,
			[][]Change{{{rng(1, 0, 1, 0), "tail"}}, {{rng(1, 4, 1, 4), "\n"}}}, "abc\ntail\n"},
		{"append just past the last line", "abc", UTF16,
			[][]Change{{{rng(1, 0, 1, 0), "!"}}}, "abc!"},
		{"character past the end of a line clamps", "abc\r\ndef", UTF16,
			[][]Change{{{rng(0, 9, 0, 12), "!"}}}, "abc!\r\ndef"},
		{"replace the whole text", "old\ntext", UTF16,
			[][]Change{{{nil, "new\r\ntext"}}, {{rng(1, 0, 1, 0), "+"}}}, "new\r\n+text"},
		{"several changes apply in order", "abc\ndef", UTF16,
			[][]Change{{
				{rng(0, 0, 0, 0), "1\n"},  // 1 / abc / def
				{rng(1, 0, 1, 3), "ABC"},  // 1 / ABC / def
				{rng(2, 3, 2, 3), "\n4"},  // 1 / ABC / def / 4
				{rng(0, 1, 1, 1), ""},     // 1BC / def / 4
				{nil, "fresh"},            // fresh
				{rng(0, 5, 0, 5), " end"}, // fresh end
			}}, "fresh end"},
		{"a CR inserted before LF makes one CRLF", "ab\ncd", UTF16,
			[][]Change{{{rng(0, 2, 0, 2), "\r"}}, {{rng(1, 0, 1, 0), "X"}}}, "ab\r\nXcd"},
		{"an LF inserted after a lone CR makes one CRLF", "ab\rcd", UTF16,
			[][]Change{{{rng(1, 0, 1, 0), "\n"}}, {{rng(1, 0, 1, 0), "X"}}}, "ab\r\nXcd"},
		{"deleting what stood between CR and LF joins them", "a\rx\nb", UTF16,
			[][]Change{{{rng(1, 0, 1, 1), ""}}, {{rng(1, 0, 1, 0), "Y"}}}, "a\r\nYb"},
		{"a CRLF replaced by CR stays a line break", "ab\r\ncd", UTF16,
			[][]Change{{{rng(0, 2, 1, 0), "\r"}}, {{rng(1, 1, 1, 1), "X"}}}, "ab\rcXd"},
		{"a CRLF split by replacing it with CR x LF", "ab\r\ncd", UTF16,
			[][]Change{{{rng(0, 2, 1, 0), "\rx\n"}}, {{rng(2, 0, 2, 0), "Y"}}}, "ab\rx\nYcd"},
		{"UTF-16 counts an emoji as two units", "😀a😀b\n", UTF16,
			[][]Change{{{rng(0, 3, 0, 5), "X"}}}, "😀aXb\n"},
		{"UTF-8 counts an emoji as four bytes", "😀a😀b\n", UTF8,
			[][]Change{{{rng(0, 5, 0, 9), "X"}}}, "😀aXb\n"},
		{"UTF-32 counts an emoji as one", "😀a😀b\n", UTF32,
			[][]Change{{{rng(0, 2, 0, 3), "X"}}}, "😀aXb\n"},
		{"CJK before the edit", "世界abc", UTF16,
			[][]Change{{{rng(0, 3, 0, 4), "B"}}}, "世界aBc"},
		{"inside a surrogate pair means its start", "a😀b", UTF16,
			[][]Change{{{rng(0, 2, 0, 2), "X"}}}, "aX😀b"},
		{"to an empty text and back", "abc\ndef", UTF16,
			[][]Change{{{rng(0, 0, 1, 3), ""}}, {{rng(0, 0, 0, 0), "x\ny"}}}, "x\ny"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuffer("/w/f.txt", tt.text, 1)
			for i, changes := range tt.changes {
				if err := b.Change(int32(i+2), changes, tt.enc); err != nil {
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
		{"line past the end", []Change{{rng(5, 0, 5, 0), "x"}}},
		{"start after end", []Change{{rng(1, 0, 0, 1), "x"}}},
		{"negative character", []Change{{rng(0, -1, 0, 0), "x"}}},
		{"a later change fails after earlier ones applied", []Change{
			{rng(0, 0, 0, 0), "ok"},
			{rng(9, 0, 9, 0), "bad"},
		}},
		{"an incremental change after a failed one is not applied", []Change{
			{rng(9, 0, 9, 0), "bad"},
			{rng(0, 0, 0, 0), "ok"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBuffer("/w/f.txt", "abc\ndef", 1)
			if err := b.Change(2, tt.changes, UTF16); !errors.Is(err, ErrOutOfSync) {
				t.Fatalf("Change() = %v, want ErrOutOfSync", err)
			}
			if s, err := b.Snapshot(); !errors.Is(err, ErrOutOfSync) {
				t.Fatalf("Snapshot() = %q, %v; want ErrOutOfSync", s.Text, err)
			}
			// Further incremental changes cannot bring it back.
			if err := b.Change(3, []Change{{rng(0, 0, 0, 0), "x"}}, UTF16); !errors.Is(err, ErrOutOfSync) {
				t.Fatalf("Change() after it went out of sync = %v, want ErrOutOfSync", err)
			}
			// The whole text does.
			if err := b.Change(4, []Change{{nil, "again\n"}}, UTF16); err != nil {
				t.Fatalf("Change(whole text) = %v", err)
			}
			if s, err := b.Snapshot(); err != nil || s.Text != "again\n" || s.Version != 4 {
				t.Fatalf("Snapshot() = %q v%d, %v; want \"again\\n\" v4", s.Text, s.Version, err)
			}
		})
	}
	t.Run("a whole text later in the same notification", func(t *testing.T) {
		b := NewBuffer("/w/f.txt", "abc", 1)
		err := b.Change(2, []Change{{rng(7, 0, 7, 0), "bad"}, {nil, "whole"}, {rng(0, 5, 0, 5), "!"}}, UTF16)
		if err != nil {
			t.Fatal(err)
		}
		if s, err := b.Snapshot(); err != nil || s.Text != "whole!" {
			t.Fatalf("Snapshot() = %q, %v; want \"whole!\"", s.Text, err)
		}
	})
}

func TestSnapshotIsFrozen(t *testing.T) {
	b := NewBuffer("/w/f.txt", "a😀\nb", 1)
	s1, err := b.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	m1 := s1.Mapper()
	if again, _ := b.Snapshot(); again.Mapper() != m1 {
		t.Error("two snapshots of an unchanged buffer built two Mappers")
	}
	if err := b.Change(2, []Change{{rng(1, 0, 1, 0), "new "}}, UTF16); err != nil {
		t.Fatal(err)
	}
	s2, _ := b.Snapshot()
	if s1.Text != "a😀\nb" || s1.Version != 1 || m1.Text() != s1.Text {
		t.Errorf("the first snapshot changed: %q v%d", s1.Text, s1.Version)
	}
	if s2.Text != "a😀\nnew b" || s2.Version != 2 || s2.Mapper().Text() != s2.Text {
		t.Errorf("the second snapshot = %q v%d", s2.Text, s2.Version)
	}
	if p, err := s2.Mapper().Position(len(s2.Text), UTF16); err != nil || p != (Position{1, 5}) {
		t.Errorf("end of the second snapshot = %v, %v; want 1:5", p, err)
	}
}

func TestSnapshotMapperConcurrently(t *testing.T) {
	b := NewBuffer("/w/f.txt", benchText(1000), 1)
	s, _ := b.Snapshot()
	var wg sync.WaitGroup
	mappers := make([]*Mapper, 8)
	for i := range mappers {
		wg.Go(func() { mappers[i] = s.Mapper() })
	}
	wg.Wait()
	for _, m := range mappers {
		if m != mappers[0] {
			t.Fatal("concurrent calls of Mapper built more than one")
		}
	}
}

func TestBufferConcurrentChanges(t *testing.T) {
	b := NewBuffer("/w/f.txt", "", 0)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				if err := b.Change(1, []Change{{rng(0, 0, 0, 0), "x\n"}}, UTF16); err != nil {
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
// way: a Mapper over the whole text for each change, then string slicing.
// ok is false when the result is out of sync.
func applyReference(text string, changes []Change, enc Encoding) (string, bool) {
	ok := true
	for _, c := range changes {
		if c.Range == nil {
			text, ok = c.Text, true
			continue
		}
		if !ok {
			continue
		}
		start, end, err := NewMapper(text).OffsetRange(*c.Range, enc)
		if err != nil {
			ok = false
			continue
		}
		text = text[:start] + c.Text + text[end:]
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
	for i, c := range s.chunks {
		if len(c) == 0 || len(c) > chunkMax {
			t.Fatalf("chunk %d has %d lines", i, len(c))
		}
		if s.first[i] != len(lines) {
			t.Fatalf("chunk %d starts at line %d, want %d", i, s.first[i], len(lines))
		}
		lines = append(lines, c...)
	}
	if want := splitLines(text); !slices.Equal(lines, want) {
		t.Fatalf("store lines %q, want %q", lines, want)
	}
	if m := s.mapper(); m.text != text || !slices.Equal(m.starts, lineStarts(text)) {
		t.Fatalf("store's mapper has line starts %v, want %v", m.starts, lineStarts(text))
	}
	if s.n != len(lines) || s.size != len(text) || len(s.first) != len(s.chunks) {
		t.Fatalf("store counts %d lines and %d bytes; it holds %d and %d", s.n, s.size, len(lines), len(text))
	}
	if want := invalid(lines); s.bad != want {
		t.Fatalf("store counts %d lines that are not UTF-8; it holds %d", s.bad, want)
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
// sometimes a whole text, out of range or reversed.
func randomChange(r *rand.Rand, text string, enc Encoding) Change {
	if r.IntN(30) == 0 {
		return Change{Text: randomText(r, r.IntN(20))}
	}
	m := NewMapper(text)
	pos := func() Position {
		line := r.IntN(m.Lines() + 1)
		if r.IntN(50) == 0 {
			line = m.Lines() + 1 // past the end
		}
		return Position{line, r.IntN(8)}
	}
	start, end := pos(), pos()
	if r.IntN(20) != 0 && (end.Line < start.Line || end.Line == start.Line && end.Character < start.Character) {
		start, end = end, start
	}
	if r.IntN(4) == 0 && start.Line < m.Lines() {
		end = Position{start.Line + r.IntN(2), r.IntN(3)} // short spans around line breaks
	}
	return Change{Range: &Range{start, end}, Text: randomText(r, r.IntN(4))}
}

// checkAgainstReference applies notifications to a Buffer and to the
// reference and compares them after each.
func checkAgainstReference(t *testing.T, text string, notes [][]Change, enc Encoding) {
	t.Helper()
	b := NewBuffer("/w/f", text, 0)
	want, inSync := text, true
	for i, changes := range notes {
		err := b.Change(int32(i+1), changes, enc)
		if inSync {
			want, inSync = applyReference(want, changes, enc)
		} else {
			// Out of sync: only a whole text counts, and what follows it.
			for j, c := range changes {
				if c.Range == nil {
					want, inSync = applyReference("", changes[j:], enc)
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
		if s.Mapper().Text() != want || s.Mapper().Lines() != b.lines.n {
			t.Fatalf("notification %d: the snapshot's Mapper does not match its text", i)
		}
	}
}

func TestBufferMatchesReference(t *testing.T) {
	for _, enc := range encodings {
		t.Run(enc.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(enc)))
			for range 200 {
				text := randomText(r, r.IntN(30))
				var notes [][]Change
				cur := text
				for range 20 {
					var changes []Change
					for range 1 + r.IntN(3) {
						c := randomChange(r, cur, enc)
						changes = append(changes, c)
						if next, ok := applyReference(cur, []Change{c}, enc); ok {
							cur = next
						}
					}
					notes = append(notes, changes)
				}
				checkAgainstReference(t, text, notes, enc)
			}
		})
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
	if err := b.Change(2, []Change{{Range: rng(1, 3, 1, 4), Text: "é"}}, UTF8); err != nil {
		t.Fatal(err)
	}
	if s, err := b.Snapshot(); err != nil || s.Text != "ok\ncafé = 1\n" {
		t.Fatalf("Snapshot() = %q, %v", s.Text, err)
	}
	// A change brings a bad byte in; a whole text that is UTF-8 ends it.
	if err := b.Change(3, []Change{{Range: rng(0, 0, 0, 0), Text: "\xff\n"}}, UTF8); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Snapshot(); !errors.Is(err, ErrNotUTF8) {
		t.Fatalf("Snapshot() after a change with a bad byte = %v", err)
	}
	if err := b.Change(4, []Change{{Text: "clean\n"}}, UTF8); err != nil {
		t.Fatal(err)
	}
	if s, err := b.Snapshot(); err != nil || s.Text != "clean\n" {
		t.Fatalf("Snapshot() = %q, %v", s.Text, err)
	}
	// U+FFFD is a character like any other.
	if err := b.Change(5, []Change{{Text: "\ufffd"}}, UTF8); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Snapshot(); err != nil {
		t.Fatal(err)
	}
}

// Random changes that bring bad bytes in and take them out, on texts of
// several chunks, keep the count of bad lines right.
func TestBufferNotUTF8MatchesReference(t *testing.T) {
	bad := []string{"\xe9", "\xff", "\xe4\xb8", "\xed\xa0\x80"}
	for _, enc := range encodings {
		t.Run(enc.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, uint64(enc)))
			for range 20 {
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
					c := randomChange(r, cur, enc)
					if r.IntN(3) == 0 {
						c.Text += bad[r.IntN(len(bad))]
					}
					if r.IntN(10) == 0 && c.Range != nil {
						// Many lines at once, bad ones among them.
						m := NewMapper(cur)
						c.Range = rng(0, 0, r.IntN(m.Lines()+1), 0)
					}
					notes = append(notes, []Change{c})
					if next, ok := applyReference(cur, []Change{c}, enc); ok {
						cur = next
					}
				}
				checkAgainstReference(t, text, notes, enc)
			}
		})
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
		m := NewMapper(cur)
		sl := r.IntN(m.Lines())
		el := min(m.Lines()-1, sl+r.IntN(chunkMax+chunkMax/2))
		c := Change{Range: rng(sl, r.IntN(12), el, r.IntN(12))}
		switch i % 3 {
		case 0: // delete many lines
		case 1: // insert many lines
			c.Range.End = c.Range.Start
			c.Text = strings.Repeat("new\n", r.IntN(2*chunkMax))
		case 2: // replace lines with fewer
			c.Text = strings.Repeat("x\r\n", r.IntN(8))
		}
		notes = append(notes, []Change{c})
		cur, _ = applyReference(cur, []Change{c}, UTF16)
		if len(cur) < 1000 {
			notes = append(notes, []Change{{Text: text}})
			cur = text
		}
	}
	checkAgainstReference(t, text, notes, UTF16)
}

// A change that spans every chunk and leaves few lines has no neighbour
// chunk to join: the buffer is that one short chunk. (Selecting all but
// the last line of a long file and deleting it once panicked here, and
// left the buffer out of step with the editor.)
func TestBufferChangeSpanningEveryChunk(t *testing.T) {
	for _, n := range []int{chunkMax + 1, 3 * chunkMax} {
		text := strings.Repeat("line\n", n)
		for _, c := range []Change{
			{Range: rng(0, 0, n, 0), Text: ""},
			{Range: rng(0, 2, n-1, 1), Text: "x\ny"},
			{Range: rng(0, 0, n-1, 4), Text: "z"},
		} {
			b := NewBuffer("/w/f", text, 1)
			if err := b.Change(2, []Change{c}, UTF16); err != nil {
				t.Fatal(err)
			}
			want, _ := applyReference(text, []Change{c}, UTF16)
			if s, err := b.Snapshot(); err != nil || s.Text != want {
				t.Fatalf("%d lines, change %v: buffer %q, %v; want %q", n, *c.Range, s.Text, err, want)
			}
			checkStore(t, &b.lines, want)
		}
	}
}

func FuzzBufferChange(f *testing.F) {
	f.Add("abc\ndef\r\nghi", uint64(1), uint8(0))
	f.Add("a\rb\n😀世", uint64(2), uint8(1))
	f.Add("", uint64(3), uint8(2))
	f.Fuzz(func(t *testing.T, text string, seed uint64, enc uint8) {
		if len(text) > 512 {
			text = text[:512]
		}
		e := encodings[int(enc)%len(encodings)]
		r := rand.New(rand.NewPCG(seed, seed>>32))
		var notes [][]Change
		cur := text
		for range 8 {
			c := randomChange(r, cur, e)
			notes = append(notes, []Change{c})
			if next, ok := applyReference(cur, []Change{c}, e); ok {
				cur = next
			}
		}
		checkAgainstReference(t, text, notes, e)
	})
}

// BenchmarkBufferChange measures one didChange on a 100,000-line buffer
// (about 4 MB). Each pair of operations undoes itself so that the buffer
// stays the same size; "whole text" is the cost of re-reading the buffer,
// for comparison.
func BenchmarkBufferChange(b *testing.B) {
	text := benchText(100_000)
	replacement := strings.Repeat("y", len("\tx := computeSomething(a, b, c) + 42"))
	benches := []struct {
		name   string
		change func(i int) Change
	}{
		{"insert character", func(i int) Change {
			line := 1 + 10*(i/2%9000)
			if i%2 == 0 {
				return Change{rng(line, 5, line, 5), "z"}
			}
			return Change{rng(line, 5, line, 6), ""}
		}},
		{"replace line", func(i int) Change {
			line := 1 + 10*(i%9000)
			return Change{rng(line, 0, line, len(replacement)), replacement}
		}},
		{"split and join line", func(i int) Change {
			line := 1 + 10*(i/2%9000)
			if i%2 == 0 {
				return Change{rng(line, 5, line, 5), "\n"}
			}
			return Change{rng(line, 5, line+1, 0), ""}
		}},
		{"whole text", func(int) Change { return Change{nil, text} }},
	}
	for _, bb := range benches {
		b.Run(bb.name, func(b *testing.B) {
			buf := NewBuffer("/w/big.go", text, 0)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				if err := buf.Change(int32(i), []Change{bb.change(i)}, UTF16); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkBufferSnapshot measures a change followed by a snapshot of the
// 100,000-line buffer, which joins its text, with and without its Mapper.
func BenchmarkBufferSnapshot(b *testing.B) {
	text := benchText(100_000)
	for _, withMapper := range []bool{false, true} {
		b.Run(fmt.Sprintf("mapper=%v", withMapper), func(b *testing.B) {
			buf := NewBuffer("/w/big.go", text, 0)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				line := 1 + 10*(i/2%9000)
				c := Change{rng(line, 5, line, 5), "z"}
				if i%2 == 1 {
					c = Change{rng(line, 5, line, 6), ""}
				}
				if err := buf.Change(int32(i), []Change{c}, UTF16); err != nil {
					b.Fatal(err)
				}
				s, err := buf.Snapshot()
				if err != nil {
					b.Fatal(err)
				}
				if withMapper {
					s.Mapper()
				}
				i++
			}
		})
	}
}
