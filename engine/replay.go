package engine

import (
	"fmt"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
)

// An answer applied whole and sent again can tell nothing block by block:
// when its second block rewrote what its first wrote (a chained answer),
// the first block's replacement is gone from the file, and its search is
// in an earlier version only, at lines changed since: it looks stale. The
// versions tell it at once: the whole answer, applied to the version the
// file had before it, makes the file as it is.

// Replayed reports whether the edits, applied in order to one of the
// versions in history, make text: an answer applied before, sent again.
// The file may have changed since elsewhere (a person's edit, another
// block's), as long as no change since touches the lines the edits wrote,
// nor the lines beside them: what they wrote stands, and what they took
// out is gone. It then returns one match per edit saying that its change
// stands, at the lines it wrote, as the later edits (and the changes
// since) moved them. Every edit must apply to the version and at least
// one must change it; opt's history is not consulted for the versions
// themselves.
func Replayed(text string, edits []Edit, history []Version, opt Options) ([]*Match, bool) {
	opt.History = nil
	for _, v := range history {
		if v.Text == text {
			continue
		}
		if ms, ok := replay(text, edits, v, opt); ok {
			return ms, true
		}
	}
	return nil, false
}

// replay is Replayed for one version.
func replay(text string, edits []Edit, v Version, opt Options) ([]*Match, bool) {
	doc := NewDocument(v.Text)
	wrote := make([][2]int, len(edits)) // the lines each edit wrote, then
	after := make([]int, len(edits))    // how many shifts lines held then
	changed := false
	for i, e := range edits {
		if e.Op != OpReplace && e.Op != OpInsert {
			return nil, false
		}
		m, err := doc.Resolve(e, opt)
		if err != nil {
			return nil, false
		}
		if m.AlreadyApplied {
			wrote[i], after[i] = [2]int{m.StartLine, m.EndLine}, len(doc.d.moved)
			continue
		}
		delta := m.newlinesAdded(doc.Text())
		doc = doc.Apply(m)
		changed = true
		wrote[i], after[i] = [2]int{m.StartLine, max(m.StartLine, m.EndLine+delta)}, len(doc.d.moved)
	}
	if !changed {
		return nil, false
	}
	// The lines each edit wrote, in the text the edits made.
	spans := make([][2]int, len(edits))
	for i := range edits {
		later := doc.d.moved[after[i]:]
		spans[i] = [2]int{later.forward(wrote[i][0]), later.forward(wrote[i][1])}
	}
	var since []lcs.Diff // from the text the edits made to text
	if made := doc.Text(); made != text {
		since = linesDiff(splitLines(toLF(strings.TrimPrefix(made, bom))), splitLines(toLF(strings.TrimPrefix(text, bom))))
		for _, h := range since {
			for _, sp := range spans {
				if h.Start <= sp[1] && sp[0]-1 <= h.End {
					return nil, false // a change since touches what the edits wrote
				}
			}
		}
	}
	makes := "the file as it is"
	if len(since) > 0 {
		makes = "these lines as they are, and the file changed since elsewhere"
	}
	ms := make([]*Match, len(edits))
	for i := range edits {
		a, b := spans[i][0], spans[i][1]
		if len(since) > 0 {
			a, b = mapLine(since, a-1, false)+1, mapLine(since, b, true)
		}
		ms[i] = &Match{
			Strategy:       "history",
			Score:          1,
			StartLine:      a,
			EndLine:        max(a, b),
			AlreadyApplied: true,
			Notes: []string{fmt.Sprintf("already applied at lines %d-%d: this answer, applied to %s, makes %s; nothing changed",
				a, max(a, b), v.Name, makes)},
		}
	}
	return ms, true
}
