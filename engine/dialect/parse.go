// Package dialect parses the edit formats agents write into engine.Edits.
//
// Each dialect lives in its own file and is listed once in the registry
// below; [Parse] runs one dialect, or all of them when the format is left to
// detection, and returns every block it read, malformed ones included, so
// that the caller can report each.
package dialect

import (
	"errors"
	"fmt"
	"strings"

	"github.com/graft-editor/graft/engine"
)

// The names of the dialects, as --format and the JSON report spell them.
const (
	SearchReplace = "search-replace"
	StrReplace    = "str-replace"
	EditV3        = "edit-v3"
	ApplyPatch    = "apply-patch"
	UnifiedDiff   = "unified-diff"
)

// Options: Format forces a dialect ("" = detect); Target is the path for
// blocks that name none; Exists tells which bare names are files.
type Options struct {
	// Format is the name of the dialect to read; "" detects it.
	Format string
	// Target is the path given to blocks that name no file; it may be empty,
	// and the caller then reports the blocks that lack a path.
	Target string
	// Exists reports whether a file exists at path (relative to the
	// workspace root, slash-separated). A bare name without a folder or an
	// extension ("Pipfile", "VERSION", "configure") alone on a line before
	// a block, or in a small code fence before it, names the block's file
	// only when Exists says it exists; nil knows of no file, and such names
	// stay prose. Parse calls it for a few lines before each block at most.
	Exists func(path string) bool
}

// A Block is one edit read from the text; Err is set when the block is
// malformed (Edit then holds what could be read: at least Dialect and Source,
// and Path when known). A malformed block becomes a failed block in the
// report, it does not stop the others.
//
// A deletion (engine.OpDelete) carries in Old the lines it removes, which
// must be the whole file for it to apply, as git apply requires of a
// diff to /dev/null: a diff without hunks has an empty Old, and only
// deletes an empty file. A dialect whose deletion names no content at all
// (apply-patch's "*** Delete File") sets Unchecked instead.
type Block struct {
	engine.Edit
	// Err says what is wrong with a malformed block; nil for a good one.
	Err error
	// Unchecked marks a deletion that the dialect's own rule lets through
	// whatever the file holds: its content is not checked, and the report
	// says so.
	Unchecked bool
	// Number is the block's number in the answer as a person counts its
	// blocks, from 1: the file sections of one apply-patch ("*** Begin
	// Patch" to "*** End Patch") are one block to a reader, and share it.
	// Zero for a block that no answer text numbered.
	Number int

	// envelope is the 1-based line where the patch the block is a section
	// of begins; 0 for a block of another dialect.
	envelope int
}

// Clone returns b with its strings copied: it keeps no text alive but
// its own, where a block read from an answer holds parts of the answer's
// text, and so all of it. What keeps blocks across texts of an answer
// that changes keeps clones (a Parser, a workspace.PlanCache), lest it
// keep every text the answer had.
func (b Block) Clone() Block {
	b.Path, b.NewPath = strings.Clone(b.Path), strings.Clone(b.NewPath)
	b.Old, b.New = strings.Clone(b.Old), strings.Clone(b.New)
	if b.Scope != nil {
		scope := make([]string, len(b.Scope))
		for i, s := range b.Scope {
			scope[i] = strings.Clone(s)
		}
		b.Scope = scope
	}
	return b
}

// number numbers the blocks as a person counts them (see Block.Number).
func number(blocks []Block) {
	n := 0
	for i := range blocks {
		if i == 0 || blocks[i].envelope == 0 || blocks[i].envelope != blocks[i-1].envelope {
			n++
		}
		blocks[i].Number = n
	}
}

// Count returns how many blocks a person counts among blocks, which are in
// the order of the text: the file sections of one apply-patch, which share
// a Number, are one; a block without a number is one of its own.
func Count(blocks []Block) int {
	return CountNumbered(len(blocks), func(i int) int { return blocks[i].Number })
}

// CountNumbered is Count for n blocks in the order of the text whose
// numbers (see Block.Number) number(i) gives.
func CountNumbered(n int, number func(i int) int) int {
	count := 0
	for i := range n {
		if k := number(i); k == 0 || i == 0 || k != number(i-1) {
			count++
		}
	}
	return count
}

// ErrNoBlocks is returned by [Parse] when the text holds no edit block at
// all, not even a malformed one.
var ErrNoBlocks = errors.New("dialect: no edit blocks in the text")

// ErrUnfinished is wrapped by the Err of a block the text ends in, before
// the marker that closes it: an answer cut off, or one still being
// written (a chat buffer that streams it in). Nothing of such a block is
// applied.
var ErrUnfinished = errors.New("the block is not finished: the answer may be cut off, or still being written")

// unfinished returns the error of a block that the text ends in at line
// at (0-based), where it began at line open: what was expected there.
func unfinished(at, open int, problem string) error {
	return fmt.Errorf("line %d: %s (block starting at line %d): %w", at+1, problem, open+1, ErrUnfinished)
}

// A dialect is one edit format: its name and the parser that reads every
// block of that format in a document, in the order of the text.
type dialect struct {
	name  string
	parse func(*document) []Block
}

// dialects is the registry of known formats: adding a dialect is adding its
// file and one line here. The order is the order of [Names] and decides
// which block comes first when blocks of two dialects start on the same line.
var dialects = [...]dialect{
	{SearchReplace, parseSearchReplace},
	{StrReplace, parseStrReplace},
	{EditV3, parseEditV3},
	{ApplyPatch, parseApplyPatch},
	{UnifiedDiff, parseUnifiedDiff},
}

// Names returns the names of the known dialects.
func Names() []string {
	names := make([]string, len(dialects))
	for i, d := range dialects {
		names[i] = d.name
	}
	return names
}

// Parse reads the edit blocks in text, in the order they appear. It fails
// only for an unknown opt.Format, or with [ErrNoBlocks] when the text holds
// no block at all; a malformed block is returned with its Err set. A block
// that names no file is for opt.Target, and malformed when that is empty.
func Parse(text string, opt Options) ([]Block, error) {
	return parseDocument(newDocument(text), opt)
}

// parseDocument is Parse for the text of doc.
func parseDocument(doc *document, opt Options) ([]Block, error) {
	doc.exists = opt.Exists
	var blocks []Block
	if opt.Format == "" {
		blocks = detectBlocks(doc)
	} else {
		d, ok := lookup(opt.Format)
		if !ok {
			return nil, fmt.Errorf("dialect: unknown format %q (known: %s)", opt.Format, strings.Join(Names(), ", "))
		}
		blocks = d.parse(doc)
	}
	if len(blocks) == 0 {
		return nil, ErrNoBlocks
	}
	number(blocks)
	for i := range blocks {
		b := &blocks[i]
		switch {
		case b.Path != "":
		case opt.Target != "":
			b.Path = opt.Target
		case b.Err == nil:
			b.Err = fmt.Errorf("line %d: the block names no file, and no target file was given", b.Source.StartLine)
		}
	}
	return blocks, nil
}

// lookup returns the dialect called name.
func lookup(name string) (dialect, bool) {
	for _, d := range dialects {
		if d.name == name {
			return d, true
		}
	}
	return dialect{}, false
}
