package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/graft-editor/graft/editorlink"
	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/workspace"
)

// The values of graft apply --editor.
const (
	// editorAuto sends the answer to the editor when a graft serve serves
	// the root, and applies it to the disk when none does; when one may
	// but cannot be reached safely, it fails and writes nothing.
	editorAuto = "auto"
	// editorAlways sends it to the editor, and fails when none serves
	// the root.
	editorAlways = "always"
	// editorNever applies it to the disk.
	editorNever = "never"
)

// editorUsage documents --editor in graft help apply.
const editorUsage = `  --editor MODE    auto (default): when an editor's graft serve serves the
                   root, or a folder above it, or the folder inside the root
                   that holds every file the answer changes, send the answer
                   there, so that it lands in the editor's buffers (confined
                   to the root, as on the disk); else apply it to the disk.
                   An answer for such a folder and for files outside it
                   fails (status 2, nothing written).
                   always: fail (status 2) when no graft serve serves the
                   root. never: always apply to the disk. --dry-run always
                   reads the disk.
                   auto and always fail (status 2, nothing written) when the
                   editor link cannot be used safely (its directory open to
                   others, say): an editor may have the files open.
                   Ctrl-C after the answer was sent (status 130) says so:
                   the editor may have applied it.
  --suggest        send the blocks to the editor as pending suggestions, shown
                   where they would land, to apply or dismiss there; nothing
                   is applied (needs an editor: status 2 when none serves the
                   root)
`

// applyInEditor is graft apply on the editor route: when f.editor asks for
// it and a graft serve serves root, or the folder inside it that holds
// the files the answers change, it reads the answers, sends them there
// and reports what the editor did; done is then true and code is graft
// apply's exit status. done is false when the answers are for graft apply
// to apply to the disk: answers holds them when they were read here, to
// learn which folder they change, and is nil when nothing was read.
func applyInEditor(ctx context.Context, f *applyFlags, root *workspace.Root, target string, stdin io.Reader, stdout, stderr io.Writer) (code int, done bool, answers []answer) {
	switch f.editor {
	case editorNever:
		if f.suggest {
			return applyError(stdout, stderr, f.json, exitUsage, errors.New("--suggest shows suggestions in an editor: not with --editor never"), ""), true, nil
		}
		return 0, false, nil
	case editorAuto, editorAlways:
	default:
		err := fmt.Errorf("--editor %q: want %s, %s or %s", f.editor, editorAuto, editorAlways, editorNever)
		return applyError(stdout, stderr, f.json, exitUsage, err, "Run \"graft help apply\" for usage."), true, nil
	}
	if f.dryRun {
		if f.suggest {
			return applyError(stdout, stderr, f.json, exitUsage, errors.New("--suggest changes nothing already: not with --dry-run"), ""), true, nil
		}
		return 0, false, nil // changes nothing: the disk is read, as without an editor
	}
	socket, err := editorlink.Lookup(ctx, root.Dir(), nil)
	var files []string
	if errors.Is(err, editorlink.ErrNoServer) && !errors.Is(err, editorlink.ErrLinkDisabled) && servesInside(root) {
		// An editor may have a folder inside the root open: which
		// folder the answers change says whether it is theirs.
		answers, err = readAnswers(ctx, f.files, stdin, stderr)
		if err != nil {
			return applyError(stdout, stderr, f.json, orInterrupted(ctx, exitUsage), err, ""), true, nil
		}
		if _, files, err = editorAnswers(answers, f, root, target, io.Discard); err == nil {
			socket, err = editorlink.Lookup(ctx, root.Dir(), files)
		} else {
			err = editorlink.ErrNoServer // the disk route says what is wrong with them
		}
	}
	var split *editorlink.SplitError
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return applyError(stdout, stderr, f.json, exitInterrupted, editorInterrupted(0, 1, false), ""), true, nil
	case errors.As(err, &split):
		return applyError(stdout, stderr, f.json, exitUsage, splitEditor(split), ""), true, nil
	case !errors.Is(err, editorlink.ErrNoServer):
		// An editor may have the files open: neither the editor nor the
		// disk behind it, whatever the mode.
		return applyError(stdout, stderr, f.json, exitUsage, unreachableEditor(err), ""), true, nil
	case f.suggest:
		return applyError(stdout, stderr, f.json, exitUsage, fmt.Errorf("--suggest: %w", err),
			"Suggestions are shown in an editor: open the workspace in one that runs graft serve."), true, nil
	case f.editor == editorAlways:
		// Status 2, as for a root that does not exist: nothing was
		// tried, and the answer has not been read (unless an editor
		// serves a folder inside the root, and the answer none of it).
		return applyError(stdout, stderr, f.json, exitUsage, fmt.Errorf("--editor always: %w", err),
			"Open the workspace in an editor that runs graft serve, or use --editor auto to apply to the disk when none does."), true, nil
	default:
		if errors.Is(err, editorlink.ErrLinkDisabled) {
			fmt.Fprintf(stderr, "graft apply: not sending to the editor: %s; applying to the disk\n", escapeText(err.Error()))
		}
		return 0, false, answers
	}
	if f.threshold != engine.DefaultThreshold {
		err := errors.New("--threshold cannot go to the editor, whose graft serve uses its own threshold setting: drop --threshold, or use --editor never")
		return applyError(stdout, stderr, f.json, exitUsage, err, ""), true, nil
	}
	if answers == nil {
		answers, err = readAnswers(ctx, f.files, stdin, stderr)
	}
	var texts []string
	if err == nil {
		texts, files, err = editorAnswers(answers, f, root, target, stderr)
	}
	if err != nil {
		if ctx.Err() != nil {
			return applyError(stdout, stderr, f.json, exitInterrupted, editorInterrupted(0, 1, false), ""), true, nil
		}
		code := exitUsage
		if errors.Is(err, workspace.ErrOutsideRoot) || errors.Is(err, workspace.ErrBadName) {
			code = exitFailed // a block refused, as --editor never refuses it
		}
		return applyError(stdout, stderr, f.json, code, err, ""), true, nil
	}
	if len(texts) > 1 && f.atomic {
		err := errors.New("--atomic with several answers: the editor takes one answer at a time; join them into one")
		return applyError(stdout, stderr, f.json, exitUsage, err, ""), true, nil
	}
	var uri string
	if target != "" {
		uri = (&url.URL{Scheme: "file", Path: filepath.ToSlash(filepath.Join(root.Dir(), target))}).String()
	}
	rep := editorReport{Via: "editor", Socket: socket, Blocks: []editorlink.Block{}, Files: []workspace.FileReport{}, EditorApplied: true, Suggest: f.suggest}
	for i, text := range texts {
		r, err := editorlink.Send(ctx, root.Dir(), files, &editorlink.Request{Text: text, URI: uri, Atomic: f.atomic, Format: f.format, Suggest: f.suggest})
		if err != nil {
			return applyError(stdout, stderr, f.json, sendFailed(ctx, err), sendError(ctx, err, i, len(texts)), ""), true, nil
		}
		rep.add(r)
	}
	if f.json {
		err = encodeJSON(stdout, rep)
	} else {
		err = rep.writeSummary(stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "graft apply: %v\n", err)
		return exitFailed, true, nil
	}
	if !rep.ok() {
		return exitFailed, true, nil
	}
	return exitOK, true, nil
}

