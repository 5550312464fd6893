package engine

import (
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"github.com/aymanbagabas/go-udiff/lcs"
	"github.com/graft-editor/graft/engine/internal/loose"
)

// A Version is an earlier text of the document an edit is resolved
// against: the text Graft's own last edit replaced, the file at a commit,
// the staged file, a buffer at an earlier version.
type Version struct {
	// Name is how a message calls the version: "the file at HEAD (commit
	// abc1234)", "the text graft apply replaced at 22:10 (3 minutes ago)".
	Name string
	// Text is the version's text.
	Text string
}

// A model quotes the file as it read it. When it has edited the file
// since (or a person has, or a commit moved on), its search is no longer
// in the text as written, and a fuzzy match finds the rewritten region
// and merges the old change into the new code: the edit is stale. So,
// when an edit's search is not in the text as it is, Resolve looks for it
// in the earlier versions Options.History holds, and refuses the edit as
// stale when
//
//   - the search stands once in a version, as written or white space
//     aside, or the resolver finds it there at least as well as in the
//     text;
//   - the lines it quotes there have changed since: any of them, not only
//     the lines the edit changes (a stale quote carries the old code into
//     the replacement: a renamed variable kept, a line the agent already
//     rewrote written back), or an insertion or a deletion since slides
//     into the lines the edit changes. Lines only respaced since (a
//     formatter's work: as many lines, each indented as it was, with the
//     same characters but white space) have not changed: the resolver
//     reads a model's copy white space aside anyway, and applies its
//     change to the lines as they are now;
//   - and those lines are now where the resolver's match landed, or
//     nowhere (the resolver found nothing, or they were deleted).
//
// "Since" ends where the answer begins: the text the document's first
// edit was resolved against. A block that quotes lines an earlier block
// of the same answer changed quotes the text the answer was written
// against, which the resolver carries forward; that is no history.
//
// Already applied comes first: a change that stands is not stale. The
// look-up costs nothing when the search is in the text as written (the
// exact path never consults the history).

