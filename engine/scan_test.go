package engine

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/graft-editor/graft/engine/internal/editdist"
	"github.com/graft-editor/graft/engine/internal/loose"
)

// referenceScan is scan written plainly, as it first was: for each search
// line looked for, a pass over the file that counts the comparisons the
// budget allows, then a pass that compares every file line passing the
// bounds of length and signature by its full edit distance.
func referenceScan(ix *index, s []sline, unfound []int) (votes []vote, exhausted bool) {
	sort.SliceStable(unfound, func(a, b int) bool { return s[unfound[a]].n > s[unfound[b]].n })
	if len(unfound) > 3 {
		unfound = unfound[:3]
	}
	compared := func(l *sline, i int) (limit int, ok bool) {
		if ix.Blank(i) {
			return 0, false
		}
		n, sig := ix.Measure(i)
		limit = int(float64(max(n, l.n)) * (1 - minLineSim))
		return limit, abs(n-l.n) <= limit && bits.OnesCount64(l.sig^sig) <= 2*limit
	}
	budget := scanBudget
	for _, j := range unfound {
		if l := &s[j]; l.n >= 4 {
			for i := range ix.Lines() {
				if _, ok := compared(l, i); ok {
					if budget--; budget < 0 {
						return nil, true
					}
				}
			}
		}
	}
	for _, j := range unfound {
		l := &s[j]
		if l.n < 4 {
			continue
		}
		type hit struct {
			i   int
			sim float64
		}
		var hits []hit
		for i := range ix.Lines() {
			limit, ok := compared(l, i)
			if !ok {
				continue
			}
			n := ix.ViewLen(i)
			if d := editdist.Distance(l.loose, loose.View(ix.Line(i))); d <= limit {
				hits = append(hits, hit{i, 1 - float64(d)/float64(max(n, l.n))})
			}
		}
		sort.SliceStable(hits, func(a, b int) bool { return hits[a].sim > hits[b].sim })
		if len(hits) > commonLine {
			hits = hits[:commonLine]
		}
		for _, h := range hits {
			votes = append(votes, vote{diag: h.i - j, line: j, w: h.sim * float64(l.weight())})
		}
	}
	return votes, false
}

// checkScan checks that scan returns what referenceScan does, the same
// votes in the same order, for the search's unfound lines and for all of
// its lines, each on an index of its own.
func checkScan(t *testing.T, text string, search []string) {
	t.Helper()
	s := newSlines(search)
	var all []int
	for j := range s {
		if !s[j].blank && !s[j].elision {
			all = append(all, j)
		}
	}
	for _, looked := range [][]int{newTally(newIndex(newDocument(text)), s).unfound, all} {
		got, gotExhausted := scan(newIndex(newDocument(text)), s, slices.Clone(looked))
		want, wantExhausted := referenceScan(newIndex(newDocument(text)), s, slices.Clone(looked))
		if gotExhausted != wantExhausted || !slices.Equal(got, want) {
			t.Fatalf("scan of %q in\n%s\n= %v, exhausted %v; want %v, exhausted %v", search, text, got, gotExhausted, want, wantExhausted)
		}
	}
}

// TestScanEqualsReference checks scan against referenceScan on random files
// of code-like lines in two languages, with blank lines, lines beyond
// ASCII, long lines and lines of one repeated byte, and searches of lines
// changed a little, changed a lot, taken from the other language, or kept.
func TestScanEqualsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for range 400 {
		lines := make([]string, 1+r.IntN(120))
		for i := range lines {
			lines[i] = randomCodeLine(r)
		}
		search := make([]string, 1+r.IntN(8))
		for j := range search {
			switch r.IntN(5) {
			case 0:
				search[j] = lines[r.IntN(len(lines))]
			case 1, 2:
				search[j] = mutateLine(r, lines[r.IntN(len(lines))], 1+r.IntN(6))
			case 3:
				search[j] = mutateLine(r, lines[r.IntN(len(lines))], 8+r.IntN(30))
			default:
				search[j] = randomCodeLine(r)
			}
		}
		checkScan(t, strings.Join(lines, "\n")+"\n", search)
	}
	// Files of many look-alikes of one line, each changed by a few edits
	// or many, so that far more than commonLine lines resemble each
	// search line, at similarities that tie and that differ by one edit:
	// only the most similar vote, and which those are must not depend on
	// the order the file is read in.
	for range 200 {
		base := randomCodeLine(r)
		for len(base) < 12 {
			base = randomCodeLine(r)
		}
		lines := make([]string, 20+r.IntN(200))
		for i := range lines {
			lines[i] = mutateLine(r, base, r.IntN(1+len(base)/2))
		}
		search := []string{mutateLine(r, base, 1+r.IntN(4)), mutateLine(r, base, r.IntN(1+len(base)/3))}
		checkScan(t, strings.Join(lines, "\n")+"\n", search)
	}
}

