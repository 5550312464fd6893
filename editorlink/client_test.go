package editorlink

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLookupTellsNoServerFromUnreachable checks each way Lookup fails:
// only when no graft serve can be at the socket is the error ErrNoServer,
// after which a client may write the disk instead; when one may be there
// but cannot be reached safely, it is an *UnreachableError that says how
// to fix it.
func TestLookupTellsNoServerFromUnreachable(t *testing.T) {
	tests := []struct {
		name string
		// setup makes the socket directory dir for root, and returns the
		// directory to look in (dir, unless it says otherwise).
		setup        func(t *testing.T, dir, root string) string
		noServer     bool   // the error wraps ErrNoServer
		disabled     bool   // and ErrLinkDisabled
		insecure     bool   // the error wraps ErrInsecureDir
		want, wantFx string // in the error, in its Fix
	}{
		{name: "no directory", noServer: true, want: "no directory",
			setup: func(t *testing.T, dir, root string) string { return dir }},
		{name: "no socket", noServer: true, want: "no such file",
			setup: func(t *testing.T, dir, root string) string { mkdir(t, dir, 0o700); return dir }},
		{name: "a stale socket", noServer: true, want: "connection refused",
			setup: func(t *testing.T, dir, root string) string {
				mkdir(t, dir, 0o700)
				stale(t, dir, root)
				return dir
			}},
		{name: "a file that is not a socket", noServer: true, want: "connection refused",
			setup: func(t *testing.T, dir, root string) string {
				mkdir(t, dir, 0o700)
				p, _ := SocketPath(dir, root)
				if err := os.WriteFile(p, nil, 0o600); err != nil {
					t.Fatal(err)
				}
				return dir
			}},
		{name: "a socket path too long", noServer: true, disabled: true, want: "longer than a Unix socket address allows",
			setup: func(t *testing.T, dir, root string) string {
				long := filepath.Join(dir, strings.Repeat("d", 80))
				mkdir(t, dir, 0o700)
				mkdir(t, long, 0o700)
				return long
			}},
		{name: "a directory open to others", insecure: true, want: "has mode 0755", wantFx: "chmod 700",
			setup: func(t *testing.T, dir, root string) string {
				mkdir(t, dir, 0o755)
				return dir
			}},
		{name: "a directory open to others, with a live server in it", insecure: true, want: "has mode 0750", wantFx: "chmod 700",
			setup: func(t *testing.T, dir, root string) string {
				startServer(t, dir, root, ServerOptions{}, (&echo{}).handle)
				if err := os.Chmod(dir, 0o750); err != nil {
					t.Fatal(err)
				}
				return dir
			}},
		{name: "a link to a private directory", insecure: true, want: "not a directory", wantFx: "which is not a directory",
			setup: func(t *testing.T, dir, root string) string {
				mkdir(t, dir, 0o700)
				link := dir + "-link"
				if err := os.Symlink(dir, link); err != nil {
					t.Fatal(err)
				}
				return link
			}},
		{name: "a directory another user made first", insecure: true, want: "owned by uid 65534", wantFx: "it is not yours",
			setup: func(t *testing.T, dir, root string) string {
				if os.Getuid() != 0 {
					t.Skip("making a directory another user owns needs root")
				}
				mkdir(t, dir, 0o700)
				if err := os.Chown(dir, 65534, 65534); err != nil {
					t.Fatal(err)
				}
				return dir
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			dir := tt.setup(t, socketDir(t), root)
			_, err := lookup(sendCtx(t), dir, root)
			if err == nil {
				t.Fatal("Lookup found a server")
			}
			var ue *UnreachableError
			unreachable := errors.As(err, &ue)
			if errors.Is(err, ErrNoServer) != tt.noServer || unreachable == tt.noServer ||
				errors.Is(err, ErrLinkDisabled) != tt.disabled || errors.Is(err, ErrInsecureDir) != tt.insecure {
				t.Fatalf("%v: ErrNoServer %v, UnreachableError %v, ErrLinkDisabled %v, ErrInsecureDir %v; want %v, %v, %v, %v",
					err, errors.Is(err, ErrNoServer), unreachable, errors.Is(err, ErrLinkDisabled), errors.Is(err, ErrInsecureDir),
					tt.noServer, !tt.noServer, tt.disabled, tt.insecure)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%v: does not say %q", err, tt.want)
			}
			if unreachable && (!strings.Contains(ue.Fix, tt.wantFx) || !strings.Contains(ue.Fix, dir)) {
				t.Errorf("fix %q: does not say %q about %s", ue.Fix, tt.wantFx, dir)
			}
		})
	}
}

