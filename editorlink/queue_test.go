package editorlink

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// These tests load a server with many connections at once: requests wait
// for their turn in the order they arrived, and are refused only past the
// bounds, with errors that say why.

// gated is a handler that records the text of each request in the order
// it handles them, and holds each until the test lets it go (or its
// context ends, when it returns the context's error). It tracks the most
// requests it handled at once.
type gated struct {
	started chan string   // a request's text, when its handling starts
	release chan struct{} // lets one handled request go

	mu      sync.Mutex
	order   []string
	now     int
	most    int
	handled atomic.Int64
}

func newGated() *gated {
	return &gated{started: make(chan string, 100), release: make(chan struct{}, 100)}
}

func (g *gated) handle(ctx context.Context, root string, req *Request) (*Reply, error) {
	g.handled.Add(1)
	g.mu.Lock()
	g.order = append(g.order, req.Text)
	g.now++
	g.most = max(g.most, g.now)
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		g.now--
		g.mu.Unlock()
	}()
	g.started <- req.Text
	select {
	case <-g.release:
		return &Reply{Applied: true, FailureReason: req.Text}, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("handler: %w", ctx.Err())
	}
}

// waitStarted waits until the handling of the request text starts.
func (g *gated) waitStarted(t *testing.T, text string) {
	t.Helper()
	select {
	case got := <-g.started:
		if got != text {
			t.Fatalf("handling %q, want %q", got, text)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the handling of %q did not start in 10s", text)
	}
}

// waitQueued waits until n requests wait for their turn in s.
func waitQueued(t *testing.T, s *Server, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		s.turns.mu.Lock()
		got := len(s.turns.waiting)
		s.turns.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d requests wait for their turn, want %d", got, n)
		}
	}
}

// result is what send returned.
type result struct {
	rep *Reply
	err error
}

// sendAsync sends req in the background; its result comes on the channel.
func sendAsync(t *testing.T, dir, root string, req *Request) <-chan result {
	ch := make(chan result, 1)
	ctx := sendCtx(t)
	go func() {
		rep, err := send(ctx, dir, root, nil, req)
		ch <- result{rep, err}
	}()
	return ch
}

// receive returns the result on ch, or fails after 10s.
func receive(t *testing.T, ch <-chan result) result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no reply in 10s")
		return result{}
	}
}

// dialIdle opens n connections to root's socket in dir that send nothing,
// closed at the end of the test.
func dialIdle(t *testing.T, dir, root string, n int) []net.Conn {
	t.Helper()
	path, _ := SocketPath(dir, root)
	conns := make([]net.Conn, n)
	for i := range conns {
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		t.Cleanup(func() { c.Close() })
		conns[i] = c
	}
	return conns
}

