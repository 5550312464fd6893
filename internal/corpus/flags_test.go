package corpus_test

import (
	"flag"
	"io"
	"testing"

	"github.com/graft-editor/graft/internal/corpus"
)

func TestFlags(t *testing.T) {
	for _, tt := range []struct {
		args     []string
		short    bool
		want     corpus.Flags
		wantN    int
		wantOnly string
	}{
		{nil, false, corpus.Flags{Seed: 1}, 100, ""},
		{nil, true, corpus.Flags{Seed: 1}, 20, ""},
		{[]string{"-corpus.n=7", "-corpus.seed=9"}, true, corpus.Flags{N: 7, Seed: 9}, 7, ""},
		{[]string{"-corpus.kind=hint"}, false, corpus.Flags{Kind: "hint", Seed: 1}, 100, "hint"},
		{[]string{"-corpus.case=elision/04"}, false, corpus.Flags{Case: "elision/04", Seed: 1}, 100, "elision"},
		{[]string{"-corpus.kind=hint", "-corpus.case=elision/04"}, false, corpus.Flags{Kind: "hint", Case: "elision/04", Seed: 1}, 100, "elision"},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		f := corpus.RegisterFlags(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if *f != tt.want {
			t.Errorf("%q: flags %+v, want %+v", tt.args, *f, tt.want)
		}
		if n := f.PerKind(tt.short); n != tt.wantN {
			t.Errorf("%q, short %v: PerKind = %d, want %d", tt.args, tt.short, n, tt.wantN)
		}
		if only := f.Only(); only != tt.wantOnly {
			t.Errorf("%q: Only = %q, want %q", tt.args, only, tt.wantOnly)
		}
	}
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	corpus.RegisterFlags(fs)
	if err := fs.Parse([]string{"-corpus.n=many"}); err == nil {
		t.Error("-corpus.n=many parsed, want an error")
	}
}