// TestScanBudget checks scan at the edge of its budget: a file where
// exactly scanBudget comparisons pass the bounds is compared, one more
// exhausts it, with the lines the budget counts spread over several
// search lines.
func TestScanBudget(t *testing.T) {
	tests := []struct {
		name      string
		lines     int // copies of each look-alike line
		search    []string
		exhausted bool
	}{
		{"one search line, budget met", scanBudget, []string{"\trecordXY := lookup(tablet, 00A)"}, false},
		{"one search line, budget passed", scanBudget + 1, []string{"\trecordXY := lookup(tablet, 00A)"}, true},
		{"two search lines, budget met", scanBudget / 2, []string{"\trecordXY := lookup(tablet, 00A)", "\trecordXZ := lookup(tablet, 00B)"}, false},
		{"two search lines, budget passed", scanBudget/2 + 1, []string{"\trecordXY := lookup(tablet, 00A)", "\trecordXZ := lookup(tablet, 00B)"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			for i := range tt.lines {
				fmt.Fprintf(&b, "\trecord%02d := lookup(table, %03d)\n\n", i%100, i%1000)
			}
			text := b.String()
			s := newSlines(tt.search)
			looked := newTally(newIndex(newDocument(text)), s).unfound
			_, exhausted := scan(newIndex(newDocument(text)), s, slices.Clone(looked))
			if exhausted != tt.exhausted {
				t.Fatalf("scan exhausted = %v, want %v", exhausted, tt.exhausted)
			}
			checkScan(t, text, tt.search)
		})
	}
}

// randomCodeLine returns a line of Go or Python of a few shapes, indented,
// or now and then a blank line, a line with bytes beyond ASCII, a long
// line or a line of one byte repeated.
func randomCodeLine(r *rand.Rand) string {
	names := []string{"user", "order", "err", "ctx", "key", "obj", "related", "request", "slug", "value", "i", "n"}
	name := func() string { return names[r.IntN(len(names))] }
	indent := strings.Repeat("\t", r.IntN(3))
	switch r.IntN(14) {
	case 0:
		return strings.Repeat(" ", r.IntN(3))
	case 1:
		return indent + fmt.Sprintf("%s := “%s” // café %s", name(), name(), name())
	case 2:
		return indent + fmt.Sprintf("%s\u00a0= %s", name(), name())
	case 3:
		return indent + strings.Repeat(fmt.Sprintf("%s(%s), ", name(), name()), 8+r.IntN(30))
	case 4:
		return strings.Repeat(string("e}) "[r.IntN(4)]), 1+r.IntN(300))
	case 5:
		return indent + fmt.Sprintf("if %s != nil {", name())
	case 6:
		return indent + fmt.Sprintf("return nil, fmt.Errorf(\"load %s %%q: %%w\", %s, err)", name(), name())
	case 7:
		return indent + fmt.Sprintf("%s, err := s.backend.Get(ctx, \"%ss/\"+%s)", name(), name(), name())
	case 8:
		return indent + fmt.Sprintf("def %s_%s(%s, %s):", name(), name(), name(), name())
	case 9:
		return "    " + fmt.Sprintf("%s = %s.%s_set.filter(active=True)[:%d]", name(), name(), name(), r.IntN(20))
	case 10:
		return "    " + fmt.Sprintf("return render(%s, \"%s/detail.html\", %s)", name(), name(), name())
	case 11:
		return indent + "}"
	case 12:
		return indent + fmt.Sprintf("%s.%s = %s + %d", name(), name(), name(), r.IntN(1000))
	}
	return indent + fmt.Sprintf("func (s *Store) %s%s(%s string) error {", name(), name(), name())
}

// mutateLine returns s with k random edits: bytes inserted, deleted or
// replaced, white space among them.
func mutateLine(r *rand.Rand, s string, k int) string {
	const alphabet = "abcdefgxyz_(){}.,:=\" \t0123"
	b := []byte(s)
	for range k {
		i := r.IntN(len(b) + 1)
		c := alphabet[r.IntN(len(alphabet))]
		switch {
		case r.IntN(3) == 0:
			b = slices.Insert(b, i, c)
		case i == len(b):
		case r.IntN(2) == 0:
			b = slices.Delete(b, i, i+1)
		default:
			b[i] = c
		}
	}
	return string(b)
}
