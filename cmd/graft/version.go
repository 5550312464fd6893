package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// runVersion prints "graft <version>".
func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "graft version: unexpected arguments %q\n", args)
		return exitUsage
	}
	info, _ := debug.ReadBuildInfo()
	fmt.Fprintf(stdout, "graft %s\n", version(info))
	return exitOK
}

// version names the build described by info: the module version when graft
// was installed from a tagged module, else the VCS revision it was built
// from (with "-dirty" when the tree had changes), else "devel".
func version(info *debug.BuildInfo) string {
	if info == nil {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return rev
}
