package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/graft-editor/graft/engine"
)

// The styles Render writes a case's edits in: the dialects of Graft's
// contract, by their names, and unified-diff a second time with the bare
// "@@ ... @@" hunk headers of aider, since models get the numbers of hunk
// headers wrong as often as not.
const (
	SearchReplace   = "search-replace"
	StrReplace      = "str-replace"
	EditV3          = "edit-v3"
	UnifiedDiff     = "unified-diff"
	BareUnifiedDiff = "unified-diff:bare"
	ApplyPatch      = "apply-patch"
)

// Styles returns the styles Render writes.
func Styles() []string {
	return []string{SearchReplace, StrReplace, EditV3, UnifiedDiff, BareUnifiedDiff, ApplyPatch}
}

// DialectOf returns the name of the dialect a style is written in.
func DialectOf(style string) string {
	dialect, _, _ := strings.Cut(style, ":")
	return dialect
}

// AnswerPath returns the path an answer names the case's file by: a fixed
// one with the extension of the case's file.
func AnswerPath(c Case) string {
	return "src/file" + path.Ext(c.Path)
}

// Why a style cannot write a case. The messages name no case, so that
// the harness can count cases by reason.
var (
	errReplaceAll = errors.New("replace-all is said only by str-replace")
	errNotReplace = errors.New("only replacements of some text are written")
	errNoChange   = errors.New("as whole lines, Old and New are the same")
	errNeedsHint  = errors.New("the region stands twice and the style cannot say which (no line hint, no scope line that tells)")
	errMarker     = errors.New("a line of Old or New is a marker of the dialect")
)

// Render writes the edits of a case as an agent's answer in a style (see
// Styles): a sentence of prose, then the edits for the file AnswerPath
// names, in the code fences the dialect usually stands in. It reports false
// when the style cannot say what the case's edits say (see Transcribe).
func Render(c Case, style string) (answer string, ok bool) {
	edits, err := Transcribe(c, style)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	path := AnswerPath(c)
	switch style {
	case SearchReplace:
		writeSearchReplace(&b, path, edits)
	case StrReplace:
		writeStrReplace(&b, path, edits)
	case EditV3:
		writeEditV3(&b, path, edits)
	case UnifiedDiff, BareUnifiedDiff:
		writeUnifiedDiff(&b, path, edits, style == BareUnifiedDiff)
	case ApplyPatch:
		writeApplyPatch(&b, path, edits)
	}
	return b.String(), true
}

// Transcribe returns the edits of a case as an answer in the style carries
// them, and so as a faithful parser reads them back: for the file
// AnswerPath names, and in a dialect of lines (all but str-replace) with
// Old and New as whole lines, the last one ending in a newline as the
// others do. Models write their mistakes in every dialect alike, so the
// model's Old and New are kept as they are otherwise; in a diff, the
// context and removed lines are the model's Old and the context and added
// lines its New, as when a model diffs its imperfect copy.
//
// Line hints are kept by search-replace (":start_line:") and str-replace
// ("start_line"). A unified diff's hunk header gives the hint, or else
// the line where the edit's region starts, as a model that read the file
// with line numbers writes it; not for a trap, whose point is that no hint
// decides, nor when the place is unknown (the header is then bare).
// edit-v3, apply-patch and bare unified diffs drop the hint; where the
// region stands twice and the hint says which, apply-patch names the
// line that opens the block around the right one instead ("@@ func f()
// {"), as Codex does (see scopeOf).
//
// It fails, saying why, when the style cannot say what the case says:
// replace-all outside str-replace, a hint that is needed because the
// region stands twice in a style that cannot say which, or a line of the
// text that would read as one of the dialect's markers.
func Transcribe(c Case, style string) ([]engine.Edit, error) {
	if !slices.Contains(Styles(), style) {
		return nil, fmt.Errorf("corpus: no style %q", style)
	}
	edits := make([]engine.Edit, len(c.Edits))
	for i, e := range c.Edits {
		if e.Op != engine.OpReplace || e.Old == "" {
			return nil, errNotReplace
		}
		t := engine.Edit{Path: AnswerPath(c), Old: e.Old, New: e.New, Line: e.Line, ReplaceAll: e.ReplaceAll}
		if style != StrReplace {
			if e.ReplaceAll {
				return nil, errReplaceAll
			}
			t.Old, t.New = wholeLines(e.Old), wholeLines(e.New)
			if t.Old == t.New {
				return nil, errNoChange
			}
			if clashes(style, t.Old) || clashes(style, t.New) {
				return nil, errMarker
			}
		}
		switch style {
		case UnifiedDiff:
			t.Line = c.position(i)
		case ApplyPatch:
			if e.Line != 0 && standsTwice(c.before(i), e.Old) {
				scope, ok := scopeOf(c.before(i), e.Old, e.Line)
				if !ok || clashes(style, scope) {
					return nil, errNeedsHint
				}
				t.Scope = []string{scope}
			}
			t.Line = 0
		case EditV3, BareUnifiedDiff:
			if e.Line != 0 && standsTwice(c.before(i), e.Old) {
				return nil, errNeedsHint
			}
			t.Line = 0
		}
		edits[i] = t
	}
	return edits, nil
}

