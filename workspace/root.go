// Package workspace is the disk side of the documents that edits apply to:
// a workspace root that confines every path an edit names, files read and
// written safely under it, and the plan that turns parsed edit blocks into
// file changes before anything is written.
package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinkHops bounds how many dangling symbolic links Path follows in a
// chain before it gives up, as the kernel does with its own limit.
const maxLinkHops = 40

// A Root is a workspace directory. Every path an edit names is resolved
// against it and must stay inside it.
type Root struct {
	dir string // absolute, symbolic links evaluated
}

// Open returns the workspace rooted at dir, which must be a directory.
func Open(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("workspace root %s: %w", dir, ErrNotDir)
	}
	return &Root{dir: real}, nil
}

// Dir returns the absolute path of the root, symbolic links evaluated.
func (r *Root) Dir() string { return r.dir }

// Path maps name to an absolute path inside the root. name is a path as an
// edit wrote it: relative to the root (slash-separated), or absolute. Its
// longest existing prefix is resolved through symbolic links, so the path
// returned is where reads and writes really land; a name that would land
// outside the root is an error wrapping ErrOutsideRoot.
func (r *Root) Path(name string) (string, error) {
	if name == "" {
		return "", &fs.PathError{Op: "resolve", Path: name, Err: errors.New("empty path")}
	}
	p := filepath.FromSlash(name)
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.dir, p)
	}
	p = filepath.Clean(p)
	real, err := evalExisting(p)
	if err != nil {
		return "", &fs.PathError{Op: "resolve", Path: name, Err: err}
	}
	if !r.contains(real) {
		err := ErrOutsideRoot
		if r.contains(p) {
			err = fmt.Errorf("%w: a symbolic link leads to %s", ErrOutsideRoot, real)
		}
		return "", &fs.PathError{Op: "resolve", Path: name, Err: err}
	}
	return real, nil
}

// Rel returns abs relative to the root, slash-separated, for reports. A
// path outside the root is returned whole.
func (r *Root) Rel(abs string) string {
	if !r.contains(abs) {
		return filepath.ToSlash(abs)
	}
	rel, err := filepath.Rel(r.dir, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// contains reports whether the clean absolute path p is the root or lies
// under it.
func (r *Root) contains(p string) bool {
	rel, err := filepath.Rel(r.dir, p)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// evalExisting resolves the symbolic links of the longest existing prefix
// of the clean absolute path p and appends the rest, which does not exist
// yet. A dangling link is followed to where its target would be created.
func evalExisting(p string) (string, error) {
	var rest []string // components that do not exist, innermost first
	for hops := 0; ; {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				real = filepath.Join(real, rest[i])
			}
			return real, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if target, lerr := os.Readlink(p); lerr == nil {
			// p exists but is a dangling link: resolve where it points.
			if hops++; hops > maxLinkHops {
				return "", fmt.Errorf("too many dangling symbolic links")
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(p), target)
			}
			p = filepath.Clean(target)
			continue
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		rest = append(rest, filepath.Base(p))
		p = parent
	}
}

// Exists reports whether name, as an edit wrote it, is a regular file
// inside the root: what dialect.Options.Exists asks.
func (r *Root) Exists(name string) bool {
	abs, err := r.Path(name)
	return err == nil && isRegular(abs)
}

// isRegular reports whether the file at abs is a regular file.
func isRegular(abs string) bool {
	fi, err := os.Stat(abs)
	return err == nil && fi.Mode().IsRegular()
}
