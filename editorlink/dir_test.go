package editorlink

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckDir(t *testing.T) {
	uid := os.Getuid()
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		uid   int
		want  string // "" is no error
	}{
		{"private directory", func(t *testing.T, dir string) { mkdir(t, dir, 0o700) }, uid, ""},
		{"readable by the group", func(t *testing.T, dir string) { mkdir(t, dir, 0o750) }, uid, "mode 0750"},
		{"searchable by others", func(t *testing.T, dir string) { mkdir(t, dir, 0o701) }, uid, "mode 0701"},
		{"world-writable", func(t *testing.T, dir string) { mkdir(t, dir, 0o777) }, uid, "mode 0777"},
		{"owned by another user", func(t *testing.T, dir string) { mkdir(t, dir, 0o700) }, uid + 1, "owned by uid"},
		{"a file", func(t *testing.T, dir string) {
			if err := os.WriteFile(dir, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}, uid, "not a directory"},
		{"a link to a private directory", func(t *testing.T, dir string) {
			target := dir + ".target"
			mkdir(t, target, 0o700)
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, uid, "not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "graft")
			tt.setup(t, dir)
			err := CheckDir(dir, tt.uid)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("CheckDir: %v", err)
			case tt.want != "" && (!errors.Is(err, ErrInsecureDir) || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("CheckDir: %v, want ErrInsecureDir saying %q", err, tt.want)
			}
		})
	}
	t.Run("nothing there", func(t *testing.T) {
		if err := CheckDir(filepath.Join(t.TempDir(), "none"), uid); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("CheckDir: %v, want fs.ErrNotExist", err)
		}
	})
}

func mkdir(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

func TestEnsureDirCreatesAPrivateDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run", "graft")
	if err := ensureDir(dir); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %#o, want 0700", fi.Mode().Perm())
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := ensureDir(dir); !errors.Is(err, ErrInsecureDir) {
		t.Errorf("ensureDir on a 0755 directory: %v, want ErrInsecureDir (it must not fix what someone else may have made)", err)
	}
}

func TestSocketPathIsTheRootsRealPath(t *testing.T) {
	dir := t.TempDir()
	root := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	a, err := SocketPath(dir, root)
	if err != nil {
		t.Fatal(err)
	}
	b, err := SocketPath(dir, link+"/.")
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("a root and a link to it have two sockets: %s, %s", a, b)
	}
	other, _ := SocketPath(dir, t.TempDir())
	if other == a {
		t.Error("two roots share a socket")
	}
	if _, err := SocketPath(dir, filepath.Join(root, "missing")); err == nil {
		t.Error("a root that does not exist has a socket")
	}
	if _, err := SocketPath(strings.Repeat("d", 100), root); err == nil {
		t.Error("a socket path too long for sun_path was accepted")
	}
}

func TestSamePeer(t *testing.T) {
	// The check behind SO_PEERCRED, with made-up user ids: the tests may
	// run as root, where no second user connects by accident.
	if err := samePeer(1000, 1000); err != nil {
		t.Errorf("same user refused: %v", err)
	}
	if err := samePeer(1001, 1000); err == nil || !strings.Contains(err.Error(), "uid 1001") {
		t.Errorf("another user: %v, want a refusal naming uid 1001", err)
	}
	if err := samePeer(0, 1000); err == nil {
		t.Error("root's connection to a user's server accepted")
	}
}
