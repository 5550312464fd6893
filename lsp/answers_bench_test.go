package lsp_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/graft-editor/graft/internal/test/benchtext"
	"github.com/graft-editor/graft/internal/test/fakeeditor"
)

// The shape of BenchmarkAnswerDiagnostics: an answer of answerBlocks
// search-replace blocks over answerFiles open buffers of targetLines lines
// each.
const (
	answerFiles  = 10
	answerBlocks = 50
	targetLines  = 5000
)

// benchTarget returns a Go file of targetLines lines: functions of five
// lines, each with its own constants.
func benchTarget(file int) string { return benchtext.GoFuncs(file, targetLines/5) }

// benchTargets returns the answer's target files, f0.go to f9.go, by
// name.
func benchTargets() map[string]string {
	files := map[string]string{}
	for file := range answerFiles {
		files[fmt.Sprintf("f%d.go", file)] = benchTarget(file)
	}
	return files
}

// finished reports whether diagnostics are n, none of them waiting for
// its block to end: those of an answer that streamed in whole.
func finished(n int) func([]protocol.Diagnostic) bool {
	return func(d []protocol.Diagnostic) bool {
		return len(d) == n && !slices.ContainsFunc(d, func(x protocol.Diagnostic) bool { return x.Code == "unfinished" })
	}
}

// benchAnswer returns an answer in markdown whose blocks each change one
// function of the targets, answerBlocks/answerFiles per file, spread over
// the file.
func benchAnswer() string { return benchAnswerOf(false) }

// benchAnswerOf is benchAnswer; with fuzzy, each block quotes its whole
// function with a line as a model misremembers it (a comment the file
// does not have), so that it resolves fuzzily, as agents' blocks often do.
func benchAnswerOf(fuzzy bool) string { return benchAnswerSized(fuzzy, answerBlocks) }

// benchAnswerSized is benchAnswerOf with n blocks rather than
// answerBlocks, a multiple of answerFiles.
func benchAnswerSized(fuzzy bool, n int) string {
	return benchtext.Answer(answerFiles, targetLines/5, n, fuzzy)
}

// BenchmarkAnswerDiagnostics measures the time from a didChange of an
// answer buffer of 50 blocks over 5,000-line open buffers to the
// publishDiagnostics that follows, over stdio with the built binary. Each
// change inserts or removes a line above the blocks, so that every
// diagnostic moves and the new ones are told from the old. The server
// runs with a 1ms debounce, so that what is measured is the work; "as
// shipped" adds the default debounce, which an editor's user waits too.
func BenchmarkAnswerDiagnostics(b *testing.B) {
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"debounce=1ms", []string{"--debounce", "1ms"}},
		{"as-shipped", nil},
	} {
		b.Run(bc.name, func(b *testing.B) {
			dir := b.TempDir()
			opt := fakeeditor.VSCode(dir)
			opt.Args = bc.args
			e, _ := fakeeditor.StartReady(b, opt)
			openFiles(b, e, dir, benchTargets())
			answer := filepath.Join(dir, "answer.md")
			if err := e.Open(answer, "markdown", benchAnswer()); err != nil {
				b.Fatal(err)
			}
			u := fakeeditor.URI(answer)
			const first = 4 // the line of the first block's SEARCH, 0-based
			at := func(line uint32) func([]protocol.Diagnostic) bool {
				return func(d []protocol.Diagnostic) bool {
					return len(d) == answerBlocks && d[0].Range.Start.Line == line
				}
			}
			diags, err := e.WaitDiagnostics(u, at(first), time.Minute)
			if err != nil {
				b.Fatal(err)
			}
			for i, d := range diags {
				if d.Severity != protocol.DiagnosticSeverityHint {
					b.Fatalf("block %d: %q, want it to apply exactly", i+1, d.Message)
				}
			}

			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				top := protocol.Range{}
				want := uint32(first + 1)
				text := "\n"
				if i%2 == 1 {
					top.End.Line = 1
					want, text = first, ""
				}
				if err := e.Edit(answer, &top, text); err != nil {
					b.Fatal(err)
				}
				if _, err := e.WaitDiagnostics(u, at(want), time.Minute); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/op")
		})
	}
}

// serverCPU returns the CPU time the process pid has spent so far, summed
// over its threads, from /proc (nanoseconds, where the tick counts of
// /proc/PID/stat are 10ms coarse).
func serverCPU(tb testing.TB, pid int) time.Duration {
	tb.Helper()
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		tb.Skipf("no /proc/%d/task/*/schedstat: %v", pid, err)
	}
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended
		}
		var ns int64
		if _, err := fmt.Sscan(string(b), &ns); err == nil {
			sum += time.Duration(ns)
		}
	}
	return sum
}