// servesInside reports whether a graft serve registered a folder inside
// root.
func servesInside(root *workspace.Root) bool {
	inside, _ := editorlink.Inside(root.Dir())
	return len(inside) > 0
}

// splitEditor is the error of graft apply when the answers change files
// in a folder inside the root that an editor serves and files outside it
// (see editorlink.SplitError): nothing is written, to the editor or to
// the disk behind it.
func splitEditor(split *editorlink.SplitError) error {
	var roots []string
	for _, f := range slices.Sorted(maps.Keys(split.Served)) {
		roots = append(roots, "--root "+f)
	}
	return fmt.Errorf("not applied: %w. An editor takes only the files of its own folders, and writing the others to the disk while it takes its own could leave the answer half applied. Nothing was written, to the editor or to the disk. "+
		"Apply the edits of each folder on their own (graft apply %s for the editor's), or run with --editor never to write the disk anyway", split, strings.Join(roots, " or "))
}

// unreachableEditor is the error of graft apply when editorlink.Lookup
// failed with err, an error that says an editor may serve the root but
// cannot be reached safely: the answer goes neither to the editor nor to
// the disk behind it, and the error says how to fix that.
func unreachableEditor(err error) error {
	fix := ""
	var ue *editorlink.UnreachableError
	if errors.As(err, &ue) && ue.Fix != "" {
		fix = ue.Fix + "; or "
	}
	return fmt.Errorf("not applied: an editor may have these files open, and the editor link to it cannot be used safely: %w. Nothing was written, to the editor or to the disk behind it. To fix it, %srun with --editor never to write the disk anyway", err, fix)
}

// sendFailed is graft apply's exit status when sending an answer to the
// editor failed with err: 130 when ctx was interrupted, 1 otherwise.
func sendFailed(ctx context.Context, err error) int {
	if ctx.Err() != nil {
		return exitInterrupted
	}
	return exitFailed
}

