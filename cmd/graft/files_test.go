//go:build unix

package main

import (
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// nobody is the user the permission tests run graft as when they run as
// root, whom permissions do not stop.
const nobody = 65534

// An unprivileged graft is a graft command that permissions stop, and a
// workspace it may write.
type unprivileged struct {
	graft string
	cred  *syscall.Credential // nil: the tests' own user
	work  string
}

// newUnprivileged returns graft as the tests' user when it is not root, and
// else a copy of it run as nobody, with a workspace nobody owns (see own).
func newUnprivileged(t *testing.T) *unprivileged {
	t.Helper()
	graft := graftBinary(t)
	dir := t.TempDir()
	u := &unprivileged{graft: graft, work: filepath.Join(dir, "work")}
	if err := os.Mkdir(u.work, 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		return u
	}
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	u.graft = filepath.Join(dir, "graft")
	copyFile(t, graft, u.graft, 0o755)
	u.cred = &syscall.Credential{Uid: nobody, Gid: nobody}
	return u
}

// own gives the workspace to the user graft runs as, before chmods that
// take permissions away.
func (u *unprivileged) own(t *testing.T) {
	t.Helper()
	if u.cred == nil {
		return
	}
	err := filepath.WalkDir(u.work, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, nobody, nobody)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// run runs graft apply with args in the workspace and returns its exit
// status and output.
func (u *unprivileged) run(t *testing.T, args ...string) (code int, stdout string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), u.graft, append([]string{"apply", "--root", u.work}, args...)...)
	cmd.Env = childEnv()
	if u.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: u.cred}
	}
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		exit, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		code = exit.ExitCode()
	}
	if code > 1 {
		t.Fatalf("graft apply %s: exit %d\n%s", strings.Join(args, " "), code, &errOut)
	}
	return code, out.String()
}

func copyFile(t *testing.T, from, to string, mode fs.FileMode) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// wantFile fails the test unless the file at p holds want.
func wantFile(t *testing.T, p, want string) {
	t.Helper()
	got, err := os.ReadFile(p)
	if err != nil || string(got) != want {
		t.Errorf("%s = %q (%v), want %q", filepath.Base(p), got, err, want)
	}
}

// twoFiles is an answer that edits a.txt and ro/b.txt.
const twoFiles = "a.txt\n<<<<<<< SEARCH\nalpha\n=======\nALPHA\n>>>>>>> REPLACE\n\n" +
	"ro/b.txt\n<<<<<<< SEARCH\nbeta\n=======\nBETA\n>>>>>>> REPLACE\n"

// TestWriteIntoReadOnlyFolder: a file that cannot be written is reported
// "not written" and never counted as changed; with --atomic, nothing is
// written at all.
func TestWriteIntoReadOnlyFolder(t *testing.T) {
	for _, atomic := range []bool{true, false} {
		name := "each file on its own"
		if atomic {
			name = "atomic"
		}
		t.Run(name, func(t *testing.T) {
			u := newUnprivileged(t)
			writeTree(t, u.work, map[string]string{"a.txt": "alpha\n", "ro/b.txt": "beta\n"})
			answer := writeAnswer(t, t.TempDir(), "answer.md", twoFiles)
			u.own(t)
			ro := filepath.Join(u.work, "ro")
			if err := os.Chmod(ro, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(ro, 0o755) })
			args := []string{answer}
			if atomic {
				args = append(args, "--atomic")
			}
			code, out := u.run(t, args...)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			wantFile(t, filepath.Join(ro, "b.txt"), "beta\n")
			if atomic {
				wantFile(t, filepath.Join(u.work, "a.txt"), "alpha\n")
			} else {
				wantFile(t, filepath.Join(u.work, "a.txt"), "ALPHA\n")
			}
			if !strings.Contains(out, "ro/b.txt not written: ") {
				t.Errorf("the report does not say ro/b.txt was not written:\n%s", out)
			}
			wantSummary := "1 file changed"
			if atomic {
				wantSummary = "0 files changed"
				if !strings.Contains(out, "a.txt not written: the edits are atomic") {
					t.Errorf("the report does not say a.txt was not written:\n%s", out)
				}
			}
			if !strings.Contains(out, wantSummary) {
				t.Errorf("the summary does not say %q:\n%s", wantSummary, out)
			}
			noTempFiles(t, u.work)
		})
	}
}