// A pass is one refresh of an answer's diagnostics, as the server logs it
// at debug level.
type pass struct {
	URI      string `json:"uri"`
	Version  int32  `json:"version"`
	Blocks   int    `json:"blocks"`
	Reused   int    `json:"reused"`
	Resolved int    `json:"resolved"`
	// ResolvedTotal counts the blocks resolved by every refresh of the
	// document so far, those cut short included.
	ResolvedTotal int  `json:"resolvedTotal"`
	Published     bool `json:"published"`
	// Cut says the refresh stopped early, as the answer or a file it
	// names changed while it ran, and published nothing; its version is 0.
	Cut     bool    `json:"cut"`
	Elapsed float64 `json:"elapsed"` // seconds
}

// A passLog reads the passes a server logs to its --log file, as they
// come.
type passLog struct {
	path string
	off  int64
	// seen holds every pass read so far, in the order logged.
	seen []pass
}

// read reads the passes logged since the last read.
func (l *passLog) read(tb testing.TB) {
	tb.Helper()
	f, err := os.Open(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.NewSectionReader(f, l.off, math.MaxInt64-l.off))
	if err != nil {
		tb.Fatal(err)
	}
	end := bytes.LastIndexByte(data, '\n') + 1
	l.off += int64(end)
	for line := range strings.Lines(string(data[:end])) {
		_, fields, ok := strings.Cut(line, "answer diagnostics\t")
		if !ok {
			continue
		}
		var p pass
		if err := json.Unmarshal([]byte(fields), &p); err != nil {
			tb.Fatalf("log line %q: %v", line, err)
		}
		l.seen = append(l.seen, p)
	}
}

