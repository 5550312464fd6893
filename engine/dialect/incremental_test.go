package dialect

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// sameParse reports where the blocks and error a Parser returned differ
// from those of Parse; "" when they do not.
func sameParse(got []Block, gotErr error, want []Block, wantErr error) string {
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		return fmt.Sprintf("error %v, want %v", gotErr, wantErr)
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d blocks, want %d", len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		ge, we := fmt.Sprint(g.Err), fmt.Sprint(w.Err)
		g.Err, w.Err = nil, nil
		if ge != we || fmt.Sprintf("%#v", g) != fmt.Sprintf("%#v", w) {
			return fmt.Sprintf("block %d:\n%#v (%s)\nwant\n%#v (%s)", i+1, g, ge, w, we)
		}
		if errors.Is(got[i].Err, ErrUnfinished) != errors.Is(want[i].Err, ErrUnfinished) {
			return fmt.Sprintf("block %d: unfinished %v", i+1, errors.Is(got[i].Err, ErrUnfinished))
		}
	}
	return ""
}

// answers returns the answers of the dialects' golden cases, by file.
func answers(t testing.TB) map[string]string {
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out[file] = section(ar, "answer")
	}
	// Answers whose reading looks ahead, or back at a block read before.
	out["stray divider, then a REPLACE marker"] = "x\n>>>>>>> REPLACE\n=======\nfoo\n>>>>>>> REPLACE\nbar\n"
	out["long dividers"] = "a.go\n<<<<<<< SEARCH\nx\n============\ny\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\n============\n=======\nz\n>>>>>>> REPLACE\n"
	out["bare names"] = "VERSION\n<<<<<<< SEARCH\n1\n=======\n2\n>>>>>>> REPLACE\n\nPipfile\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"
	out["a hint after its block"] = "<file><path>a.go</path>\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n<start_line>3</start_line>\n</file>\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n"
	return out
}

// A Parser given an answer as it streams in, line by line or a few bytes
// at a time, and as it is edited anywhere, finds at each step what Parse
// finds: for every golden answer, with files that exist and without. And
// it does go on from where it stood, rather than read it all again, and
// keeps what detection found of the blocks that did not change.
func TestParserFollowsParse(t *testing.T) {
	everyName := func(string) bool { return true }
	resumed, settled := 0, 0
	for file, answer := range answers(t) {
		for _, exists := range []func(string) bool{nil, everyName} {
			opt := Options{Exists: exists}
			check := func(p *Parser, text, step string) {
				t.Helper()
				got, gotErr := p.Parse(text, opt)
				want, wantErr := Parse(text, opt)
				if d := sameParse(got, gotErr, want, wantErr); d != "" {
					t.Fatalf("%s, %s: %s\ntext:\n%s", file, step, d, text)
				}
				if p.resumedAt > 0 {
					resumed++
				}
				if p.settled > 0 {
					settled++
				}
			}
			// Streamed in, line by line, then in chunks of 7 bytes.
			var p Parser
			lines := strings.SplitAfter(answer, "\n")
			for k := range lines {
				check(&p, strings.Join(lines[:k+1], ""), fmt.Sprintf("line %d streamed", k+1))
			}
			p = Parser{}
			for k := 0; k < len(answer); k += 7 {
				check(&p, answer[:k], fmt.Sprintf("byte %d streamed", k))
			}
			// Edited: each line in turn removed, then put back; a line
			// put in before each.
			for k := range lines {
				edited := strings.Join(lines[:k], "") + strings.Join(lines[k+1:], "")
				check(&p, edited, fmt.Sprintf("line %d removed", k+1))
				check(&p, answer, fmt.Sprintf("line %d put back", k+1))
				check(&p, strings.Join(lines[:k], "")+"=======\n"+strings.Join(lines[k:], ""), fmt.Sprintf("a divider before line %d", k+1))
			}
		}
	}
	// The files change between two parses: the bare names that name
	// them are read again.
	for file, answer := range answers(t) {
		for _, opts := range [][2]Options{{{}, {Exists: everyName}}, {{Exists: everyName}, {}}} {
			var p Parser
			p.Parse(answer, opts[0])
			got, gotErr := p.Parse(answer+"\n", opts[1])
			want, wantErr := Parse(answer+"\n", opts[1])
			if d := sameParse(got, gotErr, want, wantErr); d != "" {
				t.Fatalf("%s, parsed again as files changed: %s", file, d)
			}
		}
	}
	if resumed == 0 {
		t.Error("no parse went on from where the last stood")
	}
	if settled == 0 {
		t.Error("no parse took what detection found of a block from the last")
	}
	t.Logf("%d parses went on from a point of the last, %d took detection's reading of blocks from it", resumed, settled)
}

