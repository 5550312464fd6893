package engine

import (
	"fmt"
	"strings"
)

// all resolves a replace-all edit: every exact occurrence of the search,
// or, when there is none, every occurrence ignoring white space. Fuzzy
// matches are never replaced wholesale.
func (r *resolver) all(old, new string) (*Match, error) {
	d := r.d
	var changes []Change
	strategy := "multi-occurrence"
	for from := 0; ; {
		i := strings.Index(d.lf[from:], old)
		if i < 0 {
			break
		}
		start, end := d.fromLF(from+i), d.fromLF(from+i+len(old))
		changes = append(changes, Change{Start: start, End: end, Text: d.endings(start, end, new)})
		from += i + len(old)
	}
	if len(changes) == 0 {
		needle := loose(old)
		if needle == "" {
			return nil, refuse(ReasonInvalid, "the search text is empty: quote the text to replace")
		}
		v := r.view(0, d.lineCount())
		rd := reading{old: old, new: new, literal: true}
		for from := 0; ; {
			i := strings.Index(v.text[from:], needle)
			if i < 0 {
				break
			}
			at := from + i
			m, err := r.fragment(r.hit(v, at, len(needle)), rd, "")
			if err != nil {
				return nil, err
			}
			changes = append(changes, m.Changes...)
			from = at + len(needle)
		}
		strategy = "multi-occurrence+whitespace-normalized"
	}
	if len(changes) == 0 {
		return nil, refuse(ReasonNotFound, "not found: replace-all found no occurrence of the search text, even ignoring white space")
	}
	first, last := changes[0], changes[len(changes)-1]
	return &Match{
		Strategy:  strategy,
		Score:     1,
		StartLine: d.lineAt(first.Start) + 1,
		EndLine:   d.lineAt(max(last.Start, last.End-1)) + 1,
		Changes:   changes,
		Notes:     []string{fmt.Sprintf("replaced %d occurrence(s)", len(changes))},
	}, nil
}
