package engine_test

import (
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

// corpusExactShare is the least share of the current issue's non-trap
// cases that must resolve to the expected text byte for byte.
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
// edit, that every trap is refused, and that the current issue's non-trap
// cases resolve byte for byte at least 95% of the time; the next issue's
// kinds are measured and must only be free of wrong edits. The table of
// results is logged; -corpus.kind and -corpus.case look closer.
func TestCorpus(t *testing.T) {
	g := corpusGenerator(t)
	n, only, caseName := corpusFlags.PerKind(testing.Short()), corpusFlags.Only(), corpusFlags.Case

	table := corpus.NewTable()
	groups := map[string]*corpus.Tally{}
	var wrongs, refusals []corpusResult
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
			if r.verdict == corpus.Refused && !c.Trap && !k.Next {
				refusals = append(refusals, r)
			}
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
	if cur := groups["current issue"]; cur != nil && float64(cur.Exact) < corpusExactShare*float64(cur.Cases) {
		var b strings.Builder
		for _, r := range refusals[:min(len(refusals), 5)] {
			b.WriteString(r.report(false))
		}
		t.Errorf("%d of %d current-issue cases resolved exactly, want at least %.0f%%; the first refusals:\n%s",
			cur.Exact, cur.Cases, 100*corpusExactShare, b.String())
	}
}

// TestCorpusPrunedAlignments resolves every edit of the corpus against its
// case's file twice: as Resolve does, and aligning the search in all that
// is left of every window (engine.ResolveExhaustive). The alignments
// Resolve leaves out, as no region they could find would score enough to
// matter, must never change a match or a refusal, down to its message.
func TestCorpusPrunedAlignments(t *testing.T) {
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
				all, allErr := engine.ResolveExhaustive(c.File, e, engine.Options{})
				if reflect.DeepEqual(m, all) && reflect.DeepEqual(err, allErr) {
					continue
				}
				if differ++; differ <= 5 {
					t.Errorf("%s %s:%d, edit %d: pruned %s, exhaustive %s", c.Name, c.Path, c.Line, i+1, outcome(m, err), outcome(all, allErr))
				}
			}
		}
	}
	if differ > 5 {
		t.Errorf("%d edits differ in all", differ)
	}
}

// outcome describes a match or a refusal in a line.
func outcome(m *engine.Match, err error) string {
	if err != nil {
		return fmt.Sprintf("refused: %v", err)
	}
	return fmt.Sprintf("%s at lines %d-%d, score %.3f", m.Strategy, m.StartLine, m.EndLine, m.Score)
}
