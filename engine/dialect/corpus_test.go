package dialect_test

import (
	"flag"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/internal/corpus"
)

// Flags to look into the corpus: one style or kind, logging every case, or
// one case in full.
var (
	corpusStyle = flag.String("corpus.dialect", "", "run only the `dialect` (or style, such as unified-diff:bare)")
	corpusFlags = corpus.RegisterFlags(flag.CommandLine)
)

// corpusExactShare is the least share of the cases a style can write, in
// every family of mistakes but the traps, that must resolve to the
// expected text byte for byte.
const corpusExactShare = 0.95

// A styleResult is one case written in a style, parsed and applied.
type styleResult struct {
	c      corpus.Case
	answer string
	// misread says how the blocks parsed from the answer differ from the
	// edits written, or the blocks detection found from those of the
	// forced dialect; "" when they do not.
	misread string
	verdict corpus.Verdict
	got     string
	outs    []engine.Outcome
}

// runStyle writes c in style, parses the answer in its dialect and by
// detection, and applies the blocks read to the case's file. It returns
// the error of corpus.Transcribe when the style cannot write the case.
func runStyle(c corpus.Case, style string) (styleResult, error) {
	want, err := corpus.Transcribe(c, style)
	if err != nil {
		return styleResult{}, err
	}
	answer, _ := corpus.Render(c, style)
	r := styleResult{c: c, answer: answer}
	blocks, err := dialect.Parse(answer, dialect.Options{Format: corpus.DialectOf(style)})
	if err != nil {
		r.misread = err.Error()
	} else {
		r.misread = compareEdits(blocks, want)
	}
	if r.misread == "" {
		detected, err := dialect.Parse(answer, dialect.Options{})
		if err != nil {
			r.misread = "detection: " + err.Error()
		} else if d := compareBlocks(detected, blocks); d != "" {
			r.misread = "detection: " + d
		}
	}
	// The blocks after a malformed one are skipped, as the workspace does.
	var edits []engine.Edit
	for _, b := range blocks {
		if b.Err != nil {
			break
		}
		edits = append(edits, b.Edit)
	}
	r.got, r.outs = engine.ApplyEdits(c.File, edits, engine.Options{})
	r.verdict = c.Judge(r.got, corpus.Applied(r.outs))
	return r, nil
}

// compareEdits says how the blocks read differ from the edits written, ""
// when they do not.
func compareEdits(blocks []dialect.Block, want []engine.Edit) string {
	if len(blocks) != len(want) {
		return fmt.Sprintf("%d blocks read, %d edits written", len(blocks), len(want))
	}
	for i, b := range blocks {
		w := want[i]
		switch {
		case b.Err != nil:
			return fmt.Sprintf("block %d: %v", i+1, b.Err)
		case b.Op != w.Op || b.Path != w.Path || b.NewPath != w.NewPath:
			return fmt.Sprintf("block %d: %s %q, want %s %q", i+1, b.Op, b.Path, w.Op, w.Path)
		case b.Old != w.Old:
			return fmt.Sprintf("block %d: old %s, want %s", i+1, clipQuote(b.Old), clipQuote(w.Old))
		case b.New != w.New:
			return fmt.Sprintf("block %d: new %s, want %s", i+1, clipQuote(b.New), clipQuote(w.New))
		case b.Line != w.Line || b.ReplaceAll != w.ReplaceAll:
			return fmt.Sprintf("block %d: line %d, replace all %v; want line %d, replace all %v", i+1, b.Line, b.ReplaceAll, w.Line, w.ReplaceAll)
		}
	}
	return ""
}

// compareBlocks says how the blocks detection found differ from those the
// forced dialect read, "" when they do not.
func compareBlocks(got, want []dialect.Block) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d blocks, %d with the dialect forced", len(got), len(want))
	}
	for i := range got {
		if !reflect.DeepEqual(got[i].Edit, want[i].Edit) || (got[i].Err == nil) != (want[i].Err == nil) {
			return fmt.Sprintf("block %d is a %s block on lines %d-%d, with the dialect forced %s on lines %d-%d", i+1,
				got[i].Dialect, got[i].Source.StartLine, got[i].Source.EndLine,
				want[i].Dialect, want[i].Source.StartLine, want[i].Source.EndLine)
		}
	}
	return ""
}

