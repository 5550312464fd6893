package corpus

import (
	"flag"
	"strings"
)

// Flags narrow a corpus test from the command line: -corpus.kind runs one
// kind and logs every case, -corpus.case runs one case and shows it in
// full, -corpus.n sets the cases per kind and -corpus.seed the seed of the
// corpus.
type Flags struct {
	Kind string
	Case string
	N    int
	Seed uint64
}

// RegisterFlags defines the corpus flags in fs and returns the Flags they
// set.
func RegisterFlags(fs *flag.FlagSet) *Flags {
	f := new(Flags)
	fs.StringVar(&f.Kind, "corpus.kind", "", "run only the corpus `kind`, logging every case")
	fs.StringVar(&f.Case, "corpus.case", "", "run only the corpus case `name` (kind/NN) and show it in full")
	fs.IntVar(&f.N, "corpus.n", 0, "corpus cases per kind (default 100, 20 with -short)")
	fs.Uint64Var(&f.Seed, "corpus.seed", 1, "`seed` of the generated corpus")
	return f
}

// PerKind returns how many cases of each kind to run: -corpus.n when set,
// otherwise a hundred, which take seconds and show what thirty would miss,
// or twenty when short.
func (f *Flags) PerKind(short bool) int {
	switch {
	case f.N > 0:
		return f.N
	case short:
		return 20
	}
	return 100
}

// Only returns the kind to run, "" for all of them: the kind of
// -corpus.case when it is set, otherwise -corpus.kind.
func (f *Flags) Only() string {
	if f.Case != "" {
		kind, _, _ := strings.Cut(f.Case, "/")
		return kind
	}
	return f.Kind
}
