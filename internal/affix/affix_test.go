package affix

import (
	"strings"
	"testing"
)

// naivePrefix and naiveSuffix are Prefix and Suffix a byte at a time.
func naivePrefix(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func naiveSuffix(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	return i
}

// TestAffix compares Prefix and Suffix with a byte-by-byte count, for
// texts that differ before, inside and after whole blocks and chunks.
func TestAffix(t *testing.T) {
	long := strings.Repeat("abcdefgh", 1200) // 9600 bytes: two blocks and more
	var cases [][2]string
	for _, at := range []int{0, 1, 63, 64, 65, 4095, 4096, 4097, 4160, 9599} {
		b := []byte(long)
		b[at] = 'X'
		cases = append(cases, [2]string{long, string(b)})
	}
	cases = append(cases, [2]string{"", ""}, [2]string{"", "a"}, [2]string{long, long}, [2]string{long, long[:5000]}, [2]string{long[100:], long})
	for _, c := range cases {
		a, b := c[0], c[1]
		if got, want := Prefix(a, b), naivePrefix(a, b); got != want {
			t.Errorf("Prefix of %d and %d bytes = %d, want %d", len(a), len(b), got, want)
		}
		if got, want := Suffix(a, b), naiveSuffix(a, b); got != want {
			t.Errorf("Suffix of %d and %d bytes = %d, want %d", len(a), len(b), got, want)
		}
	}
}

// FuzzAffix checks Prefix and Suffix against a byte-by-byte count.
func FuzzAffix(f *testing.F) {
	f.Add("hello world", "hello there")
	f.Fuzz(func(t *testing.T, a, b string) {
		if got, want := Prefix(a, b), naivePrefix(a, b); got != want {
			t.Fatalf("Prefix(%q, %q) = %d, want %d", a, b, got, want)
		}
		if got, want := Suffix(a, b), naiveSuffix(a, b); got != want {
			t.Fatalf("Suffix(%q, %q) = %d, want %d", a, b, got, want)
		}
	})
}
