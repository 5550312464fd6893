package engine

import (
	"fmt"
	"strings"

	"github.com/graft-editor/graft/engine/internal/loose"
)

// all resolves a replace-all edit: every exact occurrence of the search,
// or, when there is none, every occurrence ignoring white space. Fuzzy
// matches are never replaced wholesale.
func (r *resolver) all(old, new string) (*Match, error) {
	d := r.d
	var changes []Change
	strategy := "multi-occurrence"
	// An occurrence of the search inside one of the replacement, where
	// the replacement holds it, stands already: renaming x to x2 again
	// leaves the x2 there as they are.
	var stands []int
	if !r.opt.ignoreStanding && len(new) > len(old) && strings.Contains(new, old) {
		for from := 0; ; {
			i := strings.Index(d.lf[from:], new)
			if i < 0 {
				break
			}
			stands = append(stands, from+i)
			from += i + len(new)
		}
	}
	var stood []int
	for from, k := 0, 0; ; {
		i := strings.Index(d.lf[from:], old)
		if i < 0 {
			break
		}
		at := from + i
		for k < len(stands) && stands[k]+len(new) < at+len(old) {
			k++
		}
		if k < len(stands) && stands[k] <= at {
			stood = append(stood, at)
			from = at + len(old)
			continue
		}
		start, end := d.fromLF(at), d.fromLF(at+len(old))
		changes = append(changes, Change{Start: start, End: end, Text: d.endings(start, end, new)})
		from = at + len(old)
	}
	if len(changes) == 0 && len(stood) > 0 {
		return r.standingAll(stood, len(old), "every occurrence of the search is inside the replacement already"), nil
	}
	if len(changes) == 0 && strings.TrimSpace(new) != "" && !r.opt.ignoreStanding {
		if at := occurrences(d.lf, new, maxOccurrences); len(at) > 0 {
			return r.standingAll(at, len(new), "no occurrence of the search is left, and the replacement is there"), nil
		}
	}
	if len(changes) == 0 {
		needle := loose.View(old)
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

// standingAll returns the match of a replace-all edit whose change stands
// already, at the offsets at (of pieces n bytes long) of the LF text.
func (r *resolver) standingAll(at []int, n int, why string) *Match {
	d := r.d
	first, last := d.fromLF(at[0]), d.fromLF(at[len(at)-1]+n)
	a, b := d.lineAt(first)+1, d.lineAt(max(first, last-1))+1
	return &Match{
		Strategy:       "multi-occurrence",
		Score:          1,
		StartLine:      a,
		EndLine:        b,
		AlreadyApplied: true,
		Notes:          []string{fmt.Sprintf("already applied at %s: %s; nothing changed", d.linesWord(a, b), why)},
	}
}
