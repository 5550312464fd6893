package workspace

import (
	"context"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
)

// TestPlanDeletion checks that a deletion applies only when the lines it
// removes are the whole file, or when its dialect deletes by name alone.
func TestPlanDeletion(t *testing.T) {
	const file = "alpha\nbeta\n"
	del := func(old string) dialect.Block {
		return dialect.Block{Edit: engine.Edit{Path: "a.txt", Op: engine.OpDelete, Old: old, Dialect: dialect.UnifiedDiff}}
	}
	tests := []struct {
		name     string
		text     string
		block    dialect.Block
		applied  bool
		strategy string
		message  string
	}{
		{"the removed lines are the file", file, del(file), true, "exact", "deleted a.txt"},
		{"with a slip, found fuzzily", file, del("alpha\nbetta\n"), true, "similarity", "deleted a.txt"},
		{"other lines", file, del("something else\n"), false, "", "not deleted: the lines the deletion removes are not what a.txt holds"},
		{"the first line only", file, del("alpha\n"), false, "", "are only line 1 of a.txt, which has 2 lines"},
		{"the last line only", file, del("beta\n"), false, "", "are only line 2 of a.txt"},
		{"no hunk, a file with lines", file, del(""), false, "", "removes none of its 2 lines"},
		{"no hunk, an empty file", "", del(""), true, "exact", "deleted a.txt, which was empty"},
		{"by name alone", file, dialect.Block{Edit: engine.Edit{Path: "a.txt", Op: engine.OpDelete, Dialect: dialect.ApplyPatch}, Unchecked: true},
			true, "delete", "its content was not checked"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := openRoot(t, tree(t, map[string]string{"a.txt": tt.text}))
			res, err := Plan(context.Background(), root, []dialect.Block{tt.block}, PlanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			b, f := res.Blocks[0], res.Files[0]
			if got := b.Status == engine.StatusApplied; got != tt.applied {
				t.Fatalf("applied = %v, want %v: %s", got, tt.applied, b.Message)
			}
			if !strings.HasPrefix(b.Strategy, tt.strategy) || !strings.Contains(b.Message, tt.message) {
				t.Errorf("strategy %q, message %q; want %q and a message containing %q", b.Strategy, b.Message, tt.strategy, tt.message)
			}
			if f.Exists == tt.applied {
				t.Errorf("the plan leaves a.txt existing = %v", f.Exists)
			}
		})
	}
}

// TestPlanLines checks that a block's lines are those of the file as it
// was, and its resolved lines those of the text the earlier blocks left,
// and that line hints count in the file as it was.
func TestPlanLines(t *testing.T) {
	const file = "1\n2\n3\n4\n5\n6\n7\n"
	replace := func(old, new string) dialect.Block {
		return dialect.Block{Edit: engine.Edit{Path: "a.txt", Old: old, New: new, Dialect: dialect.SearchReplace}}
	}
	insert := func(after int, text string) dialect.Block {
		return dialect.Block{Edit: engine.Edit{Path: "a.txt", Op: engine.OpInsert, Line: after, New: text, Dialect: dialect.UnifiedDiff}}
	}
	type lines struct{ start, end, resolvedStart, resolvedEnd int }
	tests := []struct {
		name   string
		blocks []dialect.Block
		want   []lines
		after  string
	}{
		{
			name:   "lines after an earlier block that adds lines",
			blocks: []dialect.Block{replace("1\n", "1\nx\ny\n"), replace("5\n", "five\n")},
			want:   []lines{{1, 1, 1, 1}, {5, 5, 7, 7}},
			after:  "1\nx\ny\n2\n3\n4\nfive\n6\n7\n",
		},
		{
			name:   "lines after an earlier block that removes lines",
			blocks: []dialect.Block{replace("2\n3\n4\n", ""), replace("6\n", "six\n")},
			want:   []lines{{2, 4, 2, 4}, {6, 6, 3, 3}},
			after:  "1\n5\nsix\n7\n",
		},
		{
			name:   "a block inside lines an earlier block wrote",
			blocks: []dialect.Block{replace("3\n", "a\nb\nc\n"), replace("b\n", "B\n")},
			want:   []lines{{3, 3, 3, 3}, {3, 3, 4, 4}},
			after:  "1\n2\na\nB\nc\n4\n5\n6\n7\n",
		},
		{
			name:   "an insertion hint counts in the file as it was",
			blocks: []dialect.Block{replace("1\n", "1\nx\ny\n"), insert(5, "after 5\n")},
			want:   []lines{{1, 1, 1, 1}, {6, 5, 8, 7}},
			after:  "1\nx\ny\n2\n3\n4\n5\nafter 5\n6\n7\n",
		},
		{
			name:   "insertions at one place keep the answer's order",
			blocks: []dialect.Block{insert(0, "a\n"), insert(0, "b\n")},
			want:   []lines{{1, 0, 1, 0}, {1, 0, 2, 1}},
			after:  "a\nb\n" + file,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := openRoot(t, tree(t, map[string]string{"a.txt": file}))
			res, err := Plan(context.Background(), root, tt.blocks, PlanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, b := range res.Blocks {
				if b.Status != engine.StatusApplied {
					t.Fatalf("block %d: %s: %s", i, b.Status, b.Message)
				}
				got := lines{b.StartLine, b.EndLine, b.ResolvedStartLine, b.ResolvedEndLine}
				if got != tt.want[i] {
					t.Errorf("block %d: lines %+v, want %+v", i, got, tt.want[i])
				}
			}
			if got := res.Files[0].After; got != tt.after {
				t.Errorf("after = %q, want %q", got, tt.after)
			}
		})
	}
}

// TestPlanInterrupted checks that Plan stops when its context is done.
func TestPlanInterrupted(t *testing.T) {
	root := openRoot(t, tree(t, map[string]string{"a.txt": "one\n"}))
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	blocks := []dialect.Block{
		{Edit: engine.Edit{Path: "a.txt", Old: "one\n", New: "two\n"}},
		{Edit: engine.Edit{Path: "a.txt", Old: "two\n", New: "three\n"}},
	}
	_, err := Plan(ctx, root, blocks, PlanOptions{Progress: func(done, total int) {
		n++
		cancel() // after the first block
	}})
	if err != context.Canceled || n != 1 {
		t.Errorf("Plan = %v after %d blocks, want %v after 1", err, n, context.Canceled)
	}
}