// clipQuote quotes s, cut to its first 120 bytes.
func clipQuote(s string) string {
	if len(s) > 120 {
		return fmt.Sprintf("%q...", s[:120])
	}
	return fmt.Sprintf("%q", s)
}

// summary says in a line what happened to each block of the case.
func (r styleResult) summary() string {
	parts := corpus.Summaries(r.outs)
	if r.misread != "" {
		parts = append([]string{"MISREAD: " + r.misread}, parts...)
	}
	return strings.Join(parts, "; ")
}

// quoteIndent sets the answers and texts a report quotes apart from its
// lines.
const quoteIndent = "    | "

// report shows a case: where it comes from, what happened, and the answer
// (its first lines, or all of it when full).
func (r styleResult) report(full bool) string {
	limit := 16
	if full {
		limit = 1 << 30
	}
	c := r.c
	s := fmt.Sprintf("%s %s:%d (%s)\n  %s\n%s", c.Name, c.Path, c.Line, c.Variant, r.summary(), corpus.Clip(r.answer, limit, quoteIndent))
	if r.verdict == corpus.Wrong {
		want := c.Want
		if c.Trap {
			want = c.File
		}
		s += "  the text against the expected one:\n" + corpus.Clip(udiff.Unified("want", "got", want, r.got), limit, quoteIndent)
	}
	return s
}

// A styleTally counts the verdicts of a group of cases in one style, and
// the cases the style cannot write and those whose answer was misread.
type styleTally struct {
	corpus.Tally
	unsaid, misread int
}

func (t *styleTally) merge(o *styleTally) {
	t.Tally.Merge(&o.Tally)
	t.unsaid += o.unsaid
	t.misread += o.misread
}

func (t *styleTally) row(tb *corpus.Table, name string) {
	tb.Row(name, &t.Tally, t.unsaid, t.misread)
}

// TestCorpusDialects writes Graft's corpus of realistic model mistakes (see
// package corpus) in every dialect, parses each answer, in its dialect and
// by detection, and applies the blocks read with engine.ApplyEdits. For
// each style it asserts that the answers are read as written, that no edit
// is wrong, that every trap is refused, and that the cases the style can
// write resolve byte for byte at least 95% of the time in every family of
// mistakes. The tables of results are logged; -corpus.dialect,
// -corpus.kind and -corpus.case look closer.
func TestCorpusDialects(t *testing.T) {
	root, err := corpus.SourceRoot(t.Context())
	if err != nil {
		t.Skipf("no Go source tree to make the corpus from: %v", err)
	}
	g, err := corpus.NewGenerator(root, corpusFlags.Seed)
	if err != nil {
		t.Fatal(err)
	}
	n, only, caseName := corpusFlags.PerKind(testing.Short()), corpusFlags.Only(), corpusFlags.Case
	var kinds []corpus.Kind
	cases := map[string][]corpus.Case{}
	for _, k := range corpus.Kinds() {
		if only != "" && k.Name != only {
			continue
		}
		cs, err := g.Cases(k.Name, n)
		if err != nil {
			t.Fatal(err)
		}
		if caseName != "" {
			cs = slices.DeleteFunc(cs, func(c corpus.Case) bool { return c.Name != caseName })
		}
		kinds = append(kinds, k)
		cases[k.Name] = cs
	}
	if len(kinds) == 0 || caseName != "" && len(cases[only]) == 0 {
		t.Fatalf("no corpus case named by -corpus.kind=%q -corpus.case=%q", corpusFlags.Kind, corpusFlags.Case)
	}

	ran := 0
	for _, style := range corpus.Styles() {
		if s := *corpusStyle; s != "" && s != style && s != corpus.DialectOf(style) {
			continue
		}
		ran++
		t.Run(style, func(t *testing.T) {
			if !slices.Contains(dialect.Names(), corpus.DialectOf(style)) {
				t.Skipf("no %s parser yet", corpus.DialectOf(style))
			}
			testStyle(t, style, kinds, cases, n, caseName != "")
		})
	}
	if ran == 0 {
		t.Fatalf("no style named by -corpus.dialect=%q (styles: %s)", *corpusStyle, strings.Join(corpus.Styles(), ", "))
	}
}

