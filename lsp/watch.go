package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// watchID is the id of the server's registration for
// workspace/didChangeWatchedFiles.
const watchID = "graft.files"

// watchFiles asks the client to tell the server when files of the
// workspace change on the disk (workspace/didChangeWatchedFiles; the
// protocol has a server ask for it at run time only). An agent that
// writes its changes itself, a checkout or a build changes files an
// answer's blocks name while the editor does not have them open, and so
// what the answer's diagnostics must say of those blocks. Every file is
// watched: a block may edit a file of any kind.
func (s *server) watchFiles(ctx context.Context) {
	params := protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID:     watchID,
		Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{
			Watchers: []protocol.FileSystemWatcher{{GlobPattern: "**/*"}},
		},
	}}}
	if _, err := s.conn.Call(ctx, "client/registerCapability", params, nil); err != nil && ctx.Err() == nil {
		s.log.Info("watching the files: client/registerCapability", zap.Error(err))
	}
}

// didChangeWatchedFiles refreshes what the server shows of the files
// that changed on the disk: the answers whose blocks name them, and the
// suggestions pending in them. A file the editor has open is read from
// its buffer, whatever becomes of it on the disk: the editor tells of
// its changes itself. A burst of changes (a checkout, a build) costs a
// look-up per file, and the links of each folder are evaluated once
// (BenchmarkWatchedFilesBurst).
func (s *server) didChangeWatchedFiles(ctx context.Context, raw json.RawMessage) (any, error) {
	var p protocol.DidChangeWatchedFilesParams
	if err := decode(raw, &p); err != nil {
		return nil, err
	}
	if !s.answers.watching() && !s.suggestions.watching() {
		return nil, nil // nothing shown depends on the disk
	}
	dirs := map[string]string{} // each folder's real path
	for _, c := range p.Changes {
		if c == nil {
			continue
		}
		path, err := uriPath(string(c.URI))
		if err != nil {
			continue
		}
		dir, name := filepath.Split(path)
		realDir, ok := dirs[dir]
		if !ok {
			realDir = dir
			if r, err := filepath.EvalSymlinks(dir); err == nil {
				realDir = r
			}
			dirs[dir] = realDir
		}
		real := filepath.Join(realDir, name)
		s.mu.Lock()
		open := s.openLocked(real)
		s.mu.Unlock()
		if open {
			continue
		}
		s.answers.diskChanged(path, real)
		s.suggestions.diskChanged(path, real)
	}
	return nil, nil
}

// under reports whether the file at the clean absolute path p is the file
// or folder at the clean absolute path dir, or lies under it.
func under(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, dir) && (strings.HasSuffix(dir, string(filepath.Separator)) || p[len(dir)] == filepath.Separator)
}