// FuzzParser checks that a Parser that parsed one text finds in a second
// what Parse finds, the second being any text, or the first with more
// appended; and in the two joined, after it read the second alone with a
// format forced.
func FuzzParser(f *testing.F) {
	for _, answer := range answers(f) {
		cut := len(answer) / 2
		f.Add(answer[:cut], answer[cut:])
	}
	f.Add("a.go\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n\n", "=======\n>>>>>>> REPLACE\n")
	f.Add("<file><path>a.go</path>\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", "<start_line>3</start_line>\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, second := range []string{b, a + b} {
			var p Parser
			if _, err := p.Parse(a, Options{}); err != nil && !errors.Is(err, ErrNoBlocks) {
				t.Fatal(err)
			}
			got, gotErr := p.Parse(second, Options{})
			want, wantErr := Parse(second, Options{})
			if d := sameParse(got, gotErr, want, wantErr); d != "" {
				t.Fatalf("after %q, %q: %s", a, second, d)
			}
		}
		var p Parser
		p.Parse(a, Options{})
		p.Parse(b, Options{Format: EditV3})
		got, gotErr := p.Parse(a+b, Options{})
		want, wantErr := Parse(a+b, Options{})
		if d := sameParse(got, gotErr, want, wantErr); d != "" {
			t.Fatalf("after %q, %q as edit-v3, %q: %s", a, b, a+b, d)
		}
	})
}

// BenchmarkParserStream parses the answer of BenchmarkParseAnswer as it
// streams into a buffer, once after each of its 552 lines, as an answer's
// diagnostics do when the lines come slower than their debounce: with a
// Parser, and with Parse reading the whole text each time. Reported per
// line.
func BenchmarkParserStream(b *testing.B) {
	lines := strings.SplitAfter(benchAnswer(), "\n")
	for _, bc := range []struct {
		name  string
		parse func(p *Parser, text string) ([]Block, error)
	}{
		{"parser", func(p *Parser, text string) ([]Block, error) { return p.Parse(text, Options{}) }},
		{"parse", func(_ *Parser, text string) ([]Block, error) { return Parse(text, Options{}) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var p Parser
				var text strings.Builder
				for _, line := range lines {
					text.WriteString(line)
					if _, err := bc.parse(&p, text.String()); err != nil && !errors.Is(err, ErrNoBlocks) {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(lines)), "µs/line")
		})
	}
}

