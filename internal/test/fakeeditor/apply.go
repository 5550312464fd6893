package fakeeditor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/segmentio/encoding/json"
	"go.lsp.dev/uri"
)

// applyEditRequest answers workspace/applyEdit: it applies the edit to the
// buffers and the disk as the editor's flavour does, sending didOpen,
// didChange and didClose as it goes, and records it.
func (e *Editor) applyEditRequest(params json.RawMessage) (any, error) {
	rec := AppliedEdit{Params: params}
	if err := json.Unmarshal(params, &rec.Decoded); err != nil {
		rec.Err = fmt.Errorf("decoding workspace/applyEdit params: %w", err)
		e.rec.mu.Lock()
		e.rec.protocolError("%v: %s", rec.Err, params)
		e.rec.mu.Unlock()
		e.rec.edit(rec)
		return nil, &ResponseError{Code: CodeInvalidParams, Message: rec.Err.Error()}
	}
	e.mu.Lock()
	rec.Result, rec.Skipped = e.applyLocked(&rec.Decoded.Edit)
	e.mu.Unlock()
	e.rec.edit(rec)
	return rec.Result, nil
}

// ApplyWorkspaceEdit applies edit as if the server had sent it in a
// workspace/applyEdit request, and returns the editor's answer. It is meant
// for testing the editor itself.
func (e *Editor) ApplyWorkspaceEdit(edit *WorkspaceEdit) ApplyWorkspaceEditResult {
	e.mu.Lock()
	defer e.mu.Unlock()
	res, _ := e.applyLocked(edit)
	return res
}

// applyLocked applies edit; e.mu is held.
func (e *Editor) applyLocked(edit *WorkspaceEdit) (ApplyWorkspaceEditResult, []int) {
	fail := func(i int, err error) ApplyWorkspaceEditResult {
		res := ApplyWorkspaceEditResult{FailureReason: err.Error()}
		if e.opt.Flavor == FlavorVSCode {
			n := uint32(i)
			res.FailedChange = &n
		}
		return res
	}
	changes := edit.DocumentChanges
	if changes == nil {
		// The changes map, in a stable order.
		keys := make([]string, 0, len(edit.Changes))
		for u := range edit.Changes {
			keys = append(keys, string(u))
		}
		sort.Strings(keys)
		for _, k := range keys {
			changes = append(changes, DocumentChange{TextDocumentEdit: &TextDocumentEdit{
				TextDocument: VersionedDocument{URI: uri.URI(k)},
				Edits:        edit.Changes[uri.URI(k)],
			}})
		}
	}
	if e.opt.Flavor == FlavorVSCode {
		// VS Code checks every versioned text edit before applying any.
		for i, c := range changes {
			t := c.TextDocumentEdit
			if t == nil || t.TextDocument.Version == nil {
				continue
			}
			have := int32(1) // the version an unopened file gets when loaded
			if d, ok := e.docs[canonical(t.TextDocument.URI)]; ok {
				have = d.version
			}
			if *t.TextDocument.Version != have {
				return fail(i, fmt.Errorf("bad state - version mismatch for %s: edit is for version %d, the document is at %d",
					t.TextDocument.URI, *t.TextDocument.Version, have)), nil
			}
		}
	}
	var skipped []int
	for i, c := range changes {
		var err error
		switch {
		case c.TextDocumentEdit != nil:
			var skip bool
			skip, err = e.applyTextLocked(c.TextDocumentEdit)
			if skip {
				skipped = append(skipped, i)
			}
		case c.CreateFile != nil:
			err = e.createLocked(c.CreateFile)
		case c.RenameFile != nil:
			err = e.renameLocked(c.RenameFile)
		case c.DeleteFile != nil:
			err = e.deleteLocked(c.DeleteFile)
		default:
			err = errors.New("empty documentChanges entry")
		}
		if err != nil {
			return fail(i, err), skipped
		}
	}
	return ApplyWorkspaceEditResult{Applied: true}, skipped
}

// applyTextLocked applies one TextDocumentEdit to its buffer, loading an
// unopened file from disk into a new buffer first (never saving it). It
// reports whether it skipped the edit as stale (Neovim 0.7.2).
func (e *Editor) applyTextLocked(t *TextDocumentEdit) (skipped bool, err error) {
	u := canonical(t.TextDocument.URI)
	d, open := e.docs[u]
	if v := t.TextDocument.Version; open && v != nil && e.opt.Flavor == FlavorNeovim072 && *v > 0 && d.version > *v {
		// Neovim 0.7.2 prints "Buffer ... newer than edits." and goes on.
		return true, nil
	}
	if !open {
		path, err := filename(u)
		if err != nil {
			return false, err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return false, fmt.Errorf("loading %s: %w", path, err)
		}
		if err := e.openLocked(u, LanguageID(path), string(b)); err != nil {
			return false, err
		}
		d = e.docs[u]
	}
	if len(t.Edits) == 0 {
		return false, nil
	}
	return false, e.changeLocked(u, d, t.Edits)
}

