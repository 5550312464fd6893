package dialect

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the want section of the testdata files")

// TestParse runs the cases in testdata: each file's comment states a rule,
// its "answer" section is an agent's answer, the optional "options" section
// holds lines "format NAME", "target PATH", "crlf" (the answer is read with
// CRLF line ends) and "exists PATH" (Options.Exists says that file exists),
// and "want" is what Parse returns, as render writes it.
func TestParse(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(file, "testdata"+string(filepath.Separator))), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			answer, opt := readCase(t, ar)
			blocks, err := Parse(answer, opt)
			checkBlocks(t, answer, blocks)
			got := render(blocks, err)
			want := section(ar, "want")
			if *update {
				setSection(ar, "want", got)
				if err := os.WriteFile(file, txtar.Format(ar), 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != want {
				t.Errorf("%s\n%s\ngot:\n%s\nwant:\n%s", file, strings.TrimSpace(string(ar.Comment)), got, want)
			}
		})
	}
}

// readCase returns the answer and the options of a testdata case.
func readCase(t *testing.T, ar *txtar.Archive) (string, Options) {
	t.Helper()
	answer := section(ar, "answer")
	var opt Options
	var exists []string
	for line := range strings.Lines(section(ar, "options")) {
		key, value, _ := strings.Cut(strings.TrimSpace(line), " ")
		switch key {
		case "format":
			opt.Format = value
		case "target":
			opt.Target = value
		case "crlf":
			answer = strings.ReplaceAll(answer, "\n", "\r\n")
		case "exists":
			exists = append(exists, value)
		case "":
		default:
			t.Fatalf("unknown option %q", key)
		}
	}
	if exists != nil {
		opt.Exists = func(path string) bool { return slices.Contains(exists, path) }
	}
	return answer, opt
}

func section(ar *txtar.Archive, name string) string {
	for _, f := range ar.Files {
		if f.Name == name {
			return string(f.Data)
		}
	}
	return ""
}

func setSection(ar *txtar.Archive, name, data string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(data)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
}

// render writes the result of Parse one block to a paragraph: its number,
// lines, dialect, op, path and hints, then its error or its texts.
func render(blocks []Block, err error) string {
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	var b strings.Builder
	for i, blk := range blocks {
		fmt.Fprintf(&b, "#%d lines %d-%d %s", i+1, blk.Source.StartLine, blk.Source.EndLine, blk.Dialect)
		if blk.Err == nil {
			fmt.Fprintf(&b, " %s", blk.Op)
		}
		fmt.Fprintf(&b, " path=%q", blk.Path)
		if blk.NewPath != "" {
			fmt.Fprintf(&b, " to=%q", blk.NewPath)
		}
		if blk.Line != 0 || blk.Op == engine.OpInsert && blk.Err == nil {
			fmt.Fprintf(&b, " line=%d", blk.Line)
		}
		if blk.ReplaceAll {
			b.WriteString(" all")
		}
		if len(blk.Scope) > 0 {
			fmt.Fprintf(&b, " scope=%q", strings.Join(blk.Scope, " > "))
		}
		if blk.EndOfFile {
			b.WriteString(" eof")
		}
		if blk.Unchecked {
			b.WriteString(" unchecked")
		}
		b.WriteString("\n")
		switch {
		case blk.Err != nil:
			fmt.Fprintf(&b, "  error: %s\n", blk.Err)
		case blk.Op == engine.OpReplace:
			fmt.Fprintf(&b, "  old %q\n  new %q\n", blk.Old, blk.New)
		case blk.Op == engine.OpDelete && blk.Old != "":
			fmt.Fprintf(&b, "  old %q\n", blk.Old)
		case blk.Op == engine.OpDelete || blk.Op == engine.OpMove:
			// The header line says it all.
		default:
			fmt.Fprintf(&b, "  new %q\n", blk.New)
		}
	}
	return b.String()
}

