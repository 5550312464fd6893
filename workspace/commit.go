package workspace

import (
	"context"
	"errors"
	"fmt"

	"github.com/graft-editor/graft/engine"
	"github.com/graft-editor/graft/engine/dialect"
)

// ErrChangedOnDisk is wrapped by the error Commit reports for a file whose
// content changed between Plan and Commit; the file is left alone.
var ErrChangedOnDisk = errors.New("changed on disk since the edits were planned")

// CommitOptions tune CommitWith.
type CommitOptions struct {
	// Atomic makes the commit a transaction: every file is staged before
	// any is written, and when one cannot be written the files already
	// written are restored, so that either every file changes or none.
	Atomic bool
	// Force changes read-only files too.
	Force bool
}

// Commit is CommitWith with the default options: each file on its own,
// read-only files refused.
func Commit(ctx context.Context, root *Root, res *Result) error {
	return CommitWith(ctx, root, res, CommitOptions{})
}

// CommitWith writes the files res changes under root, in the order of
// res.Files, each all or nothing: its new content is written to a synced
// temporary file beside it, which is renamed over it (a file with other
// hard links is rewritten in place instead, so that they all see the
// change, with a copy of its old text beside it until it is done, as Vim's
// backupcopy does). A file keeps its mode, without the setuid and setgid bits, and
// its owner and group when the process may give them. Right before each
// rename, the file is checked to hold what the plan read; a file changed
// meanwhile is left alone, with ErrChangedOnDisk. A new file is created
// exclusively, never over one that appeared meanwhile. A deletion or a
// move of a symbolic link acts on the link itself.
//
// A file that is not written is reported so in res: the blocks that
// applied to it fail with the reason ("a.txt not written: ..."), and it no
// longer counts as changed. The error returned joins every such failure.
// With opt.Atomic, one failure leaves every file as it was. Concurrent
// graft processes must hold the root's lock (see Root.Lock and Apply).
func CommitWith(ctx context.Context, root *Root, res *Result, opt CommitOptions) error {
	if opt.Atomic {
		return commitAtomic(ctx, root, res, opt)
	}
	var errs []error
	for i := range res.Files {
		f := &res.Files[i]
		if !f.Changed {
			continue
		}
		err := ctx.Err()
		var c *change
		if err == nil {
			c, err = root.stage(f, opt.Force)
		}
		if err == nil {
			err = c.commit()
			c.cleanup()
		}
		if err != nil {
			errs = append(errs, notWritten(res, i, err))
			continue
		}
		res.annotate(i, c.notes)
	}
	return errors.Join(errs...)
}

// commitAtomic is CommitWith for a transaction.
func commitAtomic(ctx context.Context, root *Root, res *Result, opt CommitOptions) error {
	var changes []*change
	var files []int
	defer func() {
		for _, c := range changes {
			c.cleanup()
		}
	}()
	written := map[int]bool{} // written, and could not be restored
	failAll := func(failed int, err error) error {
		errs := []error{notWritten(res, failed, err)}
		for _, i := range files {
			if i != failed && !written[i] {
				notWritten(res, i, fmt.Errorf("the edits are atomic, and %s could not be written", res.Files[failed].Path))
			}
		}
		return errors.Join(errs...)
	}
	for i := range res.Files {
		f := &res.Files[i]
		if !f.Changed {
			continue
		}
		files = append(files, i)
		err := ctx.Err()
		var c *change
		if err == nil {
			c, err = root.stage(f, opt.Force)
		}
		if err != nil {
			return failAll(i, err)
		}
		changes = append(changes, c)
	}
	for k, c := range changes {
		err := ctx.Err()
		if err == nil {
			err = c.commit()
		}
		if err == nil {
			continue
		}
		var undoErrs []error
		for j := k - 1; j >= 0; j-- {
			if uerr := changes[j].undo(); uerr != nil {
				undoErrs = append(undoErrs, fmt.Errorf("%s was written and could not be restored: %w", res.Files[files[j]].Path, uerr))
			}
		}
		for j, c := range changes {
			if c.done { // say so, rather than "not written"
				res.annotate(files[j], []string{"written although the transaction failed: it could not be restored"})
				written[files[j]] = true
			}
		}
		return errors.Join(append([]error{failAll(files[k], err)}, undoErrs...)...)
	}
	for j, c := range changes {
		res.annotate(files[j], c.notes)
	}
	return nil
}

// notWritten records in res that file i was not written, for the reason
// err, and returns the error that says so.
func notWritten(res *Result, i int, err error) error {
	err = fmt.Errorf("%s not written: %w", res.Files[i].Path, err)
	res.Fail(i, err)
	return err
}

