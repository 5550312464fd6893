package workspace

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
)

func replace(path, old, new string) dialect.Block {
	return dialect.Block{Edit: engine.Edit{Path: path, Old: old, New: new, Dialect: dialect.SearchReplace}}
}

func create(path, text string) dialect.Block {
	return dialect.Block{Edit: engine.Edit{Path: path, Op: engine.OpCreate, New: text, Dialect: dialect.SearchReplace}}
}

// remove deletes path by name alone, as apply-patch's "*** Delete File".
func remove(path string) dialect.Block {
	return dialect.Block{Edit: engine.Edit{Path: path, Op: engine.OpDelete, Dialect: dialect.ApplyPatch}, Unchecked: true}
}

func move(path, to string) dialect.Block {
	return dialect.Block{Edit: engine.Edit{Path: path, Op: engine.OpMove, NewPath: to}}
}

func insert(path string, after int, text string) dialect.Block {
	return dialect.Block{Edit: engine.Edit{Path: path, Op: engine.OpInsert, Line: after, New: text, Dialect: dialect.StrReplace}}
}

func malformed(path, why string) dialect.Block {
	return dialect.Block{Edit: engine.Edit{Path: path, Dialect: dialect.SearchReplace}, Err: errors.New(why)}
}

// want describes a block's result: its status, its path, and a piece of
// its message.
type want struct {
	status  engine.Status
	path    string
	message string
}

// missing is search text that no file in the tests contains.
const missing = "this line is in no file\n"

