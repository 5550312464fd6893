package history

import (
	"fmt"
	"io"

	"github.com/graft-editor/graft/engine"
)

// A History is the earlier versions of a root's files that a command
// consults (see workspace.History): the journal's, most recent first,
// then git's staged and HEAD versions.
type History struct {
	// Journal, when set, gives the texts Graft's writes replaced and
	// records new ones.
	Journal *Journal
	// Git, when set, gives the staged and committed versions.
	Git *Git
	// Warn, when set, receives what could not be recorded.
	Warn io.Writer
}

// Options choose what a History consults.
type Options struct {
	// Journal turns the journal on; the environment may turn it off
	// still (EnvJournal).
	Journal bool
	// By names the command that writes ("graft apply", "graft mcp").
	By string
	// Git consults git.
	Git bool
	// Warn receives the warnings: the journal that cannot be opened, a
	// version that cannot be recorded.
	Warn io.Writer
}

// New returns the history of the workspace root dir. A journal that
// cannot be opened (no state directory, an insecure one) is left out,
// with a warning.
func New(root string, opt Options) *History {
	h := &History{Warn: opt.Warn}
	if opt.Journal && !JournalOff() {
		state, err := StateDir()
		if err == nil {
			h.Journal, err = OpenJournal(state, root, opt.By)
		}
		if err != nil {
			h.warn("%s: the journal is off: %v", opt.By, err)
		}
	}
	if opt.Git {
		h.Git = &Git{}
	}
	return h
}

func (h *History) warn(format string, args ...any) {
	if h.Warn != nil {
		fmt.Fprintf(h.Warn, format+"\n", args...)
	}
}

// Versions returns the earlier versions of the file at abs, most recent
// first.
func (h *History) Versions(abs string) []engine.Version {
	var vs []engine.Version
	if h.Journal != nil {
		vs = append(vs, h.Journal.Versions(abs)...)
	}
	if h.Git != nil {
		vs = append(vs, h.Git.Versions(abs)...)
	}
	return vs
}

// RecordShown keeps the text a refused block showed of a file in the
// journal, if any (see workspace.ShownHistory).
func (h *History) RecordShown(abs, text string) {
	if h.Journal == nil {
		return
	}
	if err := h.Journal.RecordShown(abs, text); err != nil {
		h.warn("%s: %v", h.Journal.By, err)
	}
}

// Record keeps the text a write replaced, and the text it wrote, in the
// journal, if any.
func (h *History) Record(abs, before, after string) {
	if h.Journal == nil {
		return
	}
	if err := h.Journal.Record(abs, before, after); err != nil {
		h.warn("%s: %v", h.Journal.By, err)
	}
}