// A Parser keeps what detection found of a block only while the block
// stands where it stood and the lines up to its end did not change: a
// change to the paragraph that presents it, to its fence, or to the
// reasoning around it, that moves no block, is read again; and a block
// presented with it that comes later, naming its own file, makes it no
// example.
func TestParserReadsAgainWhatPresentsABlock(t *testing.T) {
	const block = "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"
	tests := []struct {
		name, first, second string
		// exists says every file exists when the second text is parsed,
		// and none when the first is.
		exists bool
	}{
		{"the paragraph before says example now",
			"Here is the fix:\n\n```\n" + block + "```\n",
			"Here is an example of the format:\n\n```\n" + block + "```\n", false},
		{"the paragraph before says fix now",
			"For example, the blocks look like this:\n\n```\n" + block + "```\n",
			"Apply this fix, it does the change:\n\n```\n" + block + "```\n", false},
		{"the fence says example now",
			"Change it:\n\n```go\n" + block + "```\n",
			"Change it:\n\n```example\n" + block + "```\n", false},
		{"a reasoning tag above now",
			"thinking\n" + "a.go\n" + block,
			"<think>\n" + "a.go\n" + block, false},
		{"a reasoning tag above no more",
			"<think>\n" + "a.go\n" + block,
			"thinking\n" + "a.go\n" + block, false},
		{"a block after it in its fence names its own file",
			"For example, the blocks look like this:\n\n```\n" + block,
			"For example, the blocks look like this:\n\n```\n" + block + "\nb.go\n" + block + "```\n", false},
		{"a quoted fence around it now",
			"Fix:\n\nxxxxxxxxxxxxxxx\n```\na.go\n" + block + "```\n",
			"Fix:\n\n````markdown\n```\na.go\n" + block + "```\n", false},
		{"the bare name it edits is a file now",
			"For example, the blocks look like this:\n\n```\n<file><path>VERSION</path>\n" + block + "</file>\n```\n",
			"For example, the blocks look like this:\n\n```\n<file><path>VERSION</path>\n" + block + "</file>\n```\nDone.\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Parser
			p.Parse(tt.first, Options{})
			opt := Options{}
			if tt.exists {
				opt.Exists = func(string) bool { return true }
			}
			got, gotErr := p.Parse(tt.second, opt)
			want, wantErr := Parse(tt.second, opt)
			if d := sameParse(got, gotErr, want, wantErr); d != "" {
				t.Errorf("after %q, %q: %s", tt.first, tt.second, d)
			}
			if first, _ := Parse(tt.first, Options{}); len(first) == len(want) && sameParse(first, nil, want, nil) == "" {
				t.Errorf("the two texts parse the same: the case tells nothing")
			}
		})
	}
}

// A Parser keeps what it needs of an answer streamed in line by line,
// each text a string of its own as an editor's buffer gives it, and not
// the texts: it kept every one before (a 22 KB answer of 200 blocks kept
// 27 MB), as the lines, blocks and contexts it kept were parts of them.
func TestParserKeepsNoEarlierText(t *testing.T) {
	var answer strings.Builder
	for k := range 200 {
		fmt.Fprintf(&answer, "Then f%d.\n\nf%d.go\n```go\n<<<<<<< SEARCH\n\ty := x * %d\n=======\n\ty := x + %d\n>>>>>>> REPLACE\n```\n\n", k, k%10, k, k)
	}
	heap := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	p := new(Parser)
	var text strings.Builder
	for line := range strings.Lines(answer.String()) {
		text.WriteString(line)
		if _, err := p.Parse(strings.Clone(text.String()), Options{}); err != nil && !errors.Is(err, ErrNoBlocks) {
			t.Fatal(err)
		}
	}
	kept := int64(heap()) - int64(before)
	runtime.KeepAlive(p)
	if limit := int64(64 * answer.Len()); kept > limit {
		t.Errorf("the parser keeps %d KB for an answer of %d KB; want at most %d KB", kept/1024, answer.Len()/1024, limit/1024)
	}
	t.Logf("the parser keeps %d KB for an answer of %d KB", kept/1024, answer.Len()/1024)
}

// A Parser that parses with a format in between, as a caller that forces
// one for a while does, finds what Parse finds after it: what one format
// does not read does not follow the text. The marks of the
// search-replace lines and detection's reading of a block once did not,
// and a divider written while another format read the text was missed.
func TestParserFollowsAFormatInBetween(t *testing.T) {
	const block = "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"
	tests := []struct {
		name, first, between string
	}{
		{"a divider written", "a.go\n<<<<<<< SEARCH\nx\nfoo\ny\n>>>>>>> REPLACE\n", "a.go\n" + block},
		{"an intro written", "For example, the blocks look like this:\n\n```\n" + block + "```\n", "Apply this fix, it does the change:\n\n```\n" + block + "```\n"},
	}
	for _, tt := range tests {
		for _, format := range []string{UnifiedDiff, StrReplace, EditV3, ApplyPatch} {
			t.Run(tt.name+"/"+format, func(t *testing.T) {
				var p Parser
				p.Parse(tt.first, Options{})
				p.Parse(tt.between, Options{Format: format})
				text := tt.between + "Done.\n"
				got, gotErr := p.Parse(text, Options{})
				want, wantErr := Parse(text, Options{})
				if d := sameParse(got, gotErr, want, wantErr); d != "" {
					t.Error(d)
				}
			})
		}
	}
}
