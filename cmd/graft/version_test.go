package main

import (
	"runtime/debug"
	"testing"
)

func TestVersion(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123"}}
	dirty := append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build information", nil, "devel"},
		{"installed from a tagged module", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: rev}, "v1.2.3"},
		{"built in a checkout", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, "0123456789ab"},
		{"built in a checkout with changes", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: dirty}, "0123456789ab-dirty"},
		{"built without VCS stamping", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
	}
	for _, tt := range tests {
		if got := version(tt.info); got != tt.want {
			t.Errorf("%s: version() = %q, want %q", tt.name, got, tt.want)
		}
	}
}
