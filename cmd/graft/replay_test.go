package main

import (
	"bytes"
	"cmp"
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
			if ex.commit == "" || len(ex.files) == 0 {
				continue // not committed: see TestAiderReplayRetries
			}
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

// TestAiderReplayRetries replays the runs of a real agent's answers in
// which aider refused blocks, their SEARCH not found in the file as
// written, and the model answered again with those blocks fixed, up to
// an answer aider applied whole and committed. That last commit is what
// the model meant by its first answer. Each run is sent to the built
// graft against the files as they were before it, twice:
//   - "first try": the first answer alone. Where graft applies a block
//     aider refused, its result should be the run's last commit: a round
//     trip saved. Where it is not, it is shown, for a person to judge: a
//     wrong edit, or a model that changed its mind.
//   - "as sent": every answer of the run in turn, as the agent sent them,
//     graft's journal on: a fixed block then quotes what graft may have
//     changed already, and must not change it twice.
//
// It takes the repositories of TestAiderReplay.
func TestAiderReplayRetries(t *testing.T) {
	if *replayRepos == "" {
		t.Skip("no -replay.repos: give the git directories of repositories that commit .aider.chat.history.md")
	}
	graft := testenv.Build(t)
	first, sent := replayTally{}, replayTally{}
	var report strings.Builder
	for _, dir := range strings.Split(*replayRepos, ",") {
		g := gitDir(dir)
		history, err := g.historyFile()
		if err != nil {
			continue
		}
		for _, run := range aiderRetries(aiderExchanges(history)) {
			f, s := g.replayRun(t, graft, run)
			first[f.verdict]++
			sent[s.verdict]++
			if f.verdict != "same" || s.verdict != "same" {
				commits := []string{}
				for _, ex := range run {
					commits = append(commits, cmp.Or(ex.commit, "-"))
				}
				fmt.Fprintf(&report, "\n== %s %s: first try %s, as sent %s\n%s\n%s\n", filepath.Base(filepath.Dir(dir)), strings.Join(commits, " "), f.verdict, s.verdict, f.detail, s.detail)
			}
		}
	}
	t.Logf("%s\nfirst try: %s\nas sent: %s", report.String(), first, sent)
}

// aiderRetries returns the runs of answers in exs that begin with an
// answer aider applied only part of, go on with the model's answers to
// aider's report of what failed, and end with one aider applied whole and
// committed.
func aiderRetries(exs []aiderExchange) [][]aiderExchange {
	var runs [][]aiderExchange
	for k := 0; k < len(exs); k++ {
		if !exs[k].partial || exs[k].retry {
			continue
		}
		start := k
		for k+1 < len(exs) && exs[k+1].retry && exs[k].partial {
			k++
		}
		run := exs[start : k+1]
		if last := run[len(run)-1]; len(run) > 1 && !last.partial && last.commit != "" && len(last.files) > 0 {
			runs = append(runs, run)
		}
	}
	return runs
}

// replayRun replays a run of aiderRetries, its first answer alone and then
// all its answers in turn, and compares each result with the run's last
// commit.
func (g gitDir) replayRun(t *testing.T, graft string, run []aiderExchange) (first, sent replayResult) {
	t.Helper()
	var commits, edited, answers []string
	for _, ex := range run {
		edited = append(edited, ex.files...)
		answers = append(answers, ex.answer)
		if ex.commit == "" {
			continue
		}
		c, err := g.commit(ex.commit)
		if err != nil {
			return replayResult{verdict: "skipped", detail: "no such commit"}, replayResult{verdict: "skipped"}
		}
		if len(commits) > 0 {
			// Nothing but the run between its first commit and its last.
			if parent, err := g.commit(c + "^"); err != nil || parent != commits[len(commits)-1] {
				return replayResult{verdict: "skipped", detail: "other commits in between"}, replayResult{verdict: "skipped"}
			}
		}
		commits = append(commits, c)
	}
	before, last := commits[0]+"^", commits[len(commits)-1]
	changed, err := g.git("diff", "--name-only", "--no-renames", before, last)
	if err != nil {
		return replayResult{verdict: "skipped", detail: "no parent"}, replayResult{verdict: "skipped"}
	}
	edited = append(edited, strings.Split(strings.TrimSpace(changed), "\n")...)
	root, err := g.checkout(t, before, edited, answers...)
	if err != nil {
		return replayResult{verdict: "skipped", detail: "no parent"}, replayResult{verdict: "skipped"}
	}
	rep, ok := applyAnswer(t, graft, root, answers[0], edited)
	if !ok {
		return replayResult{verdict: "unread"}, replayResult{verdict: "unread"}
	}
	// The run's later answers may edit other files too: the first is
	// judged on its own.
	var own []string
	for _, f := range rep.Files {
		if slices.Contains(edited, filepath.ToSlash(f.Path)) {
			own = append(own, filepath.ToSlash(f.Path))
		}
	}
	first = g.judge(root, last, own, rep)

	root, _ = g.checkout(t, before, edited, answers...)
	var reports []workspace.Report
	for _, a := range answers {
		rep, _ := applyAnswer(t, graft, root, a, edited)
		reports = append(reports, rep)
	}
	return first, g.judge(root, last, edited, reports...)
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

// An aiderExchange is one answer of the model, and what aider did with
// it: the files it says it edited, the commit of those edits ("" when it
// committed none).
type aiderExchange struct {
	answer string
	files  []string
	commit string
	// partial says aider reported blocks it could not apply: the commit
	// holds only some of the answer.
	partial bool
	// retry says the answer replies to aider's report of the blocks of
	// the answer before that it could not apply.
	retry bool
}

// aiderCommit matches aider's "> Commit 1a2b3c4 message" line.
var aiderCommit = regexp.MustCompile(`^> Commit ([0-9a-f]{7,40}) `)

// aiderExchanges returns the answers of a chat history. Each answer ends
// at aider's "> Tokens:" line; it begins after the last line of the
// user's messages since the answer before (see userLine), or after
// aider's report of the blocks of the answer before that failed. What
// aider did with it follows, in "> " lines, up to the next message: the
// files it edited, then the commit of the edits.
func aiderExchanges(history string) []aiderExchange {
	var out []aiderExchange
	lines := strings.Split(strings.ReplaceAll(history, "\r\n", "\n"), "\n")
	from := 0 // the first line after the answer before
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "> Tokens:") {
			continue
		}
		start, retry := -1, false
		for j := from; j < i; j++ {
			if strings.HasPrefix(lines[j], "Just reply with fixed versions of the block") || strings.HasPrefix(lines[j], "The SEARCH section must exactly match an existing block") {
				// Aider sent the model what failed of its answer before,
				// quoting the blocks (whose lines may start "####"), and
				// when some applied, what to do of the others: the answer
				// follows, a retry unless the user spoke since.
				start = j + 1
				retry = !slices.ContainsFunc(lines[start:i], userLine)
			}
		}
		if start < 0 {
			// After the last line of the user's messages; an answer the
			// user cut short (^C) stands before it.
			for j := from; j < i; j++ {
				if userLine(lines[j]) {
					start = j + 1
				}
			}
		}
		from = i + 1
		if start < 0 {
			continue
		}
		ex := aiderExchange{answer: strings.Join(lines[start:i], "\n") + "\n", retry: retry}
		dirty := false // the next commit holds the person's own changes
		for j := i + 1; j < len(lines) && !strings.HasPrefix(lines[j], "####") && !strings.HasPrefix(lines[j], "> Tokens:"); j++ {
			line := strings.TrimRight(lines[j], " ")
			switch {
			case strings.HasPrefix(line, "> Applied edit to "):
				ex.files = append(ex.files, strings.ReplaceAll(strings.TrimPrefix(line, "> Applied edit to "), `\`, "/"))
			case strings.HasPrefix(line, "> Committing ") && strings.HasSuffix(line, " before applying edits."):
				dirty = true
			case aiderCommit.MatchString(line):
				// The first commit after the edits (after the report of
				// those that failed, which names no file edited): one
				// before them holds the person's own changes, and later
				// ones a linter's.
				if ex.commit == "" && !dirty && (len(ex.files) > 0 || ex.partial) {
					ex.commit = aiderCommit.FindStringSubmatch(line)[1]
				}
				dirty = false
			case strings.Contains(line, "SearchReplaceNoExactMatch"), strings.Contains(line, "did not conform to the edit format"), strings.Contains(line, "failed to match"):
				ex.partial = true
			}
		}
		out = append(out, ex)
	}
	return out
}

// userLine reports whether a line of a chat history is the user's: aider
// writes each "#### ...  ", with the markdown line break that the model's
// own headings ("#### Step 1") lack.
func userLine(l string) bool {
	return strings.HasPrefix(l, "####") && (strings.HasSuffix(l, "  ") || strings.TrimSpace(l) == "####")
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
	commit, err := g.commit(ex.commit)
	if err != nil {
		return replayResult{verdict: "skipped", detail: "no such commit"}
	}
	root, err := g.checkout(t, commit+"^", ex.files, ex.answer)
	if err != nil {
		return replayResult{verdict: "skipped", detail: "no parent"}
	}
	rep, ok := applyAnswer(t, graft, root, ex.answer, ex.files)
	if !ok {
		// Whole files in fences (aider's "whole" format), or prose:
		// no dialect graft reads.
		return replayResult{verdict: "unread"}
	}
	return g.judge(root, commit, ex.files, rep)
}

// commit returns the full name of the commit rev names.
func (g gitDir) commit(rev string) (string, error) {
	full, err := g.git("rev-parse", "--verify", rev+"^{commit}")
	return strings.TrimSpace(full), err
}

// checkout writes to a new directory the files of rev that answers may
// touch: the files aider edited, and every file of the tree an answer
// names. It returns the directory.
func (g gitDir) checkout(t *testing.T, rev string, edited []string, answers ...string) (string, error) {
	paths, err := g.git("ls-tree", "-r", "--name-only", rev)
	if err != nil {
		return "", err
	}
	want := map[string]bool{}
	for _, f := range edited {
		want[f] = true
	}
	for _, p := range strings.Split(strings.TrimSpace(paths), "\n") {
		for _, a := range answers {
			if p != "" && (strings.Contains(a, p) || strings.Contains(a, strings.ReplaceAll(p, "/", `\`))) {
				want[p] = true
			}
		}
	}
	files := map[string]string{}
	for p := range want {
		if text, err := g.git("show", rev+":"+p); err == nil {
			files[p] = text // else a file the answer creates
		}
	}
	root := t.TempDir()
	writeTree(t, root, files)
	return root, nil
}

// applyAnswer runs graft apply with answer on root, and returns its
// report; false when graft read no edit block in it. edited are the files
// aider edited with it.
func applyAnswer(t *testing.T, graft, root, answer string, edited []string) (workspace.Report, bool) {
	t.Helper()
	path := writeAnswer(t, t.TempDir(), "answer.md", answer)
	args := []string{"apply", "--root", root, "--editor", "never", "--json"}
	if files := slices.Compact(slices.Sorted(slices.Values(edited))); len(files) == 1 {
		// Aider gives a block that names no file to the one file in the
		// chat; the file an editor has open is that here.
		args = append(args, "--target", filepath.Join(root, filepath.FromSlash(files[0])))
	}
	cmd := exec.Command(graft, append(args, path)...)
	cmd.Dir = root
	out, err := cmd.Output()
	if exit := (*exec.ExitError)(nil); err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	var rep workspace.Report
	if json.Unmarshal(out, &rep) != nil || len(rep.Blocks) == 0 {
		return rep, false
	}
	return rep, true
}

// judge compares the files aider edited, as graft left them in root after
// the answers it reported on, with the commit.
func (g gitDir) judge(root, commit string, edited []string, reports ...workspace.Report) replayResult {
	var failed, standing []string
	for k, rep := range reports {
		answer := ""
		if len(reports) > 1 {
			answer = fmt.Sprintf("answer %d ", k+1)
		}
		for _, b := range rep.Blocks {
			if b.Status == "already-applied" {
				standing = append(standing, fmt.Sprintf("%sblock %d %s: lines %d-%d", answer, b.Block, b.Path, b.StartLine, b.EndLine))
			}
			if b.Status == "failed" || b.Status == "skipped" {
				msg, _, _ := strings.Cut(b.Message, "\n")
				failed = append(failed, fmt.Sprintf("%sblock %d %s: %s", answer, b.Block, b.Path, msg))
			}
		}
	}
	var diffs []string
	spaceOnly := true
	for _, f := range slices.Compact(slices.Sorted(slices.Values(edited))) {
		wantText, _ := g.git("show", commit+":"+f)
		got, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if string(got) != wantText {
			diffs = append(diffs, fmt.Sprintf("%s:\n%s", f, lineDiff(wantText, string(got))))
			spaceOnly = spaceOnly && strings.Join(strings.Fields(string(got)), " ") == strings.Join(strings.Fields(wantText), " ")
		}
	}
	switch {
	case len(failed) > 0 && len(diffs) > 0:
		return replayResult{verdict: "refused", detail: strings.Join(failed, "\n") + "\n" + strings.Join(diffs, "\n")}
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