// sendError is the error of graft apply when sending answer i (of n, the
// earlier ones sent and answered) to the editor failed with err: it says
// what may have reached the editor.
func sendError(ctx context.Context, err error, i, n int) error {
	var se *editorlink.ServerError
	sent := errors.Is(err, editorlink.ErrNoReply)
	switch {
	case ctx.Err() != nil && (sent || !errors.As(err, &se)):
		return editorInterrupted(i, n, sent)
	case ctx.Err() != nil:
		err = fmt.Errorf("interrupted: %w", err)
	case sent:
		err = fmt.Errorf("sending to the editor: %w; the editor may have applied the edit: check its buffers before running graft apply again", err)
	default:
		err = fmt.Errorf("sending to the editor: %w", err)
	}
	if i > 0 {
		err = fmt.Errorf("%w (the %s before it went to the editor)", err, plural(i, "answer"))
	}
	return err
}

// editorInterrupted is the error of graft apply interrupted on the editor
// route, saying what reached the editor: of n answers, the first done
// were sent and answered, and the next one was sent (it reached the
// editor's graft serve, whose reply did not come back) or not.
func editorInterrupted(done, n int, sent bool) error {
	const check = "check the editor's buffers before running graft apply again"
	switch {
	case done == 0 && !sent:
		return errors.New("interrupted before the answer was sent to the editor: nothing changed")
	case done == 0 && n == 1:
		return errors.New("interrupted after the answer was sent to the editor, before it answered: it may have applied it; " + check)
	case done == 0:
		return fmt.Errorf("interrupted after answer 1 of %d was sent to the editor, before it answered: it may have applied it, and sent no other; %s", n, check)
	case !sent:
		return fmt.Errorf("interrupted after %d of %d answers went to the editor, before answer %d was sent: %s", done, n, done+1, check)
	}
	return fmt.Errorf("interrupted after %d of %d answers went to the editor and answer %d was sent, before it answered: the editor may have applied it; %s", done, n, done+1, check)
}

// editorAnswers returns the text of each of the answers that holds edit
// blocks, and the files, absolute, that their blocks change; none is an
// error.
func editorAnswers(answers []answer, f *applyFlags, root *workspace.Root, target string, stderr io.Writer) (texts, files []string, err error) {
	opt := dialect.Options{Format: f.format, Target: target, Exists: root.Exists}
	var names []string
	for _, a := range answers {
		names = append(names, a.name)
		blocks, err := dialect.Parse(a.text, opt)
		switch {
		case errors.Is(err, dialect.ErrNoBlocks):
			if len(answers) > 1 {
				fmt.Fprintf(stderr, "graft apply: %s: no edit blocks\n", a.name)
			}
			continue
		case err != nil:
			return nil, nil, fmt.Errorf("%s: %w", a.name, err)
		}
		changed, err := confined(blocks, root)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", a.name, err)
		}
		texts = append(texts, a.text)
		files = append(files, changed...)
	}
	if len(texts) == 0 {
		return nil, nil, fmt.Errorf("no edit blocks in %s", strings.Join(names, ", "))
	}
	slices.Sort(files)
	return texts, slices.Compact(files), nil
}

// shownNumber returns the number of the block of a report as a person
// counts the answer's blocks: its Block, or from its Index when a graft
// serve of an earlier version sent none.
func shownNumber(r workspace.BlockReport) int {
	if r.Block > 0 {
		return r.Block
	}
	return r.Index + 1
}

// confined returns the files, absolute, that the blocks change, and an
// error when a block names a path outside root. The editor's graft serve
// refuses such a request as well (it may serve other folders, which root
// does not include); checking here first says so before anything is
// sent.
func confined(blocks []dialect.Block, root *workspace.Root) ([]string, error) {
	var files []string
	for i, b := range blocks {
		for _, name := range []string{b.Path, b.NewPath} {
			if name == "" {
				continue
			}
			abs, err := root.Path(name)
			if err != nil {
				n := b.Number
				if n == 0 {
					n = i + 1
				}
				return nil, fmt.Errorf("block %d: %w; nothing was sent to the editor", n, err)
			}
			files = append(files, abs)
		}
	}
	return files, nil
}

