package lsp

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/engine"
	hist "github.com/graft-editor/graft/history"
	"github.com/graft-editor/graft/lsp/internal/span"
	"github.com/graft-editor/graft/workspace"
)

// fakeClock is a clock a test moves by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// typeAt returns the change that replaces the character at line, column
// col, with s.
func typeAt(line, col int, s string) []contentChange {
	r := protocol.Range{
		Start: protocol.Position{Line: uint32(line), Character: uint32(col)},
		End:   protocol.Position{Line: uint32(line), Character: uint32(col + 1)},
	}
	return []contentChange{{Range: &r, Text: s}}
}

// change records and applies changes to buf at version v.
func change(t testing.TB, h *history, path string, buf *workspace.Buffer, v int32, changes []contentChange) {
	h.changing(path, buf, changes)
	if err := changeBuffer(buf, v, changes, span.UTF16); err != nil {
		t.Fatal(err)
	}
}

// texts returns the texts of the versions h keeps of path.
func texts(h *history, path string) []string {
	var out []string
	for _, v := range h.Versions(path) {
		out = append(out, v.Text)
	}
	return out
}

// TestHistoryKeepsBurstsNotKeystrokes types into a buffer: a version is
// kept before a change only once historyGap has passed, or historyLines
// lines changed, since the one kept last.
func TestHistoryKeepsBurstsNotKeystrokes(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 11, 26, 22, 10, 0, 0, time.UTC)}
	h := newHistory(clock.now)
	const path = "/r/a.go"
	v1 := "a\nb\nc\n"
	buf := workspace.NewBuffer(path, v1, 1)
	h.opened(path, v1, 1)
	change(t, h, path, buf, 2, typeAt(0, 0, "x")) // x b c
	clock.t = clock.t.Add(time.Second)
	change(t, h, path, buf, 3, typeAt(1, 0, "y")) // x y c: too soon
	if got := texts(h, path); len(got) != 1 || got[0] != v1 {
		t.Fatalf("kept %q, want only the opened text", got)
	}
	clock.t = clock.t.Add(historyGap)
	change(t, h, path, buf, 4, typeAt(2, 0, "z")) // after a pause
	if got := texts(h, path); len(got) != 2 || got[0] != "x\ny\nc\n" || got[1] != v1 {
		t.Fatalf("kept %q, want the text before the pause's change first", got)
	}
	vs := h.Versions(path)
	if want := "the buffer at version 3 (just now)"; vs[0].Name != want {
		t.Errorf("name %q, want %q", vs[0].Name, want)
	}
	clock.t = clock.t.Add(2 * time.Minute)
	if want := "the buffer at version 1 (2 minutes ago)"; h.Versions(path)[1].Name != want {
		t.Errorf("name %q, want %q", h.Versions(path)[1].Name, want)
	}

	// graft's own edit, coming in as a change of the buffer, then
	// recorded: what it replaced, by graft's name, which wins over the
	// buffer's for one text, and what it made, which the person's typing
	// at once (before a version is due) would otherwise leave unkept.
	clock.t = clock.t.Add(time.Minute)
	change(t, h, path, buf, 5, typeAt(0, 0, "w"))
	h.Record(path, "x\ny\nz\n", "w\ny\nz\n")
	clock.t = clock.t.Add(time.Second)
	vs = h.Versions(path)
	if len(vs) != 4 || vs[0].Text != "w\ny\nz\n" || vs[0].Name != "the text graft wrote at 22:13:06 (a second ago)" ||
		vs[1].Text != "x\ny\nz\n" || vs[1].Name != "the text graft replaced at 22:13:06 (a second ago)" {
		t.Errorf("after graft's edit: %+v", vs)
	}

	// A client syncing in full sends the whole text each keystroke: that
	// keeps no version either until the gap.
	for i := range 30 {
		clock.t = clock.t.Add(100 * time.Millisecond)
		h.changing(path, buf, []contentChange{{Text: fmt.Sprintf("w\ny\nz%d\n", i)}})
		if err := buf.Change(int32(6+i), []workspace.Change{{Text: fmt.Sprintf("w\ny\nz%d\n", i), Whole: true}}); err != nil {
			t.Fatal(err)
		}
	}
	if got := h.Versions(path); len(got) != 4 {
		t.Errorf("full-text changes within the gap kept %d versions, want none: %q", len(got)-4, texts(h, path))
	}

	// Closed, the file keeps its past, as a file graft edited unopened
	// does.
	h.closed(path)
	if got := h.Versions(path); len(got) != 4 {
		t.Errorf("kept %q after the close, want the 4 versions before it", texts(h, path))
	}
}

