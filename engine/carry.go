package engine

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aymanbagabas/go-udiff/lcs"
	"github.com/graft-editor/graft/engine/internal/loose"
	"github.com/graft-editor/graft/engine/internal/textscan"
)

// The model's change of a line is carried onto the file's version of the
// line token by token, not by writing the model's copy of it: the file's
// line keeps its own bytes (aligned columns, spacing around operators,
// trailing blanks, a tab inside the line) everywhere the model did not
// change them. Tokens are words and single other characters, compared with
// unicode punctuation folded; the white space between two tokens is a gap.
//
// The merge is three-way, with the model's copy b as the base: the file
// f differs from it by some token edits (a stale or mistyped copy), the
// model's new line t by others (its change). The change is carried only
// when no edit of the model touches a token the file has differently, or
// stands right next to one: a change on a token the file no longer has
// has no safe meaning (the model renames hashs where the file says hash).

// A ltoken is a token of a line: its bytes [start, end) and the key it is
// compared by.
type ltoken struct {
	key        string
	start, end int
}

// A tokenLine is a text cut into tokens; the gaps between them (and
// before the first, after the last) are white space.
type tokenLine struct {
	text string
	toks []ltoken
}

// cutTokens cuts text into tokens: runs of letters, digits and '_', and
// single other characters, with unicode punctuation folded in the keys.
func cutTokens(text string) tokenLine {
	toks := make([]ltoken, 0, len(text)/3+1) // a line of code has about a token for every three bytes
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r < utf8.RuneSelf && textscan.IsSpace(byte(r)) || r >= utf8.RuneSelf && unicode.IsSpace(r):
			i += size
		case isWordRune(r):
			j := i + size
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if !isWordRune(r2) {
					break
				}
				j += s2
			}
			toks = append(toks, ltoken{key: text[i:j], start: i, end: j})
			i = j
		default:
			key := text[i : i+size]
			if f := loose.Fold(r); f != "" {
				key = f
			}
			toks = append(toks, ltoken{key: key, start: i, end: i + size})
			i += size
		}
	}
	return tokenLine{text: text, toks: toks}
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isWordByte(byte(r))
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// gap returns the white space before token i (i == len(toks): after the
// last one).
func (l *tokenLine) gap(i int) string {
	from, to := 0, len(l.text)
	if i > 0 {
		from = l.toks[i-1].end
	}
	if i < len(l.toks) {
		to = l.toks[i].start
	}
	return l.text[from:to]
}

// gapSpan returns the bytes of the gap before token i.
func (l *tokenLine) gapSpan(i int) (int, int) {
	from, to := 0, len(l.text)
	if i > 0 {
		from = l.toks[i-1].end
	}
	if i < len(l.toks) {
		to = l.toks[i].start
	}
	return from, to
}

// span returns the bytes of tokens [i, j), j > i.
func (l *tokenLine) span(i, j int) string { return l.text[l.toks[i].start:l.toks[j-1].end] }

func (l *tokenLine) keys() []string {
	keys := make([]string, len(l.toks))
	for i, t := range l.toks {
		keys[i] = t.key
	}
	return keys
}

// A splice replaces the bytes [start, end) of the file's text.
type splice struct {
	start, end int
	text       string
}

