package workspace

import (
	"sort"

	"github.com/graft-editor/graft/engine"
)

// textEdits is what a plan's blocks have done to a file so far: edits of
// the text as it was, in order, apart from one another. Each block's
// changes, made to the text the blocks before it left, are added in the
// coordinates of the text as it was; a change that touches what an
// earlier one wrote is merged with it into one edit. So the edits a
// client receives are the engine's own changes, never a diff of the
// file's text before and after.
type textEdits []engine.Change

// add records the changes cs, made to cur, the text the edits so far
// make, in order and apart (as an engine.Match holds them).
func (es *textEdits) add(cur string, cs []engine.Change) {
	sorted := append([]engine.Change(nil), cs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })
	// Later changes first: each leaves the offsets of the earlier ones
	// in cur as they are. The text is made anew only for a change that
	// has another before it (a match's changes are mostly one).
	for k := len(sorted) - 1; k >= 0; k-- {
		c := sorted[k]
		es.addOne(cur, c)
		if k > 0 {
			cur = cur[:c.Start] + c.Text + cur[c.End:]
		}
	}
}

// addOne records the change c of cur.
func (es *textEdits) addOne(cur string, c engine.Change) {
	// Where each edit's replacement stands in cur: [at, end).
	shift := 0 // len(Text)-(End-Start) of the edits before
	first, last, next := -1, -1, len(*es)
	var firstAt, lastEnd, before int
	for k, e := range *es {
		at := e.Start + shift
		end := at + len(e.Text)
		touching := at < end || c.Start < c.End // not two empty ranges
		if end < c.Start || end == c.Start && touching {
			// Before the change: it ends where the change starts, or
			// earlier.
			shift += len(e.Text) - (e.End - e.Start)
			continue
		}
		if at > c.End || at == c.End && touching {
			next = k // after it, and so are the rest
			break
		}
		if first < 0 {
			first, firstAt, before = k, at, shift
		}
		last, lastEnd = k, end
		shift += len(e.Text) - (e.End - e.Start)
	}
	if first < 0 {
		// Apart from every edit: its place in the text as it was.
		e := engine.Change{Start: c.Start - shift, End: c.End - shift, Text: c.Text}
		*es = append(*es, engine.Change{})
		copy((*es)[next+1:], (*es)[next:])
		(*es)[next] = e
		return
	}
	// Merged with the edits it overlaps: the text as it was from the
	// first one's start (or the change's, if earlier) to the last one's
	// end (or the change's, if later) becomes what cur has there with c
	// made.
	lo, hi := min(c.Start, firstAt), max(c.End, lastEnd)
	e := engine.Change{Start: lo - before, End: hi - shift, Text: cur[lo:c.Start] + c.Text + cur[c.End:hi]}
	rest := append([]engine.Change(nil), (*es)[last+1:]...)
	*es = append(append((*es)[:first], e), rest...)
}
