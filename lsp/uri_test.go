package lsp

import (
	"path"
	"strings"
	"testing"

	"go.lsp.dev/uri"
)

func TestFilePath(t *testing.T) {
	for _, tc := range []struct {
		uri     string
		windows bool
		want    string // "" for an error
	}{
		{"file:///R/a.txt", false, "/R/a.txt"},
		{"file:///R/./a.txt", false, "/R/a.txt"},
		{"file:///R//a.txt", false, "/R/a.txt"},
		{"file:///R/sub/../a.txt", false, "/R/a.txt"},
		{"file:///R/../../a.txt", false, "/a.txt"},
		{"file:///R/a.txt/", false, "/R/a.txt"},
		{"file:///R/%61.txt", false, "/R/a.txt"},
		{"file:///R/a%20b.txt", false, "/R/a b.txt"},
		{"file:///R/a+b.txt", false, "/R/a+b.txt"},
		{"file:///R/C%23/a.txt", false, "/R/C#/a.txt"},
		{"file:///R/C#/a.txt", false, "/R/C#/a.txt"}, // no fragment: a character not escaped
		{"file:///R/what?.txt", false, "/R/what?.txt"},
		{"file:///R/a\\b.txt", false, "/R/a\\b.txt"}, // a character of the name on Unix
		{"file://localhost/R/a.txt", false, "/R/a.txt"},
		{"file://LocalHost/R/a.txt", false, "/R/a.txt"},
		{"file:/R/a.txt", false, "/R/a.txt"},
		{"FILE:///R/a.txt", false, "/R/a.txt"},
		{"file:///c:/x/a.txt", false, "/c:/x/a.txt"}, // a folder named c: on Unix
		{"file://server/R/a.txt", false, ""},
		{"file://user@localhost/R/a.txt", false, ""},
		{"file://localhost:80/R/a.txt", false, ""},
		{"file://", false, ""},
		{"file:R/a.txt", false, ""},
		{"file:///R/%zz", false, ""},
		{"file:///R/a\n.txt", false, ""},
		{"untitled:Untitled-1", false, ""},
		{"https://example.com/a.txt", false, ""},
		{"", false, ""},

		{"file:///C:/x/a.txt", true, `C:\x\a.txt`},
		{"file:///c:/x/a.txt", true, `C:\x\a.txt`},
		{"file:///c%3A/x/a.txt", true, `C:\x\a.txt`},
		{"file:///C%3a/x/./y/../a.txt", true, `C:\x\a.txt`},
		{"file:///C:", true, `C:\`},
		{"file:///C:/", true, `C:\`},
		{"file:///C:/..", true, `C:\`},
		{"file:///C:/x\\a.txt", true, `C:\x\a.txt`},
		{"file://localhost/C:/x/a.txt", true, `C:\x\a.txt`},
		{"file://server/share/x/a.txt", true, `\\server\share\x\a.txt`},
		{"file://server/share", true, `\\server\share\`},
		{"file://server/", true, ""},
		{"file:///x/a.txt", true, ""}, // no drive
		{"file:///C:x/a.txt", true, ""},
	} {
		got, err := filePath(tc.uri, tc.windows)
		if tc.want == "" {
			if err == nil {
				t.Errorf("filePath(%q, windows %v) = %q, want an error", tc.uri, tc.windows, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("filePath(%q, windows %v) = %q, %v; want %q", tc.uri, tc.windows, got, err, tc.want)
		}
	}
}

// FuzzFilePath checks that any URI gives a clean absolute path or an
// error, never a panic; that the path is a fixed point (the URI of the
// path gives it back); and that on Windows it has a drive or a share.
func FuzzFilePath(f *testing.F) {
	for _, s := range []string{
		"file:///R/a.txt", "file:///R/./%61.txt", "file://localhost/R//a", "file:///c%3A/x", "file://server/share/x",
		"FILE:/x/../../y", "file:///R/C#/a?b", "file://u@h:1/x", "file:///%", "file:///C:x",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		p, err := filePath(u, false)
		if err == nil {
			if !strings.HasPrefix(p, "/") || path.Clean(p) != p {
				t.Fatalf("filePath(%q) = %q: not clean and absolute", u, p)
			}
			if again, err := filePath(string(uri.File(p)), false); err != nil || again != p {
				t.Fatalf("filePath(%q) = %q, but its URI %s gives %q, %v", u, p, uri.File(p), again, err)
			}
		}
		w, err := filePath(u, true)
		if err == nil {
			drive := len(w) >= 3 && isLetter(w[0]) && w[1] == ':' && w[2] == '\\' && 'A' <= w[0] && w[0] <= 'Z'
			if !drive && !strings.HasPrefix(w, `\\`) || strings.Contains(w, "/") {
				t.Fatalf("filePath(%q, windows) = %q: no drive letter or share", u, w)
			}
		}
	})
}
