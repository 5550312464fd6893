package engine_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/graft-editor/graft/engine"
)

// goSnippet is a seed file for the fuzzers.
const goSnippet = `package store

// load reads the record stored under key.
func (s *Store) load(ctx context.Context, key string) (*Record, error) {
	raw, err := s.backend.Get(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("load %q: %w", key, err)
	}
	var r Record
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	return &r, nil
}
`

// FuzzResolve checks what must hold whatever the text and the block:
// Resolve does not panic, refuses only with an *Error, and a match it
// returns changes nothing outside the region it reports; with every
// alignment made between anchors too, as a search too long for one table
// is aligned (engine.ResolveAnchored). The fuzzer sets
// ReplaceAll too: only a replace-all match has several changes, whose
// order and overlap can then be checked.
func FuzzResolve(f *testing.F) {
	crlf := strings.ReplaceAll(goSnippet, "\n", "\r\n")
	for _, seed := range []struct {
		file, old, new string
		line           int
		all            bool
	}{
		{goSnippet, "\tvar r Record\n", "\tvar r *Record\n", 0, false},
		{goSnippet, "\t\treturn nil, err\n", "\t\treturn nil, fmt.Errorf(\"decode: %w\", err)\n", 11, false},
		{goSnippet, "return nil, err", "return nil, errBad", 0, true},
		{crlf, "\tvar r Record\n\tif err", "\tr := new(Record)\n\tif err", 0, false},
		{"\ufeff" + goSnippet, "package store\n", "package db\n", 1, false},
		{strings.TrimSuffix(goSnippet, "\n"), "\treturn &r, nil\n}\n", "\treturn &r, nil\n}\n\nfunc x() {}\n", 0, false},
		{goSnippet, "    var r Record\n    if err := json.Unmarshal(raw, &r); err != nil {\n", "    var r Record\n    if err := json.Unmarshal(raw, &r); err == nil {\n", 0, false},
		{goSnippet, "\traw, err := s.backend.Get(ctx, keys)\n\tif err != nil {\n", "\traw, err := s.backend.Get(ctx, key)\n\tif err == nil {\n", 0, false},
		{goSnippet, "\traw, err := s.backend.Get(ctx, key)\n\t...\n\treturn &r, nil\n", "\treturn nil, nil\n", 0, false},
		{goSnippet, "5: \traw, err := s.backend.Get(ctx, key)\n6: \tif err != nil {\n", "\traw := 1\n\tif err != nil {\n", 5, false},
		{goSnippet, "\t}\n", "", 7, false},
		{goSnippet, "", "x", 0, false},
		{"", "x", "y", 0, false},
		{"a\nb\na\nb\n", "a\nb\n", "c\n", 3, false},
	} {
		f.Add(seed.file, seed.old, seed.new, seed.line, seed.all)
	}
	f.Fuzz(func(t *testing.T, file, old, new string, line int, all bool) {
		e := engine.Edit{Old: old, New: new, Line: line, ReplaceAll: all}
		// Resolve, and Resolve with every alignment made between anchors
		// as a long search's are (see engine.ResolveAnchored).
		for _, resolve := range []func(string, engine.Edit, engine.Options) (*engine.Match, error){engine.Resolve, engine.ResolveAnchored} {
			m, err := resolve(file, e, engine.Options{})
			if err != nil {
				if m != nil {
					t.Errorf("Resolve returned both a match and an error: %v", err)
				}
				checkRefusal(t, err)
				continue
			}
			checkMatch(t, file, m)
		}
	})
}