// wholeLines returns s as a dialect of lines carries it: with LF line
// endings, as the parsers read an answer, and a final newline unless it
// is empty.
func wholeLines(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

// textLines splits whole lines, without their newlines.
func textLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// clashes reports whether a line of text would be read as one of the
// markers of the style's dialect. The checks are broader than the parsers,
// so that no case is written that a parser may read otherwise than meant.
func clashes(style, text string) bool {
	for _, line := range textLines(text) {
		t := strings.TrimSpace(line)
		switch style {
		case SearchReplace:
			// "<<<<<<< SEARCH", "=======", Cline's "------- SEARCH" and the
			// rest, escaped or not, and Roo Code's line number header.
			t = strings.TrimPrefix(t, `\`)
			if len(t) >= 5 && strings.IndexByte("<=>-+", t[0]) >= 0 && strings.Count(t[:5], t[:1]) == 5 ||
				strings.HasPrefix(t, ":start_line:") || strings.HasPrefix(t, ":end_line:") {
				return true
			}
		case EditV3:
			if t == "««« EDIT" || t == "═══════ REPL" || t == "»»» EDIT END" {
				return true
			}
		case ApplyPatch:
			// Codex's parser reads markers with space around them, in any
			// case, even after a line's ' ', '-' or '+'.
			if strings.HasPrefix(t, "***") {
				l := strings.ToLower(strings.Join(strings.Fields(t[3:]), " "))
				for _, m := range []string{"begin patch", "end patch", "end of file", "add file:", "delete file:", "update file:", "move to:"} {
					if strings.HasPrefix(l, m) {
						return true
					}
				}
			}
		}
	}
	return false
}

// before returns the text edit i is resolved against: the file, or what
// the edits before it leave.
func (c Case) before(i int) string {
	if i == 0 {
		return c.File
	}
	return c.Steps[i-1]
}

// normalized returns text with LF line endings and without a byte order
// mark.
func normalized(text string) string {
	return strings.ReplaceAll(strings.TrimPrefix(text, "\ufeff"), "\r\n", "\n")
}

// standsTwice reports whether old stands more than once in text, line
// endings aside.
func standsTwice(text, old string) bool {
	return strings.Count(normalized(text), normalized(old)) > 1
}

// position returns the line a unified diff's hunk header gives edit i: its
// hint, or else the line where its region starts in the text it applies
// to, 0 for a trap or when that is unknown.
func (c Case) position(i int) int {
	e := c.Edits[i]
	switch {
	case e.Line != 0:
		return e.Line
	case c.Trap:
		return 0
	case i == 0 && c.Line > 0:
		return c.Line
	}
	return locate(c.before(i), e.Old)
}

// locate returns the 1-based line where the lines of old stand in text,
// compared without the space around them, 0 unless they stand there once.
func locate(text, old string) int {
	file := textLines(normalized(text))
	want := textLines(normalized(old))
	lead := 0
	for lead < len(want) && isBlank(want[lead]) {
		lead++
	}
	want = want[lead:]
	for len(want) > 0 && isBlank(want[len(want)-1]) {
		want = want[:len(want)-1]
	}
	if len(want) == 0 {
		return 0
	}
	at := 0
	for i := 0; i+len(want) <= len(file); i++ {
		if !sameTrimmed(file[i:i+len(want)], want) {
			continue
		}
		if at != 0 {
			return 0
		}
		at = i + 1
	}
	if at == 0 {
		return 0
	}
	return max(1, at-lead)
}

// scopeOf returns the line an apply-patch chunk names after "@@" to say
// which of the places where old stands is meant, the one at line at of
// text: the nearest line above it that opens a block holding it (a line
// indented less than all of old's), stands once in the file, and whose
// block holds old once. It reports false when there is none.
//
// The block is what Codex's scopes mean and the resolver reads: the lines
// after the scope line indented deeper than it, and the closing line after
// them. A scope line is known without its white space, and a long one by
// its start too, so no other line may start so.
func scopeOf(text, old string, at int) (string, bool) {
	file := textLines(normalized(text))
	region := textLines(normalized(old))
	start := at - 1
	if start < 0 || start+len(region) > len(file) || len(region) == 0 {
		return "", false
	}
	inner := -1 // the least indentation of old's lines
	for _, l := range region {
		if w := width(l); !isBlank(l) && (inner < 0 || w < inner) {
			inner = w
		}
	}
	for k := start - 1; k >= 0 && inner > 0; k-- {
		line := file[k]
		if isBlank(line) || width(line) >= inner {
			continue
		}
		inner = width(line) // an outer scope must be shallower still
		end := blockEnd(file, k)
		body := strings.Join(file[k+1:end], "\n") + "\n"
		if end >= start+len(region) && standsOnce(file, line) &&
			strings.Count(body, strings.Join(region, "\n")) == 1 {
			return strings.TrimRight(line, " \t"), true
		}
	}
	return "", false
}

// width returns the columns the indentation of line takes, a tab taking
// four.
func width(line string) int {
	w := 0
	for _, c := range indentOf(line) {
		if c == '\t' {
			w += 4 - w%4
		} else {
			w++
		}
	}
	return w
}

// blockEnd returns the end (exclusive) of the block that lines[i] opens:
// the lines after it indented deeper, and a closing line at its own depth.
func blockEnd(lines []string, i int) int {
	ind := width(lines[i])
	for j := i + 1; j < len(lines); j++ {
		line := lines[j]
		if isBlank(line) || width(line) > ind {
			continue
		}
		if t := strings.TrimSpace(line); strings.Trim(t, "})];,") == "" || t == "end" || strings.HasPrefix(t, "} ") {
			return j + 1
		}
		return j
	}
	return len(lines)
}

// standsOnce reports whether no line of file but scope itself reads as
// scope, white space aside, whole or, for six characters or more, as its
// start.
func standsOnce(file []string, scope string) bool {
	want := strings.Join(strings.Fields(scope), "")
	n := 0
	for _, line := range file {
		l := strings.Join(strings.Fields(line), "")
		if l != "" && (l == want || len(want) >= 6 && strings.HasPrefix(l, want)) {
			n++
		}
	}
	return n == 1
}

// sameTrimmed reports whether two runs of lines are equal but for the space
// around each line.
func sameTrimmed(a, b []string) bool {
	for i := range a {
		if strings.TrimSpace(a[i]) != strings.TrimSpace(b[i]) {
			return false
		}
	}
	return true
}

// fenceLang returns the language a markdown fence names for a file.
func fenceLang(p string) string {
	switch ext := path.Ext(p); ext {
	case ".go", ".c", ".h", ".js", ".json", ".yaml", ".yml":
		return ext[1:]
	case ".s":
		return "asm"
	case ".py":
		return "python"
	case ".sh", ".bash":
		return "bash"
	case ".pl":
		return "perl"
	}
	return ""
}

// writeSearchReplace writes aider's layout: for each edit, the path on the
// line before a code fence that holds the block, with Roo Code's
// ":start_line:" header when the edit has a hint.
func writeSearchReplace(b *strings.Builder, path string, edits []engine.Edit) {
	fmt.Fprintf(b, "Here is the edit for `%s`.\n", path)
	for _, e := range edits {
		fmt.Fprintf(b, "\n%s\n```%s\n<<<<<<< SEARCH\n", path, fenceLang(path))
		if e.Line > 0 {
			fmt.Fprintf(b, ":start_line:%d\n-------\n", e.Line)
		}
		fmt.Fprintf(b, "%s=======\n%s>>>>>>> REPLACE\n```\n", e.Old, e.New)
	}
}

// A strReplaceCall is the input of a Claude-style str_replace tool call.
type strReplaceCall struct {
	FilePath   string `json:"file_path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
	StartLine  int    `json:"start_line,omitempty"`
}

// writeStrReplace writes the tool call of each edit in a JSON fence: one
// object, or an array of them for several edits.
func writeStrReplace(b *strings.Builder, path string, edits []engine.Edit) {
	calls := make([]strReplaceCall, len(edits))
	for i, e := range edits {
		calls[i] = strReplaceCall{FilePath: path, OldString: e.Old, NewString: e.New, ReplaceAll: e.ReplaceAll, StartLine: e.Line}
	}
	var v any = calls
	if len(calls) == 1 {
		v = calls[0]
	}
	fmt.Fprintf(b, "I'll edit `%s`.\n\n```json\n", path)
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		// Strings, booleans and numbers always encode.
		panic(fmt.Sprintf("corpus: encoding a str_replace call: %v", err))
	}
	b.WriteString("```\n")
}

// writeEditV3 writes each edit as a block after the line that names its
// file, outside any fence.
func writeEditV3(b *strings.Builder, path string, edits []engine.Edit) {
	fmt.Fprintf(b, "Here is the edit for `%s`.\n", path)
	for _, e := range edits {
		fmt.Fprintf(b, "\n%s\n««« EDIT\n%s═══════ REPL\n%s»»» EDIT END\n", path, e.Old, e.New)
	}
}

// writeUnifiedDiff writes one diff of the file, in a diff fence, with a hunk
// per edit: git's header and numbered hunks, or aider's bare ones.
func writeUnifiedDiff(b *strings.Builder, path string, edits []engine.Edit, bare bool) {
	fmt.Fprintf(b, "Here is the diff for `%s`.\n\n```diff\n", path)
	if bare {
		fmt.Fprintf(b, "--- %s\n+++ %s\n", path, path)
	} else {
		fmt.Fprintf(b, "--- a/%s\n+++ b/%s\n", path, path)
	}
	shift := 0 // lines the hunks before add, for the new side's numbers
	for _, e := range edits {
		body, olds, news := hunkBody(e.Old, e.New)
		if bare || e.Line == 0 {
			b.WriteString("@@ ... @@\n")
		} else {
			fmt.Fprintf(b, "@@ -%d,%d +%d,%d @@\n", e.Line, olds, e.Line+shift, news)
		}
		shift += news - olds
		b.WriteString(body)
	}
	b.WriteString("```\n")
}

// writeApplyPatch writes a Codex patch that updates the file, with a chunk
// per edit, under its scope line when it has one.
func writeApplyPatch(b *strings.Builder, path string, edits []engine.Edit) {
	fmt.Fprintf(b, "Here is the patch for `%s`.\n\n*** Begin Patch\n*** Update File: %s\n", path, path)
	for _, e := range edits {
		body, _, _ := hunkBody(e.Old, e.New)
		b.WriteString("@@")
		for _, s := range e.Scope {
			b.WriteString(" " + s)
		}
		b.WriteString("\n")
		b.WriteString(body)
	}
	b.WriteString("*** End Patch\n")
}

// hunkBody returns the lines of a diff from old to new, whole lines both,
// each with its ' ', '-' or '+', and how many lines each side has. Every
// line of old and new is in the hunk.
func hunkBody(old, new string) (body string, olds, news int) {
	// A context as long as both texts keeps them whole in one hunk.
	context := strings.Count(old, "\n") + strings.Count(new, "\n")
	u, err := udiff.ToUnifiedDiff("old", "new", old, udiff.Lines(old, new), context)
	if err != nil || len(u.Hunks) != 1 {
		// The edits come from the same texts, and old and new differ.
		panic(fmt.Sprintf("corpus: diffing %q and %q: %d hunks, %v", old, new, len(u.Hunks), err))
	}
	var b strings.Builder
	for _, l := range u.Hunks[0].Lines {
		op := ' '
		switch l.Kind {
		case udiff.Delete:
			op = '-'
			olds++
		case udiff.Insert:
			op = '+'
			news++
		default:
			olds++
			news++
		}
		b.WriteRune(op)
		b.WriteString(l.Content)
	}
	return b.String(), olds, news
}
