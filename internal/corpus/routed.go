package corpus

import "testing"

// RoutedStaleSample returns the stale cases the end-to-end tests send
// through the built graft (graft apply with the journal and with git, one
// graft mcp session, graft serve): 48 spread over shapes and changes, 16
// with -short, each one a SEARCH/REPLACE answer can write
// (StaleCase.Routable), drawn from seed 1. It skips tb when there is no Go
// source tree to make the corpus from.
func RoutedStaleSample(tb testing.TB) []StaleCase {
	tb.Helper()
	root, err := SourceRoot(tb.Context())
	if err != nil {
		tb.Skipf("no Go source tree to make the corpus from: %v", err)
	}
	g, err := NewGenerator(root, 1)
	if err != nil {
		tb.Fatal(err)
	}
	n := 48
	if testing.Short() {
		n = 16
	}
	sample, err := g.StaleSample(n, 4, StaleCase.Routable)
	if err != nil {
		tb.Fatal(err)
	}
	if len(sample) < n {
		tb.Fatalf("a sample of %d stale cases, want %d", len(sample), n)
	}
	return sample
}