func TestRequestsAreHandledOneAtATimeInTheOrderTheyArrived(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	g := newGated()
	s := startServer(t, dir, root, ServerOptions{}, g.handle)

	// The first request is handled; the others arrive one after another
	// meanwhile, and wait.
	const n = 40
	results := make([]<-chan result, n)
	results[0] = sendAsync(t, dir, root, &Request{Text: "0"})
	g.waitStarted(t, "0")
	for i := 1; i < n; i++ {
		results[i] = sendAsync(t, dir, root, &Request{Text: fmt.Sprint(i)})
		waitQueued(t, s, i)
	}
	for i := range n {
		g.release <- struct{}{}
		r := receive(t, results[i])
		if r.err != nil || r.rep.FailureReason != fmt.Sprint(i) {
			t.Fatalf("request %d: %+v, %v", i, r.rep, r.err)
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if got := strings.Join(g.order, " "); got != seq(n) {
		t.Errorf("handled in the order %s", got)
	}
	if g.most != 1 {
		t.Errorf("%d requests handled at once, want 1", g.most)
	}
}

// seq returns "0 1 ... n-1".
func seq(n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprint(i)
	}
	return strings.Join(s, " ")
}

func TestARequestThatWaitedTooLongIsToldSo(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	g := newGated()
	startServer(t, dir, root, ServerOptions{QueueTimeout: 300 * time.Millisecond}, g.handle)

	first := sendAsync(t, dir, root, &Request{Text: "first"})
	g.waitStarted(t, "first")
	start := time.Now()
	r := receive(t, sendAsync(t, dir, root, &Request{Text: "second"}))
	var se *ServerError
	if !errors.As(r.err, &se) {
		t.Fatalf("a request that waited too long: %+v, %v; want a ServerError", r.rep, r.err)
	}
	if !regexp.MustCompile(`waited [0-9]+ms for its turn, behind 1 request, .*nothing was applied`).MatchString(se.Message) {
		t.Errorf("error %q, want it to say how long it waited, behind 1 request", se.Message)
	}
	if took := time.Since(start); took < 300*time.Millisecond {
		t.Errorf("refused after %v, before QueueTimeout", took)
	}
	g.release <- struct{}{}
	if r := receive(t, first); r.err != nil {
		t.Fatalf("the request handled meanwhile: %v", r.err)
	}
	if n := g.handled.Load(); n != 1 {
		t.Errorf("%d requests handled, want 1: those that waited too long were not", n)
	}
	// The queue is empty again.
	res := sendAsync(t, dir, root, &Request{Text: "after"})
	g.waitStarted(t, "after")
	g.release <- struct{}{}
	if r := receive(t, res); r.err != nil {
		t.Fatalf("the request after: %v", r.err)
	}
}

func TestConnectionsPastTheBoundAreRefusedAndTheRestServed(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	h := &echo{}
	startServer(t, dir, root, ServerOptions{MaxConns: 4, IdleTimeout: time.Minute}, h.handle)

	idle := dialIdle(t, dir, root, 4)
	_, err := send(sendCtx(t), dir, root, nil, &Request{Text: "x"})
	var se *ServerError
	if !errors.As(err, &se) || !strings.Contains(se.Message, "4 connections") || !strings.Contains(se.Message, "nothing was applied") {
		t.Fatalf("a connection past the bound: %v; want a ServerError saying so", err)
	}
	if h.calls.Load() != 0 {
		t.Fatal("the handler ran")
	}
	// An idle connection that goes makes room.
	idle[0].Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, err := send(sendCtx(t), dir, root, nil, &Request{Text: "x"})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after a connection closed: %v", err)
		}
	}
}

func TestIdleConnectionsHoldUpNoRequest(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	h := &echo{}
	s := startServer(t, dir, root, ServerOptions{IdleTimeout: time.Minute}, h.handle)

	idle := dialIdle(t, dir, root, 40)
	start := time.Now()
	if _, err := send(sendCtx(t), dir, root, nil, &Request{Text: "x"}); err != nil {
		t.Fatalf("a request behind %d idle connections: %v", len(idle), err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("a request behind %d idle connections took %v", len(idle), took)
	}
	// Nor do they hold up Close.
	start = time.Now()
	s.Close()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Close with %d idle connections took %v", len(idle), took)
	}
	for i, c := range idle {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		line, err := bufio.NewReader(c).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			t.Fatalf("idle connection %d after Close: %q, %v", i, line, err)
		}
		if line != "" && !strings.Contains(line, "stopping") {
			t.Errorf("idle connection %d after Close: %q", i, line)
		}
	}
}

