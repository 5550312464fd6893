package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The apply-patch conformance suites, in testdata/conformance: Codex's own
// scenarios (see its README.md for where they come from and how upstream
// judges them), and Graft's, in the same layout, for what Codex's leave out.
// Each scenario is a directory holding patch.txt, the tree it starts from in
// input/ (none: an empty tree) and the tree it must leave in expected/.
var conformanceSuites = []string{"codex-apply-patch", "graft-apply-patch"}

// failingScenarios are the scenarios in which a block fails, so that graft
// exits 1 (and, with --atomic, leaves the tree as it was).
var failingScenarios = map[string]bool{
	"codex-apply-patch/005_rejects_empty_patch":                          true,
	"codex-apply-patch/006_rejects_missing_context":                      true,
	"codex-apply-patch/008_rejects_empty_update_hunk":                    true,
	"codex-apply-patch/009_requires_existing_file_for_update":            true,
	"codex-apply-patch/012_delete_directory_fails":                       true,
	"codex-apply-patch/013_rejects_invalid_hunk_header":                  true,
	"codex-apply-patch/015_failure_after_partial_success_leaves_changes": true,
	"graft-apply-patch/108_move_with_missing_context":                    true,
}

// A deviation is a scenario whose expected/ Graft does not reach: the
// outcome it has instead, and why. Some are Graft's caution by design;
// the others are gaps of the resolver or the planner, and their test fails
// once the gap is closed, to have the deviation removed.
type deviation struct {
	// tree is the scenario's directory holding the tree Graft leaves:
	// "input" when it leaves the tree as it was.
	tree string
	// says is a piece of graft's report that tells why.
	says string
	why  string
}

// standing are the scenarios upstream fails that Graft takes for a change
// already made, by design: deleting a file that is not there leaves the
// tree as the patch wants it, a deletion already done (status
// already-applied, exit 0, the tree unchanged, as upstream leaves it),
// so that a patch applied twice succeeds the second time. The value is a
// piece of graft's report that says so.
var standing = map[string]string{
	"codex-apply-patch/007_rejects_missing_file_delete": "deleted already",
}

var deviations = map[string]deviation{
	"codex-apply-patch/010_move_overwrites_existing_destination": {
		tree: "input", says: "already exists; not overwritten",
		why: "by design: a move never overwrites an existing file, and the chunks that follow the move are skipped",
	},
	"codex-apply-patch/011_add_overwrites_existing_file": {
		tree: "input", says: "already exists with other content; not overwritten",
		why: "by design: an Add File never overwrites a file with other content",
	},
}

// A conformanceRun is one way of giving a scenario's patch to graft.
type conformanceRun struct {
	name   string
	args   []string // after "apply --root DIR"; "PATCH" stands for the patch file
	stdin  bool     // the patch comes on stdin
	atomic bool
}

var conformanceRuns = []conformanceRun{
	{name: "file", args: []string{"--format", "apply-patch", "PATCH"}},
	{name: "stdin-detected", stdin: true},
	{name: "atomic", args: []string{"--atomic", "--format", "apply-patch", "PATCH"}, atomic: true},
}

// TestConformance runs every scenario through the graft binary, as
// upstream's harness does: the scenario's input/ is copied into an empty
// directory, graft applies patch.txt there, and the whole tree must then be
// expected/, no more, no less. Each scenario runs with the dialect forced,
// with it detected from stdin, and with --atomic (then a failing patch must
// leave the tree as it was). The exit status is checked too: 1 for the
// scenarios that fail a block, 0 for the others.
func TestConformance(t *testing.T) {
	graft, err := exec.LookPath("graft") // installed in $PATH by testscript.Main
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, suite := range conformanceSuites {
		patches, err := filepath.Glob(filepath.Join("..", "..", "testdata", "conformance", suite, "*", "patch.txt"))
		if err != nil {
			t.Fatal(err)
		}
		if len(patches) == 0 {
			t.Fatalf("no scenarios in suite %s", suite)
		}
		for _, patch := range patches {
			dir := filepath.Dir(patch)
			name := suite + "/" + filepath.Base(dir)
			seen[name] = true
			t.Run(name, func(t *testing.T) {
				for _, r := range conformanceRuns {
					t.Run(r.name, func(t *testing.T) {
						runScenario(t, graft, name, dir, r)
					})
				}
			})
		}
	}
	for _, table := range []map[string]bool{failingScenarios, keysOf(deviations), keysOf(standing)} {
		for name := range table {
			if !seen[name] {
				t.Errorf("%s is listed in a table but is no scenario", name)
			}
		}
	}
}

