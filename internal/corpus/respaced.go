package corpus

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"unicode"

	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/graft-editor/graft/engine"
)

// A RespacedCase is a block quoting lines a formatter respaced since: the
// agent wrote them compact ("f(a,b)", "x=y+1"), a formatter on save or a
// hook gave them the file's spacing back, and the agent's next block
// quotes them as it wrote them. Respacing is no change of the code: the
// block applies, with Before as history as without, and its change lands
// on the lines as they are now.
type RespacedCase struct {
	// Name identifies the case: the apply case's name, the shape and the
	// change ("exact/03 inside/changed-lines").
	Name string
	// Case is the apply case whose file the lines come from.
	Case Case
	// Before is the text the agent wrote: Now with a run of lines
	// compacted; Now is the file as the formatter left it (Case.File).
	Before, Now string
	// Block quotes lines of Before, and changes one of them (a respaced
	// one for StaleRework, another for StaleElsewhere).
	Block engine.Edit
	// Want is the text the block makes of Now: its change on Now's lines.
	// WantLoose says that only white space aside is the changed line
	// known: a line the formatter respaced and the block changed is
	// spaced as the resolver merges the two.
	Want      string
	WantLoose bool
	// Shape is one of StaleShapes, Change one of StaleChanges.
	Shape, Change string
	// Variant says what was respaced and what the block changes.
	Variant string
}

// RespacedCases makes the blocks that quote lines respaced since, from the
// file of the apply case c: for each shape and change (StaleShapes,
// StaleChanges), at most one block. A run of two to six lines of c.File
// is compacted, as models write code (no space after a comma, none around
// an operator; indentation and string literals as they are), into the
// text before; the block quotes it as StaleCases quotes the text before a
// first edit, with the respaced lines in the place of the first edit's
// change. The blocks depend only on the generator's seed and the case.
func (g *Generator) RespacedCases(c Case) []RespacedCase {
	if c.Trap {
		return nil
	}
	now := plain(c.File)
	if !strings.HasSuffix(now, "\n") {
		return nil
	}
	h := fnv.New64a()
	h.Write([]byte("respaced " + c.Name + " " + c.Path))
	rng := rand.New(rand.NewPCG(g.seed, h.Sum64()))
	lines := textLines(now)
	var out []RespacedCase
	for try := 0; try < 4 && len(out) == 0; try++ {
		// A run of lines of which at least two compact.
		start := rng.IntN(len(lines))
		end := min(len(lines), start+2+rng.IntN(5))
		before := append([]string(nil), lines...)
		n := 0
		for i := start; i < end; i++ {
			if compact := compacted(lines[i]); compact != lines[i] {
				before[i] = compact
				n++
			}
		}
		if n < 2 {
			continue
		}
		d := &staleDraft{
			rng:    rng,
			lang:   langOf(c.Path),
			before: strings.Join(before, "\n") + "\n",
			now:    now,
			lines:  before,
			region: [2]int{start, end},
			hunks:  []lcs.Diff{{Start: start, End: end, ReplStart: start, ReplEnd: end}},
		}
		d.changed = make([]bool, len(before))
		for i := start; i < end; i++ {
			d.changed[i] = before[i] != lines[i]
		}
		d.blocks(func(shape, change string, a, b int, search, repl, what string) {
			want, loose := respacedWant(lines, before, a, b, repl)
			out = append(out, RespacedCase{
				Name:      fmt.Sprintf("%s %s/%s", c.Name, shape, change),
				Case:      c,
				Before:    d.before,
				Now:       now,
				Block:     engine.Edit{Path: c.Path, Old: search, New: repl},
				Want:      want,
				WantLoose: loose,
				Shape:     shape,
				Change:    change,
				Variant:   fmt.Sprintf("lines %d-%d compacted; the block quotes lines %d-%d: %s", start+1, end, a+1, b, what),
			})
		})
	}
	return out
}

// respacedWant returns the text the block quoting lines [a, b) of before,
// replaced by repl, makes of now (the same lines, respaced): its change
// made on now's lines, those it keeps as now has them. loose says that a
// line the change rewrote was respaced since: its spacing is the
// resolver's to merge, and only white space aside is it known.
func respacedWant(now, before []string, a, b int, repl string) (string, bool) {
	quoted, made := before[a:b], textLines(repl)
	out := append([]string(nil), now[:a]...)
	loose := false
	k := 0
	for _, d := range lcs.DiffLines(quoted, made) {
		out = append(out, now[a+k:a+d.Start]...)
		for i := d.Start; i < d.End; i++ {
			loose = loose || now[a+i] != quoted[i]
		}
		out = append(out, made[d.ReplStart:d.ReplEnd]...)
		k = d.End
	}
	out = append(out, now[a+k:]...)
	return strings.Join(out, "\n") + "\n", loose
}

// compacted returns line as a model writes it compact: outside string
// and character literals, no space after a comma and none around "=",
// "+", "-", "*", "/", "<" or ">" (alone or doubled, or before "="); its
// indentation as it is. A line that is a comment is left as it is.
func compacted(line string) string {
	body := strings.TrimLeft(line, " \t")
	indent := line[:len(line)-len(body)]
	if strings.HasPrefix(body, "//") || strings.HasPrefix(body, "#") || strings.HasPrefix(body, "*") || strings.HasPrefix(body, "/*") {
		return line
	}
	var b strings.Builder
	var quote rune
	rs := []rune(body)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			b.WriteRune(r)
			if r == '\\' && i+1 < len(rs) {
				i++
				b.WriteRune(rs[i])
			} else if r == quote {
				quote = 0
			}
			continue
		case r == '"' || r == '\'' || r == '`':
			quote = r
		case r == '#' || r == '/' && i+1 < len(rs) && rs[i+1] == '/':
			// A trailing comment, kept as it is.
			b.WriteString(string(rs[i:]))
			return indent + b.String()
		case unicode.IsSpace(r) && (operatorNext(rs, i) || i > 0 && (rs[i-1] == ',' || isOperator(rs[i-1]))):
			continue
		}
		b.WriteRune(r)
	}
	return indent + b.String()
}

// operatorNext reports whether the runes after the spaces at i begin with
// an operator compacted gives no space before.
func operatorNext(rs []rune, i int) bool {
	for i < len(rs) && unicode.IsSpace(rs[i]) {
		i++
	}
	return i < len(rs) && isOperator(rs[i])
}

// isOperator reports whether r is a character of the operators compacted
// gives no space around.
func isOperator(r rune) bool { return strings.ContainsRune("=+-*/<>", r) }