// stale returns the refusal of edit e as stale against one of the
// versions, or the match saying that its change stands already, the one
// change made to those lines since a version; nil and nil when neither.
// m and err are what the resolver found in the text.
func (doc *Document) stale(e Edit, m *Match, err error, history []Version) (*Match, *Error) {
	if m != nil && m.AlreadyApplied || e.ReplaceAll {
		return nil, nil
	}
	if re, ok := err.(*Error); ok && re.Reason == ReasonInvalid {
		return nil, nil
	}
	d, base := doc.d, doc.origin()
	old, new := e.texts(d)
	if strings.TrimSpace(old) == "" || strings.Contains(d.lf, old) || base != d && strings.Contains(base.lf, old) {
		// The search is in the text as written, or in the text the
		// answer was written against: never stale.
		return nil, nil
	}
	if m != nil && len(d.moved) > 0 {
		// Where the match landed, in the lines of the answer's text.
		bm := *m
		bm.StartLine, bm.EndLine = d.shownSpan(m.StartLine, m.EndLine)
		m = &bm
	}
	var cur []string // the lines of the answer's text, split once
	rds := readings(old, new, e.Line)
	for _, v := range history {
		vlf := strings.TrimPrefix(toLF(v.Text), bom)
		if vlf == base.lf {
			continue
		}
		// The search as the resolver reads it: with line numbers pasted
		// in, or escaped once too often, it is in the version only as the
		// reading that undoes the mistake has it.
		found := false
		for _, rd := range rds {
			if rd.strict || strings.TrimSpace(rd.old) == "" {
				continue
			}
			va, ok := findIn(vlf, rd.old)
			if !ok {
				continue
			}
			if cur == nil {
				cur = splitLines(base.lf)
			}
			vl := splitLines(vlf)
			if sm := doc.madeSince(v, vl, cur, va, rd.old, rd.new); sm != nil {
				return sm, nil
			}
			if err := staleAt(v, vl, cur, va, rd.old, rd.new, m); err != nil {
				return nil, err
			}
			found = true
			break
		}
		if found {
			continue
		}
		// A copy that is off (a typo, a forgotten or changed line, an
		// elision) is found in the version as the resolver finds it in
		// any text: when it resolves there, better than it did in the
		// text, the version is where the model read it.
		vm, verr := Resolve(vlf, Edit{Op: OpReplace, Old: old, New: new, Line: e.Line}, Options{})
		if verr != nil || vm.AlreadyApplied || m != nil && vm.Score < m.Score {
			continue
		}
		if cur == nil {
			cur = splitLines(base.lf)
		}
		if err := staleMatched(v, vlf, splitLines(vlf), cur, vm, m); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// madeSince returns the match of an edit whose change is the change made
// to its lines since the version v (lines vl), where its search stands as
// whole lines at line va: the version with the edit made differs from the
// text (lines cur) only away from the lines the edit writes. That is an
// edit applied before, sent again, even one whose change leaves nothing
// in the text to tell (a deletion without context). The search's lines
// must be the version's, white space aside (as written for a replacement
// that is not empty). It returns nil when the change since is another one.
func (doc *Document) madeSince(v Version, vl, cur []string, va int, old, new string) *Match {
	s, t := splitLines(old), splitLines(new)
	vb := va + len(s)
	if vb > len(vl) || !strings.HasSuffix(old, "\n") || new != "" && !strings.HasSuffix(new, "\n") {
		return nil // only whole lines are compared
	}
	for i, l := range s {
		if loose.View(l) != loose.View(vl[va+i]) {
			return nil
		}
	}
	if new != "" && strings.Join(vl[va:vb], "\n")+"\n" != old {
		// The model's copy is off in white space: what it writes is not
		// what the version would hold made, so only the text, not the
		// history, can tell a replacement stands (see standing).
		return nil
	}
	made := make([]string, 0, len(vl)-len(s)+len(t))
	made = append(append(append(made, vl[:va]...), t...), vl[vb:]...)
	rest := linesDiff(made, cur)
	na, nb := va, va+len(t)
	for _, h := range rest {
		if h.Start <= nb && na <= h.End {
			return nil // the lines the edit writes changed, or were never written
		}
	}
	ca, cb := mapLine(rest, na, false), mapLine(rest, nb, true)
	a, b := ca+1, max(ca+1, cb)
	if b > len(cur) {
		a, b = max(1, len(cur)), max(1, len(cur))
	}
	// The lines are the answer's text's (cur), which the note names; the
	// match's are those of the text the edit was resolved against.
	return &Match{
		Strategy:       "history",
		Score:          1,
		StartLine:      doc.d.moved.forward(a),
		EndLine:        doc.d.moved.forward(b),
		AlreadyApplied: true,
		Notes: []string{fmt.Sprintf("already applied at lines %d-%d: the change made to these lines since %s is this edit's; nothing changed",
			a, b, v.Name)},
	}
}

// findIn returns the 0-based line of the version text vlf where the
// search old stands once, as written or else white space aside; the
// search's first line is at that line.
func findIn(vlf, old string) (int, bool) {
	if at := occurrences(vlf, old, 2); len(at) > 0 {
		if len(at) > 1 {
			return 0, false // the version cannot tell which place was quoted
		}
		return strings.Count(vlf[:at[0]], "\n"), true
	}
	s := splitLines(old)
	lead := 0
	for lead < len(s) && isBlank(s[lead]) {
		lead++
	}
	trail := len(s)
	for trail > lead && isBlank(s[trail-1]) {
		trail--
	}
	if lead == trail {
		return 0, false
	}
	// A version that lacks a word of the search lacks the search: most
	// versions are ruled out so, without splitting them into lines.
	for _, l := range s[lead:trail] {
		for _, w := range strings.Fields(l) {
			if !strings.Contains(vlf, w) {
				return 0, false
			}
		}
	}
	keys := make([]string, 0, trail-lead)
	for _, l := range s[lead:trail] {
		keys = append(keys, loose.View(l))
	}
	vl := splitLines(vlf)
	found, at := 0, 0
	for i := 0; i+len(keys) <= len(vl) && found < 2; i++ {
		if loose.View(vl[i]) != keys[0] {
			continue
		}
		k := 1
		for k < len(keys) && loose.View(vl[i+k]) == keys[k] {
			k++
		}
		if k == len(keys) {
			found, at = found+1, i
		}
	}
	if found != 1 || at < lead {
		// Not there, or the search's blank lines stand before the
		// version's first: its lines are not the version's one for one,
		// and the resolver's look-up below finds it instead.
		return 0, false
	}
	return at - lead, true
}

// staleAt returns the refusal of the edit (search old, replacement new)
// whose search stands at line va of the version v (lines vl), when the
// text (lines cur) has changed the lines the edit changes since, or nil.
func staleAt(v Version, vl, cur []string, va int, old, new string, m *Match) *Error {
	s, t := splitLines(old), splitLines(new)
	vb := min(len(vl), va+len(s))
	// The search's lines are the version's, one for one: the edit's change
	// is the change from its search to its replacement, at line va.
	change := func() ([]string, []lcs.Diff) {
		edit := diff(s, t)
		made := make([]string, 0, len(vl)-(vb-va)+len(t))
		made = append(append(append(made, vl[:va]...), t...), vl[vb:]...)
		for i := range edit {
			edit[i].Start += va
			edit[i].End += va
			edit[i].ReplStart += va
			edit[i].ReplEnd += va
		}
		return made, edit
	}
	// The search stands once in the version, as written or white space
	// aside: the model read it there, whatever the resolver finds in the
	// text now (a near copy elsewhere, white space aside or similar).
	return staleIn(v, vl, cur, va, vb, change, nil)
}

// staleMatched is staleAt for a search the resolver found in the version
// only approximately, at the lines of the match vm: its change is what
// the match makes of the version, which an elision or a forgotten line
// places at other lines than the search's own.
func staleMatched(v Version, vlf string, vl, cur []string, vm *Match, m *Match) *Error {
	change := func() ([]string, []lcs.Diff) {
		made := splitLines(strings.TrimPrefix(vm.Apply(vlf), bom))
		return made, linesDiff(vl, made)
	}
	return staleIn(v, vl, cur, vm.StartLine-1, min(len(vl), vm.EndLine), change, m)
}

// staleIn returns the refusal of an edit found at lines [va, vb) of the
// version v (lines vl), which would make of the version the lines made by
// the edits edit (as change returns them, asked only when the text has
// changed near those lines), when the text (lines cur) has changed since
// the lines the edit changes, or nil. When m, the resolver's match in the text, is
// given, a match at another place than those lines now is no stale edit:
// the version did not tell better where the model read it.
func staleIn(v Version, vl, cur []string, va, vb int, change func() ([]string, []lcs.Diff), m *Match) *Error {
	since := linesDiff(vl, cur)
	var changed []lcs.Diff // what changed since, but respacing
	near := false
	for _, h := range since {
		if !respaced(vl, cur, h) {
			changed = append(changed, h)
			near = near || h.End >= va && h.Start <= vb
		}
	}
	if !near {
		return nil // nothing changed since where the search stands
	}
	made, edit := change()
	if len(edit) == 0 {
		return nil
	}
	clash := false
	for _, h := range changed {
		if h.End < va || h.Start > vb {
			continue
		}
		if h.Start < vb && va < h.End || va < h.Start && h.Start < vb {
			clash = true // a quoted line changed, or lines came between two
			break
		}
		hs, he := spread(vl, h, cur)
		for _, b := range edit {
			// An insertion or a deletion slides over the lines it
			// repeats ("}" added before a "}"): two diffs of the same
			// change can place it lines apart, which is still the same
			// place; and an insertion touches the lines on either side.
			bs, be := spread(vl, b, made)
			slide := 0
			if h.Start == h.End || b.Start == b.End {
				slide = 1
			}
			if hs <= be+slide && bs-slide <= he {
				clash = true
			}
		}
	}
	if !clash {
		return nil
	}
	ca, cb := mapLine(since, va, false), mapLine(since, vb, true)
	if m != nil && cb > ca && (m.EndLine < ca || m.StartLine-1 > cb) {
		return nil // the resolver found the search at another place
	}
	then := strings.Join(vl[va:vb], "\n") + "\n"
	now := ""
	if cb > ca {
		now = strings.Join(cur[ca:cb], "\n") + "\n"
	}
	e := &Error{Reason: ReasonStale}
	where := fmt.Sprintf("now lines %d-%d", ca+1, cb)
	if cb == ca {
		where = fmt.Sprintf("deleted since, at line %d now", ca+1)
	} else if cb-ca == 1 {
		where = fmt.Sprintf("now line %d", ca+1)
	}
	e.Summary = fmt.Sprintf("stale: the search quotes %s, lines %d-%d there, which have changed since (%s); nothing was merged into the changed code: quote the current lines", v.Name, va+1, vb, where)
	var b strings.Builder
	b.WriteString("what changed since, from ")
	b.WriteString(v.Name)
	b.WriteString(" to the file now:\n")
	b.WriteString(clip(udiff.Unified("then", "now", then, now), 40))
	lo, hi := ca, cb
	if hi == lo {
		lo, hi = max(0, ca-2), min(len(cur), ca+2)
	}
	if hi > lo {
		fmt.Fprintf(&b, "the current lines %d-%d, to quote:\n", lo+1, hi)
		b.WriteString(clip(strings.Join(cur[lo:hi], "\n")+"\n", 40))
	}
	e.Detail = b.String()
	return e
}

// respaced reports whether the change h of lines a into lines b only
// respaces them: as many lines, each with its indentation, and the same
// characters but white space. Indentation is kept apart, as it is code in
// some languages.
func respaced(a, b []string, h lcs.Diff) bool {
	n := h.End - h.Start
	if n == 0 || h.ReplEnd-h.ReplStart != n {
		return false
	}
	for k := range n {
		x, y := a[h.Start+k], b[h.ReplStart+k]
		if indentOf(x) != indentOf(y) || !equalNoSpace(x, y) {
			return false
		}
	}
	return true
}

// spread returns the lines [start, end] of a over which the edit d (of a
// into b) may stand: an insertion or a deletion of lines that repeat the
// lines beside it could as well be written higher or lower (inserting
// "}\n" after a "}" line is inserting it before), and two diffs of the
// same change may well place it differently. A replacement stands where
// it is.
func spread(a []string, d lcs.Diff, b []string) (start, end int) {
	start, end = d.Start, d.End
	switch ins := b[d.ReplStart:d.ReplEnd]; {
	case d.Start == d.End && len(ins) > 0:
		n := len(ins)
		for k := 0; start > 0 && a[start-1] == ins[((n-1-k)%n+n)%n]; k++ {
			start--
		}
		for k := 0; end < len(a) && a[end] == ins[k%n]; k++ {
			end++
		}
	case d.Start < d.End && len(ins) == 0:
		for start > 0 && a[start-1] == a[end-1-(d.Start-start)] {
			start--
		}
		for k := 0; end < len(a) && a[end] == a[d.Start+k]; k++ {
			end++
		}
	}
	return start, end
}

// linesDiff returns the edits that turn lines a into lines b, with their
// common start and end left out of the search for a common subsequence:
// a version mostly differs from the text in one place or a few.
func linesDiff(a, b []string) []lcs.Diff {
	p, q := sameEnds(a, b)
	ds := diff(a[p:len(a)-q], b[p:len(b)-q])
	for i := range ds {
		ds[i].Start += p
		ds[i].End += p
		ds[i].ReplStart += p
		ds[i].ReplEnd += p
	}
	return ds
}

// mapLine returns where the boundary before line p of the old lines stands
// in the new ones, through the edits ds. A boundary inside an edit goes to
// the edit's start, or its end when end is set.
func mapLine(ds []lcs.Diff, p int, end bool) int {
	shift := 0
	for _, d := range ds {
		switch {
		case d.Start == d.End && d.Start == p, d.Start < p && p < d.End:
			if end {
				return d.ReplEnd
			}
			return d.ReplStart
		case d.End <= p:
			shift = d.ReplEnd - d.End
			continue
		}
		break
	}
	return p + shift
}

// Stale returns the refusal of edit e as stale against history (see
// Options.History), given what Resolve answered for it
// against the document: m and err; nil when it is not stale. A caller
// that reads the history only when an edit needs it calls Stale after a
// resolution that was not exact, rather than passing the history to
// Resolve.
//
// It returns a match instead when the history tells that the edit's
// change stands already: the one change made to its lines since a
// version is this edit's (an edit applied before, sent again, even a
// deletion without context); nil and nil when neither.
func (doc *Document) Stale(e Edit, m *Match, err error, history []Version) (*Match, error) {
	if e.Op != OpReplace || len(history) == 0 || m != nil && m.Strategy == "exact" {
		return nil, nil
	}
	e.Line = doc.d.moved.editLine(e) // as Resolve takes it
	sm, serr := doc.stale(e, m, err, history)
	if serr != nil {
		return nil, serr
	}
	return sm, nil
}

// NeedsHistory reports whether the answer m, err to edit e could be
// stale: the edit replaces text, and it was neither found as written nor
// found to stand already.
func NeedsHistory(e Edit, m *Match, err error) bool {
	if e.Op != OpReplace || e.ReplaceAll || m != nil && (m.Strategy == "exact" || m.AlreadyApplied) {
		return false
	}
	if re, ok := err.(*Error); ok && re.Reason == ReasonInvalid {
		return false
	}
	return true
}
