package engine_test

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/aymanbagabas/go-udiff"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/internal/corpus"
)

// Flags to look into the corpus: run one kind and log every case, or show
// one case in full.
var (
	corpusKind = flag.String("corpus.kind", "", "run only the corpus `kind`, logging every case")
	corpusCase = flag.String("corpus.case", "", "run only the corpus case `name` (kind/NN) and show it in full")
	corpusN    = flag.Int("corpus.n", 0, "corpus cases per kind (default 100, 20 with -short)")
	corpusSeed = flag.Uint64("corpus.seed", 1, "`seed` of the generated corpus")
)

// corpusExactShare is the least share of the current issue's non-trap
// cases that must resolve to the expected text byte for byte.
const corpusExactShare = 0.95

// A verdict is how the resolver fared on a case.
type verdict int

const (
	// exact: every edit applied and the text is the expected one.
	exact verdict = iota
	// refused: an edit failed and the text is what the edits before it
	// should leave (for a trap: unchanged).
	refused
	// wrong: a text that is not the expected one, or a trap applied.
	wrong
)

// A corpusResult is one case run through ApplyEdits.
type corpusResult struct {
	c       corpus.Case
	verdict verdict
	micros  []float64 // engine time per edit
	got     string
	outs    []engine.Outcome
}

// runCorpusCase resolves a case's edits against its file and judges the
// result.
func runCorpusCase(c corpus.Case) corpusResult {
	got, outs := engine.ApplyEdits(c.File, c.Edits, engine.Options{})
	r := corpusResult{c: c, got: got, outs: outs}
	applied := 0
	for _, o := range outs {
		r.micros = append(r.micros, float64(o.Elapsed.Nanoseconds())/1e3)
		if o.Status == engine.StatusApplied {
			applied++
		}
	}
	switch {
	case c.Trap:
		r.verdict = refused
		if applied > 0 || got != c.File {
			r.verdict = wrong
		}
	case applied == len(c.Edits):
		r.verdict = exact
		if got != c.Want {
			r.verdict = wrong
		}
	default:
		// The edits before the failed one must have done exactly their
		// share.
		want := c.File
		if applied > 0 {
			want = c.Steps[applied-1]
		}
		r.verdict = refused
		if got != want {
			r.verdict = wrong
		}
	}
	return r
}

// summary says in a line what happened to each edit of the case.
func (r corpusResult) summary() string {
	var parts []string
	for i, o := range r.outs {
		switch {
		case o.Match != nil:
			parts = append(parts, fmt.Sprintf("edit %d %s: %s %.2f lines %d-%d", i+1, o.Status, o.Match.Strategy, o.Match.Score, o.Match.StartLine, o.Match.EndLine))
		case o.Err != nil:
			msg, _, _ := strings.Cut(o.Err.Error(), "\n")
			parts = append(parts, fmt.Sprintf("edit %d %s: %s", i+1, o.Status, msg))
		}
	}
	return strings.Join(parts, "; ")
}

// report shows a case that did not resolve exactly: where it comes from,
// what the resolver said, and the difference between the expected text
// and the result (or the error, for a refusal).
func (r corpusResult) report(full bool) string {
	var b strings.Builder
	c := r.c
	fmt.Fprintf(&b, "%s %s:%d (%s)\n  %s\n", c.Name, c.Path, c.Line, c.Variant, r.summary())
	limit := 24
	if full {
		limit = 1 << 30
		for i, e := range c.Edits {
			fmt.Fprintf(&b, "  edit %d (line hint %d, replace all %v)\n  old: %q\n  new: %q\n", i+1, e.Line, e.ReplaceAll, e.Old, e.New)
		}
		b.WriteString(clip(udiff.Unified("file", "want", c.File, c.Want), limit))
	}
	switch {
	case r.verdict == wrong && !c.Trap:
		b.WriteString(clip(udiff.Unified("want", "got", c.Want, r.got), limit))
	case r.verdict == wrong:
		b.WriteString(clip(udiff.Unified("file", "got", c.File, r.got), limit))
	default:
		for _, o := range r.outs {
			if o.Err != nil {
				b.WriteString(clip(o.Err.Error(), limit/2))
				b.WriteString("\n")
				break
			}
		}
	}
	return b.String()
}

// clip keeps the first n lines of s, indented.
func clip(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append(lines[:n], fmt.Sprintf("... (%d more lines)", len(lines)-n))
	}
	return "    " + strings.Join(lines, "\n    ") + "\n"
}

// A tally counts the verdicts of a group of cases and their times.
type tally struct {
	cases, exact, refused, wrong int
	micros                       []float64
}

