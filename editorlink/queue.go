package editorlink

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// A queue hands out turns to handle requests, n at a time, in the order
// they were asked for. It is safe for concurrent use.
type queue struct {
	mu      sync.Mutex
	n       int      // turns at once
	taken   int      // turns taken, at most n
	waiting []*place // in order of arrival
	// stopped says the server stopped: a turn that comes now is handed
	// back, whatever the request's context says yet (the contexts of the
	// requests are cancelled one after another, and a turn may reach one
	// not cancelled yet).
	stopped bool
}

// stop makes every turn that comes from now on be handed back.
func (q *queue) stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.stopped = true
}

// isStopped reports whether stop was called.
func (q *queue) isStopped() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.stopped
}

// A place is a request's place in a queue: ready is closed when the turn
// is its own.
type place struct{ ready chan struct{} }

// newQueue returns a queue that gives n turns at once.
func newQueue(n int) *queue { return &queue{n: n} }

// A waitError is the error of a request that did not get its turn: it
// waited longer than the server lets requests wait, or the server stopped
// meanwhile. Nothing of the request was applied.
type waitError struct {
	waited  time.Duration // how long it waited
	ahead   int           // requests still before it (handled or waiting) when it gave up
	stopped bool          // the server stopped meanwhile
}

func (e *waitError) Error() string {
	if e.stopped {
		return fmt.Sprintf("graft serve stopped while the request waited for its turn (%s, behind %s); nothing was applied",
			roundWait(e.waited), requests(e.ahead))
	}
	return fmt.Sprintf("the request waited %s for its turn, behind %s, and was dropped; nothing was applied: try again",
		roundWait(e.waited), requests(e.ahead))
}

// roundWait rounds d for a message: to the second from a second up.
func roundWait(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}

// requests says "1 request" or "n requests".
func requests(n int) string {
	if n == 1 {
		return "1 request"
	}
	return fmt.Sprintf("%d requests", n)
}

// wait waits for a turn, behind the requests that asked before, for at
// most timeout, and returns the turn's release, which must be called once
// the request is handled. When the turn does not come in time, or ctx is
// done first, it returns a *waitError and takes no turn.
func (q *queue) wait(ctx context.Context, timeout time.Duration) (release func(), err error) {
	q.mu.Lock()
	if q.taken < q.n && len(q.waiting) == 0 {
		q.taken++
		q.mu.Unlock()
		return q.onceRelease(), nil
	}
	p := &place{ready: make(chan struct{})}
	q.waiting = append(q.waiting, p)
	q.mu.Unlock()

	start := time.Now()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	stopped := false
	select {
	case <-p.ready:
		if ctx.Err() == nil && !q.isStopped() {
			return q.onceRelease(), nil
		}
		// The turn came as the server stopped (the request before ended
		// because it stopped): it is handed back, and nothing is handled.
		stopped = true
	case <-timer.C:
	case <-ctx.Done():
		stopped = true
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	i := slices.Index(q.waiting, p)
	if i < 0 {
		// The turn came as the wait ended: it is handed back, unless the
		// time ran out at that very moment, when the request may as well
		// take it.
		if !stopped {
			return q.onceRelease(), nil
		}
		q.releaseLocked()
		i = 0
	} else {
		q.waiting = slices.Delete(q.waiting, i, i+1)
	}
	return nil, &waitError{waited: time.Since(start), ahead: q.taken + i, stopped: stopped}
}

// onceRelease returns a release of a turn that releases it only once.
func (q *queue) onceRelease() func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			q.mu.Lock()
			defer q.mu.Unlock()
			q.releaseLocked()
		})
	}
}

// releaseLocked gives a turn that ended to the request that waited
// longest, if any; q.mu is held.
func (q *queue) releaseLocked() {
	if len(q.waiting) == 0 {
		q.taken--
		return
	}
	p := q.waiting[0]
	q.waiting = slices.Delete(q.waiting, 0, 1)
	close(p.ready)
}