// FuzzExactUnique checks that a search that occurs exactly once in a text
// is found by the exact strategy and replaced as strings.Replace does. The
// texts have "\n" line endings: in a "\r\n" text the replacement's line
// endings are converted, and strings.Replace would not say the same. The
// searches are not blank, which Resolve refuses as invalid, and the
// replacements hold no "...", which stands for lines kept. A deletion that
// leaves only blanks on its lines may delete the lines. A search whose
// first line is the rest of a line indented deeper, the search of several
// lines or its replacement, is the model's copy off in indentation: the
// lines the replacement adds take the file's indentation (or, found twice
// white space aside, it is refused as ambiguous; or, its lines moved to
// depths the uneven copy does not tell, as a conflict). A replacement
// that stands already, around the search or where the line hint points,
// is said to be applied before, changing nothing.
func FuzzExactUnique(f *testing.F) {
	f.Add(goSnippet, 120, 20, "Record", 0)
	f.Add(goSnippet, 0, 7, "package", 1)
	f.Add(goSnippet, len(goSnippet)-18, 18, "\treturn nil, nil\n}\n", 13)
	f.Add(goSnippet, 200, 60, "", 0)
	f.Add("a\na\na\nb\n", 0, 2, "c\n", 0)
	f.Add("\ufeffx = 1\ny = 2", 4, 5, "z = 3\n", 2)
	f.Add("\tif x {\n\t\ty()\n\t}\n", 5, 9, "z()\n\t}", 0)
	f.Fuzz(func(t *testing.T, file string, at, size int, new string, line int) {
		file = strings.ReplaceAll(strings.ToValidUTF8(file, "?"), "\r", "")
		new = strings.ReplaceAll(new, "\r", "")
		if strings.TrimSpace(strings.TrimPrefix(file, "\ufeff")) == "" {
			return
		}
		if strings.Contains(new, "...") || strings.Contains(new, "\u2026") {
			// A line of dots in a replacement stands for lines it keeps.
			return
		}
		// A leading byte order mark is not text but a mark of its encoding:
		// a model never quotes it, and it stays.
		body := strings.TrimPrefix(file, "\ufeff")
		mark := file[:len(file)-len(body)]
		old := uniqueSubstring(body, at, size)
		m, err := engine.Resolve(file, engine.Edit{Old: old, New: new, Line: line}, engine.Options{})
		if indentedLine(body, old, new) {
			if re := (*engine.Error)(nil); errors.As(err, &re) && (re.Reason == engine.ReasonAmbiguous || re.Reason == engine.ReasonConflict) {
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q, old %q) refused a search shifted left of its line: %v", file, old, err)
			}
			checkMatch(t, file, m)
			return
		}
		if err != nil {
			t.Fatalf("Resolve(%q, old %q, line %d) refused a search that occurs exactly once: %v", file, old, line, err)
		}
		checkMatch(t, file, m)
		if m.AlreadyApplied {
			// A replacement that stands already (around the search, an
			// insertion applied before, or where the line hint points)
			// changes nothing.
			if strings.TrimSpace(new) == "" || !strings.Contains(body, strings.TrimSpace(new)) || m.Apply(file) != file {
				t.Errorf("Resolve(%q, old %q, new %q) says already applied, changing the text to %q", file, old, new, m.Apply(file))
			}
			return
		}
		if m.Strategy != "exact" || m.Score != 1 {
			t.Errorf("old %q occurs exactly once, but the match is %s with score %v", old, m.Strategy, m.Score)
		}
		got, want := m.Apply(file), mark+strings.Replace(body, old, new, 1)
		if got == want {
			return
		}
		if new == "" {
			// Deleting all there is on some lines but blanks deletes the lines.
			i := len(mark) + strings.Index(body, old)
			if without, ok := withoutLines(file, i, i+len(old)); ok && got == without {
				return
			}
		}
		t.Errorf("Resolve(%q, old %q, new %q) gives\n%q\nwant\n%q", file, old, new, got, want)
	})
}

// indentedLine reports whether the one occurrence of old in text begins
// inside a line's indentation, its first line the rest of the line: old
// of several lines, its first indented, or of one with new of several
// (see FuzzExactUnique).
func indentedLine(text, old, new string) bool {
	first, _, several := strings.Cut(strings.TrimSuffix(old, "\n"), "\n")
	if first == "" || !several && !strings.Contains(strings.TrimSuffix(new, "\n"), "\n") || several && strings.TrimLeft(first, " \t") == first {
		return false
	}
	i := strings.Index(text, old)
	start := strings.LastIndex(text[:i], "\n") + 1
	end := i + len(first)
	rest, _, _ := strings.Cut(text[end:], "\n")
	before := text[start:i]
	return before != "" && strings.TrimLeft(before, " \t") == "" && strings.TrimSpace(rest) == ""
}

