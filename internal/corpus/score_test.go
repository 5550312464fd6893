package corpus_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/internal/corpus"
)

func TestJudge(t *testing.T) {
	one := corpus.Case{File: "a\n", Want: "b\n", Edits: make([]engine.Edit, 1)}
	three := corpus.Case{File: "a\n", Want: "d\n", Steps: []string{"b\n", "c\n", "d\n"}, Edits: make([]engine.Edit, 3)}
	trap := corpus.Case{File: "a\n", Want: "a\n", Trap: true, Edits: make([]engine.Edit, 1)}
	for _, tt := range []struct {
		name    string
		c       corpus.Case
		got     string
		applied int
		want    corpus.Verdict
	}{
		{"applied as expected", one, "b\n", 1, corpus.Exact},
		{"applied elsewhere", one, "a\nb\n", 1, corpus.Wrong},
		{"refused, file kept", one, "a\n", 0, corpus.Refused},
		{"refused, file changed", one, "b\n", 0, corpus.Wrong},
		{"the first of three applied", three, "b\n", 1, corpus.Refused},
		{"the first of three applied, the file not changed", three, "a\n", 1, corpus.Wrong},
		{"all three applied", three, "d\n", 3, corpus.Exact},
		{"trap refused", trap, "a\n", 0, corpus.Refused},
		{"trap applied", trap, "b\n", 1, corpus.Wrong},
		{"trap said applied, nothing changed", trap, "a\n", 1, corpus.Wrong},
	} {
		if got := tt.c.Judge(tt.got, tt.applied); got != tt.want {
			t.Errorf("%s: Judge = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestAppliedMicros(t *testing.T) {
	outs := []engine.Outcome{
		{Status: engine.StatusApplied, Match: &engine.Match{}, Elapsed: 1500 * time.Nanosecond},
		{Status: engine.StatusFailed, Err: errors.New("not found"), Elapsed: 2 * time.Microsecond},
		{Status: engine.StatusSkipped, Err: errors.New("skipped")},
		{Status: engine.StatusApplied, Match: &engine.Match{}, Elapsed: time.Millisecond},
	}
	if got := corpus.Applied(outs); got != 2 {
		t.Errorf("Applied = %d, want 2", got)
	}
	if got, want := corpus.Micros(outs), []float64{1.5, 2, 0, 1000}; !slices.Equal(got, want) {
		t.Errorf("Micros = %v, want %v", got, want)
	}
	if got := corpus.Applied(nil); got != 0 {
		t.Errorf("Applied(nil) = %d, want 0", got)
	}
	if got := corpus.Micros(nil); len(got) != 0 {
		t.Errorf("Micros(nil) = %v, want none", got)
	}
}

func TestGroup(t *testing.T) {
	for _, tt := range []struct {
		k    corpus.Kind
		want string
	}{
		{corpus.Kind{Family: "white space"}, "white space"},
		{corpus.Kind{Family: "place", Trap: true}, "place, traps"},
	} {
		if got := tt.k.Group(); got != tt.want {
			t.Errorf("%+v: Group() = %q, want %q", tt.k, got, tt.want)
		}
	}
	groups := map[string]bool{}
	for _, g := range corpus.Groups() {
		groups[g] = true
	}
	for _, k := range corpus.Kinds() {
		if !groups[k.Group()] {
			t.Errorf("kind %s is in group %q, which Groups() does not list", k.Name, k.Group())
		}
	}
}

func TestTally(t *testing.T) {
	var a, b corpus.Tally
	a.Add(corpus.Exact, 10, 20)
	a.Add(corpus.Refused, 30)
	b.Add(corpus.Exact, 40)
	b.Add(corpus.Wrong)
	a.Merge(&b)
	if a.Cases != 4 || a.Exact != 2 || a.Refused != 1 || a.Wrong != 1 {
		t.Errorf("merged tally %+v, want 4 cases: 2 exact, 1 refused, 1 wrong", a)
	}
	if got := a.Share(); got != 0.5 {
		t.Errorf("Share() = %v, want 0.5", got)
	}
	for p, want := range map[float64]float64{50: 20, 99: 40, 0: 10} {
		if got := a.Percentile(p); got != want {
			t.Errorf("Percentile(%v) of 10, 20, 30, 40 = %v, want %v", p, got, want)
		}
	}
	var none corpus.Tally
	if none.Share() != 0 || none.Percentile(50) != 0 {
		t.Errorf("an empty tally has share %v and median %v, want 0 and 0", none.Share(), none.Percentile(50))
	}
}

func TestTable(t *testing.T) {
	tb := corpus.NewTable("unsaid")
	var tl corpus.Tally
	tl.Add(corpus.Exact, 12)
	tl.Add(corpus.Exact, 12)
	tl.Add(corpus.Refused, 12)
	tl.Add(corpus.Wrong, 12)
	tb.Row("hint", &tl, 7)
	tb.Gap()
	lines := strings.Split(strings.TrimRight(tb.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("table of %d lines, want a header, a row and a gap:\n%s", len(lines), tb.String())
	}
	for i, want := range [][]string{
		{"kind", "cases", "exact", "share", "refused", "wrong", "unsaid", "p50", "µs", "p99", "µs"},
		{"hint", "4", "2", "50%", "1", "1", "7", "12", "12"},
		nil,
	} {
		if got := strings.Fields(lines[i]); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("line %d: %q, want the fields %q", i+1, lines[i], want)
		}
	}
}
