package workspace

import (
	"context"
	"errors"
	"fmt"

	"github.com/graft-editor/graft/engine"
)

// ErrChangedOnDisk is wrapped by the error Commit reports for a file whose
// content changed between Plan and Commit; the file is left alone.
var ErrChangedOnDisk = errors.New("changed on disk since the edits were planned")

// Commit writes the files res changes under root, each atomically and with
// its mode kept, in the order of res.Files. A file that changed on disk
// since the plan read it is left alone. When a file cannot be written, the
// blocks that applied to it are marked failed in res with the reason, the
// other files are still written, and the error returned joins every such
// failure.
func Commit(ctx context.Context, root *Root, res *Result) error {
	var errs []error
	for i := range res.Files {
		f := &res.Files[i]
		if !f.Changed {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := commitFile(root, f); err != nil {
			err = fmt.Errorf("%s not written: %w", f.Path, err)
			errs = append(errs, err)
			for _, b := range f.Blocks {
				if r := &res.Blocks[b]; r.Status == engine.StatusApplied {
					r.Status, r.Err, r.Message = engine.StatusFailed, err, err.Error()
				}
			}
		}
	}
	return errors.Join(errs...)
}

// commitFile writes one file's change, after checking that the file is
// still what the plan read.
func commitFile(root *Root, f *FileChange) error {
	now, err := root.ReadFile(f.abs)
	if err != nil {
		return err
	}
	if now.Exists != f.Existed || now.Text != f.Before {
		return ErrChangedOnDisk
	}
	switch {
	case !f.Exists:
		if f.Existed {
			return root.Remove(f.abs)
		}
		return nil
	case f.newAbs != "":
		if f.Existed {
			// A rename keeps the file's mode and identity; the new
			// text, if any, is then written over it.
			if err := root.Rename(f.abs, f.newAbs); err != nil {
				return err
			}
			if f.After == f.Before {
				return nil
			}
		}
		return root.WriteFile(f.newAbs, f.After)
	default:
		return root.WriteFile(f.abs, f.After)
	}
}
