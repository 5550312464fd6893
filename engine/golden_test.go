package engine_test

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"
	"github.com/graft-editor/graft/engine"
	"github.com/rogpeppe/go-internal/txtar"
)

// goldenDir holds the golden cases, one txtar archive per case, in
// subfolders by topic.
const goldenDir = "../testdata/engine"

// TestGolden runs every case under testdata/engine as a subtest named after
// its path (without ".txtar"): it applies the case's edits to its file with
// [engine.ApplyEdits] and compares the result, the statuses and the error
// with what the case specifies. The cases are written from the resolution
// rules users can count on, not from the engine's output.
//
// A case is a txtar archive. Its comment holds one sentence or more saying
// what the case specifies, and `key: value` lines (a line that starts with
// a lower-case word and a colon is always an option; unknown keys are an
// error, so that a typo cannot silently weaken a case):
//
//	line: N                  line hint of every edit (line.2: N for edit 2 only)
//	replace-all: true        replace every occurrence (replace-all.2: for edit 2)
//	threshold: 0.9           engine.Options.Threshold
//	strategy: a|b            Match.Strategy of every applied edit contains a or b
//	                         (strategy.2: for edit 2 only)
//	lines: A-B               the applied edit matched lines A to B (lines.2: ...)
//	reason: a|b              the *engine.Error of the failed edit has Reason a or b
//	no-final-newline: S,...  strip the final newline of the sections S
//	bom: S,...               prepend a byte order mark (U+FEFF) to the sections S
//
// Its sections are:
//
//	file              the text the edits apply to
//	old, new          the one edit: Edit.Old and Edit.New
//	old.N, new.N      edits 1, 2, ... applied in order (instead of old, new)
//	want              the exact text after the edits; without it, the text
//	                  must come back unchanged
//	error             substrings, one per line, of the failed edit's message;
//	                  required exactly when an edit fails
//	status            one status per edit and line (applied, already-applied,
//	                  failed or skipped); without it every edit must apply,
//	                  or, with an error section, the single edit must fail
//	version.N         earlier versions of the file, engine.Options.History,
//	                  most recent first (version.1 first), each named
//	                  "version N" in messages
//
// txtar cannot show a carriage return, a byte order mark or a missing final
// newline, so these escapes stand for them: a section whose name ends in
// ".crlf" (file.crlf, old.crlf, want.crlf) has every "\n" turned into "\r\n";
// the sections listed in no-final-newline lose their final line ending; the
// sections listed in bom get a U+FEFF in front. In those two lists "old"
// also names old.1, old.2, ..., and "new" new.1, new.2, ... Every other byte,
// tabs, trailing spaces and non-ASCII text included, is taken as written.
func TestGolden(t *testing.T) {
	var paths []string
	err := filepath.WalkDir(goldenDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".txtar") {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no golden cases under %s", goldenDir)
	}
	for _, path := range paths {
		name, _ := filepath.Rel(goldenDir, path)
		name = filepath.ToSlash(strings.TrimSuffix(name, ".txtar"))
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			c, err := parseCase(ar)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			c.run(t)
		})
	}
}

// A goldenCase is one parsed txtar case.
type goldenCase struct {
	file  string
	edits []engine.Edit
	opts  engine.Options
	// want is the text expected after the edits.
	want string
	// expect holds what each edit's outcome must show.
	expect []editExpectation
	// errs are substrings of the first failed edit's message, and reasons
	// the Reasons it may have (any, when empty).
	errs    []string
	reasons []engine.Reason
}

// An editExpectation is what one edit's outcome must show.
type editExpectation struct {
	status engine.Status
	// strategies, when set, are names one of which Match.Strategy contains.
	strategies []string
	// lines, when set, are the expected Match.StartLine and EndLine.
	lines []int
}

// caseOptions are the key: value lines of a case's comment.
type caseOptions struct {
	// perEdit holds the raw value of each per-edit option by edit number,
	// 0 standing for every edit.
	perEdit        map[string]map[int]string
	threshold      float64
	reasons        []engine.Reason
	noFinalNewline []string
	bom            []string
}

