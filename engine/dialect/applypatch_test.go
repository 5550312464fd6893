package dialect

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/rogpeppe/go-internal/txtar"
)

func TestPatchMarkerOf(t *testing.T) {
	for _, tt := range []struct {
		line   string
		marker patchMarker
		path   string
	}{
		{"*** Begin Patch", beginPatch, ""},
		{" *** Begin Patch ", beginPatch, ""},
		{"*** begin patch", beginPatch, ""},
		{"*** End Patch", endPatch, ""},
		{"*** End of File", endOfFile, ""},
		{"*** Add File: a/b.txt", addFile, "a/b.txt"},
		{"  *** Update File: foo.txt", updateFile, "foo.txt"},
		{"*** Delete File: `./x.go`", deleteFile, "x.go"},
		{"*** Move to: dir/new name.txt ", moveTo, "dir/new name.txt"},
		{"*** Add File:", addFile, ""},
		{"*** Frobnicate File: foo", otherHeader, ""},
		{" *** a note in a context line", noPatchMarker, ""},
		{"**bold** text", noPatchMarker, ""},
		{"*** Begin Patch now", otherHeader, ""},
		{"", noPatchMarker, ""},
	} {
		m, path := patchMarkerOf(tt.line)
		if m != tt.marker || path != tt.path {
			t.Errorf("patchMarkerOf(%q) = %d, %q; want %d, %q", tt.line, m, path, tt.marker, tt.path)
		}
	}
}

func TestHeredocDelimiter(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{"apply_patch <<'EOF'", "EOF"},
		{`apply_patch <<"EOF"`, "EOF"},
		{"apply_patch <<EOF", "EOF"},
		{"<<'PATCH'", "PATCH"},
		{"cat <<-END | apply_patch", "END"},
		{"apply_patch", ""},
		{"x << 2", ""},
	} {
		if got := heredocDelimiter(tt.line); got != tt.want {
			t.Errorf("heredocDelimiter(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

// FuzzApplyPatch checks what holds for any text read as apply-patch: the
// text edits are whole lines, the paths are clean, a pure insertion goes
// at the end, a move names its destination, and an answer reads the same
// with CRLF line ends as with LF.
func FuzzApplyPatch(f *testing.F) {
	for _, pattern := range []string{
		filepath.Join("testdata", ApplyPatch, "*.txtar"),
		filepath.Join("..", "..", "testdata", "conformance", "*", "*", "patch.txt"),
	} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		if len(files) == 0 {
			f.Fatalf("no seeds in %s", pattern)
		}
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			if strings.HasSuffix(file, ".txtar") {
				data = []byte(section(txtar.Parse(data), "answer"))
			}
			f.Add(string(data))
		}
	}
	f.Add("*** Begin Patch\n*** Update File: a\n@@\n\n\n@@ x\n@@\n*** End of File\n")
	f.Add("<<EOF\n*** Begin Patch\n*** Update File: a\n*** Move to: b\n-x\n\tbad\nEOF\n")
	f.Add("*** Begin Patch\n*** Update File: a\n@@ -1 +1 @@\n+x\n```\n*** Begin Patch\n")
	f.Fuzz(func(t *testing.T, text string) {
		blocks := parseApplyPatch(newDocument(text))
		checkBlocks(t, text, blocks)
		for i, b := range blocks {
			if b.Dialect != ApplyPatch {
				t.Errorf("block %d: dialect %q", i+1, b.Dialect)
			}
			if b.Err != nil {
				continue
			}
			for _, p := range []string{b.Path, b.NewPath} {
				if strings.HasPrefix(p, "./") || p != strings.TrimSpace(p) {
					t.Errorf("block %d: path %q is not clean", i+1, p)
				}
			}
			if b.Path == "" {
				t.Errorf("block %d: no path", i+1)
			}
			for _, s := range []string{b.Old, b.New} {
				if s != "" && !strings.HasSuffix(s, "\n") {
					t.Errorf("block %d: %q is not whole lines", i+1, s)
				}
			}
			switch b.Op {
			case engine.OpReplace:
				if b.Old == b.New {
					t.Errorf("block %d: a replace that changes nothing", i+1)
				}
			case engine.OpInsert:
				if b.Line != engine.AtEnd || b.New == "" {
					t.Errorf("block %d: insert of %q after line %d", i+1, b.New, b.Line)
				}
			}
		}
		if strings.Contains(text, "\r") {
			return
		}
		crlf := parseApplyPatch(newDocument(strings.ReplaceAll(text, "\n", "\r\n")))
		if got, want := render(crlf, nil), render(blocks, nil); got != want {
			t.Errorf("with CRLF line ends:\n%s\nwith LF:\n%s", got, want)
		}
	})
}

// BenchmarkParseApplyPatch reads a patch of 10,000 chunks, to show the
// parser linear in the size of the answer.
func BenchmarkParseApplyPatch(b *testing.B) {
	var text strings.Builder
	text.WriteString("*** Begin Patch\n*** Update File: big.go\n")
	for i := range 10000 {
		fmt.Fprintf(&text, "@@ func f%d() {\n \tx := %d\n-\ty := x\n+\ty := x + 1\n", i, i)
	}
	text.WriteString("*** End Patch\n")
	doc := newDocument(text.String())
	for b.Loop() {
		if blocks := parseApplyPatch(doc); len(blocks) != 10000 {
			b.Fatalf("%d blocks", len(blocks))
		}
	}
}
