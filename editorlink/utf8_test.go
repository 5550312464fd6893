package editorlink

import (
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/graft-editor/graft/internal/jsonutf8"
)

// A request whose text is not UTF-8 is refused before the handler sees
// it: decoding would have made its bad bytes U+FFFD, and the handler
// would have written them. A U+FFFD meant as such goes through.
func TestRequestNotUTF8(t *testing.T) {
	dir, root := socketDir(t), t.TempDir()
	h := &echo{}
	startServer(t, dir, root, ServerOptions{}, h.handle)
	path, err := SocketPath(dir, root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ text, refusal string }{
		{"b\xe9ta", "byte 0xe9 on line 1 is not UTF-8"},
		{`x\nb\udce9ta`, `\udce9 on line 2 is half of a UTF-16 surrogate pair`},
		{"\uFFFD", ""},
		{`\ufffd`, ""},
	} {
		calls := h.calls.Load()
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Write([]byte(`{"root":"` + root + `","text":"` + tc.text + `"}` + "\n")); err != nil {
			t.Fatal(err)
		}
		var rep Reply
		err = readMessage(c, maxReply, &rep)
		c.Close()
		if err != nil {
			t.Fatal(err)
		}
		if tc.refusal == "" {
			if rep.Error != "" || len(rep.Blocks) != 1 || !strings.HasSuffix(rep.Blocks[0].Path, ":\uFFFD") {
				t.Errorf("%q: reply %+v, want U+FFFD passed on", tc.text, rep)
			}
			continue
		}
		if !strings.Contains(rep.Error, "not valid UTF-8") || !strings.Contains(rep.Error, tc.refusal) {
			t.Errorf("%q: reply %+v, want a refusal saying %q", tc.text, rep, tc.refusal)
		}
		if h.calls.Load() != calls {
			t.Errorf("%q: the handler was called", tc.text)
		}
	}
}

// readMessage says why, as an error a caller can look into.
func TestReadMessageNotUTF8(t *testing.T) {
	var req Request
	err := readMessage(strings.NewReader(`{"text":"caf`+"\xe9"+`"}`+"\n"), 1<<10, &req)
	var bad *jsonutf8.Error
	if !errors.As(err, &bad) || bad.Byte != 0xe9 || req.Text != "" {
		t.Fatalf("readMessage = %v, text %q", err, req.Text)
	}
}
