package corpus

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/graft-editor/graft/engine"
)

// A Verdict is how a case fared once its edits were applied.
type Verdict int

const (
	// Exact: every edit applied and the text is the expected one.
	Exact Verdict = iota
	// Refused: an edit failed and the text is what the edits before it
	// should leave (for a trap: unchanged).
	Refused
	// Wrong: a text that is not the expected one, or a trap applied.
	Wrong
)

var verdictNames = [...]string{"exact", "refused", "WRONG"}

func (v Verdict) String() string {
	if v >= 0 && int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("verdict(%d)", int(v))
}

// Judge says how the case fared when its edits, applied in order, left the
// text got and applied of them succeeded: a trap must leave the file as it
// was, and the edits before a refused one must have done exactly their
// share.
func (c Case) Judge(got string, applied int) Verdict {
	switch {
	case c.Trap:
		if applied > 0 || got != c.File {
			return Wrong
		}
		return Refused
	case applied >= len(c.Edits):
		if got != c.Want {
			return Wrong
		}
		return Exact
	}
	want := c.File
	if applied > 0 {
		want = c.Steps[applied-1]
	}
	if got != want {
		return Wrong
	}
	return Refused
}

// Applied counts the outcomes of edits that applied, or said their change
// stood already, the count Judge takes: an edit said to stand already in
// a text it should have changed is as wrong as one applied in the wrong
// place.
func Applied(outs []engine.Outcome) int {
	n := 0
	for _, o := range outs {
		if o.Status.OK() {
			n++
		}
	}
	return n
}

// Micros returns the engine's time for each outcome, in microseconds, the
// times a Tally adds.
func Micros(outs []engine.Outcome) []float64 {
	micros := make([]float64, 0, len(outs))
	for _, o := range outs {
		micros = append(micros, float64(o.Elapsed.Nanoseconds())/1e3)
	}
	return micros
}

// Groups returns the names of the groups of kinds the corpus tables total,
// in their order: the families of mistakes, then the families of traps.
func Groups() []string {
	return []string{"control", "white space", "escaping", "stale or mistyped lines", "place",
		"white space, traps", "place, traps", "other code, traps", "stale or mistyped lines, traps"}
}

// Group returns the name of the group the kind is totalled in: its
// family, and for a trap its family of traps.
func (k Kind) Group() string {
	if k.Trap {
		return k.Family + ", traps"
	}
	return k.Family
}

// A Tally counts the verdicts of a group of cases and the engine's time
// per edit.
type Tally struct {
	Cases, Exact, Refused, Wrong int
	// Micros holds the engine's time per edit, in microseconds.
	Micros []float64
}

// Add counts one case and the time of each of its edits.
func (t *Tally) Add(v Verdict, micros ...float64) {
	t.Cases++
	switch v {
	case Exact:
		t.Exact++
	case Refused:
		t.Refused++
	default:
		t.Wrong++
	}
	t.Micros = append(t.Micros, micros...)
}

// Merge adds the counts and times of o to t.
func (t *Tally) Merge(o *Tally) {
	t.Cases += o.Cases
	t.Exact += o.Exact
	t.Refused += o.Refused
	t.Wrong += o.Wrong
	t.Micros = append(t.Micros, o.Micros...)
}

// Share returns the share of the cases that resolved exactly, 0 for none.
func (t *Tally) Share() float64 {
	if t.Cases == 0 {
		return 0
	}
	return float64(t.Exact) / float64(t.Cases)
}

// Percentile returns the p-th percentile of the times (nearest rank), 0
// when there are none.
func (t *Tally) Percentile(p float64) float64 {
	if len(t.Micros) == 0 {
		return 0
	}
	s := slices.Clone(t.Micros)
	slices.Sort(s)
	i := int(p/100*float64(len(s))+0.5) - 1
	return s[max(0, min(i, len(s)-1))]
}

// A Table lays out tallies as the corpus tests log them, a row each: the
// cases, how many resolved exactly and their share, the refusals and the
// wrong edits, the caller's extra counts, and the median and 99th
// percentile of the time per edit.
type Table struct {
	b     strings.Builder
	tw    *tabwriter.Writer
	extra int
}

// NewTable starts a table whose rows have the extra columns named.
func NewTable(extra ...string) *Table {
	t := &Table{extra: len(extra)}
	t.tw = tabwriter.NewWriter(&t.b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(t.tw, "kind\tcases\texact\tshare\trefused\twrong\t%sp50 µs\tp99 µs\t\n", columns(extra))
	return t
}

// Row adds the row of a tally, with the values of the extra columns.
func (t *Table) Row(name string, tl *Tally, extra ...int) {
	if len(extra) != t.extra {
		panic(fmt.Sprintf("corpus: table row %q has %d extra values for %d extra columns", name, len(extra), t.extra))
	}
	vals := make([]string, len(extra))
	for i, v := range extra {
		vals[i] = fmt.Sprint(v)
	}
	fmt.Fprintf(t.tw, "%s\t%d\t%d\t%.0f%%\t%d\t%d\t%s%.0f\t%.0f\t\n", name, tl.Cases, tl.Exact, 100*tl.Share(),
		tl.Refused, tl.Wrong, columns(vals), tl.Percentile(50), tl.Percentile(99))
}

// Gap adds an empty row, between the kinds and the groups.
func (t *Table) Gap() {
	fmt.Fprintln(t.tw, strings.Repeat("\t", 8+t.extra))
}

// String returns the table laid out.
func (t *Table) String() string {
	t.tw.Flush()
	return t.b.String()
}

// columns joins cells, each followed by a tab.
func columns(cells []string) string {
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c)
		b.WriteByte('\t')
	}
	return b.String()
}