// TestHardLinksRewrittenInPlace: a file with other hard links is edited in
// place, so that every link sees the change, and the report says so.
func TestHardLinksRewrittenInPlace(t *testing.T) {
	u := newUnprivileged(t)
	a, h, answer := hardLinked(t, u)
	code, out := u.run(t, answer)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	wantFile(t, a, "ALPHA\n")
	wantFile(t, h, "ALPHA\n")
	fa, _ := os.Stat(a)
	fh, _ := os.Stat(h)
	if !os.SameFile(fa, fh) {
		t.Error("a.txt and h.txt are no longer one file")
	}
	if !strings.Contains(out, "hard links: rewritten in place") {
		t.Errorf("the report does not say the file was rewritten in place:\n%s", out)
	}
	noTempFiles(t, u.work)
}

// hardLinked writes a.txt ("alpha\n") into u's work tree, hard-linked as
// h.txt and owned by u, and an answer that turns it into "ALPHA\n"; it
// returns their paths, and skips the test where hard links are
// unavailable.
func hardLinked(t *testing.T, u *unprivileged) (a, h, answer string) {
	t.Helper()
	writeTree(t, u.work, map[string]string{"a.txt": "alpha\n"})
	a, h = filepath.Join(u.work, "a.txt"), filepath.Join(u.work, "h.txt")
	if err := os.Link(a, h); err != nil {
		t.Skipf("hard links unavailable: %v", err)
	}
	answer = writeAnswer(t, t.TempDir(), "answer.md", "a.txt\n<<<<<<< SEARCH\nalpha\n=======\nALPHA\n>>>>>>> REPLACE\n")
	u.own(t)
	return a, h, answer
}

// TestModeAndOwnerKept: an edited file keeps its mode without the setuid
// and setgid bits, as git does, and (when graft runs as root) its owner
// and group.
func TestModeAndOwnerKept(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "run.sh")
	writeTree(t, dir, map[string]string{"run.sh": "echo alpha\n"})
	if err := os.Chmod(p, 0o755|fs.ModeSetuid|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	asRoot := os.Geteuid() == 0
	if asRoot {
		if err := os.Chown(p, nobody, nobody); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, 0o755|fs.ModeSetuid|fs.ModeSetgid); err != nil { // chown clears them
			t.Fatal(err)
		}
	}
	answer := writeAnswer(t, t.TempDir(), "answer.md", "run.sh\n<<<<<<< SEARCH\necho alpha\n=======\necho ALPHA\n>>>>>>> REPLACE\n")
	u := &unprivileged{graft: graftBinary(t), work: dir}
	code, out := u.run(t, answer)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode(); got != 0o755 {
		t.Errorf("mode %v, want -rwxr-xr-x (setuid and setgid dropped)", got)
	}
	if !strings.Contains(out, "dropped the setuid and setgid bits") {
		t.Errorf("the report does not say the setuid bit was dropped:\n%s", out)
	}
	if st := fi.Sys().(*syscall.Stat_t); asRoot && (st.Uid != nobody || st.Gid != nobody) {
		t.Errorf("owner %d:%d, want %d:%d kept", st.Uid, st.Gid, nobody, nobody)
	}
	wantFile(t, p, "echo ALPHA\n")
}

// TestForcedReadOnlyHardLink: a read-only file with other hard links is
// refused, and with --force rewritten in place and given its mode back,
// even by a user whom the mode stops.
func TestForcedReadOnlyHardLink(t *testing.T) {
	u := newUnprivileged(t)
	a, h, answer := hardLinked(t, u)
	if err := os.Chmod(a, 0o444); err != nil {
		t.Fatal(err)
	}
	if code, out := u.run(t, answer); code != 1 || !strings.Contains(out, "read-only") {
		t.Fatalf("without --force: exit %d:\n%s", code, out)
	}
	wantFile(t, a, "alpha\n")
	code, out := u.run(t, "--force", answer)
	if code != 0 {
		t.Fatalf("with --force: exit %d:\n%s", code, out)
	}
	wantFile(t, a, "ALPHA\n")
	wantFile(t, h, "ALPHA\n")
	if fi, err := os.Stat(a); err != nil || fi.Mode().Perm() != 0o444 {
		t.Errorf("mode after the forced rewrite: %v, %v; want 0444", fi.Mode().Perm(), err)
	}
	noTempFiles(t, u.work)
}
