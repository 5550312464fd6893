package corpus

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"path"
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/graft-editor/graft/engine"
)

// The shapes of a stale block: where, against the first edit, the region
// it quotes from the text before that edit lies.
const (
	// StaleSame quotes the first edit's region again.
	StaleSame = "same"
	// StaleInside quotes a part of the lines the first edit changed, with
	// one line of context either side.
	StaleInside = "inside"
	// StaleOverlapping quotes from inside the lines the first edit changed
	// to a few lines past its region, or from a few lines before its
	// region into those lines.
	StaleOverlapping = "overlapping"
	// StaleBeside quotes lines right next to the first edit's change, and
	// one line of the change at the side it touches.
	StaleBeside = "beside"
)

// What a stale block changes.
const (
	// StaleRework changes lines the first edit changed, in another way
	// than it did: a retry, a rework.
	StaleRework = "changed-lines"
	// StaleElsewhere changes a quoted line the first edit kept, while the
	// block still quotes a line the first edit changed as it was before:
	// the quote is stale though the change itself is elsewhere.
	StaleElsewhere = "other-line"
)

// StaleShapes returns the shapes of the stale blocks, in the order
// StaleCases makes them.
func StaleShapes() []string {
	return []string{StaleSame, StaleInside, StaleOverlapping, StaleBeside}
}

// StaleChanges returns what a stale block's change may touch, in the order
// StaleCases makes them.
func StaleChanges() []string {
	return []string{StaleRework, StaleElsewhere}
}

// A StaleCase is a stale edit made the way agents make it: a first edit
// applied (the agent's own, or a person's), then a block that quotes the
// text from before it, in a region that edit changed. Such a block must be
// refused as stale (engine.ReasonStale) given Before as history, and the
// text Now left as it is.
type StaleCase struct {
	// Name identifies the case: the apply case's name, the shape and the
	// change ("exact/03 inside/changed-lines").
	Name string
	// Case is the apply case the first edit comes from.
	Case Case
	// Before is the text before the first edit (Case.File), the version
	// the stale block quotes.
	Before string
	// Now is the text the first edit made (Case.Want), which the stale
	// block is resolved against and must leave as it is.
	Now string
	// First is the first edit, which turns Before into Now byte for byte.
	First engine.Edit
	// Stale is the stale block: its search is whole lines of Before that
	// are not in Now as written.
	Stale engine.Edit
	// Shape is one of StaleShapes, Change one of StaleChanges.
	Shape, Change string
	// Line is the 1-based line of Before where Stale's search starts.
	Line int
	// Variant says what the stale block's change does.
	Variant string
}

// FirstCase returns the first edit as a case of its own: Before turned
// into Now, as Render writes it.
func (s StaleCase) FirstCase() Case {
	c := s.Case
	c.Name, c.File, c.Edits, c.Want, c.Steps = s.Name+" first", s.Before, []engine.Edit{s.First}, s.Now, nil
	return c
}

// StaleBlockCase returns the stale block as a case of its own: resolved
// against Now, which it must leave as it is (a trap, to Render).
func (s StaleCase) StaleBlockCase() Case {
	c := s.Case
	c.Name, c.Line, c.Variant = s.Name, s.Line, s.Variant
	c.File, c.Edits, c.Want, c.Steps, c.Trap = s.Now, []engine.Edit{s.Stale}, s.Now, nil, true
	return c
}

