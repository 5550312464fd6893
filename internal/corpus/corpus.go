// Package corpus generates Graft's measuring stick: the edits models get
// wrong, made from real source files.
//
// A case takes a region of a file nobody on the project wrote (the Go
// distribution's own sources, in Go and the other languages it holds),
// makes a plausible edit of it, and then damages the model's copy of the
// region the way models do: indentation shifted, tabs written as spaces, a
// line forgotten, line numbers pasted in, the file edited behind the
// model's back. Each case knows the text the edit must produce, or that
// it must be refused (a trap). Generation is deterministic: the same
// source tree and seed give the same cases.
package corpus

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"

	"github.com/graft-editor/graft/engine"
)

// A Case is one edit, or a few, to resolve against one file.
type Case struct {
	// Name identifies the case: its kind and its index in the kind.
	Name string
	// Kind is the family of mistakes the case belongs to (see Kinds).
	Kind string
	// Path is the source file the case was made from, relative to the
	// root it was generated from.
	Path string
	// Line is the 1-based line of File where the edited region starts;
	// 0 when no region of File is meant.
	Line int
	// Variant says how the case was made: the edit, the mistakes, and the
	// file's form when it has CRLF, a BOM or no final newline.
	Variant string
	// File is the text the edits are resolved against.
	File string
	// Edits are what the model wrote, in order; usually one.
	Edits []engine.Edit
	// Want is the text once every edit is applied; for a trap, File.
	Want string
	// Steps holds, when there are several edits, the text expected after
	// each of them: Steps[i] once Edits[:i+1] are applied.
	Steps []string
	// Trap says the edits must be refused.
	Trap bool
}

// A Kind is a family of cases.
type Kind struct {
	Name string
	// Trap says the kind's cases must be refused.
	Trap bool
	// Family is the family of mistakes the kind belongs to ("white
	// space", "stale or mistyped lines"), which the corpus tables total.
	Family string
	// Doc says what the model got wrong.
	Doc string
}

// Kinds returns every kind.
func Kinds() []Kind {
	specs := kindSpecs()
	kinds := make([]Kind, len(specs))
	for i, s := range specs {
		kinds[i] = s.Kind
	}
	return kinds
}

// A builder makes one case of a kind, or returns errSkip when what it drew
// does not fit (the generator then draws again).
type builder func(g *Generator, rng *rand.Rand) (Case, error)

type kindSpec struct {
	Kind
	build builder
}

// A Generator makes cases from the source files under one root. It caches
// the files it reads and is not safe for concurrent use.
type Generator struct {
	seed uint64
	cat  *catalog
}

// NewGenerator lists the files under root (see SourceRoot) that cases can
// be made from.
func NewGenerator(root string, seed uint64) (*Generator, error) {
	cat, err := newCatalog(root)
	if err != nil {
		return nil, err
	}
	return &Generator{seed: seed, cat: cat}, nil
}

// maxDraws bounds the drafts drawn per case: a kind that cannot fill its
// quota from the tree is an error, not an endless loop.
const maxDraws = 400

// Cases makes n cases of the named kind. The cases of a kind depend only
// on the root, the seed and the kind, and the first cases are the same
// whatever n.
func (g *Generator) Cases(kind string, n int) ([]Case, error) {
	var spec *kindSpec
	specs := kindSpecs()
	for i := range specs {
		if specs[i].Name == kind {
			spec = &specs[i]
		}
	}
	if spec == nil {
		return nil, fmt.Errorf("corpus: no kind %q", kind)
	}
	h := fnv.New64a()
	h.Write([]byte(kind))
	rng := rand.New(rand.NewPCG(g.seed, h.Sum64()))
	cases := make([]Case, 0, n)
	for draws := 0; len(cases) < n; draws++ {
		if draws == maxDraws*n {
			return nil, fmt.Errorf("corpus: kind %s: made %d of %d cases in %d draws", kind, len(cases), n, draws)
		}
		c, err := spec.build(g, rng)
		if errors.Is(err, errSkip) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("corpus: kind %s: %w", kind, err)
		}
		c.Kind = kind
		c.Name = fmt.Sprintf("%s/%02d", kind, len(cases))
		c.Trap = spec.Trap
		if c.Trap {
			c.Want = c.File
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// Generate makes perKind cases of every kind from the files under root.
func Generate(root string, seed uint64, perKind int) ([]Case, error) {
	g, err := NewGenerator(root, seed)
	if err != nil {
		return nil, err
	}
	var all []Case
	for _, k := range Kinds() {
		cases, err := g.Cases(k.Name, perKind)
		if err != nil {
			return nil, err
		}
		all = append(all, cases...)
	}
	return all, nil
}
