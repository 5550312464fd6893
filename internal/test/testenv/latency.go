package testenv

import (
	"slices"
	"testing"
	"time"
)

// ReportLatency reports the median and the 99th percentile of the round
// trips a benchmark timed, in milliseconds, as the metrics p50-ms and
// p99-ms.
func ReportLatency(b *testing.B, times []time.Duration) {
	b.Helper()
	if len(times) == 0 {
		return
	}
	times = slices.Clone(times)
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
}