func TestPlanAndCommit(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		blocks []dialect.Block
		atomic bool
		want   []want
		// changes lists the files of the result as "action path" (or
		// "action path -> newpath"), with " (unchanged)" when the plan
		// leaves them alone.
		changes []string
		// after is the whole tree after Commit.
		after map[string]string
	}{
		{
			name:    "a block applies",
			files:   map[string]string{"a.go": "one\ntwo\nthree\n"},
			blocks:  []dialect.Block{replace("a.go", "two\n", "2\n")},
			want:    []want{{engine.StatusApplied, "a.go", ""}},
			changes: []string{"modify a.go"},
			after:   map[string]string{"a.go": "one\n2\nthree\n"},
		},
		{
			name:  "blocks of one file apply in order, each to the text the last left",
			files: map[string]string{"a.go": "one\ntwo\n"},
			blocks: []dialect.Block{
				replace("a.go", "two\n", "deux\n"),
				replace("./a.go", "deux\n", "zwei\n"),
			},
			want:    []want{{engine.StatusApplied, "a.go", ""}, {engine.StatusApplied, "a.go", ""}},
			changes: []string{"modify a.go"},
			after:   map[string]string{"a.go": "one\nzwei\n"},
		},
		{
			name:  "a failed block skips the later blocks of its file; other files go on",
			files: map[string]string{"a.go": "one\n", "b.go": "bee\n"},
			blocks: []dialect.Block{
				replace("a.go", missing, "x\n"),
				replace("b.go", "bee\n", "B\n"),
				replace("a.go", "one\n", "1\n"),
				remove("a.go"),
			},
			want: []want{
				{engine.StatusFailed, "a.go", ""},
				{engine.StatusApplied, "b.go", ""},
				{engine.StatusSkipped, "a.go", "block 1"},
				{engine.StatusSkipped, "a.go", "block 1"},
			},
			changes: []string{"delete a.go (unchanged)", "modify b.go"},
			after:   map[string]string{"a.go": "one\n", "b.go": "B\n"},
		},
		{
			name:  "atomic: one failure withholds every change",
			files: map[string]string{"a.go": "one\n", "b.go": "bee\n"},
			blocks: []dialect.Block{
				replace("a.go", "one\n", "1\n"),
				create("c/new.go", "package c\n"),
				replace("b.go", missing, "x\n"),
			},
			atomic: true,
			want: []want{
				{engine.StatusSkipped, "a.go", "atomic, and block 3 did not apply"},
				{engine.StatusSkipped, "c/new.go", "atomic"},
				{engine.StatusFailed, "b.go", ""},
			},
			changes: []string{"modify a.go (unchanged)", "create c/new.go (unchanged)", "modify b.go (unchanged)"},
			after:   map[string]string{"a.go": "one\n", "b.go": "bee\n"},
		},
		{
			name:    "atomic: when every block applies, every change is made",
			files:   map[string]string{"a.go": "one\n"},
			blocks:  []dialect.Block{replace("a.go", "one\n", "1\n"), create("b.go", "bee\n")},
			atomic:  true,
			want:    []want{{engine.StatusApplied, "a.go", ""}, {engine.StatusApplied, "b.go", ""}},
			changes: []string{"modify a.go", "create b.go"},
			after:   map[string]string{"a.go": "1\n", "b.go": "bee\n"},
		},
		{
			name:    "create makes the parent folders",
			blocks:  []dialect.Block{create("cmd/tool/main.go", "package main\n")},
			want:    []want{{engine.StatusApplied, "cmd/tool/main.go", "created"}},
			changes: []string{"create cmd/tool/main.go"},
			after:   map[string]string{"cmd/tool/main.go": "package main\n"},
		},
		{
			name:    "create over the same content changes nothing: already applied",
			files:   map[string]string{"a.go": "same\n"},
			blocks:  []dialect.Block{create("a.go", "same\n")},
			want:    []want{{engine.StatusAlreadyApplied, "a.go", "already exists with this content"}},
			changes: []string{"create a.go (unchanged)"},
			after:   map[string]string{"a.go": "same\n"},
		},
		{
			name:    "create never overwrites other content",
			files:   map[string]string{"a.go": "precious\n"},
			blocks:  []dialect.Block{create("a.go", "other\n")},
			want:    []want{{engine.StatusFailed, "a.go", "already exists with other content; not overwritten"}},
			changes: []string{"create a.go (unchanged)"},
			after:   map[string]string{"a.go": "precious\n"},
		},
		{
			name:    "create fills an existing empty file",
			files:   map[string]string{"a.go": "", "b.go": ""},
			blocks:  []dialect.Block{create("a.go", "package a\n"), create("b.go", "")},
			want:    []want{{engine.StatusApplied, "a.go", "filled a.go, which was empty"}, {engine.StatusAlreadyApplied, "b.go", "already exists with this content"}},
			changes: []string{"create a.go", "create b.go (unchanged)"},
			after:   map[string]string{"a.go": "package a\n", "b.go": ""},
		},
		{
			name:    "create never overwrites a file of blank lines",
			files:   map[string]string{"a.go": "\n"},
			blocks:  []dialect.Block{create("a.go", "package a\n")},
			want:    []want{{engine.StatusFailed, "a.go", "already exists with other content; not overwritten"}},
			changes: []string{"create a.go (unchanged)"},
			after:   map[string]string{"a.go": "\n"},
		},
		{
			name:    "a file created by one block is edited by the next",
			blocks:  []dialect.Block{create("a.go", "one\n"), replace("a.go", "one\n", "1\n")},
			want:    []want{{engine.StatusApplied, "a.go", ""}, {engine.StatusApplied, "a.go", ""}},
			changes: []string{"create a.go"},
			after:   map[string]string{"a.go": "1\n"},
		},
		{
			name:    "an edit to a missing file fails",
			blocks:  []dialect.Block{replace("nope.go", "x\n", "y\n")},
			want:    []want{{engine.StatusFailed, "nope.go", "file does not exist"}},
			changes: []string{"modify nope.go (unchanged)"},
			after:   map[string]string{},
		},
		{
			name:    "delete, and a deletion already done",
			files:   map[string]string{"a.go": "one\n", "b.go": "bee\n"},
			blocks:  []dialect.Block{remove("a.go"), remove("gone.go")},
			want:    []want{{engine.StatusApplied, "a.go", "deleted"}, {engine.StatusAlreadyApplied, "gone.go", "deleted already"}},
			changes: []string{"delete a.go", "delete gone.go (unchanged)"},
			after:   map[string]string{"b.go": "bee\n"},
		},
		{
			name:  "a move carries the file's later blocks to its new path",
			files: map[string]string{"old.go": "one\n"},
			blocks: []dialect.Block{
				replace("old.go", "one\n", "eins\n"),
				move("old.go", "pkg/new.go"),
				replace("pkg/new.go", "eins\n", "uno\n"),
				replace("old.go", "eins\n", "x\n"),
			},
			want: []want{
				{engine.StatusApplied, "old.go", ""},
				{engine.StatusApplied, "old.go", "moved old.go to pkg/new.go"},
				{engine.StatusApplied, "pkg/new.go", ""},
				{engine.StatusFailed, "old.go", "file does not exist"},
			},
			changes: []string{"move old.go -> pkg/new.go", "modify old.go (unchanged)"},
			after:   map[string]string{"pkg/new.go": "uno\n"},
		},
		{
			name:    "a move never overwrites its destination",
			files:   map[string]string{"a.go": "a\n", "b.go": "b\n"},
			blocks:  []dialect.Block{move("a.go", "b.go")},
			want:    []want{{engine.StatusFailed, "a.go", "b.go already exists; not overwritten"}},
			changes: []string{"move a.go (unchanged)"},
			after:   map[string]string{"a.go": "a\n", "b.go": "b\n"},
		},
		{
			name:    "a move onto a file other blocks edit fails",
			files:   map[string]string{"a.go": "a\n"},
			blocks:  []dialect.Block{create("b.go", "b\n"), move("a.go", "b.go")},
			want:    []want{{engine.StatusApplied, "b.go", ""}, {engine.StatusFailed, "a.go", "other blocks edit b.go"}},
			changes: []string{"create b.go", "move a.go (unchanged)"},
			after:   map[string]string{"a.go": "a\n", "b.go": "b\n"},
		},
		{
			name:    "insert",
			files:   map[string]string{"a.go": "one\nthree\n"},
			blocks:  []dialect.Block{insert("a.go", 1, "two")},
			want:    []want{{engine.StatusApplied, "a.go", ""}},
			changes: []string{"modify a.go"},
			after:   map[string]string{"a.go": "one\ntwo\nthree\n"},
		},
		{
			name:  "paths outside the root fail and name the path",
			files: map[string]string{"a.go": "one\n"},
			blocks: []dialect.Block{
				replace("../a.go", "one\n", "1\n"),
				create("/etc/graft-test", "x\n"),
				replace("a.go", "one\n", "1\n"),
			},
			want: []want{
				{engine.StatusFailed, "../a.go", "resolve ../a.go: outside the workspace root"},
				{engine.StatusFailed, "/etc/graft-test", "outside the workspace root"},
				{engine.StatusApplied, "a.go", ""},
			},
			changes: []string{"modify a.go"},
			after:   map[string]string{"a.go": "1\n"},
		},
		{
			name:  "a block that names no file fails",
			files: map[string]string{"a.go": "one\n"},
			blocks: []dialect.Block{
				replace("", "one\n", "1\n"),
				malformed("", "the block has no ======= line"),
			},
			want: []want{
				{engine.StatusFailed, "", "names no file"},
				{engine.StatusFailed, "", "the block has no ======= line"},
			},
			after: map[string]string{"a.go": "one\n"},
		},
		{
			name:  "a malformed block fails and skips the later blocks of its file",
			files: map[string]string{"a.go": "one\ntwo\n"},
			blocks: []dialect.Block{
				replace("a.go", "one\n", "1\n"),
				malformed("a.go", "the block has no >>>>>>> REPLACE line"),
				replace("a.go", "two\n", "2\n"),
			},
			want: []want{
				{engine.StatusApplied, "a.go", ""},
				{engine.StatusFailed, "a.go", "no >>>>>>> REPLACE line"},
				{engine.StatusSkipped, "a.go", "block 2"},
			},
			changes: []string{"modify a.go"},
			after:   map[string]string{"a.go": "1\ntwo\n"},
		},
		{
			name:  "binary and non-UTF-8 files are refused, every block",
			files: map[string]string{"logo.png": "\x89PNG\x00\x00", "latin1.txt": "caf\xe9\n"},
			blocks: []dialect.Block{
				replace("logo.png", "PNG", "GIF"),
				create("logo.png", "x"),
				replace("latin1.txt", "caf", "bar"),
			},
			want: []want{
				{engine.StatusFailed, "logo.png", "read logo.png: binary file"},
				{engine.StatusFailed, "logo.png", "binary file"},
				{engine.StatusFailed, "latin1.txt", "read latin1.txt: not valid UTF-8"},
			},
			changes: []string{"create logo.png (unchanged)", "modify latin1.txt (unchanged)"},
			after:   map[string]string{"logo.png": "\x89PNG\x00\x00", "latin1.txt": "caf\xe9\n"},
		},
		{
			name:    "CRLF line endings are kept",
			files:   map[string]string{"win.txt": "one\r\ntwo\r\n"},
			blocks:  []dialect.Block{replace("win.txt", "two\r\n", "2\r\n")},
			want:    []want{{engine.StatusApplied, "win.txt", ""}},
			changes: []string{"modify win.txt"},
			after:   map[string]string{"win.txt": "one\r\n2\r\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := newTree(t, tt.files, nil)
			root, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Plan(context.Background(), root, tt.blocks, PlanOptions{Atomic: tt.atomic})
			if err != nil {
				t.Fatal(err)
			}
			if got := readTree(t, dir); !maps.Equal(got, orEmpty(tt.files)) {
				t.Fatalf("Plan wrote to the tree: %q, want %q", got, tt.files)
			}
			checkBlocks(t, res, tt.blocks, tt.want)
			if got := changes(res); !equalLines(got, tt.changes) {
				t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.changes, "\n"))
			}
			if err := Commit(context.Background(), root, res); err != nil {
				t.Fatalf("Commit: %v", err)
			}
			if got := readTree(t, dir); !maps.Equal(got, tt.after) {
				t.Errorf("after Commit the tree is %q, want %q", got, tt.after)
			}
		})
	}
}