// carry applies the model's change of a text, from b (its copy) to t (its
// new version), to f, the file's version of the same text, keeping f's
// bytes wherever the change does not reach. It reports false when the
// change touches a token f has differently from b.
func carry(b, f, t string) (string, bool) {
	bl, fl, tl := cutTokens(b), cutTokens(f), cutTokens(t)
	bk := bl.keys()
	ef, et := diff(bk, fl.keys()), slideToGaps(diff(bk, tl.keys()), bl, tl)
	for _, y := range et {
		for _, x := range ef {
			if touches(x, y) && !sameEdit(x, y, fl, tl) {
				return "", false
			}
		}
	}
	// The file's token for each base token the file keeps (and the gap
	// before it).
	at := make([]int, len(bk)+1)
	for p, off, k := 0, 0, 0; p <= len(bk); p++ {
		for ; k < len(ef) && ef[k].End <= p; k++ {
			off += (ef[k].ReplEnd - ef[k].ReplStart) - (ef[k].End - ef[k].Start)
		}
		at[p] = p + off
	}
	var out []splice
	fgap := func(p int) splice { s, e := fl.gapSpan(at[p]); return splice{s, e, ""} }
	for _, y := range et {
		if sameEditAny(y, ef, fl, tl) {
			continue // the file made the same change
		}
		i, j, k, l := y.Start, y.End, y.ReplStart, y.ReplEnd
		switch {
		case i == j: // an insertion at the gap before base token i
			g := fgap(i)
			file := fl.text[g.start:g.end]
			left, right := tl.gap(k), tl.gap(l)
			switch base := bl.gap(i); {
			case right == base:
				right = file
			case left == base:
				left = file
			}
			g.text = left + tl.span(k, l) + right
			out = append(out, g)
		case k == l: // a deletion of base tokens [i, j)
			ls, rs := fgap(i), fgap(j)
			g := splice{ls.start, rs.end, tl.gap(k)}
			// The two gaps around the tokens become one: the file's
			// after them where the model kept that one as it was (the
			// blank after "<=" made "<"), or the file's before them.
			switch {
			case bl.gap(j) == tl.gap(k):
				g.text = fl.text[rs.start:rs.end]
			case bl.gap(i) == tl.gap(k):
				g.text = fl.text[ls.start:ls.end]
			}
			out = append(out, g)
		case j-i == l-k && j-i > 1: // as many tokens replaced one by one
			for p := 0; p < j-i; p++ {
				if bl.toks[i+p].key != tl.toks[k+p].key {
					ft := fl.toks[at[i+p]]
					out = append(out, splice{ft.start, ft.end, tl.text[tl.toks[k+p].start:tl.toks[k+p].end]})
				}
			}
			for p := 0; p <= j-i; p++ {
				if g := tl.gap(k + p); g != bl.gap(i+p) {
					out = append(out, splice{fgap(i + p).start, fgap(i + p).end, g})
				}
			}
		default: // tokens [i, j) replaced
			ls, rs := fgap(i), fgap(j)
			start, end := ls.end, rs.start
			text := tl.span(k, l)
			if lg := tl.gap(k); lg != bl.gap(i) {
				start, text = ls.start, lg+text
			}
			if rg := tl.gap(l); rg != bl.gap(j) {
				end, text = rs.end, text+rg
			}
			out = append(out, splice{start, end, text})
		}
	}
	// White space the model changed between two tokens it kept, where the
	// file has the same two tokens side by side.
	for _, g := range keptGaps(len(bk), et) {
		p, q := g[0], g[1]
		if bl.gap(p) == tl.gap(q) || p > 0 && p < len(bk) && at[p]-at[p-1] != 1 || touchedGap(p, ef) {
			continue
		}
		s := fgap(p)
		s.text = tl.gap(q)
		out = append(out, s)
	}
	// A gap between two replaced tokens is an empty splice at the start of
	// the second: it goes first.
	sort.Slice(out, func(a, b int) bool {
		if out[a].start != out[b].start {
			return out[a].start < out[b].start
		}
		return out[a].end < out[b].end
	})
	var sb strings.Builder
	last := 0
	for _, s := range out {
		if s.start < last {
			return "", false
		}
		sb.WriteString(f[last:s.start])
		sb.WriteString(s.text)
		last = s.end
	}
	sb.WriteString(f[last:])
	return sb.String(), true
}

// touches reports whether two edits of the same base touch: their ranges
// overlap, or one inserts at the edge or inside of the other. Two tokens
// replaced side by side do not touch: each change keeps to its token.
func touches(x, y lcs.Diff) bool {
	switch {
	case x.Start == x.End && y.Start == y.End:
		return x.Start == y.Start
	case x.Start == x.End:
		return y.Start <= x.Start && x.Start <= y.End
	case y.Start == y.End:
		return x.Start <= y.Start && y.Start <= x.End
	}
	return x.Start < y.End && y.Start < x.End
}

// sameEdit reports whether the file's edit x and the model's edit y make
// the same change.
func sameEdit(x, y lcs.Diff, fl, tl tokenLine) bool {
	if x.Start != y.Start || x.End != y.End || x.ReplEnd-x.ReplStart != y.ReplEnd-y.ReplStart {
		return false
	}
	for k := 0; k < x.ReplEnd-x.ReplStart; k++ {
		if fl.toks[x.ReplStart+k].key != tl.toks[y.ReplStart+k].key {
			return false
		}
	}
	return true
}

