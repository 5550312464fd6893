package engine

import (
	"fmt"
	"strings"
	"time"
)

// Status is the fate of one edit in ApplyEdits.
type Status string

// The statuses of an edit, as the JSON report spells them.
const (
	StatusApplied Status = "applied"
	// StatusAlreadyApplied: the change already stands in the text (see
	// Match.AlreadyApplied); nothing changed, and it counts as a success.
	StatusAlreadyApplied Status = "already-applied"
	StatusFailed         Status = "failed"
	StatusSkipped        Status = "skipped"
)

// OK reports whether the status is a success: the edit applied, or its
// change stood already.
func (s Status) OK() bool { return s == StatusApplied || s == StatusAlreadyApplied }

// An Outcome reports what happened to one edit in ApplyEdits.
type Outcome struct {
	Status Status
	// Match is set when the edit applied, or stood already.
	Match *Match
	// Err is set when the edit failed or was skipped; it is an *Error.
	Err error
	// Elapsed is the engine time spent resolving the edit.
	Elapsed time.Duration
}

// ApplyEdits resolves edits that all target one file, in order, each
// against the text left by the ones before, and returns the final text with
// one Outcome per edit. Line hints are taken to refer to the text as it was
// before the first edit and are shifted by the changes applied before them.
// After an edit fails, the remaining ones are skipped and the text they
// would have changed is returned as it stood. The text is prepared once
// (see [Document]); each applied edit updates only the lines it changed.
func ApplyEdits(text string, edits []Edit, opt Options) (string, []Outcome) {
	doc := NewDocument(text)
	outcomes := make([]Outcome, len(edits))
	failed := -1
	replayed := false
	for i, e := range edits {
		if failed >= 0 {
			outcomes[i] = Outcome{Status: StatusSkipped, Err: refuse(ReasonSkipped,
				"skipped: edit %d to this file failed", failed+1)}
			continue
		}
		start := time.Now()
		m, err := doc.Resolve(e, opt)
		if len(opt.History) > 0 && len(doc.d.moved) == 0 && !replayed && NeedsHistory(e, m, err) {
			// Nothing changed yet, and an edit is not found as written:
			// perhaps the whole answer was applied before.
			replayed = true
			if ms, ok := Replayed(text, edits, opt.History, opt); ok {
				for k := range edits {
					outcomes[k] = Outcome{Status: StatusAlreadyApplied, Match: ms[k]}
				}
				outcomes[i].Elapsed = time.Since(start)
				return text, outcomes
			}
		}
		elapsed := time.Since(start)
		if err != nil {
			outcomes[i] = Outcome{Status: StatusFailed, Err: err, Elapsed: elapsed}
			failed = i
			continue
		}
		if m.AlreadyApplied {
			outcomes[i] = Outcome{Status: StatusAlreadyApplied, Match: m, Elapsed: elapsed}
			continue
		}
		doc = doc.Apply(m)
		outcomes[i] = Outcome{Status: StatusApplied, Match: m, Elapsed: elapsed}
	}
	return doc.Text(), outcomes
}

// Insert returns the match that inserts text after the 1-based line `after`
// of doc (0: before the first line, AtEnd: after the last), in the
// document's line endings.
func Insert(doc string, after int, text string) (*Match, error) {
	return newDocument(doc).insert(after, text)
}

func (d *document) insert(after int, text string) (*Match, error) {
	if after == AtEnd {
		after = d.lineCount()
	}
	if after < 0 || after > d.lineCount() {
		return nil, refuse(ReasonInvalid, "cannot insert after line %d: the file has %d lines", after, d.lineCount())
	}
	body := toLF(text)
	if body != "" && !strings.HasSuffix(body, "\n") {
		body += "\n"
	}
	at := d.offsetOfLine(after)
	if after == d.lineCount() && d.lineCount() > 0 && !d.endsWithNewline() {
		// Appending to a text without a final newline: end the old last
		// line, and leave the new last line without one, as the file was.
		body = "\n" + strings.TrimSuffix(body, "\n")
	}
	return &Match{
		Strategy:  "insert",
		Score:     1,
		StartLine: after + 1,
		EndLine:   after,
		Changes:   []Change{{Start: at, End: at, Text: d.endings(at, at, body)}},
		Notes:     []string{fmt.Sprintf("inserted %d line(s) after line %d", strings.Count(strings.TrimSuffix(body, "\n"), "\n")+1, d.shown(after))},
	}, nil
}