// withoutLines returns text without the whole lines that hold the bytes
// [start, end), when the rest of those lines is blank. A text without a
// final newline keeps ending without one: removing its last lines takes
// the line ending before them. A byte order mark stays.
func withoutLines(text string, start, end int) (string, bool) {
	from := strings.LastIndexByte(text[:start], '\n') + 1
	if from == 0 {
		from = len(text) - len(strings.TrimPrefix(text, "\ufeff"))
	}
	to := len(text)
	if strings.HasSuffix(text[:end], "\n") {
		to = end
	} else if i := strings.IndexByte(text[end:], '\n'); i >= 0 {
		to = end + i + 1
	}
	rest := text[from:start] + text[end:to]
	if strings.TrimSpace(rest) != "" {
		return "", false
	}
	if to == len(text) && !strings.HasSuffix(text, "\n") && from > 0 {
		from--
	}
	return text[:from] + text[to:], true
}

// FuzzApplyEdits checks ApplyEdits on several edits to one text: it does
// not panic, reports one consistent outcome per edit (an edit after a
// failed one is skipped), and returns the text its applied matches make.
func FuzzApplyEdits(f *testing.F) {
	f.Add(goSnippet, encodeEdits(
		engine.Edit{Old: "\tvar r Record\n", New: "\tvar r *Record\n"},
		engine.Edit{Old: "\t\treturn nil, err\n", New: "\t\treturn nil, errBad\n", Line: 11},
	))
	f.Add(goSnippet, encodeEdits(
		engine.Edit{Old: "no such line\n", New: "x\n"},
		engine.Edit{Old: "\tvar r Record\n", New: "\tvar r *Record\n"},
	))
	f.Add(strings.ReplaceAll(goSnippet, "\n", "\r\n"), encodeEdits(
		engine.Edit{Op: engine.OpInsert, Line: 1, New: "\n// Package store keeps records.\n"},
		engine.Edit{Old: "return nil, err", New: "return nil, errBad", ReplaceAll: true},
		engine.Edit{Op: engine.OpDelete},
	))
	f.Add("a\nb\nc", encodeEdits(
		engine.Edit{Old: "c", New: "d\ne"},
		engine.Edit{Op: engine.OpInsert, Line: 4, New: "f"},
		engine.Edit{Old: "a\n", New: ""},
	))
	f.Fuzz(func(t *testing.T, file, script string) {
		edits := decodeEdits(script)
		got, outcomes := engine.ApplyEdits(file, edits, engine.Options{})
		if len(outcomes) != len(edits) {
			t.Fatalf("ApplyEdits returned %d outcomes for %d edits", len(outcomes), len(edits))
		}
		text := file
		failed := -1
		for i, o := range outcomes {
			if failed >= 0 {
				if o.Status != engine.StatusSkipped || o.Match != nil || reason(o.Err) != engine.ReasonSkipped {
					t.Errorf("edit %d after failed edit %d: status %q, match %v, error %v; want skipped", i+1, failed+1, o.Status, o.Match, o.Err)
				}
				continue
			}
			switch o.Status {
			case engine.StatusApplied:
				if o.Match == nil || o.Err != nil {
					t.Fatalf("applied edit %d: match %v, error %v", i+1, o.Match, o.Err)
				}
				checkChanges(t, text, o.Match.Changes)
				text = o.Match.Apply(text)
			case engine.StatusAlreadyApplied:
				if o.Match == nil || o.Err != nil || !o.Match.AlreadyApplied || len(o.Match.Changes) != 0 {
					t.Fatalf("already-applied edit %d: match %+v, error %v", i+1, o.Match, o.Err)
				}
				checkMatch(t, text, o.Match)
			case engine.StatusFailed:
				if o.Match != nil {
					t.Errorf("failed edit %d has a match", i+1)
				}
				checkRefusal(t, o.Err)
				if reason(o.Err) == engine.ReasonSkipped {
					t.Errorf("failed edit %d has reason %q", i+1, engine.ReasonSkipped)
				}
				failed = i
			default:
				t.Fatalf("edit %d has status %q, but no edit before it failed", i+1, o.Status)
			}
			if o.Elapsed < 0 {
				t.Errorf("edit %d took %v", i+1, o.Elapsed)
			}
		}
		if got != text {
			t.Errorf("ApplyEdits returned\n%q\nbut its applied matches make\n%q", got, text)
		}
	})
}

