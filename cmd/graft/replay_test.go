package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/graft-editor/graft/internal/test/testenv"
	"github.com/graft-editor/graft/workspace"
)

// replayRepos names the git directories of repositories whose committed
// .aider.chat.history.md TestAiderReplay replays.
var replayRepos = flag.String("replay.repos", "", "TestAiderReplay: `git directories`, comma-separated, of repositories that commit aider's chat history")

// TestAiderReplay replays real agent runs: the answers a model gave aider
// in a repository, as the chat history the repository commits records
// them, each applied by aider and committed (its "> Commit 1a2b3c4"
// line). Each answer goes to the built graft against the files as they
// were before that commit, and graft's result is compared with the commit:
// the files aider wrote, byte for byte. Nothing of those repositories is
// kept here: -replay.repos names git directories fetched for the run (the
// test is skipped without it). Reported per repository: the answers
// replayed, those graft applied as aider committed them, those it applied
// otherwise (each shown, for a person to judge: aider's own fuzzy match
// may be the wrong one), and those it refused (with why).
func TestAiderReplay(t *testing.T) {
	if *replayRepos == "" {
		t.Skip("no -replay.repos: give the git directories of repositories that commit .aider.chat.history.md")
	}
	graft := testenv.Build(t)
	total := replayTally{}
	var report strings.Builder
	for _, dir := range strings.Split(*replayRepos, ",") {
		g := gitDir(dir)
		history, err := g.historyFile()
		if err != nil {
			t.Logf("%s: not replayed: %v", dir, err)
			continue
		}
		n := replayTally{}
		for _, ex := range aiderExchanges(history) {
			r := g.replay(t, graft, ex)
			n[r.verdict]++
			if r.verdict == "differs" || r.verdict == "refused" || r.verdict == "stands" {
				fmt.Fprintf(&report, "\n== %s %s (%s): %s\n%s\n", filepath.Base(filepath.Dir(dir)), ex.commit, strings.Join(ex.files, ", "), r.verdict, r.detail)
			}
		}
		if len(n) > 0 {
			fmt.Fprintf(&report, "\n%s: %s\n", dir, n)
		}
		for v, k := range n {
			total[v] += k
		}
	}
	t.Logf("%s\ntotal: %s", report.String(), total)
}

// A replayTally counts answers by verdict (see replayResult).
type replayTally map[string]int

func (n replayTally) String() string {
	sum := 0
	for _, k := range n {
		sum += k
	}
	return fmt.Sprintf("%d answers: %d as aider committed, %d in white space only, %d with a change graft found standing already, %d otherwise, %d refused; %d with no edit blocks (whole files), %d skipped (commit missing, partly applied)",
		sum, n["same"], n["space"], n["stands"], n["differs"], n["refused"], n["unread"], n["skipped"])
}

// An aiderExchange is one answer of the model that aider applied and
// committed: the answer, the files aider says it edited, the commit.
type aiderExchange struct {
	answer string
	files  []string
	commit string
	// partial says aider reported blocks it could not apply: the commit
	// holds only some of the answer.
	partial bool
}

// aiderCommit matches aider's "> Commit 1a2b3c4 message" line.
var aiderCommit = regexp.MustCompile(`^> Commit ([0-9a-f]{7,40}) `)

