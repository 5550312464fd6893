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
	"unicode"
)

// maxLinkHops bounds how many dangling symbolic links Path follows in a
// chain before it gives up, as the kernel does with its own limit.
const maxLinkHops = 40

// A Root is a workspace directory. Every path an edit names is resolved
// against it and must stay inside it, and every file operation under it
// goes through an os.Root, so that no path component is followed outside
// whatever changes underneath.
type Root struct {
	dir  string   // absolute, symbolic links evaluated
	fsys *os.Root // the directory, opened once
}

// Open returns the workspace rooted at dir, which must be a directory. The
// Root holds the directory open until Close.
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
	fsys, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	return &Root{dir: real, fsys: fsys}, nil
}

// Close releases the directory the Root holds open. A closed Root still
// maps paths, but reads and writes fail.
func (r *Root) Close() error { return r.fsys.Close() }

// Dir returns the absolute path of the root, symbolic links evaluated.
func (r *Root) Dir() string { return r.dir }

// Sub returns the workspace rooted at dir, a directory inside r (its real
// path, or r's own): what graft apply run there confines its names to. It
// is opened through r, so that no link leads it out of r. The caller
// closes it.
func (r *Root) Sub(dir string) (*Root, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	if !r.Contains(real) {
		return nil, fmt.Errorf("workspace root %s: %w %s", dir, ErrOutsideRoot, r.dir)
	}
	rel, err := filepath.Rel(r.dir, real)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	fsys, err := r.fsys.OpenRoot(rel)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	return &Root{dir: real, fsys: fsys}, nil
}

// Path maps name to an absolute path inside the root. name is a path as an
// edit wrote it: relative to the root (slash-separated), or absolute. Its
// longest existing prefix is resolved through symbolic links, so the path
// returned is where reads and writes really land; a name that would land
// outside the root is an error wrapping ErrOutsideRoot, and a name holding
// a control character (a newline, a NUL, an escape) one wrapping
// ErrBadName.
func (r *Root) Path(name string) (string, error) {
	abs, _, err := r.resolve(name)
	return abs, err
}

// resolve is Path, and also returns the path with the directories
// resolved but a last component that is a symbolic link kept as the link.
func (r *Root) resolve(name string) (real, link string, err error) {
	if name == "" {
		return "", "", &fs.PathError{Op: "resolve", Path: name, Err: errors.New("empty path")}
	}
	if err := checkName(name); err != nil {
		return "", "", err
	}
	name, err = r.unbackslash(name)
	if err != nil {
		return "", "", err
	}
	p := filepath.FromSlash(name)
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.dir, p)
	}
	p = filepath.Clean(p)
	real, err = evalExisting(p)
	if err != nil {
		return "", "", &fs.PathError{Op: "resolve", Path: name, Err: err}
	}
	if !r.Contains(real) {
		err := ErrOutsideRoot
		if r.Contains(p) {
			err = fmt.Errorf("%w: a symbolic link leads to %s", ErrOutsideRoot, real)
		}
		return "", "", &fs.PathError{Op: "resolve", Path: name, Err: err}
	}
	link = real
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if dir, err := evalExisting(filepath.Dir(p)); err == nil {
			if l := filepath.Join(dir, filepath.Base(p)); l != r.dir && r.Contains(l) {
				link = l
			}
		}
	}
	return real, link, nil
}

// Links returns a Source that maps paths as Path does, except that a last
// component that is a symbolic link is kept as the link: a plan over it
// deletes or moves the link itself, as git does, while an edit goes
// through the link to its target (which Commit reports). It reads as the
// Root does.
func (r *Root) Links() Source { return linkSource{r} }

// linkSource is the Source Links returns.
type linkSource struct{ *Root }

// Path is Root.Path, keeping a last component that is a link.
func (s linkSource) Path(name string) (string, error) {
	_, link, err := s.resolve(name)
	return link, err
}

