package editdist

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// referenceFind is the textbook O(len(p)·len(t)) semi-global dynamic
// program, against which Find is checked: D[0][j] = 0 lets p start at any
// byte of t, and each cell also carries the largest start of a substring of
// t at the cell's value from p's prefix. It returns the least value of the
// last row, its first column, and the largest start there.
func referenceFind(p, t string) (start, end, dist int) {
	type cell struct{ d, start int }
	prev := make([]cell, len(t)+1)
	cur := make([]cell, len(t)+1)
	for j := range prev {
		prev[j] = cell{0, j}
	}
	// better reports whether x is closer than y, or as close with a later
	// start.
	better := func(x, y cell) bool {
		return x.d < y.d || x.d == y.d && x.start > y.start
	}
	for i := 1; i <= len(p); i++ {
		cur[0] = cell{i, 0}
		for j := 1; j <= len(t); j++ {
			cost := 1
			if p[i-1] == t[j-1] {
				cost = 0
			}
			c := cell{prev[j-1].d + cost, prev[j-1].start}
			if up := (cell{prev[j].d + 1, prev[j].start}); better(up, c) {
				c = up
			}
			if left := (cell{cur[j-1].d + 1, cur[j-1].start}); better(left, c) {
				c = left
			}
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	for j := range prev {
		if prev[j].d < prev[end].d {
			end = j
		}
	}
	return prev[end].start, end, prev[end].d
}

func TestFind(t *testing.T) {
	long := sized(100)
	longer := sized(200)
	tests := []struct {
		name          string
		pattern, text string
		max           int
		start, end, d int // start, end and distance wanted, if found
		ok            bool
	}{
		{"exact substring", "return x, nil", "\t\treturn x, nil // ok", 0, 2, 15, 0, true},
		{"one typo", "retrun x, nil", "\t\treturn x, nil // ok", 2, 2, 15, 2, true},
		{"one substitution", "retorn x, nil", "\t\treturn x, nil // ok", 1, 2, 15, 1, true},
		{"pattern with an extra byte", "return xx, nil", "\t\treturn x, nil // ok", 1, 2, 15, 1, true},
		{"pattern missing a byte", "retun x, nil", "\t\treturn x, nil // ok", 1, 2, 15, 1, true},
		{"at the start of the text", "func main", "func main() {", 0, 0, 9, 0, true},
		{"at the end of the text", "nil }", "return nil }", 0, 7, 12, 0, true},
		{"typo at the start of the text", "xunc main", "func main() {", 1, 1, 9, 1, true},
		{"typo at the end of the text", "nil {", "return nil }", 1, 7, 11, 1, true},
		{"the whole text", "abc", "abc", 0, 0, 3, 0, true},
		{"leftmost of two exact matches", "ab", "xabyab", 0, 1, 3, 0, true},
		{"an exact match beats an earlier near one", "abc", "abxabc", 0, 3, 6, 0, true},
		{"leftmost end among near matches", "abc", "abxaxc", 1, 0, 2, 1, true},
		{"shortest at the leftmost end", "aXb", "ab", 1, 0, 2, 1, true},
		{"pattern longer than text", "return x, nil", "return", 7, 0, 6, 7, true},
		{"pattern longer than text, over max", "return x, nil", "return", 6, 0, 0, 0, false},
		{"empty text", "abc", "", 3, 0, 0, 3, true},
		{"empty text, over max", "abc", "", 2, 0, 0, 0, false},
		{"empty pattern", "", "abc", 0, 0, 0, 0, true},
		{"empty pattern and text", "", "", 0, 0, 0, 0, true},
		{"nothing alike is the empty substring", "xyz", "abc", 3, 0, 0, 3, true},
		{"max 0 finds an exact match", "main", "func main() {", 0, 5, 9, 0, true},
		{"max 0 refuses a near one", "mian", "func main() {", 0, 0, 0, 0, false},
		{"under max", "mian", "func main() {", 2, 5, 7, 2, true},
		{"over max", "mian", "func main() {", 1, 0, 0, 0, false},
		{"negative max", "", "abc", -1, 0, 0, 0, false},
		{"huge max", "mian", "func main() {", math.MaxInt, 5, 7, 2, true},
		{"64 bytes", sized(64), "xx" + sized(64) + "yy", 0, 2, 66, 0, true},
		{"65 bytes", sized(65), "xx" + sized(65) + "yy", 0, 2, 67, 0, true},
		{"over 64 bytes with a typo", long, "// " + mutate(long, 50, 'x') + " //", 1, 3, 103, 1, true},
		// Dropping both changed bytes costs as much as replacing them.
		{"over 64 bytes, typos at both ends", long, "//" + mutate(mutate(long, 0, 'x'), 99, 'y') + "//", 2, 3, 101, 2, true},
		{"over 64 bytes, a byte short", long, "// " + long[:70] + long[71:] + " //", 1, 3, 102, 1, true},
		{"over 128 bytes with a typo", longer, "// " + mutate(longer, 150, 'x') + " //", 1, 3, 203, 1, true},
		{"over 128 bytes, a byte more", longer, "// " + longer[:130] + "x" + longer[130:] + " //", 1, 3, 204, 1, true},
		{"over 128 bytes, over max", longer, "// " + mutate(mutate(longer, 1, 'x'), 150, 'x') + " //", 1, 0, 0, 0, false},
		{"over 128 bytes, longer than text", longer, longer[:150], 50, 0, 150, 50, true},
		{"over 256 bytes", sized(300), "\t" + mutate(sized(300), 299, 'x') + "\n", 1, 1, 300, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, end, d, ok := Find(tt.pattern, tt.text, tt.max)
			if ok != tt.ok || ok && (start != tt.start || end != tt.end || d != tt.d) {
				t.Errorf("Find(%q, %q, %d) = %d, %d, %d, %v, want %d, %d, %d, %v",
					tt.pattern, tt.text, tt.max, start, end, d, ok, tt.start, tt.end, tt.d, tt.ok)
			}
			if !tt.ok {
				return
			}
			if rs, re, rd := referenceFind(tt.pattern, tt.text); rs != tt.start || re != tt.end || rd != tt.d {
				t.Fatalf("the table is wrong: referenceFind(%q, %q) = %d, %d, %d", tt.pattern, tt.text, rs, re, rd)
			}
		})
	}
}

// randomWord returns n bytes over alphabet.
func randomWord(r *rand.Rand, alphabet string, n int) string {
	s := make([]byte, n)
	for i := range s {
		s[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(s)
}

// checkFind checks Find(pattern, text, max) against referenceFind for
// each max in maxes.
func checkFind(t *testing.T, pattern, text string, maxes ...int) {
	t.Helper()
	rs, re, rd := referenceFind(pattern, text)
	for _, max := range maxes {
		start, end, d, ok := Find(pattern, text, max)
		if wantOK := rd <= max; ok != wantOK {
			t.Fatalf("Find(%q, %q, %d) = %d, %d, %d, %v, but the closest substring is [%d:%d] at %d",
				pattern, text, max, start, end, d, ok, rs, re, rd)
		}
		if !ok {
			continue
		}
		if start != rs || end != re || d != rd {
			t.Fatalf("Find(%q, %q, %d) = %d, %d, %d, want %d, %d, %d", pattern, text, max, start, end, d, rs, re, rd)
		}
		if got := Distance(pattern, text[start:end]); got != d {
			t.Fatalf("Find(%q, %q, %d) = %d, %d, %d, but Distance(%q, %q) = %d",
				pattern, text, max, start, end, d, pattern, text[start:end], got)
		}
	}
}

func TestFindMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const alphabet = "abcd"
	for _, maxLen := range []int{8, 70, 140, 300, 700} {
		for range 4000 * 8 / maxLen {
			// A pattern and an edited copy of it inside random text, or two
			// unrelated strings.
			pattern, copy := randomPair(r, maxLen)
			text := randomWord(r, alphabet, r.IntN(maxLen+1)) + copy + randomWord(r, alphabet, r.IntN(maxLen+1))
			if r.IntN(4) == 0 {
				text = copy
			}
			checkFind(t, pattern, text, -1, 0, 1, 3, len(pattern)/4, len(pattern))
		}
	}
}

func FuzzFind(f *testing.F) {
	f.Add("retrun x, nil", "\t\treturn x, nil // ok", 3)
	f.Add("", "abc", 0)
	f.Add("abc", "", 5)
	f.Add(sized(65), "x"+sized(66), 3)
	f.Add(sized(129), "//"+sized(200)[3:], 70)
	f.Add(sized(300), sized(301), 1)
	f.Fuzz(func(t *testing.T, pattern, text string, max int) {
		if len(pattern)*len(text) > 1<<20 {
			t.Skip("the reference is quadratic")
		}
		checkFind(t, pattern, text, max)
	})
}

// benchText returns n bytes of code-like text, in lines, and a pattern of
// m bytes taken from its middle with about one edit per 20 bytes.
func benchText(n, m int) (pattern, text string) {
	r := rand.New(rand.NewPCG(13, 14))
	const alphabet = "abcdefghijklmnopqrstuvwxyz_(){}.,:= \t0123456789"
	var s strings.Builder
	for s.Len() < n {
		s.WriteString(randomWord(r, alphabet, min(20+r.IntN(60), n-s.Len()-1)))
		s.WriteByte('\n')
	}
	text = s.String()
	p := []byte(text[n/2 : n/2+m])
	for i := r.IntN(20); i < len(p); i += 1 + r.IntN(40) {
		p[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(p), text
}

func BenchmarkFind(b *testing.B) {
	for _, m := range []int{40, 200} {
		pattern, text := benchText(20000, m)
		b.Run(fmt.Sprintf("%dB/in%dB", m, len(text)), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, _, _, ok := Find(pattern, text, m/4); !ok {
					b.Fatal("the pattern was not found")
				}
			}
		})
	}
}