// StaleCases makes the stale blocks that follow the apply case c: for each
// shape and change (StaleShapes, StaleChanges), at most one block quoting
// c.File, the text before c's edit, and resolved against c.Want, the text
// it made. c qualifies when it is no trap and its one edit, a replacement
// of some text, turns c.File into c.Want byte for byte; otherwise, and for
// a shape or change the case's edit leaves no room for, there are fewer
// blocks or none. A block is kept only when its search has at least two
// lines, stands once in c.File and is not in c.Want as written (a quote
// still in the file is not stale: the resolver applies it there), and its
// change is not the one c's edit made. The blocks depend only on the
// generator's seed and the case.
func (g *Generator) StaleCases(c Case) []StaleCase {
	if c.Trap || len(c.Edits) != 1 || c.Want == c.File {
		return nil
	}
	first := c.Edits[0]
	if first.Op != engine.OpReplace || first.ReplaceAll || first.Old == "" {
		return nil
	}
	if got, outs := engine.ApplyEdits(c.File, c.Edits, engine.Options{}); got != c.Want || Applied(outs) != 1 {
		return nil
	}
	m, err := engine.Resolve(c.File, first, engine.Options{})
	if err != nil {
		return nil
	}
	before, now := plain(c.File), plain(c.Want)
	if !strings.HasSuffix(before, "\n") || !strings.HasSuffix(now, "\n") {
		return nil // a quote ending on the last line would not end as it does
	}
	h := fnv.New64a()
	h.Write([]byte("stale " + c.Name + " " + c.Path))
	st := &staleDraft{
		rng:    rand.New(rand.NewPCG(g.seed, h.Sum64())),
		lang:   langOf(c.Path),
		before: before,
		now:    now,
		lines:  textLines(before),
		region: [2]int{m.StartLine - 1, m.EndLine},
	}
	st.hunks = lcs.DiffLines(st.lines, textLines(now))
	if len(st.hunks) == 0 {
		return nil
	}
	st.changed = make([]bool, len(st.lines))
	for _, d := range st.hunks {
		for i := d.Start; i < d.End; i++ {
			st.changed[i] = true
		}
	}
	var out []StaleCase
	st.blocks(func(shape, change string, a, b int, search, repl, what string) {
		out = append(out, StaleCase{
			Name:    fmt.Sprintf("%s %s/%s", c.Name, shape, change),
			Case:    c,
			Before:  c.File,
			Now:     c.Want,
			First:   first,
			Stale:   engine.Edit{Path: first.Path, Old: search, New: repl},
			Shape:   shape,
			Change:  change,
			Line:    a + 1,
			Variant: fmt.Sprintf("lines %d-%d of the text before: %s", a+1, b, what),
		})
	})
	return out
}

// blocks draws the stale blocks of d: for each shape and change
// (StaleShapes, StaleChanges), at most one, in six tries, that keep
// takes; emit receives each, with the lines [a, b) it quotes, its search
// and replacement, and what its change does.
func (d *staleDraft) blocks(emit func(shape, change string, a, b int, search, repl, what string)) {
	for _, shape := range StaleShapes() {
		for _, change := range StaleChanges() {
			for range 6 {
				a, b, ok := d.quote(shape)
				if !ok {
					continue
				}
				repl, what, ok := d.rewrite(change, a, b)
				if !ok {
					continue
				}
				search := strings.Join(d.lines[a:b], "\n") + "\n"
				if !d.keep(a, b, search, repl) {
					continue
				}
				emit(shape, change, a, b, search, repl, what)
				break
			}
		}
	}
}

// plain returns text with LF line endings and no byte order mark, as a
// model quotes it.
func plain(text string) string {
	return strings.ReplaceAll(strings.TrimPrefix(text, "\ufeff"), "\r\n", "\n")
}

// langOf returns the language of the catalog a file belongs to by its
// extension, or nil.
func langOf(p string) *lang {
	ext := path.Ext(p)
	for _, l := range languages() {
		if slices.Contains(l.exts, ext) {
			return &l
		}
	}
	return nil
}

// A staleDraft is what StaleCases knows of one apply case while it makes
// its stale blocks. Lines are counted from 0 in the text before the first
// edit, and ranges of them are half open.
type staleDraft struct {
	rng       *rand.Rand
	lang      *lang
	before    string     // the text before the first edit, plain
	now       string     // the text it made, plain
	lines     []string   // the lines of before
	region    [2]int     // the lines the first edit's search matched
	hunks     []lcs.Diff // the first edit's change, line by line
	changed   []bool     // per line of before: the first edit replaced it
	insertion bool       // set by hunk: the hunk drawn inserts lines only
}

