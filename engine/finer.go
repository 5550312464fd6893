package engine

import "strings"

// maxFinerLines bounds the lines of a change that finer compares for its
// runs of changed lines; a larger change is only trimmed of the lines it
// keeps at either end, which costs no more than reading it.
const maxFinerLines = 4000

// finer returns the changes cs of text cut to what they change: the lines
// a change leaves as they are at its ends are left out, and a change of
// whole lines that keeps lines between others becomes one change per run
// of changed lines. A match replaces its region as a whole; an editor
// that receives only the changed lines keeps its cursors, marks and folds
// on the others. The text the changes make is the same.
func finer(text string, cs []Change) []Change {
	var out []Change
	for _, c := range cs {
		out = appendFiner(out, text, c)
	}
	if out == nil {
		return []Change{}
	}
	return out
}

// appendFiner appends the finer changes of c to out.
func appendFiner(out []Change, text string, c Change) []Change {
	old, new := text[c.Start:c.End], c.Text
	if old == new {
		return out
	}
	lineStart := c.Start == 0 || text[c.Start-1] == '\n'
	lineEnd := c.End == len(text) || c.End > c.Start && text[c.End-1] == '\n'
	if !lineStart || !lineEnd || !strings.Contains(old, "\n") && !strings.Contains(new, "\n") {
		return append(out, c) // a part of a line: as it is
	}
	// The whole lines old and new share at their start and end, found
	// byte by byte and cut back to a line boundary.
	p := 0
	for p < len(old) && p < len(new) && old[p] == new[p] {
		p++
	}
	p = strings.LastIndexByte(old[:p], '\n') + 1
	q := 0
	for q < len(old)-p && q < len(new)-p && old[len(old)-1-q] == new[len(new)-1-q] {
		q++
	}
	// A suffix starts a line when what precedes it ends one (or nothing
	// of old precedes it past p).
	for q > 0 && !(len(old)-q == p || old[len(old)-q-1] == '\n') {
		q--
	}
	om, nm := old[p:len(old)-q], new[p:len(new)-q]
	base := c.Start + p
	if on, nn := strings.Count(om, "\n"), strings.Count(nm, "\n"); on <= 1 || nn <= 1 || on+nn > maxFinerLines {
		return append(out, Change{Start: base, End: base + len(om), Text: nm})
	}
	// Lines kept between changed ones: one change per run of changed
	// lines.
	a, b := strings.SplitAfter(om, "\n"), strings.SplitAfter(nm, "\n")
	if a[len(a)-1] == "" {
		a = a[:len(a)-1]
	}
	if b[len(b)-1] == "" {
		b = b[:len(b)-1]
	}
	offsets := make([]int, len(a)+1)
	offsets[0] = base
	for i, l := range a {
		offsets[i+1] = offsets[i] + len(l)
	}
	for _, d := range diff(a, b) {
		out = append(out, Change{
			Start: offsets[d.Start],
			End:   offsets[d.End],
			Text:  strings.Join(b[d.ReplStart:d.ReplEnd], ""),
		})
	}
	return out
}
