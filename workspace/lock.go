package workspace

import (
	"context"
	"fmt"
	"time"
)

// Lock takes the root's lock, which serializes the commits of concurrent
// graft processes on one workspace, waiting for it until ctx is done, and
// returns the function that releases it. The lock is held on the root
// directory itself, so no lock file is left behind, and the system
// releases it when the process dies.
func (r *Root) Lock(ctx context.Context) (unlock func(), err error) {
	wait := time.Millisecond
	for {
		unlock, busy, err := lockDir(r.dir)
		switch {
		case err != nil:
			return nil, fmt.Errorf("lock workspace %s: %w", r.dir, err)
		case !busy:
			return unlock, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("lock workspace %s: %w", r.dir, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 20*time.Millisecond)
	}
}
