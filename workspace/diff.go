package workspace

import (
	"github.com/aymanbagabas/go-udiff"
)

// devNull is the name a unified diff gives the missing side of a created
// or deleted file.
const devNull = "/dev/null"

// Diff returns the change as a unified diff, labelled a/Path and b/Path
// (b/NewPath for a move), and /dev/null for the side of a created or
// deleted file. It is empty when the file does not change, and holds only
// the two labels for a move that keeps the content.
func (f *FileChange) Diff() string {
	if !f.Changed {
		return ""
	}
	from, to := "a/"+f.Path, "b/"+f.Path
	if f.NewPath != "" {
		to = "b/" + f.NewPath
	}
	if !f.Existed {
		from = devNull
	}
	if !f.Exists {
		to = devNull
	}
	d := udiff.Unified(from, to, f.Before, f.After)
	if d == "" {
		// A move that keeps the content, or an empty file created or
		// deleted: the labels alone say what happens.
		d = "--- " + from + "\n+++ " + to + "\n"
	}
	return d
}