// hunk draws one of the first edit's changed runs of lines: [from, to),
// or for a pure insertion the two lines around it, [at-1, at+1), with
// d.insertion set.
func (d *staleDraft) hunk() (from, to int) {
	h := d.hunks[d.rng.IntN(len(d.hunks))]
	d.insertion = h.Start == h.End
	if d.insertion {
		return h.Start - 1, h.Start + 1
	}
	return h.Start, h.End
}

// quote draws the lines [a, b) a block of the shape quotes.
func (d *staleDraft) quote(shape string) (a, b int, ok bool) {
	from, to := d.hunk()
	rs, re := d.region[0], d.region[1]
	n := len(d.lines)
	switch shape {
	case StaleSame:
		a, b = rs, re
	case StaleInside:
		x, y := from, to
		if !d.insertion && to-from >= 2 {
			x = from + d.rng.IntN(to-from)
			y = x + 1 + d.rng.IntN(to-x)
		}
		if d.insertion {
			x, y = from+1, to-1 // the context either side is the lines around it
		}
		a, b = x-1, y+1
	case StaleOverlapping:
		k := 1 + d.rng.IntN(3)
		if d.rng.IntN(2) == 0 {
			// From inside the change to k lines past the region.
			a, b = from+d.rng.IntN(max(1, to-from-1)), max(re, to)+k
		} else {
			// From k lines before the region into the change.
			a, b = min(rs, from)-k, to-d.rng.IntN(max(1, to-from-1))
		}
	case StaleBeside:
		k := 2 + d.rng.IntN(3)
		after := d.rng.IntN(2) == 0
		switch {
		case d.insertion && after:
			a, b = from, to-1+k // the line before the insertion and k after it
		case d.insertion:
			a, b = from+1-k, to // k lines before the insertion and the line after it
		case after:
			a, b = to-1, to+k // the change's last line and k after it
		default:
			a, b = from-k, from+1 // k lines before it and its first line
		}
	default:
		return 0, 0, false
	}
	if a < 0 || b > n || b-a < 2 {
		return 0, 0, false
	}
	return a, b, true
}

// rewrite draws the block's change of the lines [a, b): of a line the
// first edit changed (StaleRework) or of one it kept (StaleElsewhere). It
// returns the replacement and what it does.
func (d *staleDraft) rewrite(change string, a, b int) (string, string, bool) {
	var targets []int
	for i := a; i < b; i++ {
		if strings.TrimSpace(d.lines[i]) == "" {
			continue
		}
		if d.changed[i] == (change == StaleRework) {
			targets = append(targets, i)
		}
	}
	if change == StaleRework {
		// A pure insertion changed no line of the text before: reworking
		// it is inserting something else at its place.
		for _, h := range d.hunks {
			if h.Start == h.End && a < h.Start && h.Start < b {
				targets = append(targets, -h.Start-1)
			}
		}
	}
	if len(targets) == 0 {
		return "", "", false
	}
	q := slices.Clone(d.lines[a:b])
	t := targets[d.rng.IntN(len(targets))]
	if t < 0 { // insert before line -t-1
		at := -t - 1
		line, ok := d.comment(d.lines[at], "a second look")
		if !ok {
			return "", "", false
		}
		q = slices.Insert(q, at-a, line)
		return strings.Join(q, "\n") + "\n", fmt.Sprintf("insert a comment at line %d, where the first edit inserted", at+1), true
	}
	i := t - a
	for _, op := range d.rng.Perm(4) {
		switch op {
		case 0:
			if d.lang == nil {
				continue
			}
			if line, what, ok := rename(d.rng, d.lang, q[i]); ok {
				q[i] = line
				return strings.Join(q, "\n") + "\n", fmt.Sprintf("%s on line %d", what, t+1), true
			}
		case 1:
			if d.lang == nil {
				continue
			}
			if line, what, ok := changeLiteral(d.rng, d.lang, q[i]); ok {
				q[i] = line
				return strings.Join(q, "\n") + "\n", fmt.Sprintf("%s on line %d", what, t+1), true
			}
		case 2:
			if line, ok := d.comment(q[i], "reworked"); ok {
				q = slices.Insert(q, i+1, line)
				return strings.Join(q, "\n") + "\n", fmt.Sprintf("add a comment after line %d", t+1), true
			}
		case 3:
			if b-a >= 3 {
				q = slices.Delete(q, i, i+1)
				return strings.Join(q, "\n") + "\n", fmt.Sprintf("delete line %d", t+1), true
			}
		}
	}
	return "", "", false
}