var (
	optionLine  = regexp.MustCompile(`^([a-z][a-z-]*)(?:\.([1-9][0-9]*))?:\s*(.*)$`)
	sectionName = regexp.MustCompile(`^(file|want|error|status|old|new|version)(?:\.([1-9][0-9]*))?(\.crlf)?$`)
	lineRange   = regexp.MustCompile(`^([0-9]+)-([0-9]+)$`)
)

// parseCase reads a case from its archive, applying the escapes documented
// on TestGolden.
func parseCase(ar *txtar.Archive) (*goldenCase, error) {
	opts, err := parseComment(string(ar.Comment))
	if err != nil {
		return nil, err
	}
	sections, err := parseSections(ar.Files, opts)
	if err != nil {
		return nil, err
	}
	c := &goldenCase{opts: engine.Options{Threshold: opts.threshold}, reasons: opts.reasons}
	for n := 1; ; n++ {
		v, ok := sections["version."+strconv.Itoa(n)]
		if !ok {
			break
		}
		c.opts.History = append(c.opts.History, engine.Version{Name: "version " + strconv.Itoa(n), Text: v})
	}
	var ok bool
	if c.file, ok = sections["file"]; !ok {
		return nil, errors.New("no file section")
	}
	if c.want, ok = sections["want"]; !ok {
		c.want = c.file
	}
	if c.edits, err = parseEdits(sections, opts); err != nil {
		return nil, err
	}
	msg, hasError := sections["error"]
	for _, l := range strings.Split(msg, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			c.errs = append(c.errs, l)
		}
	}
	statuses, err := parseStatuses(sections, len(c.edits), hasError)
	if err != nil {
		return nil, err
	}
	for i, st := range statuses {
		x := editExpectation{status: st}
		if v, ok := opts.value("strategy", i+1); ok {
			x.strategies = strings.Split(v, "|")
		}
		if v, ok := opts.value("lines", i+1); ok {
			r := lineRange.FindStringSubmatch(v)
			if r == nil {
				return nil, fmt.Errorf("lines: %q is not A-B", v)
			}
			a, _ := strconv.Atoi(r[1])
			b, _ := strconv.Atoi(r[2])
			x.lines = []int{a, b}
		}
		c.expect = append(c.expect, x)
	}
	for key, values := range opts.perEdit {
		for n := range values {
			if n > len(c.edits) {
				return nil, fmt.Errorf("%s.%d: there are %d edits", key, n, len(c.edits))
			}
		}
	}
	return c, nil
}

// parseComment reads the options of a case's comment and checks that the
// comment also says what the case specifies.
func parseComment(comment string) (*caseOptions, error) {
	opts := &caseOptions{perEdit: map[string]map[int]string{}}
	described := false
	for _, l := range strings.Split(comment, "\n") {
		l = strings.TrimSpace(l)
		m := optionLine.FindStringSubmatch(l)
		if m == nil {
			described = described || l != ""
			continue
		}
		key, value := m[1], strings.TrimSpace(m[3])
		if m[2] != "" && !perEditOption(key) {
			return nil, fmt.Errorf("option %q takes no edit number", key)
		}
		switch key {
		case "line", "replace-all", "strategy", "lines":
			n, _ := strconv.Atoi(m[2]) // 0 when absent: every edit
			if opts.perEdit[key] == nil {
				opts.perEdit[key] = map[int]string{}
			}
			opts.perEdit[key][n] = value
		case "threshold":
			f, err := strconv.ParseFloat(value, 64)
			if err != nil {
				return nil, fmt.Errorf("threshold: %w", err)
			}
			opts.threshold = f
		case "reason":
			for _, r := range strings.Split(value, "|") {
				opts.reasons = append(opts.reasons, engine.Reason(strings.TrimSpace(r)))
			}
		case "no-final-newline":
			opts.noFinalNewline = strings.Split(value, ",")
		case "bom":
			opts.bom = strings.Split(value, ",")
		default:
			return nil, fmt.Errorf("unknown option %q", key)
		}
	}
	if !described {
		return nil, errors.New("the comment does not say what the case specifies")
	}
	return opts, nil
}

// perEditOption reports whether an option may name one edit, as in "line.2".
func perEditOption(key string) bool {
	switch key {
	case "line", "replace-all", "strategy", "lines":
		return true
	}
	return false
}

