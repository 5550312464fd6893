package engine_test

import (
	"errors"
	"flag"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/internal/corpus"
)

// corpusFlags look into the corpus: run one kind and log every case, or
// show one case in full.
var corpusFlags = corpus.RegisterFlags(flag.CommandLine)

// corpusExactShare is the least share of every apply kind's cases (every
// kind but the traps) that must resolve to the expected text byte for
// byte.
const corpusExactShare = 0.95

// A corpusResult is one case run through ApplyEdits.
type corpusResult struct {
	c       corpus.Case
	verdict corpus.Verdict
	got     string
	outs    []engine.Outcome
}

// runCorpusCase resolves a case's edits against its file and judges the
// result.
func runCorpusCase(c corpus.Case) corpusResult {
	got, outs := engine.ApplyEdits(c.File, c.Edits, engine.Options{})
	return corpusResult{c: c, verdict: c.Judge(got, corpus.Applied(outs)), got: got, outs: outs}
}

// reportIndent sets the quoted texts of a report apart from its lines.
const reportIndent = "    "

// report shows a case that did not resolve exactly: where it comes from,
// what the resolver said, and the difference between the expected text
// and the result (or the error, for a refusal).
func (r corpusResult) report(full bool) string {
	var b strings.Builder
	c := r.c
	fmt.Fprintf(&b, "%s %s:%d (%s)\n  %s\n", c.Name, c.Path, c.Line, c.Variant, strings.Join(corpus.Summaries(r.outs), "; "))
	limit := 24
	if full {
		limit = 1 << 30
		for i, e := range c.Edits {
			fmt.Fprintf(&b, "  edit %d (line hint %d, replace all %v)\n  old: %q\n  new: %q\n", i+1, e.Line, e.ReplaceAll, e.Old, e.New)
		}
		b.WriteString(corpus.Clip(udiff.Unified("file", "want", c.File, c.Want), limit, reportIndent))
	}
	switch {
	case r.verdict == corpus.Wrong && !c.Trap:
		b.WriteString(corpus.Clip(udiff.Unified("want", "got", c.Want, r.got), limit, reportIndent))
	case r.verdict == corpus.Wrong:
		b.WriteString(corpus.Clip(udiff.Unified("file", "got", c.File, r.got), limit, reportIndent))
	default:
		for _, o := range r.outs {
			if o.Err != nil {
				b.WriteString(corpus.Clip(o.Err.Error(), limit/2, reportIndent))
				b.WriteString("\n")
				break
			}
		}
	}
	return b.String()
}

