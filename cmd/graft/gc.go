package main

import "runtime/debug"

// The collector settings of the servers (graft serve, graft mcp). A server
// keeps little (the open documents and their history) and makes much
// garbage per request: every block applied to a file makes a new copy of
// its text, so an answer of 20 blocks on a 200 KB buffer leaves 6 MB. With
// the default GOGC of 100 the collector then runs during every request;
// at 400 it runs about once in four, and the median graft.apply round
// trip of BenchmarkApplyRoundTrip (20 blocks, 5,000 lines) fell from
// 7.4-7.9 ms to 5.4-5.8 ms on a 2-core machine. The memory limit caps what
// the higher percentage may cost: near it the collector runs as often as
// it must.
const (
	serverGCPercent   = 400
	serverMemoryLimit = 512 << 20
)

// tuneServerGC sets the server's collector, unless the person set GOGC or
// GOMEMLIMIT, which win; lookup is os.LookupEnv.
func tuneServerGC(lookup func(string) (string, bool)) {
	if _, set := lookup("GOGC"); !set {
		debug.SetGCPercent(serverGCPercent)
	}
	if _, set := lookup("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(serverMemoryLimit)
	}
}