// testStyle runs the cases of kinds in one style, logs the table of
// results, and checks them.
func testStyle(t *testing.T, style string, kinds []corpus.Kind, cases map[string][]corpus.Case, n int, full bool) {
	table := corpus.NewTable("unsaid", "misread")
	groups := map[string]*styleTally{}
	unsaid := map[string]int{} // cases the style cannot write, by reason
	var wrongs, misreads, refusals, trapsApplied []styleResult
	for _, k := range kinds {
		var kt styleTally
		for _, c := range cases[k.Name] {
			r, err := runStyle(c, style)
			if err != nil {
				kt.unsaid++
				unsaid[err.Error()]++
				if full {
					t.Logf("%s cannot be written in %s: %v", c.Name, style, err)
				}
				continue
			}
			kt.Add(r.verdict, corpus.Micros(r.outs)...)
			switch {
			case full:
				t.Logf("%s\n%s", r.verdict, r.report(true))
			case corpusFlags.Kind != "":
				t.Logf("%-8s %s", r.verdict, strings.TrimRight(r.report(false), "\n"))
			}
			if r.misread != "" {
				kt.misread++
				misreads = append(misreads, r)
			}
			switch {
			case r.verdict == corpus.Wrong:
				wrongs = append(wrongs, r)
			case c.Trap && r.verdict != corpus.Refused:
				trapsApplied = append(trapsApplied, r)
			case r.verdict == corpus.Refused && !c.Trap:
				refusals = append(refusals, r)
			}
		}
		kt.row(table, k.Name)
		if groups[k.Group()] == nil {
			groups[k.Group()] = &styleTally{}
		}
		groups[k.Group()].merge(&kt)
	}
	table.Gap()
	for _, name := range corpus.Groups() {
		if gt := groups[name]; gt != nil {
			gt.row(table, name)
		}
	}
	var why strings.Builder
	for _, reason := range slices.Sorted(maps.Keys(unsaid)) {
		fmt.Fprintf(&why, "\n  %d: %s", unsaid[reason], reason)
	}
	if why.Len() == 0 {
		why.WriteString(" none")
	}
	why.WriteString("\n")
	t.Logf("corpus in %s, seed %d, %d cases per kind:\n%sunsaid (cases %s cannot write):%s", style, corpusFlags.Seed, n, table.String(), style, why.String())

	first := func(rs []styleResult) string {
		var b strings.Builder
		for _, r := range rs[:min(len(rs), 5)] {
			b.WriteString(r.report(false))
		}
		return b.String()
	}
	if len(misreads) > 0 {
		t.Errorf("%d answers not read as written; the first:\n%s", len(misreads), first(misreads))
	}
	if len(wrongs) > 0 {
		t.Errorf("%d wrong edits (a trap applied, or a text that is not the expected one); the first:\n%s", len(wrongs), first(wrongs))
	}
	if len(trapsApplied) > 0 {
		t.Errorf("%d traps not refused; the first:\n%s", len(trapsApplied), first(trapsApplied))
	}
	var short []string
	for _, name := range corpus.Groups() {
		if gt := groups[name]; gt != nil && !strings.HasSuffix(name, ", traps") && gt.Cases > 0 && gt.Share() < corpusExactShare {
			short = append(short, fmt.Sprintf("%s: %d of %d", name, gt.Exact, gt.Cases))
		}
	}
	if len(short) > 0 {
		t.Errorf("families under %.0f%% byte for byte: %s; the first refusals:\n%s",
			100*corpusExactShare, strings.Join(short, ", "), first(refusals))
	}
}
