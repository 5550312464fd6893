package lsp

import (
	"path/filepath"
	"testing"
)

func TestUnder(t *testing.T) {
	for _, tc := range []struct {
		p, dir string
		want   bool
	}{
		{"/w/src/a.go", "/w/src/a.go", true},
		{"/w/src/a.go", "/w/src", true},
		{"/w/src/a.go", "/w", true},
		{"/w/src/a.go", "/", true},
		{"/w/srcx/a.go", "/w/src", false},
		{"/w/src", "/w/src/a.go", false},
		{"/w/src.go", "/w/src", false},
	} {
		p, dir := filepath.FromSlash(tc.p), filepath.FromSlash(tc.dir)
		if got := under(p, dir); got != tc.want {
			t.Errorf("under(%q, %q) = %v, want %v", p, dir, got, tc.want)
		}
	}
}
