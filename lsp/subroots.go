package lsp

import (
	"fmt"
	"slices"
	"sync"

	"github.com/graft-editor/graft/workspace"
)

// maxSubRoots bounds the folders inside the workspace folders that the
// server keeps open for requests confined to them.
const maxSubRoots = 8

// subRoots keeps the roots of folders inside the workspace folders, for
// the requests confined to one: graft apply and graft mcp run in a folder
// of the repository the editor has open send their answers here, their
// names relative to that folder, as on the disk. Each is opened through
// its workspace folder once, and kept until the folders change; beyond
// maxSubRoots, the least recently used is closed. Only commands open
// them, and commands run one at a time, so none closed is in use. It is
// safe for concurrent use.
type subRoots struct {
	mu    sync.Mutex
	roots []*workspace.Root // the most recently used last
}

// within returns the root a request for dir is confined to: the
// workspace folder of view at dir, or a folder inside one.
func (sr *subRoots) within(view *workspace.View, dir string) (*workspace.Root, error) {
	if r := folder(view, dir); r != nil {
		return r, nil
	}
	sr.mu.Lock()
	defer sr.mu.Unlock()
	if i := slices.IndexFunc(sr.roots, func(r *workspace.Root) bool { return r.Dir() == dir }); i >= 0 {
		r := sr.roots[i]
		sr.roots = append(slices.Delete(sr.roots, i, i+1), r)
		return r, nil
	}
	for _, f := range view.Roots() {
		r, err := f.Sub(dir)
		if err != nil {
			continue
		}
		if r.Dir() != dir {
			// dir is not as Root.Dir spells it (links not evaluated):
			// callers pass real paths, and another spelling is refused.
			r.Close()
			break
		}
		if len(sr.roots) == maxSubRoots {
			sr.roots[0].Close()
			sr.roots = slices.Delete(sr.roots, 0, 1)
		}
		sr.roots = append(sr.roots, r)
		return r, nil
	}
	return nil, fmt.Errorf("%s is not a workspace folder of this editor, nor a folder in one", dir)
}

// reset closes every root kept: the workspace folders changed.
func (sr *subRoots) reset() {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	for _, r := range sr.roots {
		r.Close()
	}
	sr.roots = nil
}
