package engine

import (
	"slices"
	"strings"

	"github.com/graft-editor/graft/engine/internal/loose"
)

// columns returns the width of an indentation, tabs advancing to the next
// multiple of tabWidth.
func columns(indent string, tabWidth int) int {
	c := 0
	for i := 0; i < len(indent); i++ {
		if indent[i] == '\t' {
			c += tabWidth - c%tabWidth
		} else {
			c++
		}
	}
	return c
}

// A reindenter moves the model's indentation onto the file's: the model
// may have shifted its whole block, used spaces where the file has tabs, or
// lost the indentation altogether. It learns the correspondence from the
// lines the search and the file share.
type reindenter struct {
	direct   []indentPair // model indentation → file indentation, where consistent
	style    byte         // '\t' or ' ', how the file indents; 0 when it shows none
	tabWidth int          // model columns per file tab
}

// An indentPair is an indentation of the model's and the file's for it;
// bad when the lines disagree on it. A search has few indentations: they
// are looked up in a list rather than a map.
type indentPair struct {
	model, file string
	bad         bool
}

// fileIndent returns the file's indentation for the model's indentation
// mi, when the lines agree on one.
func (r *reindenter) fileIndent(mi string) (string, bool) {
	for _, p := range r.direct {
		if p.model == mi {
			return p.file, !p.bad
		}
	}
	return "", false
}

// teachesIndent reports whether a line of the model's copy, paired with
// a line of the file, tells how the model indents: a "}" or "fi" pairs
// with any line like it, whatever its depth; only a distinctive line
// tells.
func teachesIndent(line string) bool { return loose.Len(line) > 3 }

// newReindenter learns from pairs of (model line, file line) that were
// matched, and from the file lines around them (more lines are asked of
// more only when those show no indentation).
func newReindenter(pairs [][2]string, fileLines []string, more func() []string) *reindenter {
	r := &reindenter{tabWidth: 4}
	// Tab width: how many of the model's spaces one more tab in the file
	// stands for, from pairs at different depths.
	type depth struct{ spaces, tabs int }
	var depths []depth
	for _, p := range pairs {
		mi, fi := indentOf(p[0]), indentOf(p[1])
		if !teachesIndent(p[0]) {
			continue
		}
		k := slices.IndexFunc(r.direct, func(p indentPair) bool { return p.model == mi })
		switch {
		case k < 0:
			r.direct = append(r.direct, indentPair{model: mi, file: fi})
		case r.direct[k].file != fi:
			r.direct[k].bad = true
		}
		if !strings.Contains(mi, "\t") && strings.Count(fi, "\t") == len(fi) {
			depths = append(depths, depth{len(mi), len(fi)})
		}
	}
	widths := map[int]int{}
	for i := range depths {
		for j := range depths {
			dm, dt := depths[j].spaces-depths[i].spaces, depths[j].tabs-depths[i].tabs
			if dt > 0 && dm > 0 && dm%dt == 0 {
				widths[dm/dt]++
			}
		}
	}
	best := 0
	for w, n := range widths {
		if n > best || (n == best && w < r.tabWidth) {
			r.tabWidth, best = w, n
		}
	}
	r.style = indentStyle(fileLines)
	if r.style == 0 && more != nil {
		r.style = indentStyle(more())
	}
	return r
}

// indentStyle tells whether most indented lines start with a tab or a
// space, or returns 0 when none is indented.
func indentStyle(lines []string) byte {
	tabs, spaces := 0, 0
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "\t"):
			tabs++
		case strings.HasPrefix(l, " ") && !isBlank(l):
			spaces++
		}
	}
	switch {
	case tabs > spaces:
		return '\t'
	case spaces > 0:
		return ' '
	}
	return 0
}

// indent returns the file indentation for a new line the model indented
// with ind, given a reference line the model indented with refModel and
// the file with refFile.
func (r *reindenter) indent(ind, refModel, refFile string) string {
	if ind == refModel {
		return refFile
	}
	if f, ok := r.fileIndent(ind); ok {
		return f
	}
	target := columns(refFile, r.tabWidth) + columns(ind, r.tabWidth) - columns(refModel, r.tabWidth)
	if target < 0 {
		target = 0
	}
	style := r.style
	switch {
	case strings.Contains(refFile, "\t"):
		style = '\t'
	case refFile != "":
		style = ' '
	case style == 0 && strings.Contains(ind, "\t"):
		style = '\t' // the file shows no indentation: the model's own
	}
	if style == '\t' {
		return strings.Repeat("\t", target/r.tabWidth) + strings.Repeat(" ", target%r.tabWidth)
	}
	return strings.Repeat(" ", target)
}