// annotate adds notes to the message of every block that applied to file i.
func (r *Result) annotate(i int, notes []string) {
	if len(notes) == 0 {
		return
	}
	for _, b := range r.Files[i].Blocks {
		br := &r.Blocks[b]
		if br.Status != engine.StatusApplied {
			continue
		}
		for _, n := range notes {
			if br.Message != "" {
				br.Message += "\n"
			}
			br.Message += n
		}
	}
}

// ApplyOptions tune Apply.
type ApplyOptions struct {
	// Plan tunes the plan; Plan.Atomic makes the commit a transaction.
	Plan PlanOptions
	// Force changes read-only files too.
	Force bool
}

// Apply plans blocks against the files under root and writes what they
// change, safely among concurrent graft processes: it plans, takes the
// root's lock, and when a file the plan changes is no longer what the plan
// read (another process wrote it meanwhile), plans again against what is
// on disk now, so that no edit is lost; then it commits (see CommitWith),
// records in Plan.History what it wrote and, for a ShownHistory, the text
// of each file a block was refused in and no write changed, and releases
// the lock. The result says what happened to every block and file; the
// error is only for an interruption or a lock that cannot be taken, every
// write failure being reported in the result.
func Apply(ctx context.Context, root *Root, blocks []dialect.Block, opt ApplyOptions) (*Result, error) {
	res, err := Plan(ctx, root.Links(), blocks, opt.Plan)
	if err != nil {
		return nil, err
	}
	shown, _ := opt.Plan.History.(ShownHistory)
	if !res.changes() {
		if shown != nil {
			recordShown(ctx, root, res, shown)
		}
		return res, nil
	}
	unlock, err := root.Lock(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if root.stale(res) {
		if res, err = Plan(ctx, root.Links(), blocks, opt.Plan); err != nil {
			return nil, err
		}
	}
	err = CommitWith(ctx, root, res, CommitOptions{Atomic: opt.Plan.Atomic, Force: opt.Force})
	if h := opt.Plan.History; h != nil {
		// Under the lock: two processes never record at once.
		for i := range res.Files {
			f := &res.Files[i]
			switch {
			case f.Changed && f.Err == nil:
				// A moved file's history is its new name's: a block naming
				// that and quoting the text from before the move is stale.
				// A deleted file's text is kept too, for the file created
				// at its name later.
				h.Record(f.AbsAfter(), f.Before, f.TextAfter())
			case shown != nil && res.showed(f):
				shown.RecordShown(f.Abs(), f.Before)
			}
		}
	}
	if cerr := ctx.Err(); cerr != nil {
		// The result says which files were written before it stopped.
		return res, fmt.Errorf("interrupted while writing: %w", cerr)
	}
	return res, nil
}

// recordShown keeps in h the text of each file that a block of res was
// refused in (see ShownHistory), with the root locked. Nothing is kept
// when the lock cannot be taken: the refusal stands as it is.
func recordShown(ctx context.Context, root *Root, res *Result, h ShownHistory) {
	var files []*FileChange
	for i := range res.Files {
		if f := &res.Files[i]; res.showed(f) {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return
	}
	unlock, err := root.Lock(ctx)
	if err != nil {
		return
	}
	defer unlock()
	for _, f := range files {
		h.RecordShown(f.Abs(), f.Before)
	}
}

// showed reports whether the result showed the text of f without
// changing it: the file exists, stays as it is, and the resolver refused
// one of its blocks, whose message quotes its lines. A block that failed
// otherwise (a write, an interruption) showed nothing of them.
func (r *Result) showed(f *FileChange) bool {
	if f.Changed || !f.Existed {
		return false
	}
	for _, i := range f.Blocks {
		var ee *engine.Error
		if b := &r.Blocks[i]; b.Status == engine.StatusFailed && errors.As(b.Err, &ee) && ee.Reason != engine.ReasonSkipped {
			return true
		}
	}
	return false
}

// changes reports whether the result changes a file.
func (r *Result) changes() bool {
	for _, f := range r.Files {
		if f.Changed {
			return true
		}
	}
	return false
}

// stale reports whether a file the result reads is no longer what the plan
// read, or a move's destination has appeared.
func (r *Root) stale(res *Result) bool {
	for _, f := range res.Files {
		rel, err := r.local(f.abs)
		if err != nil {
			continue
		}
		doc, _, err := r.read(rel)
		if err != nil || doc.Exists != f.Existed || doc.Text != f.Before {
			return true
		}
		if f.newAbs != "" {
			if dst, err := r.local(f.newAbs); err == nil {
				if _, err := r.fsys.Lstat(dst); err == nil {
					return true
				}
			}
		}
	}
	return false
}
