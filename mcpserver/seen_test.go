package mcpserver

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// What a session keeps of the texts it saw stays within its bounds: each
// text once, the last seenPerFile of a file, most recent first, the
// seenFiles files seen most recently, no text over seenBytes, and no more
// than seenTotal bytes in all.
func TestSeenTextsBounds(t *testing.T) {
	clock := time.Date(2026, 11, 27, 22, 10, 4, 0, time.UTC)
	s := newSeenTexts(func() time.Time { return clock })
	texts := func(abs string) []string {
		var out []string
		for _, v := range s.versions(abs) {
			out = append(out, v.Text)
		}
		return out
	}
	for _, text := range []string{"a", "b", "a", "c", "d"} {
		s.saw("/w/f.go", text)
	}
	if got, want := texts("/w/f.go"), []string{"d", "c", "b"}; !slices.Equal(got, want) {
		t.Errorf("texts %q, want %q: each once, the last %d, most recent first", got, want, seenPerFile)
	}
	if v := s.versions("/w/f.go")[0]; v.Name != "the file as graft mcp saw it at 22:10:04 (just now)" {
		t.Errorf("name %q", v.Name)
	}
	s.saw("/w/big.go", strings.Repeat("x", seenBytes+1))
	if got := texts("/w/big.go"); got != nil {
		t.Errorf("a text over %d bytes kept", seenBytes)
	}
	for i := range seenFiles {
		s.saw(fmt.Sprintf("/w/%d.go", i), "text")
	}
	if texts("/w/f.go") != nil || texts("/w/0.go") == nil || texts(fmt.Sprintf("/w/%d.go", seenFiles-1)) == nil {
		t.Errorf("beyond %d files, the file seen least recently is not the one dropped", seenFiles)
	}
	// Large texts: the least recently seen files go, to keep the total.
	big := strings.Repeat("y", seenBytes)
	for i := range seenTotal / seenBytes {
		s.saw(fmt.Sprintf("/w/big%d.go", i), big)
	}
	if s.bytes > seenTotal || texts("/w/0.go") != nil || texts(fmt.Sprintf("/w/big%d.go", seenTotal/seenBytes-1)) == nil {
		t.Errorf("%d bytes kept, over %d, or not the files seen least recently dropped", s.bytes, seenTotal)
	}
	total := 0
	for _, f := range s.files {
		for _, t := range f.texts {
			total += len(t.text)
		}
	}
	if total != s.bytes {
		t.Errorf("the count of bytes kept is %d, the texts hold %d", s.bytes, total)
	}
}