// TestHistoryClosedBounds closes more documents than historyUnopened: the
// past of the least recently closed goes, and an open document's stays.
func TestHistoryClosedBounds(t *testing.T) {
	h := newHistory(time.Now)
	h.opened("/r/open.go", "o", 1)
	for i := range historyUnopened + 3 {
		path := fmt.Sprintf("/r/c%d.go", i)
		h.opened(path, "c", 1)
		h.Record(path, "before", "c")
	}
	for i := range historyUnopened + 3 {
		h.closed(fmt.Sprintf("/r/c%d.go", i))
	}
	for i := range 3 {
		if got := h.Versions(fmt.Sprintf("/r/c%d.go", i)); got != nil {
			t.Errorf("the file closed %d of %d kept its past", i+1, historyUnopened+3)
		}
	}
	if got := h.Versions(fmt.Sprintf("/r/c%d.go", historyUnopened+2)); len(got) != 2 {
		t.Errorf("the file closed last kept %d versions, want 2", len(got))
	}
	if got := h.Versions("/r/open.go"); len(got) != 1 {
		t.Errorf("an open file's past dropped for closed ones")
	}
	if n := len(h.files); n != historyUnopened+1 {
		t.Errorf("%d files kept, want %d closed and 1 open", n, historyUnopened)
	}
	// Opened again, a closed file goes on from its past.
	h.opened(fmt.Sprintf("/r/c%d.go", historyUnopened+2), "now", 2)
	if got := texts(h, fmt.Sprintf("/r/c%d.go", historyUnopened+2)); len(got) != 3 || got[0] != "now" {
		t.Errorf("reopened: %q", got)
	}
}

// TestHistoryBounds keeps at most historyVersions texts of at most
// historyBytes in all, the oldest dropped first, and the past of at most
// historyUnopened files the client does not have open.
func TestHistoryBounds(t *testing.T) {
	h := newHistory(time.Now)
	for i := range historyVersions + 5 {
		h.Record("/r/a.go", fmt.Sprint(i), fmt.Sprint(i+1))
	}
	got := texts(h, "/r/a.go")
	if len(got) != historyVersions || got[0] != fmt.Sprint(historyVersions+5) {
		t.Errorf("kept %q", got)
	}
	big := strings.Repeat("x", historyBytes/3+1)
	for i := range 3 {
		h.Record("/r/b.go", fmt.Sprint(i)+big, "")
	}
	if got := texts(h, "/r/b.go"); len(got) != 2 || got[0][0] != '2' {
		t.Errorf("kept %d texts of %d bytes", len(got), len(big))
	}
	h.Record("/r/c.go", strings.Repeat("x", historyBytes+1), strings.Repeat("y", historyBytes+1))
	if got := texts(h, "/r/c.go"); len(got) != 0 {
		t.Errorf("kept a text larger than historyBytes")
	}
	// A buffer too large to keep is not joined to be kept.
	huge := strings.Repeat("x\n", historyBytes/2+1)
	buf := workspace.NewBuffer("/r/huge.go", huge, 1)
	h.opened("/r/huge.go", huge, 1)
	change(t, h, "/r/huge.go", buf, 2, typeAt(0, 0, "y"))
	h.now = func() time.Time { return time.Now().Add(historyGap) }
	change(t, h, "/r/huge.go", buf, 3, typeAt(1, 0, "y"))
	h.now = time.Now
	if got := texts(h, "/r/huge.go"); len(got) != 0 {
		t.Errorf("kept %d texts of a buffer larger than historyBytes", len(got))
	}
	h.opened("/r/open.go", "o", 1)
	for i := range historyUnopened + 3 {
		h.Record(fmt.Sprintf("/r/u%d.go", i), "u", "")
	}
	if got := h.Versions("/r/u0.go"); got != nil {
		t.Errorf("the least recently used unopened file kept")
	}
	if got := h.Versions(fmt.Sprintf("/r/u%d.go", historyUnopened+2)); len(got) != 1 {
		t.Errorf("the last unopened file dropped")
	}
	if got := h.Versions("/r/open.go"); len(got) != 1 {
		t.Errorf("an open file's past dropped for unopened ones")
	}
}

