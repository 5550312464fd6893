package corpus

import (
	"math/rand/v2"
	"strings"
)

// buildTrapUnevenReindent makes an edit that moves the lines after its
// region's first line a level deeper, where the model's copy indents that
// first line a level deeper or shallower (but not flush left) than the
// file, and the others as the file does. The depth the edit means is the
// file's depth of those lines plus a level, or a level under the first
// line as the model quoted it, and nothing in the edit tells which: it
// must be refused. A
// real aider session made it: an Astro tag quoted two columns deep, and
// its attributes "nested" under it, which the file had nested already;
// shown the file, the model kept their depth.
func buildTrapUnevenReindent(g *Generator, rng *rand.Rand) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	n := regionLength(rng, 3, 12)
	start, ok := s.region(rng, n)
	if !ok {
		return Case{}, errSkip
	}
	region := s.lines[start : start+n]
	first := region[0]
	if isBlank(first) || !s.distinctive(first) {
		return Case{}, errSkip
	}
	moved := region[1 : 2+rng.IntN(n-1)]
	ins := make([]string, len(moved))
	distinct := 0
	for i, line := range moved {
		ins[i] = line
		if !isBlank(line) {
			ins[i] = s.unit + line
			if s.distinctive(line) {
				distinct++
			}
		}
	}
	if distinct == 0 {
		return Case{}, errSkip
	}
	d := newDraft(rng, s, s.lines, start, n, change{at: 1, del: len(moved), ins: ins, what: "lines moved a level deeper"})
	// A first line flush left is the copy's start trimmed, which tells
	// nothing of the model's depth (see the kind trimmed-boundary): the
	// copy a level shallower keeps some indentation.
	deeper := rng.IntN(2) == 0 || !strings.HasPrefix(first, s.unit) || indentOf(strings.TrimPrefix(first, s.unit)) == ""
	d.model[0].mapText(func(line string) string {
		if deeper {
			return s.unit + line
		}
		return strings.TrimPrefix(line, s.unit)
	})
	d.trap = true
	if !d.recognizable() {
		return Case{}, errSkip
	}
	if deeper {
		d.note("the copy of line %d is a level deeper than the file's", d.startLine())
	} else {
		d.note("the copy of line %d is a level shallower than the file's", d.startLine())
	}
	return d.build(), nil
}