func (t *tally) add(r corpusResult) {
	t.cases++
	switch r.verdict {
	case exact:
		t.exact++
	case refused:
		t.refused++
	default:
		t.wrong++
	}
	t.micros = append(t.micros, r.micros...)
}

func (t *tally) merge(o *tally) {
	t.cases += o.cases
	t.exact += o.exact
	t.refused += o.refused
	t.wrong += o.wrong
	t.micros = append(t.micros, o.micros...)
}

// row formats the tally for the table: counts, exact share and the
// median and 99th percentile of the time per edit.
func (t *tally) row(name string) string {
	share := 0.0
	if t.cases > 0 {
		share = 100 * float64(t.exact) / float64(t.cases)
	}
	return fmt.Sprintf("%s\t%d\t%d\t%.0f%%\t%d\t%d\t%.0f\t%.0f\t", name, t.cases, t.exact, share, t.refused, t.wrong, percentile(t.micros, 50), percentile(t.micros, 99))
}

// percentile returns the p-th percentile of xs (nearest rank), 0 for none.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := int(p/100*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

// TestCorpus runs Graft's corpus of realistic model mistakes (see package
// corpus) through ApplyEdits. It asserts that no kind ever gets a wrong
// edit, that every trap is refused, and that the current issue's non-trap
// cases resolve byte for byte at least 95% of the time; the next issue's
// kinds are measured and must only be free of wrong edits. The table of
// results is logged; -corpus.kind and -corpus.case look closer.
func TestCorpus(t *testing.T) {
	root, err := corpus.SourceRoot(t.Context())
	if err != nil {
		t.Skipf("no Go source tree to make the corpus from: %v", err)
	}
	g, err := corpus.NewGenerator(root, *corpusSeed)
	if err != nil {
		t.Fatal(err)
	}
	// A hundred cases per kind take a few seconds and show what thirty
	// would miss.
	n := *corpusN
	if n <= 0 {
		n = 100
		if testing.Short() {
			n = 20
		}
	}
	only, caseName := *corpusKind, *corpusCase
	if caseName != "" {
		only, _, _ = strings.Cut(caseName, "/")
	}

	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "kind\tcases\texact\tshare\trefused\twrong\tp50 µs\tp99 µs\t")
	groups := map[string]*tally{}
	group := func(k corpus.Kind) string {
		name := "current issue"
		if k.Next {
			name = "next issue"
		}
		if k.Trap {
			return name + ", traps"
		}
		return name
	}
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
		var kt tally
		for _, c := range cases {
			if caseName != "" && c.Name != caseName {
				continue
			}
			r := runCorpusCase(c)
			kt.add(r)
			switch {
			case caseName != "":
				t.Logf("%s\n%s", []string{"exact", "refused", "wrong"}[r.verdict], r.report(true))
			case only != "":
				t.Logf("%-8s %s", []string{"exact", "refused", "WRONG"}[r.verdict], strings.TrimRight(r.report(false), "\n"))
			}
			if r.verdict == wrong {
				wrongs = append(wrongs, r)
			}
			if r.verdict == refused && !c.Trap && !k.Next {
				refusals = append(refusals, r)
			}
		}
		ran += kt.cases
		fmt.Fprintln(tw, kt.row(k.Name))
		name := group(k)
		if groups[name] == nil {
			groups[name] = &tally{}
		}
		groups[name].merge(&kt)
	}
	if ran == 0 {
		t.Fatalf("no corpus case named by -corpus.kind=%q -corpus.case=%q", *corpusKind, *corpusCase)
	}
	fmt.Fprintln(tw, "\t\t\t\t\t\t\t\t")
	for _, name := range []string{"current issue", "current issue, traps", "next issue", "next issue, traps"} {
		if gt := groups[name]; gt != nil {
			fmt.Fprintln(tw, gt.row(name))
		}
	}
	tw.Flush()
	t.Logf("corpus, seed %d, %d cases per kind:\n%s", *corpusSeed, n, table.String())

	if len(wrongs) > 0 {
		var b strings.Builder
		for _, r := range wrongs[:min(len(wrongs), 5)] {
			b.WriteString(r.report(false))
		}
		t.Errorf("%d wrong edits (a trap applied, or a text that is not the expected one); the first:\n%s", len(wrongs), b.String())
	}
	if cur := groups["current issue"]; cur != nil && float64(cur.exact) < corpusExactShare*float64(cur.cases) {
		var b strings.Builder
		for _, r := range refusals[:min(len(refusals), 5)] {
			b.WriteString(r.report(false))
		}
		t.Errorf("%d of %d current-issue cases resolved exactly, want at least %.0f%%; the first refusals:\n%s",
			cur.exact, cur.cases, 100*corpusExactShare, b.String())
	}
}
