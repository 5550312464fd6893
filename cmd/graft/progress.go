package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Progress is shown once planning has taken longer than progressDelay or
// has more than progressBlocks blocks, and redrawn at most every
// progressEvery.
const (
	progressDelay  = time.Second
	progressBlocks = 50
	progressEvery  = 100 * time.Millisecond
)

// A progress shows on a terminal how far the planning of a long run has
// got: "graft: resolved 37 of 120 blocks", one line of standard error
// redrawn in place with a carriage return and erased when done. A nil
// *progress shows nothing.
type progress struct {
	w     io.Writer
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup

	mu          sync.Mutex
	done, total int
	drawn       time.Time
	width       int // of the line drawn last; 0 when none is
	stopped     bool
}

// startProgress returns the progress of planning total blocks, drawn on
// stderr; nil when stderr is no terminal or quiet is set (the report is
// JSON).
func startProgress(stderr io.Writer, total int, quiet bool) *progress {
	if quiet || !isTerminal(stderr) {
		return nil
	}
	return newProgress(stderr, total)
}

// newProgress returns the progress of planning total blocks, drawn on w.
func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, start: time.Now(), stop: make(chan struct{}), total: total}
	// A ticker shows the progress after progressDelay even while a single
	// long block keeps Update from being called.
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.draw(false)
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// Update records that done of total blocks are planned; it is a
// workspace.PlanOptions.Progress.
func (p *progress) Update(done, total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total = done, total
	p.draw(false)
}

// draw draws the line, unless it was drawn less than progressEvery ago
// (and force is not set) or the run is too short to need one.
func (p *progress) draw(force bool) {
	now := time.Now()
	switch {
	case p.stopped:
		return
	case p.total <= progressBlocks && now.Sub(p.start) < progressDelay:
		return
	case !force && now.Sub(p.drawn) < progressEvery:
		return
	}
	line := fmt.Sprintf("graft: resolved %d of %d blocks", p.done, p.total)
	pad := max(p.width-len(line), 0)
	fmt.Fprintf(p.w, "\r%s%s", line, strings.Repeat(" ", pad))
	p.width, p.drawn = len(line), now
}

// Stop erases the line, if one was drawn, and draws no more.
func (p *progress) Stop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	if !p.stopped {
		p.stopped = true
		close(p.stop)
		if p.width > 0 {
			fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", p.width))
		}
	}
	p.mu.Unlock()
	p.wg.Wait()
}
