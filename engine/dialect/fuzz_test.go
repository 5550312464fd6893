package dialect

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzParse checks that any text parses without panic into blocks that keep
// the invariants of checkBlocks, in every format, and that whole-line
// dialects give whole lines.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(section(ar, "answer"))
	}
	f.Add("<<<<<<< SEARCH\n:start_line:\n=======\n>>>>>>> REPLACE")
	f.Add("=======\n>>>>>>> REPLACE\n=======\n")
	f.Add("[[[[\n{\"path\":\"a\",\"old_str\":\"a\",\"new_str\":\"b\"}\n")
	f.Add("<file><path>a.go</path><start_line>3</start_line>\n<<<<<<< SEARCH\na\r\n=======\n")
	f.Add("a\n««« EDIT\n««« EDIT\n═══════ REPL\n»»» EDIT END\n═══════ REPL\n««« EDIT\n»»» EDIT END")
	f.Add("```\n««« EDIT\r\n═══════ REPL\n═══════ REPL\nb\n««« EDIT\n»»» EDIT END\n»»» EDIT END\n")
	f.Add("```\nsrc/a.py\n```\n----------- SEARCH\n=============\n  :start_line:3\n+++++++++++ REPLACE\n")
	f.Add("VERSION\n<<<<<<<<<<<< SEARCH\n1\n============\n==========\n2\n>>>>>>>>>>>> REPLACE\n")
	// Every bare name is a file for half of the runs, so that the rules
	// that ask Options.Exists are fuzzed too.
	everyName := func(string) bool { return true }
	f.Fuzz(func(t *testing.T, text string) {
		for k, format := range append([]string{"", ""}, Names()...) {
			opt := Options{Format: format}
			if k%2 == 1 {
				opt.Exists = everyName
			}
			blocks, err := Parse(text, opt)
			if err != nil && !errors.Is(err, ErrNoBlocks) {
				t.Fatalf("Parse(format %q): %v", format, err)
			}
			if err == nil && len(blocks) == 0 {
				t.Fatalf("Parse(format %q): no blocks and no error", format)
			}
			checkBlocks(t, text, blocks)
			for _, b := range blocks {
				if b.Err != nil || b.Dialect != SearchReplace && b.Dialect != EditV3 {
					continue
				}
				for _, s := range []string{b.Old, b.New} {
					if s != "" && !strings.HasSuffix(s, "\n") {
						t.Errorf("search-replace section %q is not whole lines", s)
					}
				}
				if strings.HasPrefix(b.Path, "./") || b.Path != strings.TrimSpace(b.Path) {
					t.Errorf("path %q is not clean", b.Path)
				}
			}
		}
	})
}