// BenchmarkHistoryMemory is what the history of one open document holds
// after ten minutes of typing, a change a second with a pause of
// historyGap every tenth (so a version is due every ten seconds): the
// kept texts' bytes (kept-B/doc) and the heap they, their bookkeeping and
// the buffer's own growth hold (heap-B/doc), for a typical source file
// and a large one. Each op is one such session of 600 changes; its
// allocations are the history's and the buffer's.
func BenchmarkHistoryMemory(b *testing.B) {
	for _, lines := range []int{600, 30000} {
		var sb strings.Builder
		for i := range lines {
			fmt.Fprintf(&sb, "\tline %d of the file, with some code on it = %d\n", i, i*7)
		}
		text := sb.String()
		b.Run(fmt.Sprintf("%dKB", len(text)>>10), func(b *testing.B) {
			const path = "/r/a.go"
			b.ReportAllocs()
			var kept, heap float64
			for range b.N {
				buf := workspace.NewBuffer(path, text, 1)
				clock := &fakeClock{t: time.Now()}
				var m0, m1 runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&m0)
				h := newHistory(clock.now)
				h.opened(path, text, 1)
				for i := range 600 {
					clock.t = clock.t.Add(time.Second)
					if i%10 == 0 {
						clock.t = clock.t.Add(historyGap)
					}
					change(b, h, path, buf, int32(i+2), typeAt(i%lines, 1, "x"))
				}
				runtime.GC()
				runtime.ReadMemStats(&m1)
				kept = float64(h.files[path].bytes)
				heap = float64(int64(m1.HeapAlloc) - int64(m0.HeapAlloc))
				runtime.KeepAlive(h)
				runtime.KeepAlive(buf)
			}
			b.ReportMetric(kept, "kept-B/doc")
			b.ReportMetric(heap, "heap-B/doc")
		})
	}
}

// TestHistoryThinsWithAge types for ten minutes without a pause: the
// versions kept reach back over the whole time, not only over the last
// historyVersions gaps, and the recent ones are the densest.
func TestHistoryThinsWithAge(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 11, 26, 22, 0, 0, 0, time.UTC)}
	h := newHistory(clock.now)
	const path = "/r/a.go"
	text := strings.Repeat("line\n", 100)
	buf := workspace.NewBuffer(path, text, 1)
	h.opened(path, text, 1)
	for i := range 600 {
		clock.t = clock.t.Add(time.Second)
		change(t, h, path, buf, int32(i+2), typeAt(i%100, 0, fmt.Sprint(i%7)))
	}
	f := h.files[path]
	if len(f.versions) != historyVersions {
		t.Fatalf("kept %d versions", len(f.versions))
	}
	var ages []time.Duration
	for _, v := range f.versions {
		ages = append(ages, clock.t.Sub(v.at))
	}
	t.Logf("ages kept: %v", ages)
	if f.versions[len(f.versions)-1].version != 1 {
		t.Errorf("the opened text dropped")
	}
	if ages[1] > 2*historyGap {
		t.Errorf("the second newest version is %v old: the recent ones are not dense", ages[1])
	}
	if ages[len(ages)-2] < 4*time.Minute {
		t.Errorf("nothing kept from before the last %v but the opened text", ages[len(ages)-2])
	}
}