// wait waits for a pass over version v, or a later one, of the document
// at u logged after the first `from` passes.
func (l *passLog) wait(tb testing.TB, u string, v int32, from int) {
	tb.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		l.read(tb)
		for _, p := range l.seen[from:] {
			if p.URI == u && p.Version >= v {
				return
			}
		}
		if time.Now().After(deadline) {
			tb.Fatalf("no pass over version %d of %s logged within a minute", v, u)
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// BenchmarkAnswerStream measures what an answer that streams in costs the
// server: the answer of BenchmarkAnswerDiagnostics (50 blocks over ten
// open 5,000-line buffers, 552 lines) appended to an empty buffer one line
// at a time, each line one didChange, as a chat plugin writes an agent's
// answer into its buffer. The editor waits for the server's pass over each
// version (which it logs) before it appends the next line, so that the
// server refreshes the diagnostics after every line: what it does when
// the model writes a line slower than the debounce (150ms as shipped; a
// line every few hundred milliseconds is a model's ordinary pace), the
// most it can be asked to do. The server runs with a 1ms debounce so that
// the benchmark does not wait.
//
// The blocks of "exact" quote two lines each, found as written; those of
// "fuzzy" quote their function with a line the file does not have, and
// resolve fuzzily. Compared with one full pass: the whole answer opened at
// once. Reported:
// the server's time in its passes (stream-ms, full-ms, and their ratio,
// stream/full, which the issue asks to keep at 2 or less), and the CPU
// time of the whole server process, reading each message included
// (stream-cpu-ms, full-cpu-ms, from /proc), and the blocks the stream's
// refreshes resolved, every plan counted, those cut short included
// (resolved; a full pass resolves 50). A refresh after every line stays
// above 2 whatever a refresh does beyond finding what changed: the 553
// refreshes, at 0.1-0.35 ms each (the longer the server slept before, the
// more), cost more than a full pass by themselves; see docs/design.md.
//
// The "chat-pace" cases stream the same answers as a chat plugin does at
// an agent's fast pace, a line every 10ms without waiting, to a server
// with the debounce as shipped: it refreshes when the lines pause, and
// at least every 300ms while they keep coming.
//
// The "on-disk" cases stream the exact answer over the same targets as
// files on the disk that the editor does not have open, as an agent's
// answer most often names them.
//
// -stream.pace adds the two answers streamed at that pace, to the server
// as shipped: a line every 100ms to 300ms is the pace of a model writing
// its answer. Each iteration then takes 552 times the pace.
// -stream.blocks sets the number of blocks of the answers (50), to see
// how the cost grows with the answer: 200 blocks are 2,202 lines.
func BenchmarkAnswerStream(b *testing.B) {
	type stream struct {
		name  string
		fuzzy bool
		pace  time.Duration
		disk  bool
	}
	streams := []stream{
		{"exact", false, 0, false}, {"fuzzy", true, 0, false},
		{"exact/chat-pace", false, 10 * time.Millisecond, false}, {"fuzzy/chat-pace", true, 10 * time.Millisecond, false},
		{"exact/on-disk", false, 0, true}, {"exact/on-disk/chat-pace", false, 10 * time.Millisecond, true},
	}
	if p := *streamPace; p > 0 {
		streams = append(streams, stream{"exact/pace=" + p.String(), false, p, false}, stream{"fuzzy/pace=" + p.String(), true, p, false})
	}
	for _, bc := range streams {
		b.Run(bc.name, func(b *testing.B) {
			benchmarkAnswerStream(b, benchAnswerSized(bc.fuzzy, *streamBlocks), *streamBlocks, bc.pace, bc.disk)
		})
	}
}

// streamPace is the pace of the streams BenchmarkAnswerStream adds, and
// of the changes of BenchmarkChangeCPU.
var streamPace = flag.Duration("stream.pace", 0, "BenchmarkAnswerStream: also stream the answers a line this far apart; BenchmarkChangeCPU: change the buffer at this pace")

// streamBlocks is the number of blocks of the answers BenchmarkAnswerStream
// streams.
var streamBlocks = flag.Int("stream.blocks", answerBlocks, "BenchmarkAnswerStream: the `number` of blocks of the answers, a multiple of 10")

// benchmarkAnswerStream is BenchmarkAnswerStream for one answer of the
// given number of blocks, its lines a pace apart (0: each after the
// server's refresh of the line before); with disk, the targets are files
// the editor does not have open.
func benchmarkAnswerStream(b *testing.B, answer string, blocks int, pace time.Duration, disk bool) {
	if blocks <= 0 || blocks%answerFiles != 0 {
		b.Fatalf("-stream.blocks=%d: not a positive multiple of %d", blocks, answerFiles)
	}
	dir := b.TempDir()
	opt := fakeeditor.VSCode(dir)
	log := &passLog{path: filepath.Join(b.TempDir(), "graft.log")}
	opt.Args = []string{"--log-level", "debug", "--log", log.path}
	if pace == 0 {
		opt.Args = append(opt.Args, "--debounce", "1ms") // the debounce as shipped otherwise
	}
	e, _ := fakeeditor.StartReady(b, opt)
	if disk {
		writeFiles(b, dir, benchTargets())
	} else {
		openFiles(b, e, dir, benchTargets())
	}
	lines := strings.SplitAfter(answer, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	complete := finished(blocks)
	pid := e.Pid()
	var full, stream time.Duration
	var fullCPU, streamCPU time.Duration
	var nStream, resolved, published, cut int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// One full pass.
		whole := filepath.Join(dir, fmt.Sprintf("whole%d.md", i))
		log.read(b)
		mark := len(log.seen)
		cpu := serverCPU(b, pid)
		if err := e.Open(whole, "markdown", answer); err != nil {
			b.Fatal(err)
		}
		want, err := e.WaitDiagnostics(fakeeditor.URI(whole), complete, time.Minute)
		if err != nil {
			b.Fatal(err)
		}
		log.wait(b, string(fakeeditor.URI(whole)), 1, mark)
		fullCPU += serverCPU(b, pid) - cpu
		for _, p := range log.seen[mark:] {
			full += time.Duration(p.Elapsed * float64(time.Second))
		}

		// The same answer, streamed in line by line.
		path := filepath.Join(dir, fmt.Sprintf("stream%d.md", i))
		u := fakeeditor.URI(path)
		log.read(b)
		mark = len(log.seen)
		cpu = serverCPU(b, pid)
		if err := e.Open(path, "markdown", ""); err != nil {
			b.Fatal(err)
		}
		log.wait(b, string(u), 1, mark)
		for n, line := range lines {
			at := protocol.Position{Line: uint32(n)}
			if err := e.Edit(path, &protocol.Range{Start: at, End: at}, line); err != nil {
				b.Fatal(err)
			}
			if pace > 0 {
				time.Sleep(pace)
				continue
			}
			log.wait(b, string(u), e.Version(path), len(log.seen))
		}
		got, err := e.WaitDiagnostics(u, complete, time.Minute)
		if err != nil {
			b.Fatal(err)
		}
		log.wait(b, string(u), e.Version(path), mark)
		streamCPU += serverCPU(b, pid) - cpu
		log.read(b)
		streamResolved := 0
		for _, p := range log.seen[mark:] {
			if p.URI != string(u) {
				continue
			}
			stream += time.Duration(p.Elapsed * float64(time.Second))
			nStream++
			if p.Cut {
				cut++
			}
			streamResolved = max(streamResolved, p.ResolvedTotal)
			if p.Published {
				published++
			}
		}
		resolved += streamResolved
		if e.Text(path) != answer {
			b.Fatal("the streamed answer is not the answer")
		}
		for k := range want {
			if got[k].Message != want[k].Message || got[k].Range != want[k].Range {
				b.Fatalf("block %d streamed: %q at %v; opened whole: %q at %v", k+1, got[k].Message, got[k].Range, want[k].Message, want[k].Range)
			}
		}
		if err := e.Close(whole); err != nil {
			b.Fatal(err)
		}
		if err := e.Close(path); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	n := float64(b.N)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
	b.ReportMetric(ms(full), "full-ms")
	b.ReportMetric(ms(stream), "stream-ms")
	b.ReportMetric(float64(stream)/float64(full), "stream/full")
	b.ReportMetric(ms(fullCPU), "full-cpu-ms")
	b.ReportMetric(ms(streamCPU), "stream-cpu-ms")
	b.ReportMetric(float64(nStream)/n, "passes")
	b.ReportMetric(float64(resolved)/n, "resolved")
	b.ReportMetric(float64(published)/n, "published")
	b.ReportMetric(float64(cut)/n, "cut")
}
