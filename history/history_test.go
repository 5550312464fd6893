package history

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func newJournal(t testing.TB) (*Journal, string) {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state", "graft", "journal")
	root := t.TempDir()
	j, err := OpenJournal(state, root, "graft apply")
	if err != nil {
		t.Fatal(err)
	}
	return j, root
}

// TestJournalRecordsPrivatelyMostRecentFirst records writes as graft
// apply makes them: each replaced text, and the text the last write
// wrote, most recent first, the text a write wrote and the next replaced
// kept once, as replaced.
func TestJournalRecordsPrivatelyMostRecentFirst(t *testing.T) {
	j, root := newJournal(t)
	clock := time.Date(2026, 11, 26, 22, 10, 0, 0, time.UTC)
	j.Now = func() time.Time { return clock }
	abs := filepath.Join(root, "a.go")
	for _, w := range [][2]string{{"one\n", "two\n"}, {"two\n", "three\n"}, {"three\n", "three\n"}} {
		if err := j.Record(abs, w[0], w[1]); err != nil {
			t.Fatal(err)
		}
	}
	clock = clock.Add(3 * time.Minute)
	vs := j.Versions(abs)
	if len(vs) != 3 || vs[0].Text != "three\n" || vs[1].Text != "two\n" || vs[2].Text != "one\n" {
		t.Fatalf("versions %+v", vs)
	}
	for i, did := range []string{"wrote", "replaced", "replaced"} {
		if !strings.Contains(vs[i].Name, "the text graft apply "+did+" at") || !strings.HasSuffix(vs[i].Name, "(3 minutes ago)") {
			t.Errorf("version %d: name %q, want what graft apply %s", i, vs[i].Name, did)
		}
	}
	created := filepath.Join(root, "new.go")
	if err := j.Record(created, "", "made\n"); err != nil {
		t.Fatal(err)
	}
	if vs := j.Versions(created); len(vs) != 1 || vs[0].Text != "made\n" || !strings.Contains(vs[0].Name, "wrote") {
		t.Errorf("a file graft apply created: versions %+v, want the text it wrote", vs)
	}
	for _, d := range []string{j.Dir(), filepath.Dir(j.Dir())} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v, want 0700", d, fi.Mode(), err)
		}
	}
	ents, _ := os.ReadDir(j.Dir())
	if len(ents) != 2 {
		t.Fatalf("%d files in the journal, want 2", len(ents))
	}
	for _, e := range ents {
		if fi, _ := e.Info(); fi.Mode().Perm() != 0o600 {
			t.Errorf("journal file mode %v, want 0600", fi.Mode())
		}
	}
	if vs := j.Versions(filepath.Join(root, "b.go")); len(vs) != 0 {
		t.Errorf("another file has versions %+v", vs)
	}
	if vs := j.Versions(filepath.Join(filepath.Dir(root), "outside.go")); len(vs) != 0 {
		t.Errorf("a file outside the root has versions %+v", vs)
	}
}

// TestJournalRecordsShownTexts records the text a refusal showed of a
// file: kept once, as what graft apply showed, unless it is the text the
// last write wrote; a later write that replaces it keeps it as replaced.
func TestJournalRecordsShownTexts(t *testing.T) {
	j, root := newJournal(t)
	clock := time.Date(2026, 11, 26, 22, 10, 0, 0, time.UTC)
	j.Now = func() time.Time { return clock }
	abs := filepath.Join(root, "a.go")
	check := func(want ...string) { // text and what graft apply did, by pairs
		t.Helper()
		vs := j.Versions(abs)
		if len(vs) != len(want)/2 {
			t.Fatalf("versions %+v, want %q", vs, want)
		}
		for i, v := range vs {
			if v.Text != want[2*i] || !strings.Contains(v.Name, "the text graft apply "+want[2*i+1]+" at ") {
				t.Errorf("version %d: %q %q, want %q and what graft apply %s", i, v.Text, v.Name, want[2*i], want[2*i+1])
			}
		}
	}
	for range 2 {
		if err := j.RecordShown(abs, "one\n"); err != nil {
			t.Fatal(err)
		}
	}
	check("one\n", "showed")
	clock = clock.Add(time.Minute)
	if err := j.Record(abs, "one\n", "two\n"); err != nil {
		t.Fatal(err)
	}
	if err := j.RecordShown(abs, "two\n"); err != nil { // what graft wrote: known
		t.Fatal(err)
	}
	check("two\n", "wrote", "one\n", "replaced")
}