// value returns the per-edit option key of edit n (1-based): its own value,
// or else the one for every edit.
func (o *caseOptions) value(key string, n int) (string, bool) {
	if v, ok := o.perEdit[key][n]; ok {
		return v, true
	}
	v, ok := o.perEdit[key][0]
	return v, ok
}

// parseSections returns the sections by name, without ".crlf", with the
// escapes of the options applied.
func parseSections(files []txtar.File, opts *caseOptions) (map[string]string, error) {
	sections := map[string]string{}
	for _, f := range files {
		m := sectionName.FindStringSubmatch(f.Name)
		if m == nil || (m[2] != "" && m[1] != "old" && m[1] != "new" && m[1] != "version") {
			return nil, fmt.Errorf("unknown section %q", f.Name)
		}
		name := strings.TrimSuffix(f.Name, ".crlf")
		if _, dup := sections[name]; dup {
			return nil, fmt.Errorf("section %q appears twice", name)
		}
		data := string(f.Data)
		if m[3] != "" {
			data = strings.ReplaceAll(data, "\n", "\r\n")
		}
		sections[name] = data
	}
	escape := func(entries []string, fn func(string) (string, error)) error {
		for _, entry := range entries {
			names := escapedSections(sections, strings.TrimSpace(entry))
			if len(names) == 0 {
				return fmt.Errorf("no section %q to escape", entry)
			}
			for _, name := range names {
				data, err := fn(sections[name])
				if err != nil {
					return fmt.Errorf("section %q: %w", name, err)
				}
				sections[name] = data
			}
		}
		return nil
	}
	err := escape(opts.noFinalNewline, func(s string) (string, error) {
		if !strings.HasSuffix(s, "\n") {
			return "", errors.New("no final newline to strip")
		}
		return strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r"), nil
	})
	if err != nil {
		return nil, err
	}
	err = escape(opts.bom, func(s string) (string, error) { return "\ufeff" + s, nil })
	if err != nil {
		return nil, err
	}
	return sections, nil
}

// escapedSections returns the sections an escape list entry names: the
// section itself and, for "old" and "new", the numbered ones.
func escapedSections(sections map[string]string, entry string) []string {
	var names []string
	for name := range sections {
		if name == entry || (entry == "old" || entry == "new") && strings.HasPrefix(name, entry+".") {
			names = append(names, name)
		}
	}
	return names
}

// parseEdits returns the edits of old/new, or of old.1/new.1, old.2/new.2,
// ..., with their per-edit options.
func parseEdits(sections map[string]string, opts *caseOptions) ([]engine.Edit, error) {
	pairs := [][2]string{{"old", "new"}}
	if _, single := sections["old"]; !single {
		pairs = nil
		for n := 1; ; n++ {
			o := "old." + strconv.Itoa(n)
			if _, ok := sections[o]; !ok {
				break
			}
			pairs = append(pairs, [2]string{o, "new." + strconv.Itoa(n)})
		}
	}
	if len(pairs) == 0 {
		return nil, errors.New("no edit: want an old section or old.1")
	}
	var edits []engine.Edit
	for i, p := range pairs {
		newText, ok := sections[p[1]]
		if !ok {
			return nil, fmt.Errorf("section %q has no %q", p[0], p[1])
		}
		e := engine.Edit{Old: sections[p[0]], New: newText}
		if v, ok := opts.value("line", i+1); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, fmt.Errorf("line: %w", err)
			}
			e.Line = n
		}
		if v, ok := opts.value("replace-all", i+1); ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return nil, fmt.Errorf("replace-all: %w", err)
			}
			e.ReplaceAll = b
		}
		edits = append(edits, e)
	}
	inPairs := map[string]bool{}
	for _, p := range pairs {
		inPairs[p[0]], inPairs[p[1]] = true, true
	}
	for name := range sections {
		edit := name == "old" || name == "new" || strings.HasPrefix(name, "old.") || strings.HasPrefix(name, "new.")
		if edit && !inPairs[name] {
			return nil, fmt.Errorf("section %q is not in old/new nor in old.1/new.1, old.2/new.2, ... without a gap", name)
		}
	}
	return edits, nil
}

