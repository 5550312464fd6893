package mcpserver

import (
	"io"
	"strings"
	"testing"
)

// TestScanner checks what the scanner finds in a line, fed whole and a
// byte at a time: a long line reaches it in pieces cut anywhere.
func TestScanner(t *testing.T) {
	tests := []struct {
		line  string
		first byte
		depth int
		keys  int
		id    string // the raw id kept; "" none
	}{
		{line: `{"jsonrpc":"2.0","id":7,"method":"ping"}`, first: '{', depth: 1, keys: keyID | keyMethod, id: `7`},
		{line: ` {"method":"x","params":{"id":1,"a":[{"id":2}]},"id":"late"}`, first: '{', depth: 4, keys: keyID | keyMethod, id: `"late"`},
		{line: `{"id":"a\"b\\","method":"x"}`, first: '{', depth: 1, keys: keyID | keyMethod, id: `"a\"b\\"`},
		{line: `{"id" : -1.5e3 , "result":{}}`, first: '{', depth: 2, keys: keyID | keyResult, id: `-1.5e3`},
		{line: `{"id":1,"id":2}`, first: '{', depth: 1, keys: keyID, id: `2`},
		{line: `{"id":{"x":1},"error":null}`, first: '{', depth: 2, keys: keyID | keyError},
		{line: `{"\u0069d":1,"idx":2,"Id":3}`, first: '{', depth: 1},
		{line: `{"params":"\"id\":5","x":"{[{["}`, first: '{', depth: 1},
		{line: `{"id":"` + strings.Repeat("x", maxIDBytes) + `"}`, first: '{', depth: 1, keys: keyID},
		{line: `[{"id":1},{"id":2}]`, first: '[', depth: 2},
		{line: strings.Repeat("[", 5000), first: '[', depth: 5000},
		{line: "\t\r", first: 0},
		{line: `not json "id":1`, first: 'n'},
	}
	for _, tt := range tests {
		whole, bytewise := &scanner{}, &scanner{}
		whole.feed([]byte(tt.line))
		for i := range len(tt.line) {
			bytewise.feed([]byte(tt.line[i : i+1]))
		}
		for name, s := range map[string]*scanner{"whole": whole, "byte by byte": bytewise} {
			if s.first != tt.first || s.maxDepth != tt.depth || s.keys != tt.keys || string(s.id) != tt.id {
				t.Errorf("%.60s, %s: first %q depth %d keys %b id %s; want %q %d %b %s",
					tt.line, name, s.first, s.maxDepth, s.keys, s.id, tt.first, tt.depth, tt.keys, tt.id)
			}
		}
	}
}

// TestLineReader checks how lines are cut and measured at the limit.
func TestLineReader(t *testing.T) {
	const limit = 8
	input := "12345678\n123456789\n\r\n" + strings.Repeat("x", 200_000) + "\n1234567890"
	want := []struct {
		data string // "" when over
		size int64
		over bool
	}{
		{"12345678\n", 8, false},
		{"", 9, true},
		{"\r\n", 1, false},
		{"", 200_000, true},
		{"", 10, true},
	}
	lr := newLineReader(strings.NewReader(input), limit)
	for i, w := range want {
		ln, err := lr.next()
		if err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if string(ln.data) != w.data || ln.size != w.size || ln.over != w.over {
			t.Errorf("line %d: %q size %d over %v; want %q %d %v", i, ln.data, ln.size, ln.over, w.data, w.size, w.over)
		}
	}
	if _, err := lr.next(); err != io.EOF {
		t.Errorf("after the last line: %v, want EOF", err)
	}
}