func TestJournalBounds(t *testing.T) {
	j, root := newJournal(t)
	clock := time.Now()
	j.Now = func() time.Time { return clock }
	abs := filepath.Join(root, "a.go")
	for i := range MaxVersions + 5 {
		j.Record(abs, fmt.Sprintf("v%d\n", i), fmt.Sprintf("v%d\n", i+1))
	}
	if vs := j.Versions(abs); len(vs) != MaxVersions || vs[0].Text != fmt.Sprintf("v%d\n", MaxVersions+5) {
		t.Fatalf("%d versions, first %q", len(vs), vs[0].Text)
	}
	clock = clock.Add(MaxAge + time.Hour)
	if vs := j.Versions(abs); len(vs) != 0 {
		t.Errorf("%d versions older than MaxAge", len(vs))
	}
	j.Record(abs, "new\n", "newer\n")
	if vs := j.Versions(abs); len(vs) != 2 {
		t.Errorf("%d versions after recording past MaxAge, want 2", len(vs))
	}
	if err := j.Record(abs, strings.Repeat("x", MaxTextBytes+1), strings.Repeat("y", MaxTextBytes+1)); err != nil || len(j.Versions(abs)) != 2 {
		t.Errorf("a text over MaxTextBytes was recorded: %v", err)
	}
}

func TestJournalRootBound(t *testing.T) {
	j, root := newJournal(t)
	big := strings.Repeat("line of text\n", (MaxTextBytes-1)/13)
	// Twelve files of 8 MiB: past 64 MiB the least recently written go.
	for i := range 12 {
		if err := j.Record(filepath.Join(root, fmt.Sprintf("f%d.go", i)), big+fmt.Sprint(i), ""); err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond) // distinct modification times
	}
	if n := dirSize(t, j.Dir()); n > MaxRootBytes {
		t.Errorf("journal holds %d bytes, over %d", n, MaxRootBytes)
	}
	if len(j.Versions(filepath.Join(root, "f11.go"))) != 1 {
		t.Error("the file written last lost its journal")
	}
	if len(j.Versions(filepath.Join(root, "f0.go"))) != 0 {
		t.Error("the file written first kept its journal")
	}
}

func dirSize(t testing.TB, dir string) int64 {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, e := range ents {
		fi, _ := e.Info()
		n += fi.Size()
	}
	return n
}

func TestJournalRefusesAnInsecureFolder(t *testing.T) {
	state := filepath.Join(t.TempDir(), "journal")
	if err := os.Mkdir(state, 0o777); err != nil {
		t.Fatal(err)
	}
	os.Chmod(state, 0o777)
	if _, err := OpenJournal(state, t.TempDir(), "graft apply"); err == nil || !strings.Contains(err.Error(), "0700") {
		t.Fatalf("an insecure journal folder was used: %v", err)
	}
}

// TestJournalConcurrentRecords records from many goroutines at once, as
// two processes would without the root's lock: every journal file is
// whole JSON afterwards.
func TestJournalConcurrentRecords(t *testing.T) {
	j, root := newJournal(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				j.Record(filepath.Join(root, fmt.Sprintf("f%d.go", i%3)), fmt.Sprintf("g%d i%d\n", g, i), fmt.Sprintf("g%d i%d after\n", g, i))
			}
		}()
	}
	wg.Wait()
	ents, _ := os.ReadDir(j.Dir())
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(j.Dir(), e.Name()))
		var x fileJournal
		if err != nil || json.Unmarshal(data, &x) != nil || len(x.Versions) == 0 {
			t.Errorf("%s is not a whole journal: %v", e.Name(), err)
		}
	}
}

