package corpus

import (
	"slices"
	"strings"
	"testing"
)

func TestSwapRun(t *testing.T) {
	tests := []struct{ name, from, to, want string }{
		{"Float64", "64", "32", "Float32"},
		{"uint64", "64", "8", "uint8"},
		{"Float64bits", "64", "32", "Float32bits"},
		{"LoadV2", "2", "1", "LoadV1"},
		{"x264", "64", "32", "x264"}, // 264 is another number
		{"arm64x64", "64", "32", "arm32x32"},
	}
	for _, tt := range tests {
		if got := swapRun(tt.name, tt.from, tt.to); got != tt.want {
			t.Errorf("swapRun(%q, %q, %q) = %q, want %q", tt.name, tt.from, tt.to, got, tt.want)
		}
	}
}

func TestDigitNames(t *testing.T) {
	golang := &languages()[0]
	tests := []struct {
		line string
		want []digitName
	}{
		{"x := math.Float64bits(f) // Float32 in a comment", []digitName{{"Float64bits", "64"}}},
		{`n := uint32(v) + "int64"`, []digitName{{"uint32", "32"}}},
		{"s := jsonv2.Marshal(sb1, LoadV3)", []digitName{{"jsonv2", "2"}, {"LoadV3", "3"}}}, // sb1 numbers, V3 versions
		{"r := x12 + x64a", []digitName{{"x64a", "64"}}},
	}
	for _, tt := range tests {
		if got := digitNames(golang, tt.line); !slices.Equal(got, tt.want) {
			t.Errorf("digitNames(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

func TestSuffixed(t *testing.T) {
	golang, c := &languages()[0], &languages()[1]
	tests := []struct {
		l       *lang
		name    string
		digits  string
		version bool
		want    string
	}{
		{golang, "load", "2", true, "loadV2"},
		{golang, "MAX_LEN", "2", true, "MAX_LEN_V2"},
		{golang, "read_all", "1", true, "read_all_v1"},
		{c, "load", "3", true, "load_v3"},
		{golang, "load", "64", false, "load64"},
		{c, "LIMIT", "32", false, "LIMIT_32"},
	}
	for _, tt := range tests {
		if got := suffixed(tt.l, tt.name, tt.digits, tt.version); got != tt.want {
			t.Errorf("suffixed(%s, %q, %q, %v) = %q, want %q", tt.l.name, tt.name, tt.digits, tt.version, got, tt.want)
		}
	}
}

// caseLines returns a text's lines without its byte order mark, carriage
// returns and final newline.
func caseLines(s string) []string {
	s = strings.ReplaceAll(strings.TrimPrefix(s, "\ufeff"), "\r\n", "\n")
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// wordPairs returns the pairs of words in which two lines differ, words
// standing in the same order in both, or false when the lines do not have
// as many words.
func wordPairs(a, b string) ([][2]string, bool) {
	wa, wb := words(a), words(b)
	if len(wa) != len(wb) {
		return nil, false
	}
	var pairs [][2]string
	for i := range wa {
		if wa[i] != wb[i] {
			pairs = append(pairs, [2]string{wa[i], wb[i]})
		}
	}
	return pairs, true
}

// quoted returns, for a case of one edit whose Old quotes as many lines as
// its region, the lines of Old, of New when it has as many, and of the
// region in File.
func quoted(t *testing.T, c Case) (old, new, file []string, ok bool) {
	t.Helper()
	e := c.Edits[0]
	old, new, all := caseLines(e.Old), caseLines(e.New), caseLines(c.File)
	if c.Line < 1 || c.Line-1+len(old) > len(all) {
		t.Errorf("%s: %d lines of Old at line %d of %d", c.Name, len(old), c.Line, len(all))
		return nil, nil, nil, false
	}
	return old, new, all[c.Line-1 : c.Line-1+len(old)], true
}

// TestSiblingDigitCases checks that a trap-sibling-digit case quotes its
// region with two lines or more differing from the file's, every word in
// which they differ by the same run of digits for another, and that a
// digit-slip case's copy differs from the file on one kept line only, by
// such a run, which Want keeps as the file has it.
func TestSiblingDigitCases(t *testing.T) {
	g := newTestGenerator(t)
	for _, kind := range []string{"trap-sibling-digit", "digit-slip"} {
		cases, err := g.Cases(kind, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			old, _, file, ok := quoted(t, c)
			if !ok {
				continue
			}
			var differ []int
			parts := map[[2]string]bool{}
			for i := range old {
				pairs, ok := wordPairs(old[i], file[i])
				if !ok {
					// The model's change, for a slip: Old is the file's.
					t.Errorf("%s: line %d: the copy %q and the file %q have different words", c.Name, c.Line+i, old[i], file[i])
					continue
				}
				if len(pairs) > 0 {
					differ = append(differ, i)
				}
				for _, p := range pairs {
					parts[differingPart(p[0], p[1])] = true
				}
			}
			want := 2
			if !c.Trap {
				want = 1
			}
			if len(differ) < want || c.Trap != (len(differ) >= 2) {
				t.Errorf("%s: %d lines of the copy differ from the file's, want %s", c.Name, len(differ), map[bool]string{true: "2 or more", false: "1"}[c.Trap])
			}
			if len(parts) != 1 {
				t.Errorf("%s: the copy differs from the file by %v, want one run of digits for another", c.Name, parts)
			}
			for p := range parts {
				if !isDigit(p[0][len(p[0])-1]) || !isDigit(p[1][len(p[1])-1]) {
					t.Errorf("%s: the copy differs from the file by %q for %q, want digits", c.Name, p[0], p[1])
				}
			}
			if !c.Trap && len(differ) == 1 {
				// The change may add or remove lines above it.
				x := differ[0]
				if want := caseLines(c.Want); !slices.Contains(want, file[x]) || slices.Contains(want, old[x]) {
					t.Errorf("%s: Want lacks the file's line %d, or has the slip %q", c.Name, c.Line+x, old[x])
				}
			}
		}
	}
}

// newTestGenerator returns a generator over the Go source tree at seed 1,
// or skips the test when there is none.
func newTestGenerator(t *testing.T) *Generator {
	t.Helper()
	root, err := SourceRoot(t.Context())
	if err != nil {
		t.Skipf("no Go source tree: %v", err)
	}
	g, err := NewGenerator(root, 1)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
