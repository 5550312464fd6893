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
	old := text[c.Start:c.End]
	if old == c.Text {
		return out
	}
	lineStart := c.Start == 0 || text[c.Start-1] == '\n'
	lineEnd := c.End == len(text) || c.End > c.Start && text[c.End-1] == '\n'
	if !lineStart || !lineEnd || !strings.Contains(old, "\n") && !strings.Contains(c.Text, "\n") {
		return append(out, c) // a part of a line: as it is
	}
	a, b := strings.SplitAfter(old, "\n"), strings.SplitAfter(c.Text, "\n")
	if a[len(a)-1] == "" {
		a = a[:len(a)-1]
	}
	if b[len(b)-1] == "" {
		b = b[:len(b)-1]
	}
	p, q := sameEnds(a, b)
	// offsets[i] is where line i of a starts in text.
	offsets := make([]int, len(a)+1)
	offsets[0] = c.Start
	for i, l := range a {
		offsets[i+1] = offsets[i] + len(l)
	}
	am, bm := a[p:len(a)-q], b[p:len(b)-q]
	if len(am)+len(bm) > maxFinerLines || len(am) == 0 || len(bm) == 0 {
		return append(out, Change{Start: offsets[p], End: offsets[len(a)-q], Text: strings.Join(bm, "")})
	}
	for _, d := range diff(am, bm) {
		out = append(out, Change{
			Start: offsets[p+d.Start],
			End:   offsets[p+d.End],
			Text:  strings.Join(bm[d.ReplStart:d.ReplEnd], ""),
		})
	}
	return out
}