// editorReport is the JSON report of graft apply on the editor route:
// graft apply --json's fields, each block's entry with the document and
// range the editor has for it, and where the edits went.
type editorReport struct {
	// Via is "editor": the edits went to the editor's graft serve, which
	// sent them to the editor as workspace/applyEdit; graft wrote nothing.
	Via string `json:"via"`
	// Socket is the editor link socket the answer went through.
	Socket string             `json:"socket"`
	Blocks []editorlink.Block `json:"blocks"`
	// Files lists the files the applied blocks name, with action
	// "editor": the editor changed its buffer, or the file for a file
	// operation or a file it had not open.
	Files   []workspace.FileReport `json:"files"`
	Applied int                    `json:"applied"`
	// AlreadyApplied counts the blocks whose change stood already.
	AlreadyApplied int `json:"alreadyApplied"`
	Failed         int `json:"failed"`
	Skipped        int `json:"skipped"`
	// EditorApplied says the editor applied every edit it was sent;
	// FailureReason says why not.
	EditorApplied bool   `json:"editorApplied"`
	FailureReason string `json:"failureReason,omitempty"`
	// Suggest says the blocks went as pending suggestions, which apply
	// nothing; Suggestions are those the editor now shows.
	Suggest     bool              `json:"suggest,omitempty"`
	Suggestions []json.RawMessage `json:"suggestions,omitempty"`
}

// add adds the reply to one answer to the report.
func (r *editorReport) add(rep *editorlink.Reply) {
	offset := len(r.Blocks)
	for _, b := range rep.Blocks {
		b.Index += offset
		r.Blocks = append(r.Blocks, b)
		switch engine.Status(b.Status) {
		case engine.StatusApplied:
			r.Applied++
		case engine.StatusAlreadyApplied:
			r.AlreadyApplied++
		case engine.StatusFailed:
			r.Failed++
		case engine.StatusSkipped:
			r.Skipped++
		}
	}
	r.Suggestions = append(r.Suggestions, rep.Suggestions...)
	if !rep.Applied && !r.Suggest {
		r.EditorApplied = false
		if r.FailureReason == "" {
			r.FailureReason = rep.FailureReason
		}
	}
	seen := map[string]bool{}
	for _, f := range r.Files {
		seen[f.Path] = true
	}
	for _, b := range rep.Blocks {
		if r.Suggest {
			break // a suggestion changes no file
		}
		if engine.Status(b.Status) == engine.StatusApplied && b.Path != "" && !seen[b.Path] {
			seen[b.Path] = true
			r.Files = append(r.Files, workspace.FileReport{Path: b.Path, Action: "editor", Changed: rep.Applied})
		}
	}
}

// ok reports whether every block applied and the editor took the edits.
func (r *editorReport) ok() bool {
	return r.EditorApplied && r.Failed == 0 && r.Skipped == 0
}

// writeSummary writes the report for people, as graft apply's summary,
// and says where the edits went.
func (r *editorReport) writeSummary(w io.Writer) error {
	var b strings.Builder
	for _, bl := range r.Blocks {
		path := displayPath(bl.Path)
		if bl.Path == "" {
			path = "(no file)"
		}
		switch {
		case bl.StartLine <= 0:
		case bl.EndLine <= bl.StartLine:
			path = fmt.Sprintf("%s:%d", path, bl.StartLine)
		default:
			path = fmt.Sprintf("%s:%d-%d", path, bl.StartLine, bl.EndLine)
		}
		fmt.Fprintf(&b, "block %d: %s %s", shownNumber(bl.BlockReport), bl.Status, path)
		if engine.Status(bl.Status).OK() || bl.Strategy != "" {
			fmt.Fprintf(&b, " (%s, %.2f)", bl.Strategy, bl.Score)
		}
		b.WriteString("\n")
		if bl.Message != "" {
			b.WriteString(indent(escapeText(bl.Message), "    "))
		}
	}
	if r.Suggest {
		fmt.Fprintf(&b, "%d suggested, %d failed, %d skipped; shown in the editor as pending suggestions, to apply or dismiss there; nothing changed\n",
			r.Applied, r.Failed, r.Skipped)
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "%d applied, ", r.Applied)
	if r.AlreadyApplied > 0 {
		fmt.Fprintf(&b, "%d already applied, ", r.AlreadyApplied)
	}
	fmt.Fprintf(&b, "%d failed, %d skipped; ", r.Failed, r.Skipped)
	switch {
	case !r.EditorApplied:
		reason := r.FailureReason
		if reason == "" {
			reason = "it did not say why"
		}
		fmt.Fprintf(&b, "the editor did not apply the edits: %s\n", escapeText(reason))
	case r.Applied == 0:
		b.WriteString("nothing sent to the editor\n")
	default:
		fmt.Fprintf(&b, "sent to the editor (%s): its buffers changed, not the disk; save them there\n", plural(len(r.Files), "file"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