// checkBlocks checks what holds for every result of Parse: each block has a
// dialect and a span within the text, in the order of the text, and is either
// malformed or a sensible edit.
func checkBlocks(t *testing.T, text string, blocks []Block) {
	t.Helper()
	lines := len(newDocument(text).lines)
	for i, b := range blocks {
		if !slices.Contains(Names(), b.Dialect) {
			t.Errorf("block %d: dialect %q", i+1, b.Dialect)
		}
		if s := b.Source; s.StartLine < 1 || s.EndLine < s.StartLine || s.EndLine > lines {
			t.Errorf("block %d: span %d-%d in a text of %d lines", i+1, s.StartLine, s.EndLine, lines)
		}
		if i > 0 && b.Source.StartLine < blocks[i-1].Source.StartLine {
			t.Errorf("block %d starts on line %d, before block %d on line %d",
				i+1, b.Source.StartLine, i, blocks[i-1].Source.StartLine)
		}
		if b.Err != nil {
			continue
		}
		switch b.Op {
		case engine.OpReplace:
			if b.Old == "" || b.Line < 0 {
				t.Errorf("block %d: replace with old %q and line %d", i+1, b.Old, b.Line)
			}
		case engine.OpCreate:
			if b.Old != "" {
				t.Errorf("block %d: create with old %q", i+1, b.Old)
			}
		case engine.OpInsert:
			if b.Line < 0 && b.Line != engine.AtEnd {
				t.Errorf("block %d: insert after line %d", i+1, b.Line)
			}
		case engine.OpDelete:
			// The lines it removes, unless the dialect deletes by name.
			if b.Path == "" || b.Unchecked && b.Old != "" || b.New != "" {
				t.Errorf("block %d: delete of %q with old %q and new %q", i+1, b.Path, b.Old, b.New)
			}
		case engine.OpMove:
			if b.Path == "" || b.NewPath == "" {
				t.Errorf("block %d: move from %q to %q", i+1, b.Path, b.NewPath)
			}
		default:
			t.Errorf("block %d: op %s", i+1, b.Op)
		}
	}
}

func TestParseUnknownFormat(t *testing.T) {
	_, err := Parse("<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", Options{Format: "edit-v9"})
	if err == nil || errors.Is(err, ErrNoBlocks) || !strings.Contains(err.Error(), `"edit-v9"`) {
		t.Errorf("Parse with an unknown format: %v, want an error naming it", err)
	}
}

func TestParseNoBlocks(t *testing.T) {
	for _, text := range []string{
		"",
		"\n\n",
		"Nothing to change here.\n",
		"Title\n=======\n\nSome text.\n",
		`{"name": "read_file", "input": {"path": "a.go"}}`,
	} {
		if _, err := Parse(text, Options{}); !errors.Is(err, ErrNoBlocks) {
			t.Errorf("Parse(%q): %v, want ErrNoBlocks", text, err)
		}
	}
}

func TestNames(t *testing.T) {
	names := Names()
	for _, want := range []string{SearchReplace, StrReplace} {
		if !slices.Contains(names, want) {
			t.Errorf("Names() = %q, lacks %q", names, want)
		}
	}
	names[0] = "changed"
	if Names()[0] == "changed" {
		t.Error("Names returns the registry itself, not a copy")
	}
}

// TestBlockNumbers checks that blocks are numbered as a person counts them
// in the answer: the file sections of one apply-patch are one block.
func TestBlockNumbers(t *testing.T) {
	answer := "First the patch:\n\n" +
		"*** Begin Patch\n*** Update File: a.go\n@@\n-a\n+A\n*** Add File: b.go\n+b\n*** Delete File: c.go\n*** End Patch\n\n" +
		"Then a search and replace:\n\nd.go\n```\n<<<<<<< SEARCH\nd\n=======\nD\n>>>>>>> REPLACE\n```\n\n" +
		"And another patch:\n\n*** Begin Patch\n*** Update File: e.go\n@@\n-e\n+E\n*** End Patch\n"
	blocks, err := Parse(answer, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	for _, b := range blocks {
		got = append(got, b.Number)
	}
	if want := []int{1, 1, 1, 2, 3}; !slices.Equal(got, want) {
		t.Errorf("numbers %v, want %v", got, want)
	}
	if n := Count(blocks); n != 3 {
		t.Errorf("Count = %d, want 3: the patch's three files are one block", n)
	}
	if n := Count(blocks[1:4]); n != 2 {
		t.Errorf("Count of the last two files of the patch and the next block = %d, want 2", n)
	}
}

// BenchmarkParseAnswer parses an answer of 50 SEARCH/REPLACE blocks over
// ten files (552 lines), as an answer buffer's diagnostics parse it on each
// refresh, every dialect read and the detection rules applied.
func BenchmarkParseAnswer(b *testing.B) {
	text := benchAnswer()
	b.ReportAllocs()
	for b.Loop() {
		if blocks, err := Parse(text, Options{}); err != nil || len(blocks) != 50 {
			b.Fatalf("%d blocks, %v", len(blocks), err)
		}
	}
}

// benchAnswer returns the answer of BenchmarkParseAnswer.
func benchAnswer() string {
	var sb strings.Builder
	sb.WriteString("Here are the changes.\n\n")
	for file := range 10 {
		for j := range 5 {
			k := (2*j + 1) * 100
			fmt.Fprintf(&sb, "f%d.go\n```go\n<<<<<<< SEARCH\n\ty := x * %d\n\treturn y + %d\n=======\n\ty := x * %d\n\treturn y - %d\n>>>>>>> REPLACE\n```\n\n", file, k, file, k, file)
		}
	}
	return sb.String()
}