// parseStatuses returns the status each edit must end with: the status
// section, or by default every edit applied or, with an error section, the
// single edit failed.
func parseStatuses(sections map[string]string, edits int, hasError bool) ([]engine.Status, error) {
	var statuses []engine.Status
	if st, ok := sections["status"]; ok {
		for _, f := range strings.Fields(st) {
			statuses = append(statuses, engine.Status(f))
		}
		if len(statuses) != edits {
			return nil, fmt.Errorf("status lists %d statuses for %d edits", len(statuses), edits)
		}
	} else {
		switch {
		case hasError && edits > 1:
			return nil, errors.New("a failing case with several edits needs a status section")
		case hasError:
			statuses = []engine.Status{engine.StatusFailed}
		default:
			for range edits {
				statuses = append(statuses, engine.StatusApplied)
			}
		}
	}
	if hasError != slices.Contains(statuses, engine.StatusFailed) {
		return nil, errors.New("an error section is required exactly when an edit fails")
	}
	return statuses, nil
}

// run applies the case's edits and reports every way the outcome differs
// from the case.
func (c *goldenCase) run(t *testing.T) {
	got, outcomes := engine.ApplyEdits(c.file, c.edits, c.opts)
	defer func() {
		if t.Failed() {
			for i, o := range outcomes {
				t.Logf("edit %d: %s", i+1, summarizeOutcome(o))
			}
		}
	}()
	if len(outcomes) != len(c.edits) {
		t.Fatalf("ApplyEdits returned %d outcomes for %d edits", len(outcomes), len(c.edits))
	}

	var failure error
	for i, o := range outcomes {
		n, x := i+1, c.expect[i]
		if o.Status != x.status {
			t.Errorf("edit %d: status %s, want %s", n, o.Status, x.status)
		}
		if !o.Status.OK() {
			var e *engine.Error
			if !errors.As(o.Err, &e) {
				t.Errorf("edit %d: %s with error %v (%T), want an *engine.Error", n, o.Status, o.Err, o.Err)
			}
			if o.Status == engine.StatusFailed && failure == nil {
				failure = o.Err
			}
			continue
		}
		if o.Match == nil {
			t.Errorf("edit %d: applied without a Match", n)
			continue
		}
		if x.strategies != nil && !slices.ContainsFunc(x.strategies, func(s string) bool {
			return strings.Contains(o.Match.Strategy, strings.TrimSpace(s))
		}) {
			t.Errorf("edit %d: strategy %q, want one naming %s", n, o.Match.Strategy, strings.Join(x.strategies, " or "))
		}
		if x.lines != nil && (o.Match.StartLine != x.lines[0] || o.Match.EndLine != x.lines[1]) {
			t.Errorf("edit %d: matched lines %d-%d, want %d-%d", n, o.Match.StartLine, o.Match.EndLine, x.lines[0], x.lines[1])
		}
	}

	if failure != nil {
		msg := failure.Error()
		for _, s := range c.errs {
			if !strings.Contains(msg, s) {
				t.Errorf("error message lacks %q; it is:\n%s", s, msg)
			}
		}
		var e *engine.Error
		if c.reasons != nil && errors.As(failure, &e) && !slices.Contains(c.reasons, e.Reason) {
			t.Errorf("error reason %q, want one of %q", e.Reason, c.reasons)
		}
	}

	if got != c.want {
		t.Errorf("text differs from want (\\r shown as ␍, U+FEFF as <BOM>, U+00A0 as <NBSP>):\n%s",
			udiff.Unified("want", "got", showInvisible(c.want), showInvisible(got)))
	}
}

// summarizeOutcome summarizes an outcome for the log of a failed case.
func summarizeOutcome(o engine.Outcome) string {
	if o.Match != nil {
		return fmt.Sprintf("%s by %s (score %.2f) at lines %d-%d; %s",
			o.Status, o.Match.Strategy, o.Match.Score, o.Match.StartLine, o.Match.EndLine, o.Match.Message())
	}
	return fmt.Sprintf("%s: %v", o.Status, o.Err)
}

// showInvisible makes readable the bytes that a diff would hide.
func showInvisible(s string) string {
	return strings.NewReplacer("\r", "␍", "\ufeff", "<BOM>", "\u00a0", "<NBSP>").Replace(s)
}