func TestAConnectionThatSendsNothingIsDropped(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	h := &echo{}
	startServer(t, dir, root, ServerOptions{IdleTimeout: 200 * time.Millisecond}, h.handle)

	c := dialIdle(t, dir, root, 1)[0]
	start := time.Now()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil || !strings.Contains(line, "nothing received in the 200ms after connecting") {
		t.Fatalf("an idle connection: %q, %v; want it answered and closed", line, err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("an idle connection dropped after %v", took)
	}

	// A request that starts in time may take longer than that to arrive.
	slow := dialIdle(t, dir, root, 1)[0]
	req := fmt.Sprintf(`{"root": %q, "text": "slow"}`+"\n", root)
	io.WriteString(slow, req[:5])
	time.Sleep(500 * time.Millisecond)
	io.WriteString(slow, req[5:])
	slow.SetReadDeadline(time.Now().Add(5 * time.Second))
	var rep Reply
	if err := readMessage(slow, maxReply, &rep); err != nil || rep.Error != "" || len(rep.Blocks) != 1 {
		t.Fatalf("a request sent slowly: %+v, %v", rep, err)
	}
	if h.calls.Load() != 1 {
		t.Errorf("%d requests handled, want 1", h.calls.Load())
	}
}

func TestCloseAnswersTheRequestsThatWait(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	g := newGated()
	s := startServer(t, dir, root, ServerOptions{}, g.handle)

	handled := sendAsync(t, dir, root, &Request{Text: "handled"})
	g.waitStarted(t, "handled")
	var waiting []<-chan result
	for i := range 5 {
		waiting = append(waiting, sendAsync(t, dir, root, &Request{Text: fmt.Sprint(i)}))
		waitQueued(t, s, i+1)
	}
	start := time.Now()
	s.Close()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Close took %v", took)
	}
	// The handled request's context was cancelled; the handler returned.
	var se *ServerError
	if r := receive(t, handled); !errors.As(r.err, &se) || !strings.Contains(se.Message, "context canceled") {
		t.Errorf("the request handled when the server closed: %+v, %v; want its handler's error", r.rep, r.err)
	}
	for i, ch := range waiting {
		r := receive(t, ch)
		if !errors.As(r.err, &se) || !strings.Contains(se.Message, "stopped while the request waited for its turn") || !strings.Contains(se.Message, "nothing was applied") {
			t.Errorf("request %d, waiting when the server closed: %+v, %v", i, r.rep, r.err)
		}
	}
	if n := g.handled.Load(); n != 1 {
		t.Errorf("%d requests handled, want 1", n)
	}
}

func TestAWaitErrorSaysHowLongAndBehindHowMany(t *testing.T) {
	for _, c := range []struct {
		err  waitError
		want string
	}{
		{waitError{waited: 30*time.Second + 400*time.Millisecond, ahead: 3}, "the request waited 30s for its turn, behind 3 requests, and was dropped; nothing was applied: try again"},
		{waitError{waited: 1234567 * time.Microsecond, ahead: 1}, "the request waited 1s for its turn, behind 1 request, and was dropped; nothing was applied: try again"},
		{waitError{waited: 2 * time.Second, ahead: 2, stopped: true}, "graft serve stopped while the request waited for its turn (2s, behind 2 requests); nothing was applied"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.err, got, c.want)
		}
	}
}

func TestTheQueueGivesEveryTurnOnce(t *testing.T) {
	// Many requests at once, some giving up, some stopped: no more than n
	// hold a turn at once, and every turn taken comes back.
	const n = 3
	q := newQueue(n)
	var now, most atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			wctx := context.Background()
			if i%7 == 0 {
				wctx = ctx
			}
			release, err := q.wait(wctx, time.Duration(i%5)*time.Millisecond)
			if err != nil {
				var we *waitError
				if !errors.As(err, &we) {
					t.Errorf("wait: %v", err)
				}
				return
			}
			cur := now.Add(1)
			for m := most.Load(); cur > m && !most.CompareAndSwap(m, cur); m = most.Load() {
			}
			time.Sleep(time.Millisecond)
			now.Add(-1)
			release()
			release() // a second release does nothing
		})
		if i == 100 {
			cancel()
		}
	}
	wg.Wait()
	if most.Load() > n {
		t.Errorf("%d turns at once, want at most %d", most.Load(), n)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.taken != 0 || len(q.waiting) != 0 {
		t.Errorf("after every request: %d turns taken, %d waiting", q.taken, len(q.waiting))
	}
}