// checkMatch checks that m is a match a resolution of text may return:
// its lines lie in the text, its score fits its strategy, and its changes
// lie within its lines, so that every byte outside them is kept. A match
// whose last line is the one before its first inserts before its first.
func checkMatch(t *testing.T, text string, m *engine.Match) {
	t.Helper()
	lines := splitLines(text)
	if m.StartLine < 1 || m.EndLine < m.StartLine-1 || m.EndLine > len(lines) {
		t.Fatalf("match at lines %d-%d of a text of %d lines", m.StartLine, m.EndLine, len(lines))
	}
	switch {
	case m.Strategy == "":
		t.Errorf("match without a strategy")
	case m.Strategy == "exact" && m.Score != 1:
		t.Errorf("exact match with score %v", m.Score)
	case m.Score < engine.DefaultThreshold || m.Score > 1:
		t.Errorf("%s match with score %v, outside [%v, 1]", m.Strategy, m.Score, engine.DefaultThreshold)
	}
	if len(m.Changes) == 0 {
		return
	}
	checkChanges(t, text, m.Changes)
	from := len(text)
	if m.StartLine <= len(lines) {
		from = lines[m.StartLine-1].start
	}
	to := from
	if m.EndLine >= m.StartLine {
		to = lines[m.EndLine-1].end
	}
	if m.EndLine == len(lines) && m.StartLine > 1 && !strings.HasSuffix(text, "\n") {
		// Removing the last lines of a text without a final newline takes
		// the line ending before them, so that the text still ends
		// without one.
		from = lines[m.StartLine-2].contentEnd
	}
	first, last := m.Changes[0], m.Changes[len(m.Changes)-1]
	if first.Start < from || last.End > to {
		t.Errorf("match at lines %d-%d (bytes %d-%d) changes bytes %d-%d", m.StartLine, m.EndLine, from, to, first.Start, last.End)
	}
	got := m.Apply(text)
	if !strings.HasPrefix(got, text[:first.Start]) || !strings.HasSuffix(got, text[last.End:]) {
		t.Errorf("the bytes before %d or after %d changed", first.Start, last.End)
	}
}

// checkChanges checks that changes lie in text, in order, without
// overlapping.
func checkChanges(t *testing.T, text string, changes []engine.Change) {
	t.Helper()
	at := 0
	for i, c := range changes {
		if c.Start < at || c.End < c.Start || c.End > len(text) {
			t.Fatalf("change %d replaces bytes [%d, %d) of a text of %d bytes after a change that ends at %d", i, c.Start, c.End, len(text), at)
		}
		at = c.End
	}
}

// checkRefusal checks that err is an *engine.Error with a known reason.
func checkRefusal(t *testing.T, err error) {
	t.Helper()
	var e *engine.Error
	if !errors.As(err, &e) {
		t.Fatalf("refused with %T %v, want an *engine.Error", err, err)
	}
	switch e.Reason {
	case engine.ReasonNotFound, engine.ReasonBelowThreshold, engine.ReasonAmbiguous,
		engine.ReasonConflict, engine.ReasonInvalid, engine.ReasonSkipped:
	default:
		t.Errorf("refused with unknown reason %q", e.Reason)
	}
	if e.Summary == "" {
		t.Errorf("refusal %q without a summary", e.Reason)
	}
}

// reason returns the reason of err, an *engine.Error, or "".
func reason(err error) engine.Reason {
	var e *engine.Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ""
}