func checkBlocks(t *testing.T, res *Result, blocks []dialect.Block, want []want) {
	t.Helper()
	if len(res.Blocks) != len(want) {
		t.Fatalf("%d block results, want %d", len(res.Blocks), len(want))
	}
	counts := map[engine.Status]int{}
	for _, w := range want {
		counts[w.status]++
	}
	for _, s := range []engine.Status{engine.StatusApplied, engine.StatusAlreadyApplied, engine.StatusFailed, engine.StatusSkipped} {
		if got := res.Count(s); got != counts[s] {
			t.Errorf("Count(%s) = %d, want %d", s, got, counts[s])
		}
	}
	if ok := counts[engine.StatusApplied]+counts[engine.StatusAlreadyApplied] == len(want); res.OK() != ok {
		t.Errorf("OK() = %v, want %v", res.OK(), ok)
	}
	for i, w := range want {
		got := res.Blocks[i]
		if got.Index != i || got.Status != w.status || got.Path != w.path || !strings.Contains(got.Message, w.message) {
			t.Errorf("block %d = {%d %s %q %q}, want {%d %s %q message containing %q}",
				i, got.Index, got.Status, got.Path, got.Message, i, w.status, w.path, w.message)
		}
		if got.Dialect != blocks[i].Dialect {
			t.Errorf("block %d dialect = %q, want %q", i, got.Dialect, blocks[i].Dialect)
		}
		if (got.Err != nil) != !got.Status.OK() {
			t.Errorf("block %d: status %s with Err = %v", i, got.Status, got.Err)
		}
	}
}