func TestJournalOffByEnvironment(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	t.Setenv(EnvJournal, "off")
	if h := New(t.TempDir(), Options{Journal: true, By: "graft apply"}); h.Journal != nil {
		t.Error("GRAFT_JOURNAL=off left the journal on")
	}
	t.Setenv(EnvJournal, "")
	if h := New(t.TempDir(), Options{Journal: true, By: "graft apply"}); h.Journal == nil {
		t.Error("the journal is off")
	}
}

func TestGitVersions(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	git("init", "-q")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	abs := filepath.Join(dir, "sub", "a.go")
	os.WriteFile(abs, []byte("committed\n"), 0o644)
	git("add", ".")
	git("commit", "-qm", "c")
	if vs := (Git{}).Versions(abs); len(vs) != 1 || vs[0].Text != "committed\n" || !strings.HasPrefix(vs[0].Name, "the file at HEAD (commit ") {
		t.Fatalf("versions %+v", vs)
	}
	os.WriteFile(abs, []byte("staged\n"), 0o644)
	git("add", ".")
	if vs := (Git{}).Versions(abs); len(vs) != 2 || vs[0].Name != "the staged file" || vs[0].Text != "staged\n" {
		t.Fatalf("versions %+v", vs)
	}
	if vs := (Git{}).Versions(filepath.Join(t.TempDir(), "x.go")); len(vs) != 0 {
		t.Errorf("outside a repository: %+v", vs)
	}
	if vs := (Git{Binary: "/nonexistent/git"}).Versions(abs); len(vs) != 0 {
		t.Errorf("without git: %+v", vs)
	}
}

// BenchmarkJournal records a 100 KB file MaxVersions times over and reads
// its versions, and reports the journal's size on disk for the file, the
// bound it keeps to (MaxVersions whole texts, at most MaxRootBytes/4 for
// one file and MaxRootBytes for a root), and the memory of one look-up.
func BenchmarkJournal(b *testing.B) {
	j, root := newJournal(b)
	abs := filepath.Join(root, "a.go")
	text := strings.Repeat("\tx := compute(a, b, c) // a line of code\n", 100<<10/41)
	for i := range MaxVersions / 2 {
		j.Record(abs, fmt.Sprint(2*i)+text, fmt.Sprint(2*i+1)+text)
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(j.Versions(abs)) != MaxVersions {
			b.Fatal("versions lost")
		}
	}
	b.ReportMetric(float64(dirSize(b, j.Dir()))/(1<<20), "disk-MiB/file")
	b.ReportMetric(float64(MaxRootBytes>>20), "max-MiB/root")
}

// TestJournalSharedByRoots writes one file under two roots, a repository
// and a folder in it, as graft apply run from each does: each root's
// journal reads the versions the other recorded, most recent first, and
// a root does not read those of a file outside it.
func TestJournalSharedByRoots(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state", "graft", "journal")
	repo := t.TempDir()
	sub := filepath.Join(repo, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	clock := time.Date(2026, 11, 27, 11, 0, 0, 0, time.UTC)
	open := func(root string) *Journal {
		j, err := OpenJournal(state, root, "graft apply")
		if err != nil {
			t.Fatal(err)
		}
		j.Now = func() time.Time { return clock }
		return j
	}
	atRepo, atSub := open(repo), open(sub)
	file := filepath.Join(sub, "m.py")
	if err := atRepo.Record(file, "v1\n", "v2\n"); err != nil {
		t.Fatal(err)
	}
	clock = clock.Add(time.Minute)
	if err := atSub.Record(file, "v2\n", "v3\n"); err != nil {
		t.Fatal(err)
	}
	want := "v3\n v2\n v1\n"
	for name, j := range map[string]*Journal{"the repository": atRepo, "the folder": atSub} {
		var got []string
		for _, v := range j.Versions(file) {
			got = append(got, v.Text)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s's journal reads %q, want %q", name, got, want)
		}
	}
	outside := filepath.Join(repo, "other.py")
	if err := atRepo.Record(outside, "o1\n", "o2\n"); err != nil {
		t.Fatal(err)
	}
	if vs := atSub.Versions(outside); len(vs) != 0 {
		t.Errorf("a root reads the versions of a file outside it: %+v", vs)
	}
}