func (e *Editor) createLocked(c *CreateFile) error {
	path, err := filename(c.URI)
	if err != nil {
		return err
	}
	opt := CreateOrRenameOptions{}
	if c.Options != nil {
		opt = *c.Options
	}
	if _, err := os.Lstat(path); err == nil {
		switch {
		case opt.Overwrite:
		case opt.IgnoreIfExists:
			return nil
		default:
			return fmt.Errorf("create %s: file already exists", path)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	return nil
}

func (e *Editor) renameLocked(r *RenameFile) error {
	oldPath, err := filename(r.OldURI)
	if err != nil {
		return err
	}
	newPath, err := filename(r.NewURI)
	if err != nil {
		return err
	}
	opt := CreateOrRenameOptions{}
	if r.Options != nil {
		opt = *r.Options
	}
	if _, err := os.Lstat(oldPath); err != nil {
		return fmt.Errorf("rename %s: %w", oldPath, err)
	}
	if _, err := os.Lstat(newPath); err == nil {
		switch {
		case opt.Overwrite:
			if err := os.RemoveAll(newPath); err != nil {
				return fmt.Errorf("rename over %s: %w", newPath, err)
			}
		case opt.IgnoreIfExists:
			return nil
		default:
			return fmt.Errorf("rename %s: %s already exists", oldPath, newPath)
		}
	}
	if err := os.MkdirAll(filepath.Dir(newPath), 0o755); err != nil {
		return fmt.Errorf("rename to %s: %w", newPath, err)
	}
	if err := os.Rename(oldPath, newPath); err != nil {
		return err
	}
	// Buffers of the file, or of files under the directory, move with it.
	for _, u := range e.sortedURIsLocked() {
		p, err := filename(u)
		if err != nil {
			continue
		}
		rel, ok := under(oldPath, p)
		if !ok {
			continue
		}
		d := e.docs[u]
		if err := e.closeLocked(u); err != nil {
			return err
		}
		moved := filepath.Join(newPath, rel)
		if err := e.openLocked(URI(moved), LanguageID(moved), d.text); err != nil {
			return err
		}
	}
	return nil
}

func (e *Editor) deleteLocked(d *DeleteFile) error {
	path, err := filename(d.URI)
	if err != nil {
		return err
	}
	opt := DeleteFileOptions{}
	if d.Options != nil {
		opt = *d.Options
	}
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		if opt.IgnoreIfNotExists {
			return nil
		}
		return fmt.Errorf("delete %s: %w", path, err)
	}
	if err != nil {
		return fmt.Errorf("delete %s: %w", path, err)
	}
	if info.IsDir() && opt.Recursive {
		err = os.RemoveAll(path)
	} else {
		err = os.Remove(path)
	}
	if err != nil {
		return fmt.Errorf("delete %s: %w", path, err)
	}
	for _, u := range e.sortedURIsLocked() {
		if p, err := filename(u); err == nil {
			if _, ok := under(path, p); ok {
				if err := e.closeLocked(u); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (e *Editor) sortedURIsLocked() []uri.URI {
	out := make([]uri.URI, 0, len(e.docs))
	for u := range e.docs {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// under reports whether p is dir or inside it, with p's path relative to dir.
func under(dir, p string) (string, bool) {
	if p == dir {
		return "", true
	}
	if strings.HasPrefix(p, dir+string(filepath.Separator)) {
		return p[len(dir)+1:], true
	}
	return "", false
}

// filename is the absolute path of a file URI.
func filename(u uri.URI) (string, error) {
	if !isFileURI(string(u)) {
		return "", fmt.Errorf("not a file URI: %q", u)
	}
	p, err := uri.Parse(string(u))
	if err != nil {
		return "", fmt.Errorf("bad URI %q: %w", u, err)
	}
	return p.Filename(), nil
}

// LanguageID is the language identifier an editor gives a file, by its
// extension.
func LanguageID(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".go":
		return "go"
	case ".md", ".markdown":
		return "markdown"
	case ".py":
		return "python"
	case ".js":
		return "javascript"
	case ".ts":
		return "typescript"
	case ".json":
		return "json"
	case ".rs":
		return "rust"
	case ".c", ".h":
		return "c"
	case ".diff", ".patch":
		return "diff"
	}
	return "plaintext"
}