// changes summarizes the files of a result, one line each.
func changes(res *Result) []string {
	var lines []string
	for _, f := range res.Files {
		s := fmt.Sprintf("%s %s", f.Action, f.Path)
		if f.NewPath != "" {
			s += " -> " + f.NewPath
		}
		if !f.Changed {
			s += " (unchanged)"
		}
		lines = append(lines, s)
	}
	return lines
}

func equalLines(a, b []string) bool {
	return strings.Join(a, "\n") == strings.Join(b, "\n")
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func TestPlanReportsTheMatch(t *testing.T) {
	dir := newTree(t, map[string]string{"a.go": "one\ntwo\nthree\nfour\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Plan(context.Background(), root, []dialect.Block{replace("a.go", "two\nthree\n", "2\n3\n")}, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Blocks[0]
	if b.Strategy != "exact" || b.Score != 1 || b.StartLine != 2 || b.EndLine != 3 {
		t.Errorf("block = %s %.2f lines %d-%d, want exact 1.00 lines 2-3", b.Strategy, b.Score, b.StartLine, b.EndLine)
	}
	if f := res.Files[0]; f.Before != "one\ntwo\nthree\nfour\n" || f.After != "one\n2\n3\nfour\n" {
		t.Errorf("file before %q after %q", f.Before, f.After)
	}
}

func TestPlanKeepsRefusalsTyped(t *testing.T) {
	dir := newTree(t, map[string]string{"a.go": "one\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Plan(context.Background(), root, []dialect.Block{
		replace("a.go", missing, "x\n"),
		replace("../b.go", "x", "y"),
	}, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var refusal *engine.Error
	if !errors.As(res.Blocks[0].Err, &refusal) {
		t.Errorf("a refused block's Err is %T, want *engine.Error", res.Blocks[0].Err)
	}
	if !errors.Is(res.Blocks[1].Err, ErrOutsideRoot) {
		t.Errorf("an escaping block's Err = %v, want ErrOutsideRoot", res.Blocks[1].Err)
	}
}

func TestPlanStopsWhenTheContextIsDone(t *testing.T) {
	dir := newTree(t, map[string]string{"a.go": "one\n"}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Plan(ctx, root, []dialect.Block{replace("a.go", "one\n", "1\n")}, PlanOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Plan with a cancelled context: error = %v, want %v", err, context.Canceled)
	}
}

func TestCommitKeepsModeAndRefusesFilesChangedOnDisk(t *testing.T) {
	dir := newTree(t, map[string]string{"run.sh": "echo one\n", "a.go": "one\n"}, nil)
	if err := os.Chmod(filepath.Join(dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Plan(context.Background(), root, []dialect.Block{
		replace("run.sh", "echo one\n", "echo 1\n"),
		replace("a.go", "one\n", "1\n"),
	}, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Someone saves a.go between the plan and the commit.
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("edited meanwhile\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = Commit(context.Background(), root, res)
	if !errors.Is(err, ErrChangedOnDisk) {
		t.Errorf("Commit error = %v, want %v", err, ErrChangedOnDisk)
	}
	if b := res.Blocks[1]; b.Status != engine.StatusFailed || !strings.Contains(b.Message, "a.go not written") {
		t.Errorf("the block of the file changed on disk: %s %q, want failed, not written", b.Status, b.Message)
	}
	want := map[string]string{"run.sh": "echo 1\n", "a.go": "edited meanwhile\n"}
	if got := readTree(t, dir); !maps.Equal(got, want) {
		t.Errorf("after Commit the tree is %q, want %q", got, want)
	}
	if got := mode(t, filepath.Join(dir, "run.sh")); got != 0o755 {
		t.Errorf("run.sh mode = %v, want 0755", got)
	}
}

// A panic in a resolution is raised again in the goroutine that planned,
// where a server's recover can answer it.
func TestAwaitRaisesPanicsInTheCaller(t *testing.T) {
	defer func() {
		p := recover()
		if p == nil || !strings.Contains(fmt.Sprint(p), "boom") {
			t.Fatalf("recovered %v, want the resolution's panic", p)
		}
	}()
	await(context.Background(), shortText, func() int { panic("boom") })
	t.Fatal("await returned after a panic")
}

// TestPlanKeepGoing checks that with KeepGoing every block shows its own
// state: a block after a failed one of its file is resolved against the
// text the earlier blocks that applied leave, never skipped.
func TestPlanKeepGoing(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		blocks []dialect.Block
		want   []want
		// lines are the blocks' StartLine and EndLine, in the file as it
		// was; nil not to check.
		lines [][2]int
	}{
		{
			name:  "a block after a failed one resolves against what the blocks that applied leave",
			files: map[string]string{"a.go": "one\ntwo\nthree\n"},
			blocks: []dialect.Block{
				replace("a.go", "one\n", "1\n"),
				replace("a.go", missing, "x\n"),
				replace("a.go", "1\ntwo\n", "1\n2\n"),
			},
			want: []want{
				{engine.StatusApplied, "a.go", ""},
				{engine.StatusFailed, "a.go", "not found"},
				{engine.StatusApplied, "a.go", ""},
			},
			lines: [][2]int{{1, 1}, {0, 0}, {1, 2}},
		},
		{
			name:  "a block after a failed one shows its own refusal, or that it stands already",
			files: map[string]string{"a.go": "alpha\nbeta\nalpha\nfunc gamma() { return 2 }\n"},
			blocks: []dialect.Block{
				replace("a.go", missing, "x\n"),
				replace("a.go", "four\nfive\nsix\n", "4\n"),
				replace("a.go", "alpha\n", "ALPHA\n"),
				replace("a.go", "func gamma() { return 1 }\n", "func gamma() { return 2 }\n"),
			},
			want: []want{
				{engine.StatusFailed, "a.go", ""},
				{engine.StatusFailed, "a.go", ""},
				{engine.StatusFailed, "a.go", "ambiguous"},
				{engine.StatusAlreadyApplied, "a.go", "already applied"},
			},
		},
		{
			name:  "a block after a malformed one",
			files: map[string]string{"a.go": "one\ntwo\n"},
			blocks: []dialect.Block{
				malformed("a.go", "the block has no >>>>>>> REPLACE line"),
				replace("a.go", "two\n", "2\n"),
			},
			want: []want{
				{engine.StatusFailed, "a.go", "no >>>>>>> REPLACE line"},
				{engine.StatusApplied, "a.go", ""},
			},
		},
		{
			name:  "a move whose file's edit failed is not withheld",
			files: map[string]string{"old.go": "one\n"},
			blocks: []dialect.Block{
				replace("old.go", "one\n", "eins\n"),
				replace("old.go", missing, "x\n"),
				move("old.go", "new.go"),
				replace("new.go", "eins\n", "uno\n"),
			},
			want: []want{
				{engine.StatusApplied, "old.go", ""},
				{engine.StatusFailed, "old.go", ""},
				{engine.StatusApplied, "old.go", "moved old.go to new.go"},
				{engine.StatusApplied, "new.go", ""},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := newTree(t, tt.files, nil)
			root, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Plan(context.Background(), root, tt.blocks, PlanOptions{KeepGoing: true})
			if err != nil {
				t.Fatal(err)
			}
			checkBlocks(t, res, tt.blocks, tt.want)
			for i, l := range tt.lines {
				if b := res.Blocks[i]; b.Status.OK() && [2]int{b.StartLine, b.EndLine} != l {
					t.Errorf("block %d at lines %d-%d, want %d-%d", i+1, b.StartLine, b.EndLine, l[0], l[1])
				}
			}
			// Without KeepGoing, the same blocks skip after the first
			// failure: the rule that protects a file stays.
			res, err = Plan(context.Background(), root, tt.blocks, PlanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Count(engine.StatusSkipped) == 0 {
				t.Errorf("without KeepGoing no block was skipped")
			}
		})
	}
}
