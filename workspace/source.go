package workspace

import (
	"context"
	"io/fs"
)

// A Document is the text of one file as the edits see it.
type Document struct {
	// Text is the file's content; empty when it does not exist.
	Text string
	// Exists reports whether the file exists.
	Exists bool
	// Mode holds the file's permission bits; zero when it does not exist.
	Mode fs.FileMode
}

// A Source is where a plan reads the documents it edits and how it maps
// the paths that edits name. *Root reads them from disk; an editor session
// can put its open buffers in front of a Root.
type Source interface {
	// Path maps a path as an edit wrote it to an absolute path inside
	// the workspace, or fails with an error that names the path.
	Path(name string) (string, error)
	// Rel returns abs relative to the workspace root, slash-separated.
	Rel(abs string) string
	// Read returns the document at name, a path Path accepts.
	Read(ctx context.Context, name string) (Document, error)
}

var _ Source = (*Root)(nil)