func sameEditAny(y lcs.Diff, ef []lcs.Diff, fl, tl tokenLine) bool {
	for _, x := range ef {
		if sameEdit(x, y, fl, tl) {
			return true
		}
	}
	return false
}

// keptGaps lists the gaps of the base (before token p, p in [0, n]) whose
// neighbouring tokens the model kept, with the index of the same gap in
// its new version.
func keptGaps(n int, et []lcs.Diff) [][2]int {
	var gs [][2]int
	for p, off, k := 0, 0, 0; p <= n; p++ {
		for ; k < len(et) && et[k].End < p; k++ {
			off += (et[k].ReplEnd - et[k].ReplStart) - (et[k].End - et[k].Start)
		}
		if k < len(et) && et[k].Start <= p {
			continue // the gap belongs to the edit
		}
		gs = append(gs, [2]int{p, p + off})
	}
	return gs
}

// touchedGap reports whether an edit of the file reaches the gap before
// base token p.
func touchedGap(p int, ef []lcs.Diff) bool {
	for _, x := range ef {
		if x.Start <= p && p <= x.End {
			return true
		}
	}
	return false
}

// slideToGaps moves each insertion and deletion of the model's change
// (from b to t) to where, of the places it may stand as short (see
// slideSpan), the fewest gaps differ between b and t; the nearest such
// place, the left first, where several are alike. A shortest edit is not
// unique where the tokens deleted or inserted repeat the ones beside
// them: deleting the line "# license" before the line "#" deletes
// "license ... #" as well as "# license ...". Read the first way, the gap
// before the "#" kept is the gap of the line below, which the model wrote
// with its own indentation; carried onto the file, that white space would
// be a change the model never made.
func slideToGaps(et []lcs.Diff, bl, tl tokenLine) []lcs.Diff {
	if len(et) == 0 {
		return et
	}
	bk, tk := bl.keys(), tl.keys()
	for e := range et {
		y := et[e]
		if (y.Start == y.End) == (y.ReplStart == y.ReplEnd) {
			continue // a replacement stands where it stands
		}
		loA, loB, hiA, hiB := 0, 0, len(bk), len(tk) // what the edit may move over
		if e > 0 {
			loA, loB = et[e-1].End, et[e-1].ReplEnd
		}
		if e+1 < len(et) {
			hiA, hiB = et[e+1].Start, et[e+1].ReplStart
		}
		lo, hi := slideSpan(y, bk, tk, loA, loB, hiA, hiB)
		best, bestCost := y, gapCost(et, bl, tl)
		try := func(by int) {
			et[e] = lcs.Diff{Start: y.Start + by, End: y.End + by, ReplStart: y.ReplStart + by, ReplEnd: y.ReplEnd + by}
			if c := gapCost(et, bl, tl); c < bestCost {
				best, bestCost = et[e], c
			}
		}
		for by := -1; y.Start+by >= lo.Start; by-- {
			try(by)
		}
		for by := 1; y.Start+by <= hi.Start; by++ {
			try(by)
		}
		et[e] = best
	}
	return et
}

// gapCost counts the gaps the model's change et (from b to t) changes: the
// gaps between tokens it keeps that differ, and each insertion or
// deletion whose gaps match neither of the base's beside it (see carry,
// which takes the model's white space there).
func gapCost(et []lcs.Diff, bl, tl tokenLine) int {
	cost := 0
	for _, g := range keptGaps(len(bl.toks), et) {
		if bl.gap(g[0]) != tl.gap(g[1]) {
			cost++
		}
	}
	for _, y := range et {
		i, j, k, l := y.Start, y.End, y.ReplStart, y.ReplEnd
		switch {
		case i == j:
			base := bl.gap(i)
			if tl.gap(k) != base && tl.gap(l) != base {
				cost++
			}
		case k == l:
			if g := tl.gap(k); bl.gap(j) != g && bl.gap(i) != g {
				cost++
			}
		}
	}
	return cost
}
