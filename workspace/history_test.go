package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
)

// memHistory is a History in memory: every version Apply recorded, most
// recent first, by absolute path.
type memHistory struct {
	versions map[string][]engine.Version
	asked    int
}

func (h *memHistory) Versions(abs string) []engine.Version {
	h.asked++
	return h.versions[abs]
}

func (h *memHistory) Record(abs, before, after string) {
	if h.versions == nil {
		h.versions = map[string][]engine.Version{}
	}
	for _, v := range []engine.Version{{Name: "the text before", Text: before}, {Name: "the text written", Text: after}} {
		if v.Text != "" {
			h.versions[abs] = append([]engine.Version{v}, h.versions[abs]...)
		}
	}
}

// TestApplyRecordsAndRefusesStale applies an edit, which Apply records,
// then a block quoting the text the edit replaced, in the lines it
// changed: the block fails as stale and the file keeps the first edit.
func TestApplyRecordsAndRefusesStale(t *testing.T) {
	v1 := "func sum(xs []int) int {\n\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n}\n"
	dir := newTree(t, map[string]string{"s.go": v1}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := &memHistory{}
	opt := ApplyOptions{Plan: PlanOptions{History: h}}
	first := sr("s.go", "\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n", "\tvar total int\n\tfor i := range xs {\n\t\ttotal += xs[i]\n\t}\n")
	ctx := context.Background()
	res, err := Apply(ctx, root, []dialect.Block{first}, opt)
	if err != nil || !res.OK() {
		t.Fatalf("first Apply: %v %+v", err, res)
	}
	if h.asked != 0 {
		t.Errorf("an exact block asked for the history %d times", h.asked)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "s.go"))
	if got := h.versions[filepath.Join(root.Dir(), "s.go")]; len(got) != 2 || got[0].Text != string(after) || got[1].Text != v1 {
		t.Fatalf("recorded %+v, want the text written, then the text before", h.versions)
	}
	stale := sr("s.go", "\ttotal := 0\n\tfor _, x := range xs {\n\t\ttotal += x\n\t}\n\treturn total\n", "\ttotal := 0\n\tfor _, x := range xs {\n\t\tif x > 0 {\n\t\t\ttotal += x\n\t\t}\n\t}\n\treturn total\n")
	res, err = Apply(ctx, root, []dialect.Block{stale}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if b := res.Blocks[0]; b.Status != engine.StatusFailed || b.Reason() != "stale" {
		t.Fatalf("stale block: %s %q %s", b.Status, b.Reason(), b.Message)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "s.go")); string(now) != string(after) {
		t.Errorf("the stale block changed the file: %s", now)
	}
	// Without the history, the same block is merged into the rewrite:
	// what Graft did before.
	res, err = Plan(ctx, root.Links(), []dialect.Block{stale}, PlanOptions{})
	if err != nil || res.Blocks[0].Reason() == "stale" {
		t.Fatalf("without history: %v %+v", err, res.Blocks[0])
	}
}

// TestApplyRecordsWhatItWrote applies an edit, which Apply records, then
// has another hand (a person, a formatter) change a line the edit wrote,
// then a block quoting the edit's lines as Apply wrote them: the block
// fails as stale against the text written, and the other hand's change
// stays; nothing of the block is merged into it.
func TestApplyRecordsWhatItWrote(t *testing.T) {
	v1 := "func div(a, b int) int {\n\treturn a / b\n}\n"
	dir := newTree(t, map[string]string{"d.go": v1}, nil)
	root, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := &memHistory{}
	opt := ApplyOptions{Plan: PlanOptions{History: h}}
	ctx := context.Background()
	first := sr("d.go", "\treturn a / b\n", "\tif b == 0 {\n\t\tpanic(\"b is zero\")\n\t}\n\treturn a / b\n")
	if res, err := Apply(ctx, root, []dialect.Block{first}, opt); err != nil || !res.OK() {
		t.Fatalf("first Apply: %v %+v", err, res)
	}
	file := filepath.Join(dir, "d.go")
	written, _ := os.ReadFile(file)
	byHand := strings.Replace(string(written), `panic("b is zero")`, `panic("division by zero")`, 1)
	if err := os.WriteFile(file, []byte(byHand), 0o644); err != nil {
		t.Fatal(err)
	}
	stale := sr("d.go", "\tif b == 0 {\n\t\tpanic(\"b is zero\")\n\t}\n", "\tif b == 0 {\n\t\treturn 0\n\t}\n")
	res, err := Apply(ctx, root, []dialect.Block{stale}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if b := res.Blocks[0]; b.Status != engine.StatusFailed || b.Reason() != "stale" || !strings.Contains(b.Message, "the text written") {
		t.Errorf("a block quoting the text written, changed since: %s %q %s", b.Status, b.Reason(), b.Message)
	}
	if now, _ := os.ReadFile(file); string(now) != byHand {
		t.Errorf("the stale block changed the file:\n%s", now)
	}
}

// shownHistory is a memHistory that keeps the texts refusals showed too
// (a ShownHistory).
type shownHistory struct {
	memHistory
	shown map[string][]string
}

func (h *shownHistory) RecordShown(abs, text string) {
	if h.shown == nil {
		h.shown = map[string][]string{}
	}
	h.shown[abs] = append(h.shown[abs], text)
}

// TestApplyRecordsShownTexts applies answers some of whose blocks are
// refused: a ShownHistory keeps the text of each file a block was refused
// in and that the plan leaves as it is, whether another file was written
// or none; not a file that does not exist, nor one that was written.
func TestApplyRecordsShownTexts(t *testing.T) {
	files := map[string]string{"a.go": "one\ntwo\n", "b.go": "three\n"}
	tests := []struct {
		name   string
		blocks []dialect.Block
		// shown are the files whose text is kept as shown.
		shown []string
	}{
		{"refused, nothing written", []dialect.Block{replace("a.go", "nine\n", "ten\n")}, []string{"a.go"}},
		{"refused beside a write", []dialect.Block{replace("a.go", "nine\n", "ten\n"), replace("b.go", "three\n", "3\n")}, []string{"a.go"}},
		{"refused in the file written", []dialect.Block{replace("a.go", "one\n", "1\n"), replace("a.go", "nine\n", "ten\n")}, nil},
		{"refused in no file", []dialect.Block{replace("c.go", "nine\n", "ten\n")}, nil},
		{"applied", []dialect.Block{replace("b.go", "three\n", "3\n")}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := newTree(t, files, nil)
			root, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			h := &shownHistory{}
			if _, err := Apply(context.Background(), root, tc.blocks, ApplyOptions{Plan: PlanOptions{History: h, KeepGoing: true}}); err != nil {
				t.Fatal(err)
			}
			var got []string
			for abs, texts := range h.shown {
				rel, _ := filepath.Rel(root.Dir(), abs)
				if len(texts) != 1 || texts[0] != files[rel] {
					t.Errorf("%s: shown %q, want its text once", rel, texts)
				}
				got = append(got, rel)
			}
			if strings.Join(got, ",") != strings.Join(tc.shown, ",") {
				t.Errorf("texts shown of %q, want %q", got, tc.shown)
			}
		})
	}
}