// lookup is Lookup in dir.
func lookup(ctx context.Context, dir, root string) (string, error) {
	c, path, err := dial(ctx, dir, root, nil)
	if err != nil {
		return "", err
	}
	c.Close()
	return path, nil
}

// stale leaves at root's socket in dir a socket nobody listens on.
func stale(t *testing.T, dir, root string) {
	t.Helper()
	p, err := SocketPath(dir, root)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: p, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
}

// TestSendSaysWhetherTheRequestReachedTheServer checks that Send's error,
// when ctx ends, says whether the request had reached the server (which
// may then have applied it): ErrNoReply once it has, never before; and
// that the server cancels the request of a client that hung up.
func TestSendSaysWhetherTheRequestReachedTheServer(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	arrived := make(chan struct{}, 1)
	cause := make(chan error, 1)
	startServer(t, dir, root, ServerOptions{}, func(ctx context.Context, root string, req *Request) (*Reply, error) {
		arrived <- struct{}{}
		<-ctx.Done()
		cause <- context.Cause(ctx)
		return nil, ctx.Err()
	})

	t.Run("ended while the server handles it", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-arrived; cancel() }()
		_, err := send(ctx, dir, root, nil, &Request{Text: "x"})
		if !errors.Is(err, ErrNoReply) || !errors.Is(err, context.Canceled) {
			t.Errorf("%v: want ErrNoReply and context.Canceled", err)
		}
		select {
		case c := <-cause:
			if !errors.Is(c, errHungUp) {
				t.Errorf("the handler's context ended with %v, want errHungUp", c)
			}
		case <-time.After(5 * time.Second):
			t.Error("the server did not cancel the request of a client that hung up")
		}
	})
	t.Run("ended before it was sent", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := send(ctx, dir, root, nil, &Request{Text: "x"})
		if errors.Is(err, ErrNoReply) || !errors.Is(err, context.Canceled) {
			t.Errorf("%v: want context.Canceled without ErrNoReply", err)
		}
		_, err = lookup(ctx, dir, root)
		var ue *UnreachableError
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrNoServer) || errors.As(err, &ue) {
			t.Errorf("Lookup: %v, want context.Canceled alone", err)
		}
	})
}

// TestWatchHangup checks that only a client that closes its connection
// hangs up: one that shuts down its side for writing waits for the reply.
func TestWatchHangup(t *testing.T) {
	for _, closeIt := range []bool{false, true} {
		name := map[bool]string{false: "shut down for writing", true: "closed"}[closeIt]
		t.Run(name, func(t *testing.T) {
			dir := socketDir(t)
			mkdir(t, dir, 0o700)
			ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(dir, "s"), Net: "unix"})
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			client, err := net.DialUnix("unix", nil, ln.Addr().(*net.UnixAddr))
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			server, err := ln.AcceptUnix()
			if err != nil {
				t.Fatal(err)
			}
			defer server.Close()
			hungUp := make(chan struct{})
			stop := watchHangup(server, func() { close(hungUp) })
			defer stop()
			client.Write([]byte("ignored\n"))
			client.CloseWrite()
			select {
			case <-hungUp:
				t.Fatal("a client that shut down its side for writing hung up")
			case <-time.After(3 * hangupPoll):
			}
			if !closeIt {
				return
			}
			client.Close()
			select {
			case <-hungUp:
			case <-time.After(5 * time.Second):
				t.Fatal("a client that closed the connection did not hang up")
			}
		})
	}
}
