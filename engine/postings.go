package engine

import (
	"strings"

	"github.com/graft-editor/graft/engine/internal/loose"
)

// occurrences returns what the function occurrences returns for the
// document's lf view, sub and limit, found through the postings rather
// than by a search of the whole text: every place of sub holds the lines
// sub has between two of its line feeds as whole lines of the file, with
// their loose keys, so the lines with the key of the rarest of them are
// the only places to compare. It reports false, having looked at nothing
// of the text, when the postings cannot say (sub has no such line) or it
// would cost more than a search of the text (the rarest such line is
// there too often).
func (ix *index) occurrences(sub string, limit int) ([]int, bool) {
	d := ix.d
	first, last := strings.IndexByte(sub, '\n'), strings.LastIndexByte(sub, '\n')
	if ix.post == nil || first == last {
		return nil, false
	}
	var rarest []int32
	at := -1 // the offset in sub of the rarest line
	for from := first + 1; from <= last; {
		end := from + strings.IndexByte(sub[from:], '\n')
		k, _, _ := loose.Key(sub[from:end])
		lines := ix.post.Of(k)
		if len(lines) == 0 {
			return nil, true // a line of sub is not in the file
		}
		if at < 0 || len(lines) < len(rarest) {
			rarest, at = lines, from
		}
		from = end + 1
	}
	if len(rarest)*len(sub) > len(d.lf) {
		return nil, false
	}
	var found []int
	for _, f := range rarest {
		start := d.lfOffset(int(f)) - at
		if start >= 0 && start+len(sub) <= len(d.lf) && d.lf[start:start+len(sub)] == sub {
			found = append(found, start)
			if len(found) == limit {
				break
			}
		}
	}
	return found, true
}
