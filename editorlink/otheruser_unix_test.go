//go:build unix

package editorlink

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// These tests run the test binary as another user (syscall.Credential),
// which only Unix can.

// helperEnv, when set, makes TestHelperDial dial the socket it names.
const helperEnv = "EDITORLINK_TEST_DIAL"

// TestHelperDial is not a test: TestAnotherUsersConnectionIsRefused runs
// the test binary as another user to run it. It sends a request and
// prints the reply, or the error.
func TestHelperDial(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		t.Skip("helper process only")
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		fmt.Printf("DIAL ERROR %v\n", err)
		return
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	writeMessage(c, &Request{Root: os.Getenv(helperEnv + "_ROOT"), Text: "from another user"})
	var rep Reply
	if err := readMessage(c, maxReply, &rep); err != nil {
		fmt.Printf("READ ERROR %v\n", err)
		return
	}
	fmt.Printf("REPLY %+v\n", rep)
}

func TestAnotherUsersConnectionIsRefused(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to run a client as another user; TestSamePeer covers the check")
	}
	// The directory and socket are opened up, so that only the peer
	// credentials stand between the other user and the handler.
	base, err := os.MkdirTemp("", "el")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	os.Chmod(base, 0o755)
	dir, root := filepath.Join(base, "graft"), t.TempDir()
	h := &echo{}
	startServer(t, dir, root, ServerOptions{}, h.handle)
	path, _ := SocketPath(dir, root)
	os.Chmod(dir, 0o711)
	os.Chmod(path, 0o666)

	// The test binary, where the other user can run it.
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "helper.test")
	if err := os.WriteFile(bin, self, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestHelperDial$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+path, helperEnv+"_ROOT="+root)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "DIAL ERROR") {
		t.Fatalf("the other user could not reach the socket, so the test proves nothing:\n%s", out)
	}
	if strings.Contains(string(out), "REPLY") || h.calls.Load() != 0 {
		t.Fatalf("another user's request was answered:\n%s", out)
	}
	if !strings.Contains(string(out), "READ ERROR") {
		t.Fatalf("helper output:\n%s", out)
	}
	// The server goes on serving its user.
	os.Chmod(dir, 0o700)
	if _, err := send(sendCtx(t), dir, root, nil, &Request{Text: "x"}); err != nil {
		t.Fatal(err)
	}
}
