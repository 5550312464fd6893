package editorlink

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/graft-editor/graft/workspace"
)

// A socket's name is a hash of its root, which finds the socket of a root
// or of a folder above it, but not those of the folders below it: an
// agent at the top of a repository whose folder web/ an editor has open.
// So that a client finds those too, a server writes beside each socket it
// holds the root it serves, in a file named as the socket with ".root"
// for ".sock" (rootFile), and removes it with the socket. The file's
// second line names the server, so that a client sends a request whose
// files lie in several folders of one server (an editor with web/ and
// api/ open) to it. The file is written and removed under the
// directory's lock, and read without it: a client trusts a root file only
// when its root hashes to its socket's name, and only the server it
// reaches there, checked as every server is, serves the request.

// maxRootFile bounds the root file a client reads: a path, no more.
const maxRootFile = 4096

// rootFile returns the path of the root file of the socket at path.
func rootFile(socket string) string {
	return strings.TrimSuffix(socket, ".sock") + ".root"
}

// writeRootFile writes the root file of the socket at path, which the
// server id serves root on. The directory's lock is held.
func writeRootFile(socket, root, id string) error {
	tmp, err := os.CreateTemp(filepath.Dir(socket), ".root-*")
	if err != nil {
		return fmt.Errorf("root file: %w", err)
	}
	_, err = io.WriteString(tmp, root+"\n"+id+"\n")
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), rootFile(socket))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("root file: %w", err)
	}
	return nil
}

// A served folder is a root that a graft serve registered in the socket
// directory, its socket, and the server's id.
type served struct {
	root, socket, server string
}

// below returns the roots registered in dir that lie inside root, a real
// path, root itself excluded: the folders below it that an editor may
// have open. Their servers have not been reached: a killed server leaves
// its root file until the next server sweeps it away.
func below(dir, root string) ([]served, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []served
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(name, ".root") || strings.HasPrefix(name, ".") {
			continue
		}
		socket := filepath.Join(dir, strings.TrimSuffix(name, ".root")+".sock")
		r, id, err := readRootFile(filepath.Join(dir, name))
		if err != nil || r == root {
			continue
		}
		if _, in := workspace.Within(root, r); !in {
			continue
		}
		// The root must be the one the socket is named for: the file
		// cannot send a client to another root's socket.
		if p, err := SocketPath(dir, r); err != nil || p != socket {
			continue
		}
		out = append(out, served{root: r, socket: socket, server: id})
	}
	return out, nil
}

// readRootFile returns the root a root file holds, and its server's id.
func readRootFile(path string) (root, id string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRootFile+1))
	if err != nil {
		return "", "", err
	}
	root, rest, _ := strings.Cut(string(data), "\n")
	id, _, _ = strings.Cut(rest, "\n")
	if len(data) > maxRootFile || !filepath.IsAbs(root) || id == "" {
		return "", "", errors.New("not a root file")
	}
	return filepath.Clean(root), id, nil
}

// Inside returns the folders inside root (root excluded) that a graft
// serve registered in the directory Dir returns: the folders of the
// repository an editor may have open. Their servers have not been
// reached (see Lookup). An error says the directory cannot be read, or
// is not private.
func Inside(root string) ([]string, error) {
	dir := Dir()
	if err := CheckDir(dir, os.Getuid()); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	real, err := realPath(root)
	if err != nil {
		return nil, err
	}
	all, err := below(dir, real)
	if err != nil {
		return nil, err
	}
	roots := make([]string, len(all))
	for i, s := range all {
		roots[i] = s.root
	}
	slices.Sort(roots)
	return roots, nil
}