// corpusGenerator returns the generator of the corpus at the seed the
// flags say, or skips the test where there is no Go source tree to make
// it from.
func corpusGenerator(t *testing.T) *corpus.Generator {
	t.Helper()
	root, err := corpus.SourceRoot(t.Context())
	if err != nil {
		t.Skipf("no Go source tree to make the corpus from: %v", err)
	}
	g, err := corpus.NewGenerator(root, corpusFlags.Seed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestCorpus runs Graft's corpus of realistic model mistakes (see package
// corpus) through ApplyEdits. It asserts that no kind ever gets a wrong
// edit, that every trap is refused, and that the cases of every other kind
// resolve byte for byte at least 95% of the time: a kind whose cases all
// came back refused would be no wrong edit, and no success either. The
// table of results, by kind and by family of mistakes, is logged;
// -corpus.kind and -corpus.case look closer.
func TestCorpus(t *testing.T) {
	g := corpusGenerator(t)
	n, only, caseName := corpusFlags.PerKind(testing.Short()), corpusFlags.Only(), corpusFlags.Case

	table := corpus.NewTable()
	groups := map[string]*corpus.Tally{}
	var wrongs, refusals []corpusResult
	var short []string // the apply kinds under corpusExactShare
	ran := 0
	for _, k := range corpus.Kinds() {
		if only != "" && k.Name != only {
			continue
		}
		cases, err := g.Cases(k.Name, n)
		if err != nil {
			t.Fatal(err)
		}
		var kt corpus.Tally
		for _, c := range cases {
			if caseName != "" && c.Name != caseName {
				continue
			}
			r := runCorpusCase(c)
			kt.Add(r.verdict, corpus.Micros(r.outs)...)
			switch {
			case caseName != "":
				t.Logf("%s\n%s", r.verdict, r.report(true))
			case only != "":
				t.Logf("%-8s %s", r.verdict, strings.TrimRight(r.report(false), "\n"))
			}
			if r.verdict == corpus.Wrong {
				wrongs = append(wrongs, r)
			}
			if r.verdict == corpus.Refused && !c.Trap {
				refusals = append(refusals, r)
			}
		}
		if !k.Trap && kt.Cases > 0 && float64(kt.Exact) < corpusExactShare*float64(kt.Cases) {
			short = append(short, fmt.Sprintf("%s: %d of %d byte for byte", k.Name, kt.Exact, kt.Cases))
		}
		ran += kt.Cases
		table.Row(k.Name, &kt)
		if groups[k.Group()] == nil {
			groups[k.Group()] = &corpus.Tally{}
		}
		groups[k.Group()].Merge(&kt)
	}
	if ran == 0 {
		t.Fatalf("no corpus case named by -corpus.kind=%q -corpus.case=%q", corpusFlags.Kind, corpusFlags.Case)
	}
	table.Gap()
	for _, name := range corpus.Groups() {
		if gt := groups[name]; gt != nil {
			table.Row(name, gt)
		}
	}
	t.Logf("corpus, seed %d, %d cases per kind:\n%s", corpusFlags.Seed, n, table.String())

	if len(wrongs) > 0 {
		var b strings.Builder
		for _, r := range wrongs[:min(len(wrongs), 5)] {
			b.WriteString(r.report(false))
		}
		t.Errorf("%d wrong edits (a trap applied, or a text that is not the expected one); the first:\n%s", len(wrongs), b.String())
	}
	if len(short) > 0 {
		var b strings.Builder
		for _, r := range refusals[:min(len(refusals), 5)] {
			b.WriteString(r.report(false))
		}
		t.Errorf("apply kinds under %.0f%% byte for byte: %s; the first refusals:\n%s",
			100*corpusExactShare, strings.Join(short, ", "), b.String())
	}
}

// wideSeeds are the corpus seeds TestCorpusWide runs at wideCases a kind:
// at 100 cases a kind, the seeds the tests were tuned on agreed with the
// engine, and at 300 these found wrong verdicts in six of its rules (28
// November 2026, docs/design.md).
var wideSeeds = []uint64{2027, 3141, 4242}

const wideCases = 300

// TestCorpusWide runs the corpus at more seeds and more cases a kind than
// TestCorpus, for its one rule that matters most: no kind gets a wrong
// edit and no trap is applied or said applied. It is left out with -short,
// and when the corpus flags pick the cases.
func TestCorpusWide(t *testing.T) {
	if testing.Short() {
		t.Skip("the wide corpus takes a while")
	}
	if corpusFlags.Kind != "" || corpusFlags.Case != "" || corpusFlags.N != 0 || corpusFlags.Seed != 1 {
		t.Skip("the corpus flags pick the cases")
	}
	root, err := corpus.SourceRoot(t.Context())
	if err != nil {
		t.Skipf("no Go source tree to make the corpus from: %v", err)
	}
	for _, seed := range wideSeeds {
		g, err := corpus.NewGenerator(root, seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range corpus.Kinds() {
			cases, err := g.Cases(k.Name, wideCases)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cases {
				if r := runCorpusCase(c); r.verdict == corpus.Wrong {
					t.Errorf("seed %d: %s", seed, r.report(false))
				}
			}
		}
	}
}

// TestCorpusPrunedAlignments resolves every edit of the corpus against its
// case's file twice: as Resolve does, and aligning the search in all that
// is left of every window (engine.ResolveExhaustive). The alignments
// Resolve leaves out, as no region they could find would score enough to
// matter, must never change a match or a refusal, down to its message.
func TestCorpusPrunedAlignments(t *testing.T) {
	resolveTwice(t, "pruned", "exhaustive", engine.ResolveExhaustive, func(e1, e2 error) bool {
		return reflect.DeepEqual(e1, e2)
	})
}

// TestCorpusAnchoredAlignments resolves every edit of the corpus against
// its case's file twice: as Resolve does, and with every alignment made
// between anchors (engine.ResolveAnchored), as a search too long for one
// table is aligned. The corpus's searches are short enough for one table;
// made between anchors, their alignments must come out the same: the same
// match, or a refusal for the same reason. A search that resembles nothing
// may be aligned otherwise with the lines it does not resemble: the
// closest place its refusal shows may differ, and with it whether nothing
// resembles the search or nothing enough (not-found, below-threshold).
func TestCorpusAnchoredAlignments(t *testing.T) {
	resolveTwice(t, "one table", "between anchors", engine.ResolveAnchored, func(e1, e2 error) bool {
		return nothingAlike(reason(e1)) == nothingAlike(reason(e2))
	})
}

// resolveTwice resolves every edit of the corpus against its case's file
// with Resolve and with other, named as the report names them, and
// reports the edits whose matches differ, or whose refusals sameRefusal
// tells apart.
func resolveTwice(t *testing.T, name, otherName string, other func(string, engine.Edit, engine.Options) (*engine.Match, error), sameRefusal func(e1, e2 error) bool) {
	t.Helper()
	g := corpusGenerator(t)
	n := corpusFlags.PerKind(testing.Short())
	differ := 0
	for _, k := range corpus.Kinds() {
		cases, err := g.Cases(k.Name, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			for i, e := range c.Edits {
				m, err := engine.Resolve(c.File, e, engine.Options{})
				m2, err2 := other(c.File, e, engine.Options{})
				if reflect.DeepEqual(m, m2) && sameRefusal(err, err2) {
					continue
				}
				if differ++; differ <= 5 {
					t.Errorf("%s %s:%d, edit %d: %s %s, %s %s", c.Name, c.Path, c.Line, i+1, name, outcome(m, err), otherName, outcome(m2, err2))
				}
			}
		}
	}
	if differ > 5 {
		t.Errorf("%d edits differ in all", differ)
	}
}

// nothingAlike reads not-found as below-threshold: nothing resembles the
// search enough.
func nothingAlike(r engine.Reason) engine.Reason {
	if r == engine.ReasonNotFound {
		return engine.ReasonBelowThreshold
	}
	return r
}

// outcome describes a match or a refusal in a line.
func outcome(m *engine.Match, err error) string {
	if err != nil {
		return fmt.Sprintf("refused: %v", err)
	}
	return fmt.Sprintf("%s at lines %d-%d, score %.3f", m.Strategy, m.StartLine, m.EndLine, m.Score)
}

// corpusTwiceShare is the least share of the corpus's applied cases that,
// applied again to their own result, must say every edit stands already.
const corpusTwiceShare = 0.95

// corpusTwiceChanged is the most share of those cases that may change
// their text a second time. The text alone cannot tell some of them: a
// block whose region stands twice in the file (two comment blocks alike),
// applied to one, finds the other the second time, as it is; the history
// of the edits Graft made, which graft apply and graft serve keep, tells
// them, and this bound stays until the engine sees it.
const corpusTwiceChanged = 0.002

// TestCorpusAppliedTwice applies every case of the corpus that resolves
// exactly a second time, to the text it made, as an agent does that sends
// an answer again: nothing may change, and at least 95% of the cases must
// say so, every edit already applied (the rest are refused).
//
// Two kinds of case need the history the engine does not see, and are
// counted apart: a deletion without context leaves nothing that tells it
// was made (only that its lines are gone), so it is refused, never counted
// as applied; and an answer whose later block rewrote what an earlier one
// wrote ("chained") has that earlier block quote, the second time, a text
// that is no longer there (a stale edit). Those are applied again with
// the file before the first application as history, as graft apply's
// journal keeps it: at least 95% of the deletions must then say already
// applied, and changes stay within the same bound.
func TestCorpusAppliedTwice(t *testing.T) {
	g := corpusGenerator(t)
	n, only := corpusFlags.PerKind(testing.Short()), corpusFlags.Only()
	table := corpus.NewTable()
	var total, said, apart, histSaid int
	var histChanged, histUnsaid []string
	// The same, after a person added a line at the end of the file, away
	// from the edits, between the two sendings.
	var away, awaySaid int
	var awayChanged []string
	var changed, unsaid, history []string
	for _, k := range corpus.Kinds() {
		if only != "" && k.Name != only {
			continue
		}
		cases, err := g.Cases(k.Name, n)
		if err != nil {
			t.Fatal(err)
		}
		var kt corpus.Tally
		for _, c := range cases {
			if c.Trap || runCorpusCase(c).verdict != corpus.Exact || c.Want == c.File {
				continue
			}
			got, outs := engine.ApplyEdits(c.Want, c.Edits, engine.Options{})
			needsHistory := k.Name == "chained" || deletionsOnly(c.Edits)
			summary := fmt.Sprintf("%s %s:%d: %s", c.Name, c.Path, c.Line, strings.Join(corpus.Summaries(outs), "; "))
			v := corpus.Refused
			switch {
			case got != c.Want && needsHistory:
				history = append(history, summary)
			case got != c.Want:
				v = corpus.Wrong
				changed = append(changed, summary+"\n"+corpus.Clip(udiff.Unified("once", "twice", c.Want, got), 16, reportIndent))
			case allStand(outs):
				v = corpus.Exact
			}
			kt.Add(v, corpus.Micros(outs)...)
			if only != "" {
				t.Logf("%-8s %s", v, summary)
			}
			if needsHistory && v != corpus.Exact {
				apart++
				// With the text the first application replaced as history,
				// as graft apply's journal keeps it, the history tells.
				hgot, houts := engine.ApplyEdits(c.Want, c.Edits, engine.Options{History: []engine.Version{{Name: "the file before", Text: c.File}}})
				switch {
				case hgot != c.Want:
					histChanged = append(histChanged, summary)
				case allStand(houts):
					histSaid++
				default:
					histUnsaid = append(histUnsaid, fmt.Sprintf("%s %s:%d: %s", c.Name, c.Path, c.Line, strings.Join(corpus.Summaries(houts), "; ")))
				}
				if now, ok := addedAway(c.File, c.Want); ok {
					away++
					agot, aouts := engine.ApplyEdits(now, c.Edits, engine.Options{History: []engine.Version{{Name: "the file before", Text: c.File}}})
					switch {
					case agot != now:
						awayChanged = append(awayChanged, fmt.Sprintf("%s %s:%d: %s", c.Name, c.Path, c.Line, strings.Join(corpus.Summaries(aouts), "; ")))
					case allStand(aouts):
						awaySaid++
					}
				}
				continue
			}
			total++
			switch v {
			case corpus.Exact:
				said++
			case corpus.Refused:
				unsaid = append(unsaid, summary)
			}
		}
		table.Row(k.Name, &kt)
	}
	t.Logf("corpus applied twice, seed %d (exact: every edit already applied; wrong: the text changed again):\n%s", corpusFlags.Seed, table.String())
	t.Logf("%d of %d cases said every edit was already applied; %d more need history (deletions without context, chained answers), %d of them changed their text again",
		said, total, apart, len(history))
	for _, h := range history[:min(len(history), 3)] {
		t.Logf("needs history: %s", h)
	}
	t.Logf("with the file before as history, as graft apply's journal keeps it: %d of the %d said every edit was already applied; %d cases changed their text again",
		histSaid, apart, len(histChanged))
	for _, h := range histUnsaid[:min(len(histUnsaid), 3)] {
		t.Logf("not said with history: %s", h)
	}
	for _, h := range histChanged {
		t.Logf("changed again with history: %s", h)
	}
	t.Logf("the same after a line added at the end of the file: %d of %d said every edit was already applied; %d changed their text again", awaySaid, away, len(awayChanged))
	for _, h := range awayChanged {
		t.Logf("changed again after a line added: %s", h)
	}
	if len(awayChanged) > 0 || float64(awaySaid) < corpusTwiceShare*float64(away) {
		t.Errorf("after a line added away from the edits, %d of %d said already applied (want at least %.0f%%), %d changed again (want none)",
			awaySaid, away, 100*corpusTwiceShare, len(awayChanged))
	}
	if float64(len(histChanged)) > corpusTwiceChanged*float64(total+apart) {
		t.Errorf("%d of %d cases that need history changed their text a second time with it, want at most %.1f%% of all %d",
			len(histChanged), apart, 100*corpusTwiceChanged, total+apart)
	}
	if float64(histSaid) < corpusTwiceShare*float64(apart) {
		t.Errorf("with the file before as history, %d of %d deletions without context and chained answers said already applied, want at least %.0f%%",
			histSaid, apart, 100*corpusTwiceShare)
	}
	for _, c := range changed {
		t.Logf("changed again: %s", c)
	}
	if float64(len(changed)) > corpusTwiceChanged*float64(total) {
		t.Errorf("%d of %d cases changed their text a second time, want at most %.1f%%; the first:\n%s",
			len(changed), total, 100*corpusTwiceChanged, strings.Join(changed[:min(len(changed), 5)], "\n"))
	}
	if float64(said) < corpusTwiceShare*float64(total) {
		t.Errorf("%d of %d cases said every edit was already applied, want at least %.0f%%; the first others:\n%s",
			said, total, 100*corpusTwiceShare, strings.Join(unsaid[:min(len(unsaid), 8)], "\n"))
	}
}

// addedAway returns after with a line added at its end, as a person adds
// one between two sendings of an answer, when the edits that made after
// of before left the last three lines alone.
func addedAway(before, after string) (string, bool) {
	if !strings.HasSuffix(after, "\n") {
		return "", false
	}
	b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
	if len(b) < 4 || len(a) < 4 || strings.Join(b[len(b)-4:], "\n") != strings.Join(a[len(a)-4:], "\n") {
		return "", false
	}
	return after + "// added by a person\n", true
}

// deletionsOnly reports whether every edit deletes text without context:
// its replacement is blank.
func deletionsOnly(edits []engine.Edit) bool {
	for _, e := range edits {
		if strings.TrimSpace(e.New) != "" {
			return false
		}
	}
	return len(edits) > 0
}

// allStand reports whether every outcome says its change stood already.
func allStand(outs []engine.Outcome) bool {
	for _, o := range outs {
		if o.Status != engine.StatusAlreadyApplied {
			return false
		}
	}
	return len(outs) > 0
}

// staleGoal is the least share of the stale blocks of every shape and
// change (corpus.StaleCases) to be refused as stale; none may change the
// text.
const staleGoal = 0.95

// staleBounds returns, for the stale blocks of a shape and change ("same/
// other-line"), the least share that must be refused as stale and the
// most share that may change the text with history: staleGoal and none,
// for every one.
func staleBounds(string) (stale, changed float64) {
	return staleGoal, 0
}

// A staleRow counts the stale blocks of one shape and change.
type staleRow struct {
	blocks, stale, changed, changedWithout int
	// standing counts the blocks said to stand already, refused the
	// blocks refused for another reason than stale.
	standing, refused int
	escapes           []string // the blocks that changed the text with history
}

// TestCorpusStaleAfterOwnEdit makes the stale edits agents make
// (corpus.StaleCases): every corpus case whose one edit applies byte for
// byte is a first edit, then a block quotes the text from before it, in
// four shapes (the first edit's region again, inside the lines it changed,
// overlapping them, beside them), and changes either lines the first edit
// changed or a line it kept while still quoting one it changed. Resolved
// against the text the first edit made, with the text before it as
// history, as graft apply's journal keeps it, at least 95% of every shape
// and change are to be refused as stale, and none change the text
// (staleBounds holds what the engine reaches today where it falls
// short); without history the resolver merges many of them into the
// first edit's code, which the table shows.
func TestCorpusStaleAfterOwnEdit(t *testing.T) {
	g := corpusGenerator(t)
	n := corpusFlags.PerKind(testing.Short())
	only, caseName := corpusFlags.Only(), corpusFlags.Case
	rows := map[string]*staleRow{}
	for _, k := range corpus.Kinds() {
		if only != "" && k.Name != only {
			continue
		}
		cases, err := g.Cases(k.Name, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if caseName != "" && c.Name != caseName {
				continue
			}
			for _, sc := range g.StaleCases(c) {
				key := sc.Shape + "/" + sc.Change
				r := rows[key]
				if r == nil {
					r = &staleRow{}
					rows[key] = r
				}
				r.blocks++
				if got, _ := engine.ApplyEdits(sc.Now, []engine.Edit{sc.Stale}, engine.Options{}); got != sc.Now {
					r.changedWithout++
				}
				got, outs := engine.ApplyEdits(sc.Now, []engine.Edit{sc.Stale}, engine.Options{History: []engine.Version{{Name: "the file before", Text: sc.Before}}})
				var e *engine.Error
				switch {
				case got != sc.Now:
					r.changed++
					r.escapes = append(r.escapes, fmt.Sprintf("%s %s:%d (%s): %s\n%s", sc.Name, sc.Case.Path, sc.Line, sc.Variant,
						strings.Join(corpus.Summaries(outs), "; "), corpus.Clip(udiff.Unified("now", "got", sc.Now, got), 16, reportIndent)))
				case errors.As(outs[0].Err, &e) && e.Reason == engine.ReasonStale:
					r.stale++
				case outs[0].Status == engine.StatusAlreadyApplied:
					r.standing++
				default:
					r.refused++
				}
				switch {
				case caseName != "":
					t.Logf("%s (%s)\n  old: %q\n  new: %q\n  %s\n%s", sc.Name, sc.Variant, sc.Stale.Old, sc.Stale.New, strings.Join(corpus.Summaries(outs), "; "),
						corpus.Clip(udiff.Unified("before", "now", sc.Before, sc.Now), 30, reportIndent))
				case only != "":
					t.Logf("%s (%s): %s", sc.Name, sc.Variant, strings.Join(corpus.Summaries(outs), "; "))
				}
			}
		}
	}
	var b strings.Builder
	var all staleRow
	fmt.Fprintf(&b, "%-26s %7s %7s %8s %9s %8s %8s\n", "shape/change", "blocks", "stale", "changed", "standing", "refused", "changed-0")
	line := func(name string, r *staleRow) {
		fmt.Fprintf(&b, "%-26s %7d %6.1f%% %8d %9d %8d %8d\n", name, r.blocks, 100*float64(r.stale)/float64(max(1, r.blocks)), r.changed, r.standing, r.refused, r.changedWithout)
	}
	for _, shape := range corpus.StaleShapes() {
		for _, change := range corpus.StaleChanges() {
			key := shape + "/" + change
			r := rows[key]
			if r == nil {
				t.Errorf("no stale block %s", key)
				continue
			}
			line(key, r)
			all.blocks += r.blocks
			all.stale += r.stale
			all.changed += r.changed
			all.changedWithout += r.changedWithout
			all.standing += r.standing
			all.refused += r.refused
			for _, esc := range r.escapes[:min(len(r.escapes), 3)] {
				t.Logf("changed the text with history: %s", esc)
			}
			floor, ceiling := staleBounds(key)
			if float64(r.changed) > ceiling*float64(r.blocks) {
				t.Errorf("%s: %d of %d stale blocks changed the text with history, want at most %.1f%%", key, r.changed, r.blocks, 100*ceiling)
			}
			if float64(r.stale) < floor*float64(r.blocks) {
				t.Errorf("%s: %d of %d stale blocks refused as stale, want at least %.0f%%", key, r.stale, r.blocks, 100*floor)
			}
			if floor < staleGoal || ceiling > 0 {
				t.Logf("%s: short of the goal (%.0f%% refused as stale, none changed): %d refused, %d changed", key, 100*staleGoal, r.stale, r.changed)
			}
		}
	}
	line("all", &all)
	t.Logf("stale after own edit, seed %d, %d cases per kind (stale: refused as stale with history; changed: the text changed with history; standing: said already applied; refused: for another reason; changed-0: the text changed without history):\n%s",
		corpusFlags.Seed, n, b.String())
}

// TestCorpusRespacedSince makes the blocks agents send after a formatter
// respaced what they wrote (corpus.RespacedCases): each quotes lines as
// the agent wrote them compact, now spaced as the file is. Respacing is
// no change of the code: with the text the agent wrote as history, each
// block fares as it does without (never stale), and a block that applies
// makes the text its change makes of the lines as they are now, byte for
// byte, or white space aside on a line the change rewrote and the
// formatter respaced. None may change the text otherwise. What does not
// apply, the resolver refuses as it would any copy that is off in white
// space: mostly a search that occurs twice, white space aside; at least
// respacedFloor of every shape and change apply.
func TestCorpusRespacedSince(t *testing.T) {
	g := corpusGenerator(t)
	n := corpusFlags.PerKind(testing.Short())
	type row struct{ blocks, applied, refused, wrong int }
	rows := map[string]*row{}
	var wrong []string
	for _, k := range corpus.Kinds() {
		cases, err := g.Cases(k.Name, n)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			for _, rc := range g.RespacedCases(c) {
				key := rc.Shape + "/" + rc.Change
				r := rows[key]
				if r == nil {
					r = &row{}
					rows[key] = r
				}
				r.blocks++
				got, outs := engine.ApplyEdits(rc.Now, []engine.Edit{rc.Block}, engine.Options{History: []engine.Version{{Name: "the text the agent wrote", Text: rc.Before}}})
				without, wouts := engine.ApplyEdits(rc.Now, []engine.Edit{rc.Block}, engine.Options{})
				switch {
				case got != without || outs[0].Status != wouts[0].Status:
					r.wrong++
					wrong = append(wrong, fmt.Sprintf("%s (%s): with history %s; without %s", rc.Name, rc.Variant, strings.Join(corpus.Summaries(outs), "; "), strings.Join(corpus.Summaries(wouts), "; ")))
				case sameRespaced(got, rc.Want, rc.WantLoose):
					r.applied++
				case got != rc.Now:
					r.wrong++
					wrong = append(wrong, fmt.Sprintf("%s (%s): %s\n%s", rc.Name, rc.Variant, strings.Join(corpus.Summaries(outs), "; "),
						corpus.Clip(udiff.Unified("want", "got", rc.Want, got), 16, reportIndent)))
				default:
					r.refused++
				}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%-26s %7s %8s %8s %6s\n", "shape/change", "blocks", "applied", "refused", "wrong")
	for _, shape := range corpus.StaleShapes() {
		for _, change := range corpus.StaleChanges() {
			key := shape + "/" + change
			r := rows[key]
			if r == nil {
				t.Errorf("no respaced block %s", key)
				continue
			}
			fmt.Fprintf(&b, "%-26s %7d %7.1f%% %8d %6d\n", key, r.blocks, 100*float64(r.applied)/float64(max(1, r.blocks)), r.refused, r.wrong)
			if r.wrong > 0 {
				t.Errorf("%s: %d of %d blocks fared otherwise with history, or changed the text otherwise than their change", key, r.wrong, r.blocks)
			}
			if float64(r.applied) < respacedFloor*float64(r.blocks) {
				t.Errorf("%s: %d of %d blocks applied, want at least %.0f%%", key, r.applied, r.blocks, 100*respacedFloor)
			}
		}
	}
	for _, w := range wrong[:min(len(wrong), 5)] {
		t.Log(w)
	}
	t.Logf("respaced since, seed %d, %d cases per kind (applied: as its change makes the lines now; refused: the text left as it is; wrong: otherwise, or otherwise than without history):\n%s",
		corpusFlags.Seed, n, b.String())
}

// respacedFloor is the least share of every shape and change of
// TestCorpusRespacedSince that applies: 93-97% on seeds 1-3 (27 November
// 2026; 63-96% before a deletion at a search's edge, its search there
// whole white space aside, was told from a change made before), the rest
// refused by the resolver, as without history.
const respacedFloor = 0.9

// sameRespaced reports whether got is want, byte for byte, or with loose,
// line for line, each line as want has it or indented the same and equal
// white space aside.
func sameRespaced(got, want string, loose bool) bool {
	if got == want || !loose {
		return got == want
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	if len(gl) != len(wl) {
		return false
	}
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	indent := func(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }
	for i := range gl {
		x, y := gl[i], wl[i]
		if x != y && (indent(x) != indent(y) || squeeze(x) != squeeze(y)) {
			return false
		}
	}
	return true
}