// TestHistoryReadsTheJournalOnce gives the history a journal: a file's
// entries are read the first time the history meets the file (opened,
// asked about, or edited), once, and kept by their time behind the newer
// versions, named by what made them.
func TestHistoryReadsTheJournalOnce(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 11, 27, 11, 0, 0, 0, time.UTC)}
	h := newHistory(clock.now)
	reads := map[string]int{}
	h.journal = func(abs string) []hist.Entry {
		reads[abs]++
		if abs != "/r/a.go" {
			return nil
		}
		return []hist.Entry{
			{Text: "written\n", At: clock.t.Add(-time.Minute), By: "graft apply", Wrote: true},
			{Text: "replaced\n", At: clock.t.Add(-2 * time.Minute), By: "graft apply"},
		}
	}
	h.opened("/r/a.go", "now\n", 1)
	h.opened("/r/a.go", "now\n", 1)
	vs := h.Versions("/r/a.go")
	if got := texts(h, "/r/a.go"); strings.Join(got, "") != "now\nwritten\nreplaced\n" {
		t.Fatalf("versions %q, want the opened text, then the journal's, most recent first", got)
	}
	if want := "the text graft apply wrote at 10:59:00 (a minute ago)"; vs[1].Name != want {
		t.Errorf("name %q, want %q", vs[1].Name, want)
	}
	h.Versions("/r/b.go")
	h.Versions("/r/b.go")
	h.Record("/r/b.go", "b1\n", "b2\n")
	if reads["/r/a.go"] != 1 || reads["/r/b.go"] != 1 {
		t.Errorf("journal reads %v, want one a file", reads)
	}
}

// TestHistoryAsksGitOnce gives the history git: a file's staged and HEAD
// texts are read once, started when the file is opened and waited for by
// the first look-up, and given after the texts kept, each text once.
func TestHistoryAsksGitOnce(t *testing.T) {
	h := newHistory(time.Now)
	var mu sync.Mutex
	asked := map[string]int{}
	release := make(chan struct{})
	h.git = func(abs string) []engine.Version {
		<-release
		mu.Lock()
		asked[abs]++
		mu.Unlock()
		return []engine.Version{{Name: "the file at HEAD (commit abc1234)", Text: "head\n"}, {Name: "the staged file", Text: "now\n"}}
	}
	h.opened("/r/a.go", "now\n", 1) // does not wait for git
	close(release)
	vs := h.Versions("/r/a.go")
	if len(vs) != 2 || vs[0].Text != "now\n" || vs[1].Name != "the file at HEAD (commit abc1234)" {
		t.Fatalf("versions %+v, want the opened text, then HEAD's (the staged text is the opened one)", vs)
	}
	h.Versions("/r/a.go")
	h.Versions("/r/b.go")
	h.Record("/r/b.go", "b1\n", "b2\n")
	h.Versions("/r/b.go")
	mu.Lock()
	defer mu.Unlock()
	if asked["/r/a.go"] != 1 || asked["/r/b.go"] != 1 {
		t.Errorf("git asked %v, want once a file", asked)
	}
}

// TestHistoryBoundsGitReads opens more files than maxGitReads at once, as
// an editor restoring a session does: at most maxGitReads reads of git run
// together, and every file's versions come.
func TestHistoryBoundsGitReads(t *testing.T) {
	h := newHistory(time.Now)
	var mu sync.Mutex
	running, most := 0, 0
	h.git = func(abs string) []engine.Version {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		time.Sleep(5 * time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return []engine.Version{{Name: "the file at HEAD", Text: "head " + abs + "\n"}}
	}
	for i := range 10 {
		h.opened(fmt.Sprintf("/r/f%d.go", i), "now\n", 1)
	}
	for i := range 10 {
		if vs := h.Versions(fmt.Sprintf("/r/f%d.go", i)); len(vs) != 2 {
			t.Fatalf("f%d: versions %+v, want the opened text and HEAD's", i, vs)
		}
	}
	if most > maxGitReads {
		t.Errorf("%d reads of git at once, want at most %d", most, maxGitReads)
	}
}
