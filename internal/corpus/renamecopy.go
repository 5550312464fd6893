package corpus

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// buildTrapRenamedInCopy renames a name on the lines of a region that
// hold it, but for one line the edit keeps, whose copy already has the
// new name where the file has the old one: the model wrote that line as
// it would be after its rename (if (byte2 !== 0) while renaming byte to
// byte2). Keeping the file's line would leave the old name beside the new
// ones, and writing the model's would change a line it did not mark: the
// edit must be refused.
func buildTrapRenamedInCopy(g *Generator, rng *rand.Rand) (Case, error) {
	return g.renameInCopy(rng, true)
}

// buildRenameKeptSlip renames a name on the lines of a region that hold
// it, while the model's copy of a line the edit keeps misspells another
// name by a letter: an unrelated slip, which the merge keeps as the file
// has it, with the rename made.
func buildRenameKeptSlip(g *Generator, rng *rand.Rand) (Case, error) {
	return g.renameInCopy(rng, false)
}

// renameInCopy renames a name of a region on the lines that hold it, and
// makes the copy of one kept line differ from the file's: by the new name
// for a trap, by a slip of another name otherwise.
func (g *Generator) renameInCopy(rng *rand.Rand, trap bool) (Case, error) {
	s, err := g.cat.pick(rng, nil)
	if err != nil {
		return Case{}, err
	}
	l := s.lang
	n := regionLength(rng, 4, 25)
	start, ok := s.region(rng, n)
	if !ok {
		return Case{}, errSkip
	}
	region := s.lines[start : start+n]
	var names []string
	for _, line := range region {
		for _, t := range scan(l, line) {
			if w := line[t.start:t.end]; renamable(l, line, t) && len(w) >= 3 && !slices.Contains(names, w) {
				names = append(names, w)
			}
		}
	}
	for _, k := range rng.Perm(len(names)) {
		w := names[k]
		to := newName(rng, l, w)
		if rng.IntN(3) == 0 {
			to = w + "2"
		}
		if countWord(s.text, to) > 0 {
			continue
		}
		renamed := make([]string, n)
		var on []int // the lines the rename changes
		for i, line := range region {
			if renamed[i] = renameIn(l, line, w, to); renamed[i] != line {
				on = append(on, i)
			}
		}
		if len(on) < 1+boolInt(trap) {
			continue
		}
		d := newDraft(rng, s, s.lines, start, n, change{})
		var y int // the kept line whose copy differs from the file
		var copied string
		if trap {
			y = on[rng.IntN(len(on))]
			read := slices.Clone(region) // the region as the model copied it
			read[y] = renamed[y]
			d.model = lineEntries(read, renamed)
			i := slices.IndexFunc(d.model, func(e entry) bool { return e.src == y })
			d.model[i].touched = true
			d.trap = true
			d.what = []string{"rename " + w + " to " + to + " on lines " + lineList(d.startLine(), on, y),
				"the copy of line " + strconv.Itoa(d.startLine()+y) + ", which the edit keeps, already says " + to}
		} else {
			var ok bool
			if y, copied, ok = slipElsewhere(rng, s, region, on, w, to); !ok {
				continue
			}
			d.truth = lineEntries(region, renamed)
			d.model = slices.Clone(d.truth)
			i := slices.IndexFunc(d.model, func(e entry) bool { return e.op == '=' && e.src == y })
			d.model[i].old, d.model[i].new, d.model[i].touched = copied, copied, true
			d.what = []string{"rename " + w + " to " + to + " on lines " + lineList(d.startLine(), on, -1),
				"the copy of kept line " + strconv.Itoa(d.startLine()+y) + " has a slip: " + strings.TrimSpace(copied)}
		}
		if !d.recognizable() {
			return Case{}, errSkip
		}
		if rng.IntN(3) == 0 {
			if err := d.whitespaceDamage(); err != nil {
				return Case{}, err
			}
		}
		return d.build(), nil
	}
	return Case{}, errSkip
}

// slipElsewhere draws a line of region that the rename of w to to leaves
// alone, and misspells by a letter another of its names, one the file
// does not hold and that is not to: the line's index and the misspelled
// line.
func slipElsewhere(rng *rand.Rand, s *source, region []string, on []int, w, to string) (int, string, bool) {
	l := s.lang
	for _, y := range rng.Perm(len(region)) {
		if slices.Contains(on, y) {
			continue
		}
		line := region[y]
		var names []string
		for _, t := range scan(l, line) {
			if v := line[t.start:t.end]; renamable(l, line, t) && len(v) >= 4 && v != w && !slices.Contains(names, v) {
				names = append(names, v)
			}
		}
		if len(names) == 0 {
			continue
		}
		v := names[rng.IntN(len(names))]
		slipped := slip(rng, v)
		if slipped == v || slipped == to || countWord(s.text, slipped) > 0 {
			continue
		}
		return y, renameIn(l, line, v, slipped), true
	}
	return 0, "", false
}

// lineEntries lines up a region with its edited version of as many lines,
// line for line: a line the edit leaves is kept, one it changes is removed
// and its new version added.
func lineEntries(old, new []string) []entry {
	var es []entry
	for i := range old {
		if old[i] == new[i] {
			es = append(es, entry{op: '=', old: old[i], new: new[i], src: i})
			continue
		}
		es = append(es, entry{op: '-', old: old[i], src: i}, entry{op: '+', new: new[i], src: -1})
	}
	return es
}

// lineList names the lines of a region, from its first line first, but
// for the line skip.
func lineList(first int, idx []int, skip int) string {
	var ls []string
	for _, i := range idx {
		if i != skip {
			ls = append(ls, strconv.Itoa(first+i))
		}
	}
	return strings.Join(ls, ", ")
}