// A textLine is where a line of a text lies: content from start to
// contentEnd, then its line ending up to end.
type textLine struct{ start, contentEnd, end int }

// splitLines returns the lines of text as the engine counts them: a byte
// order mark is not part of the first line, a final newline ends the last
// line rather than starting an empty one, and "\r\n" is one line ending.
func splitLines(text string) []textLine {
	var lines []textLine
	at := len(text) - len(strings.TrimPrefix(text, "\ufeff"))
	for at < len(text) {
		i := strings.IndexByte(text[at:], '\n')
		if i < 0 {
			lines = append(lines, textLine{at, len(text), len(text)})
			break
		}
		end := at + i
		if end > at && text[end-1] == '\r' {
			end--
		}
		lines = append(lines, textLine{at, end, at + i + 1})
		at += i + 1
	}
	return lines
}

// uniqueSubstring returns a substring of text that occurs in it exactly
// once, overlapping occurrences included, and is not only white space
// (Resolve refuses a blank search as invalid): size bytes from at (both
// taken modulo the length), widened until it qualifies and kept on rune
// boundaries. text must hold a byte that is not white space.
func uniqueSubstring(text string, at, size int) string {
	n := len(text)
	start := (at%n + n) % n
	end := min(start+1+(size%n+n)%n, n)
	qualifies := func(s string) bool {
		// Lines that also end the file, there without their final newline,
		// are a second copy to the resolver.
		if line, ok := strings.CutSuffix(s, "\n"); ok && !strings.HasSuffix(text, "\n") && strings.HasSuffix(text, line) {
			return false
		}
		return strings.Index(text, s) == strings.LastIndex(text, s) && strings.TrimSpace(s) != ""
	}
	for {
		for start > 0 && !utf8.RuneStart(text[start]) {
			start--
		}
		for end < n && !utf8.RuneStart(text[end]) {
			end++
		}
		if qualifies(text[start:end]) {
			return text[start:end]
		}
		if end < n {
			end++
		} else {
			start--
		}
	}
}

// The separators of the edit script the FuzzApplyEdits corpus holds: one
// byte each, so that the fuzzer's mutations keep the shape of a script.
const (
	editSep  = "\x1e" // between edits
	fieldSep = "\x1f" // between the fields of an edit
)

// maxEdits bounds the edits decoded from one script.
const maxEdits = 8

// The op letters of an edit script.
var opLetters = map[engine.Op]string{
	engine.OpReplace: "r",
	engine.OpInsert:  "i",
	engine.OpCreate:  "c",
	engine.OpDelete:  "d",
	engine.OpMove:    "m",
}

// encodeEdits writes edits as a script for FuzzApplyEdits: per edit, the op
// letter ("a" for a replace-all), the line hint, Old and New.
func encodeEdits(edits ...engine.Edit) string {
	var b strings.Builder
	for i, e := range edits {
		if i > 0 {
			b.WriteString(editSep)
		}
		op := opLetters[e.Op]
		if e.ReplaceAll {
			op = "a"
		}
		fmt.Fprintf(&b, "%s%s%d%s%s%s%s", op, fieldSep, e.Line, fieldSep, e.Old, fieldSep, e.New)
	}
	return b.String()
}

// decodeEdits reads a script written by encodeEdits, or mutated by the
// fuzzer: missing fields are empty, an unknown op is a replace, and a line
// hint that is not a number is 0.
func decodeEdits(script string) []engine.Edit {
	if script == "" {
		return nil
	}
	var edits []engine.Edit
	for rec := range strings.SplitSeq(script, editSep) {
		if len(edits) == maxEdits {
			break
		}
		fields := strings.SplitN(rec, fieldSep, 4)
		fields = append(fields, make([]string, 4-len(fields))...)
		var e engine.Edit
		for op, letter := range opLetters {
			if fields[0] == letter {
				e.Op = op
			}
		}
		e.ReplaceAll = fields[0] == "a"
		e.Line, _ = strconv.Atoi(fields[1])
		e.Old, e.New = fields[2], fields[3]
		edits = append(edits, e)
	}
	return edits
}