// unbackslash reads a name a model on Windows wrote, its folders
// separated by backslashes (src\app.py), as slash-separated, where the
// system does not separate them so and no file has the name as written:
// a backslash in a file's name is rare, a model's copy of a Windows path
// common. A Windows drive path (C:\src\app.py) names no file here, and is
// refused as a bad name.
func (r *Root) unbackslash(name string) (string, error) {
	if filepath.Separator == '\\' || !strings.Contains(name, `\`) {
		return name, nil
	}
	if literal := filepath.Join(r.dir, name); !filepath.IsAbs(name) {
		if _, err := os.Lstat(literal); err == nil {
			return name, nil
		}
	}
	if len(name) >= 3 && name[1] == ':' && (name[2] == '\\' || name[2] == '/') && unicode.IsLetter(rune(name[0])) {
		return "", fmt.Errorf("path %q: %w: a Windows drive path; name the file relative to the workspace root", name, ErrBadName)
	}
	return strings.ReplaceAll(name, `\`, "/"), nil
}

// checkName refuses a name with a control character, which could forge
// lines of a report or hide what a path is; the error quotes the name.
func checkName(name string) error {
	for _, c := range name {
		if unicode.IsControl(c) {
			return fmt.Errorf("path %q: %w (%U)", name, ErrBadName, c)
		}
	}
	return nil
}

// Rel returns abs relative to the root, slash-separated, for reports. A
// path outside the root is returned whole.
func (r *Root) Rel(abs string) string {
	if !r.Contains(abs) {
		return filepath.ToSlash(abs)
	}
	rel, err := filepath.Rel(r.dir, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// local returns abs as a path relative to the root, as the os.Root takes
// it, or an error wrapping ErrOutsideRoot.
func (r *Root) local(abs string) (string, error) {
	if !r.Contains(abs) {
		return "", &fs.PathError{Op: "resolve", Path: abs, Err: ErrOutsideRoot}
	}
	rel, err := filepath.Rel(r.dir, abs)
	if err != nil {
		return "", &fs.PathError{Op: "resolve", Path: abs, Err: err}
	}
	return rel, nil
}

// Contains reports whether the clean absolute path p is the root or lies
// under it, as a path Path returns does; p's links are not evaluated.
func (r *Root) Contains(p string) bool {
	_, ok := Within(r.dir, p)
	return ok
}

// Within returns the path of p relative to dir when the clean absolute
// path p is dir or lies under it, and false otherwise. Links are not
// evaluated: the paths are taken as they are spelt.
func Within(dir, p string) (rel string, ok bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", false
	}
	return rel, true
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

// follow resolves the symbolic links that the last component of rel, a
// path under the root, leads through, and returns the path under the root
// that an edit of rel writes: rel itself when it is no link or does not
// exist, else the link's target, which must stay inside the root.
func (r *Root) follow(rel string) (string, error) {
	for hops := 0; ; hops++ {
		fi, err := r.fsys.Lstat(rel)
		if errors.Is(err, fs.ErrNotExist) {
			return rel, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return rel, nil
		}
		if hops >= maxLinkHops {
			return "", &fs.PathError{Op: "resolve", Path: filepath.ToSlash(rel), Err: errors.New("too many symbolic links")}
		}
		target, err := r.fsys.Readlink(rel)
		if err != nil {
			return "", err
		}
		var abs string
		if filepath.IsAbs(target) {
			abs = filepath.Clean(target)
			if !r.Contains(abs) {
				if real, err := evalExisting(abs); err == nil {
					abs = real
				}
			}
		} else {
			abs = filepath.Join(r.dir, filepath.Dir(rel), target)
		}
		next, err := r.local(abs)
		if err != nil {
			return "", &fs.PathError{Op: "resolve", Path: filepath.ToSlash(rel),
				Err: fmt.Errorf("%w: a symbolic link leads to %s", ErrOutsideRoot, target)}
		}
		rel = next
	}
}

// Exists reports whether name, as an edit wrote it, is a regular file
// inside the root: what dialect.Options.Exists asks.
func (r *Root) Exists(name string) bool {
	abs, err := r.Path(name)
	if err != nil {
		return false
	}
	rel, err := r.local(abs)
	if err != nil {
		return false
	}
	fi, err := r.fsys.Stat(rel)
	return err == nil && fi.Mode().IsRegular()
}

// isRegular reports whether the file at abs is a regular file.
func isRegular(abs string) bool {
	fi, err := os.Stat(abs)
	return err == nil && fi.Mode().IsRegular()
}
