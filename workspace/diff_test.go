package workspace

import "testing"

func TestFileChangeDiff(t *testing.T) {
	tests := []struct {
		name string
		f    FileChange
		want string
	}{
		{
			name: "modify",
			f:    FileChange{Path: "a.go", Changed: true, Existed: true, Exists: true, Before: "one\ntwo\n", After: "one\n2\n"},
			want: "--- a/a.go\n+++ b/a.go\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n",
		},
		{
			name: "create",
			f:    FileChange{Path: "n.go", Changed: true, Exists: true, After: "new\n"},
			want: "--- /dev/null\n+++ b/n.go\n@@ -0,0 +1 @@\n+new\n",
		},
		{
			name: "delete",
			f:    FileChange{Path: "d.go", Changed: true, Existed: true, Before: "old\n"},
			want: "--- a/d.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-old\n",
		},
		{
			name: "move keeping the content",
			f:    FileChange{Path: "a.go", NewPath: "b/a.go", Changed: true, Existed: true, Exists: true, Before: "x\n", After: "x\n"},
			want: "--- a/a.go\n+++ b/b/a.go\n",
		},
		{
			name: "unchanged",
			f:    FileChange{Path: "a.go", Existed: true, Exists: true, Before: "x\n", After: "x\n"},
			want: "",
		},
	}
	for _, tt := range tests {
		if got := tt.f.Diff(); got != tt.want {
			t.Errorf("%s: Diff() =\n%s\nwant:\n%s", tt.name, got, tt.want)
		}
	}
}