// runScenario runs graft on the scenario in dir, one way, and checks the
// tree it leaves and its exit status.
func runScenario(t *testing.T, graft, name, dir string, r conformanceRun) {
	work := t.TempDir()
	input := filepath.Join(dir, "input")
	if _, err := os.Stat(input); err == nil {
		if err := os.CopyFS(work, os.DirFS(input)); err != nil {
			t.Fatal(err)
		}
	}
	patch := filepath.Join(dir, "patch.txt")
	args := []string{"apply", "--root", work}
	for _, a := range r.args {
		if a == "PATCH" {
			a = patch
		}
		args = append(args, a)
	}
	cmd := exec.CommandContext(t.Context(), graft, args...)
	if r.stdin {
		f, err := os.Open(patch)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdin = f
	}
	out, err := cmd.CombinedOutput()
	code := 0
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}

	dev, deviates := deviations[name]
	wantCode, wantTree := 0, filepath.Join(dir, "expected")
	if failingScenarios[name] || deviates {
		wantCode = 1
	}
	switch {
	case r.atomic && wantCode != 0:
		wantTree = input
	case deviates:
		wantTree = filepath.Join(dir, dev.tree)
	}
	if code != wantCode {
		t.Errorf("graft exited %d, want %d; its report:\n%s", code, wantCode, out)
	}
	if deviates && !r.atomic && !bytes.Contains(out, []byte(dev.says)) {
		t.Errorf("the report does not say %q (%s):\n%s", dev.says, dev.why, out)
	}
	if says, ok := standing[name]; ok && !bytes.Contains(out, []byte(says)) {
		t.Errorf("the report does not say %q (a change already made):\n%s", says, out)
	}
	if diff := compareTrees(readTree(t, work), readTree(t, wantTree)); diff != "" {
		t.Errorf("the tree differs from %s:\n%s\ngraft's report:\n%s", filepath.Base(wantTree), diff, out)
		if deviates && compareTrees(readTree(t, work), readTree(t, filepath.Join(dir, "expected"))) == "" {
			t.Errorf("graft now leaves expected/: remove the deviation (%s)", dev.why)
		}
	}
}

// readTree returns every file and directory under root, by slash-separated
// path relative to root, with a file's content, or "/" for a directory.
// Links are followed, as upstream does. A root that does not exist is an
// empty tree.
func readTree(t *testing.T, root string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
		return tree
	}
	err := fs.WalkDir(os.DirFS(root), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return err
		}
		full := filepath.Join(root, filepath.FromSlash(p))
		info, err := os.Stat(full)
		if err != nil {
			return err
		}
		if info.IsDir() {
			tree[p] = "/"
			return nil
		}
		data, err := os.ReadFile(full)
		tree[p] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// compareTrees describes how got differs from want, one line per path;
// "" when they are the same.
func compareTrees(got, want map[string]string) string {
	var b strings.Builder
	paths := slices.Collect(maps.Keys(got))
	for p := range want {
		if _, ok := got[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		g, inGot := got[p]
		w, inWant := want[p]
		switch {
		case !inWant:
			fmt.Fprintf(&b, "  extra %s %q\n", p, g)
		case !inGot:
			fmt.Fprintf(&b, "  missing %s %q\n", p, w)
		case g != w:
			fmt.Fprintf(&b, "  %s is %q, want %q\n", p, g, w)
		}
	}
	return b.String()
}

// keysOf returns the set of the keys of m.
func keysOf[V any](m map[string]V) map[string]bool {
	set := make(map[string]bool, len(m))
	for k := range m {
		set[k] = true
	}
	return set
}
