package main

import (
	"math"
	"runtime/debug"
	"testing"
)

func TestTuneServerGC(t *testing.T) {
	percent, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	for _, tc := range []struct {
		name        string
		env         map[string]string
		percent     int
		memoryLimit int64
	}{
		{"unset", nil, serverGCPercent, serverMemoryLimit},
		{"GOGC wins", map[string]string{"GOGC": "50"}, 100, serverMemoryLimit},
		{"GOMEMLIMIT wins", map[string]string{"GOMEMLIMIT": "1GiB"}, serverGCPercent, math.MaxInt64},
	} {
		t.Run(tc.name, func(t *testing.T) {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			tuneServerGC(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
			if got := debug.SetGCPercent(100); got != tc.percent {
				t.Errorf("GC percent %d, want %d", got, tc.percent)
			}
			if got := debug.SetMemoryLimit(-1); got != tc.memoryLimit {
				t.Errorf("memory limit %d, want %d", got, tc.memoryLimit)
			}
		})
	}
}