// comment returns a line comment saying what, indented as next.
func (d *staleDraft) comment(next, what string) (string, bool) {
	if d.lang == nil || d.lang.comment == "" {
		return "", false
	}
	indent := next[:len(next)-len(strings.TrimLeft(next, " \t"))]
	return indent + d.lang.comment + " graft: " + what, true
}

// keep reports whether the block quoting lines [a, b) as search, replaced
// by repl, is a stale block to keep: a search of two lines or more,
// standing once in the text before and not in the text now; one that
// quotes a line the first edit changed, or spans a place it inserted at;
// and a change that is not the first edit's, whose replacement is not in
// the text now either (that change would stand already).
func (d *staleDraft) keep(a, b int, search, repl string) bool {
	if b-a < 2 || search == repl || strings.Count(d.before, search) != 1 || strings.Contains(d.now, search) || strings.Contains(d.now, repl) {
		return false
	}
	at := strings.Index(d.before, search)
	if d.before[:at]+repl+d.before[at+len(search):] == d.now {
		return false
	}
	for _, h := range d.hunks {
		if h.Start < h.End && h.Start < b && a < h.End || h.Start == h.End && a < h.Start && h.Start < b {
			return true
		}
	}
	return false
}

// Resolve resolves the stale block against Now with Before as history, as
// graft apply's journal and graft serve keep it, and returns the text it
// leaves and whether it was refused as stale.
func (s StaleCase) Resolve() (string, bool) {
	got, outs := engine.ApplyEdits(s.Now, []engine.Edit{s.Stale}, engine.Options{History: []engine.Version{{Name: "the text before", Text: s.Before}}})
	e, ok := outs[0].Err.(*engine.Error)
	return got, ok && e.Reason == engine.ReasonStale
}

// StaleSample returns at most n stale cases for which keep holds, spread
// evenly over the shapes and changes and, within each, over the kinds:
// made from the first perKind cases of every kind. It is what end-to-end
// tests run through graft's commands, where every case costs a process
// or a round trip.
func (g *Generator) StaleSample(n, perKind int, keep func(StaleCase) bool) ([]StaleCase, error) {
	kinds := Kinds()
	cases := make([][]Case, len(kinds))
	for i, k := range kinds {
		var err error
		if cases[i], err = g.Cases(k.Name, perKind); err != nil {
			return nil, err
		}
	}
	// Per shape and change, the blocks in the order of the cases' index,
	// then of their kind, so that every kind comes early.
	buckets := map[string][]StaleCase{}
	for j := range perKind {
		for i := range kinds {
			for _, s := range g.StaleCases(cases[i][j]) {
				if keep == nil || keep(s) {
					key := s.Shape + "/" + s.Change
					buckets[key] = append(buckets[key], s)
				}
			}
		}
	}
	var out []StaleCase
	for round := 0; len(out) < n; round++ {
		took := false
		for _, shape := range StaleShapes() {
			for _, change := range StaleChanges() {
				if b := buckets[shape+"/"+change]; round < len(b) && len(out) < n {
					out = append(out, b[round])
					took = true
				}
			}
		}
		if !took {
			break
		}
	}
	return out, nil
}

// Routable reports whether end-to-end tests can send the case through
// graft's commands as SEARCH/REPLACE answers: its first edit and its
// block, written so, read back as edits that apply as the case says (the
// first turns Before into Now byte for byte).
func (s StaleCase) Routable() bool {
	first, err := Transcribe(s.FirstCase(), SearchReplace)
	if err != nil {
		return false
	}
	if got, _ := engine.ApplyEdits(s.Before, first, engine.Options{}); got != s.Now {
		return false
	}
	_, ok := Render(s.StaleBlockCase(), SearchReplace)
	return ok
}