// aiderExchanges returns the answers of a chat history that aider
// applied and committed. Each answer ends at aider's "> Tokens:" line; it
// begins after the last line of the user's messages since the answer
// before ("#### ...  ": the model's own headings may start "#### " too,
// without the line break), or after aider's report of the blocks of the
// answer before that failed. What aider did with it follows, in "> "
// lines, up to the next message: the files it edited, then the commit of
// the edits.
func aiderExchanges(history string) []aiderExchange {
	var out []aiderExchange
	lines := strings.Split(strings.ReplaceAll(history, "\r\n", "\n"), "\n")
	from := 0 // the first line after the answer before
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "> Tokens:") {
			continue
		}
		start := -1
		for j := from; j < i; j++ {
			if strings.HasPrefix(lines[j], "Just reply with fixed versions of the block") {
				// Aider sent the model what failed of its answer before,
				// quoting the blocks (whose lines may start "####"): the
				// answer follows.
				start = j + 1
			}
		}
		if start < 0 {
			// After the last line of the user's messages: aider writes
			// each "#### ...  ", with the markdown line break that the
			// model's own headings lack; an answer the user cut short
			// (^C) stands before it.
			for j := from; j < i; j++ {
				if l := lines[j]; strings.HasPrefix(l, "####") && (strings.HasSuffix(l, "  ") || strings.TrimSpace(l) == "####") {
					start = j + 1
				}
			}
		}
		from = i + 1
		if start < 0 {
			continue
		}
		ex := aiderExchange{answer: strings.Join(lines[start:i], "\n") + "\n"}
		for j := i + 1; j < len(lines) && !strings.HasPrefix(lines[j], "####") && !strings.HasPrefix(lines[j], "> Tokens:"); j++ {
			line := strings.TrimRight(lines[j], " ")
			switch {
			case strings.HasPrefix(line, "> Applied edit to "):
				ex.files = append(ex.files, strings.ReplaceAll(strings.TrimPrefix(line, "> Applied edit to "), `\`, "/"))
			case aiderCommit.MatchString(line):
				// The first commit after the edits: one before them
				// ("Committing a.py before applying edits") holds the
				// person's own changes, and later ones a linter's.
				if ex.commit == "" && len(ex.files) > 0 {
					ex.commit = aiderCommit.FindStringSubmatch(line)[1]
				}
			case strings.Contains(line, "SearchReplaceNoExactMatch"), strings.Contains(line, "did not conform to the edit format"), strings.Contains(line, "failed to match"):
				ex.partial = true
			}
		}
		if ex.commit != "" && len(ex.files) > 0 {
			out = append(out, ex)
		}
	}
	return out
}

// A gitDir is the git directory of a repository.
type gitDir string

// git runs git on the repository and returns its output.
func (g gitDir) git(args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"--git-dir", string(g)}, args...)...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return out.String(), nil
}

// historyFile returns the longest .aider.chat.history.md the repository
// ever committed.
func (g gitDir) historyFile() (string, error) {
	revs, err := g.git("log", "--all", "--format=%H", "--diff-filter=AMR", "--", ".aider.chat.history.md")
	if err != nil {
		return "", err
	}
	best := ""
	for _, rev := range strings.Fields(revs) {
		if text, err := g.git("show", rev+":.aider.chat.history.md"); err == nil && len(text) > len(best) {
			best = text
		}
	}
	if best == "" {
		return "", errors.New("no .aider.chat.history.md committed")
	}
	return best, nil
}

// A replayResult is how graft fared with an answer: "same" as the
// commit, "space" (otherwise in white space only), "stands" (graft
// found a block's change standing already), "differs", "refused",
// "unread" (no edit block graft reads), or "skipped" (the commit is not
// in the repository, or aider applied only part of the answer), and what
// to show of it.
type replayResult struct {
	verdict, detail string
}

// replay applies ex's answer with graft to the files as they were before
// its commit, and compares the result with the commit.
func (g gitDir) replay(t *testing.T, graft string, ex aiderExchange) replayResult {
	t.Helper()
	if ex.partial {
		return replayResult{verdict: "skipped", detail: "partly applied"}
	}
	full, err := g.git("rev-parse", "--verify", ex.commit+"^{commit}")
	if err != nil {
		return replayResult{verdict: "skipped", detail: "no such commit"}
	}
	commit := strings.TrimSpace(full)
	paths, err := g.git("ls-tree", "-r", "--name-only", commit+"^")
	if err != nil {
		return replayResult{verdict: "skipped", detail: "no parent"}
	}
	root := t.TempDir()
	// The files aider edited, and every file of the tree the answer names.
	want := map[string]bool{}
	for _, f := range ex.files {
		want[f] = true
	}
	for _, p := range strings.Split(strings.TrimSpace(paths), "\n") {
		if p != "" && (strings.Contains(ex.answer, p) || strings.Contains(ex.answer, strings.ReplaceAll(p, "/", `\`))) {
			want[p] = true
		}
	}
	files := map[string]string{}
	for p := range want {
		if text, err := g.git("show", commit+"^:"+p); err == nil {
			files[p] = text // else a file the answer creates
		}
	}
	writeTree(t, root, files)
	answer := writeAnswer(t, t.TempDir(), "answer.md", ex.answer)
	args := []string{"apply", "--root", root, "--editor", "never", "--json"}
	if files := slices.Compact(slices.Sorted(slices.Values(ex.files))); len(files) == 1 {
		// Aider gives a block that names no file to the one file in the
		// chat; the file an editor has open is that here.
		args = append(args, "--target", filepath.Join(root, filepath.FromSlash(files[0])))
	}
	cmd := exec.Command(graft, append(args, answer)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if exit := (*exec.ExitError)(nil); err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	var rep workspace.Report
	if json.Unmarshal(out, &rep) != nil || len(rep.Blocks) == 0 {
		// Whole files in fences (aider's "whole" format), or prose:
		// no dialect graft reads.
		return replayResult{verdict: "unread"}
	}
	var failed, standing []string
	for _, b := range rep.Blocks {
		if b.Status == "already-applied" {
			standing = append(standing, fmt.Sprintf("block %d %s: lines %d-%d", b.Block, b.Path, b.StartLine, b.EndLine))
		}
		if b.Status == "failed" || b.Status == "skipped" {
			msg, _, _ := strings.Cut(b.Message, "\n")
			failed = append(failed, fmt.Sprintf("block %d %s: %s", b.Block, b.Path, msg))
		}
	}
	var diffs []string
	spaceOnly := true
	for _, f := range slices.Sorted(slices.Values(ex.files)) {
		wantText, _ := g.git("show", commit+":"+f)
		got, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if string(got) != wantText {
			diffs = append(diffs, fmt.Sprintf("%s:\n%s", f, lineDiff(wantText, string(got))))
			spaceOnly = spaceOnly && strings.Join(strings.Fields(string(got)), " ") == strings.Join(strings.Fields(wantText), " ")
		}
	}
	switch {
	case len(failed) > 0 && len(diffs) > 0:
		return replayResult{verdict: "refused", detail: strings.Join(failed, "\n")}
	case len(diffs) > 0 && len(standing) > 0:
		// Graft found the change standing already, where aider made it
		// again: a block re-sent, or one the model thought undone.
		return replayResult{verdict: "stands", detail: strings.Join(standing, "\n") + "\n" + strings.Join(diffs, "\n")}
	case len(diffs) > 0 && spaceOnly:
		// A final newline, a blank line, the blanks of a blank line.
		return replayResult{verdict: "space", detail: strings.Join(diffs, "\n")}
	case len(diffs) > 0:
		return replayResult{verdict: "differs", detail: strings.Join(diffs, "\n")}
	}
	return replayResult{verdict: "same"}
}

// lineDiff shows the lines of want and got that differ, first to last, a
// few of each.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	j := 0
	for j < len(w)-i && j < len(g)-i && w[len(w)-1-j] == g[len(g)-1-j] {
		j++
	}
	clip := func(ls []string) string {
		var out []string
		for k, l := range ls {
			if k == 8 {
				out = append(out, fmt.Sprintf("... %d more", len(ls)-8))
				break
			}
			out = append(out, fmt.Sprintf("%q", l))
		}
		return "\t" + strings.Join(out, "\n\t")
	}
	return fmt.Sprintf("  at line %d, aider committed:\n%s\n  graft wrote:\n%s", i+1, clip(w[i:len(w)-j]), clip(g[i:len(g)-j]))
}
