package dialect

import (
	"fmt"
	"testing"
)

func TestDetect(t *testing.T) {
	for _, tt := range []struct {
		name, text, want string
	}{
		{"search-replace", "a.go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", SearchReplace},
		{"cline markers", "------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n", SearchReplace},
		{"a malformed block still tells the dialect", "<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n", SearchReplace},
		{"json object", `{"filePath": "a.go", "oldString": "a", "newString": "b"}`, StrReplace},
		{"json array", `[{"path": "a.go", "old_str": "a", "new_str": "b"}]`, StrReplace},
		{"json lines", "{\"path\": \"a\", \"old_str\": \"a\", \"new_str\": \"b\"}\n{\"path\": \"a\", \"old_str\": \"c\", \"new_str\": \"d\"}\n", StrReplace},
		{"json fence", "Edit:\n```json\n{\"path\": \"a.go\", \"old_str\": \"a\", \"new_str\": \"b\"}\n```\n", StrReplace},
		{"tool call", `{"name": "edit", "input": {"filePath": "a.go", "oldString": "a", "newString": "b"}}`, StrReplace},
		{"editor command", `{"command": "view", "path": "a.go"}`, StrReplace},
		{"the first block decides", "{\"path\": \"a\", \"old_str\": \"a\", \"new_str\": \"b\"}\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", StrReplace},
		{"json that is not an edit", `{"name": "demo", "path": "a.go"}`, ""},
		{"git conflict", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> main\n", ""},
		{"markdown", "Title\n=======\n\nText.\n", ""},
		{"an example of the format", "The format looks like this:\n```text\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n", ""},
		{"a placeholder path", "path/to/a.go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", ""},
		{"the example is passed over", "For example:\n\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\n```diff\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n```\n", UnifiedDiff},
		{"a draft in the model's reasoning", "<think>\nI could write:\na.go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n</think>\n", ""},
		{"the answer after the reasoning", "<thinking>\na.go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n</thinking>\n\n```diff\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n```\n", UnifiedDiff},
		{"reasoning still being written", "<thinking-content-7bbeb8e1>\n\na.go\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", ""},
		{"a tag in a block's text is content", "a.html\n<<<<<<< SEARCH\n<think>\n=======\n<think>x\n>>>>>>> REPLACE\n", SearchReplace},
		{"empty", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Detect(tt.text); got != tt.want {
				t.Errorf("Detect(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

func TestIsPlaceholder(t *testing.T) {
	for _, tt := range []struct {
		path string
		want bool
	}{
		{"path/to/file.py", true},
		{"/path/to/file.py", true},
		{"src/path/to/x.go", true},
		{`path\to\file.cs`, true},
		{"<file>", true},
		{"<path/to/file>", true},
		{"your_module.py", true},
		{"lib/your-file.js", true},
		{"filename.go", true},
		{"src/main.ext", true},
		{"", false},
		{"src/app.py", false},
		{"paths/top.go", false},
		{"path/tools.go", false},
		{"yourself.md", false},
		{"filenames.go", false},
		{"docs/extension.md", false},
	} {
		if got := isPlaceholder(tt.path); got != tt.want {
			t.Errorf("isPlaceholder(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestPresents(t *testing.T) {
	for _, tt := range []struct {
		intro            string
		example, history bool
	}{
		{"The SEARCH/REPLACE format looks like this:", true, false},
		{"For example:", true, false},
		{"### Example", true, false},
		{"Use a placeholder path, e.g. this:", true, false},
		{"Every edit uses this format:", true, false},
		{"The diff syntax is:", true, false},
		{"Use the ISO date format:", false, false},
		{"Fix the syntax error:", false, false},
		{"For example, with n = 3 the loop runs four times. Fix it:", false, false},
		{"Update the example in the README:", false, false},
		{"Here's the change:", false, false},
		{"The bug was introduced by this change:", false, true},
		{"This is the commit that broke it:", false, true},
		{"git show 3f2a1b9 prints:", false, true},
		{"It regressed in commit 3f2a1b9c:", false, true},
		{"The check was changed last week:", false, true},
		{"Here's the fix for the regression introduced in 3f2a1b9:", false, false},
		{"Revert the change introduced by the last commit:", false, false},
		{"Commit this:", false, false},
		{"", false, false},
	} {
		if got := presentsExample(tt.intro); got != tt.example {
			t.Errorf("presentsExample(%q) = %v, want %v", tt.intro, got, tt.example)
		}
		if got := presentsHistory(tt.intro); got != tt.history {
			t.Errorf("presentsHistory(%q) = %v, want %v", tt.intro, got, tt.history)
		}
	}
}

// TestFenceStack follows the fences of a text and checks the fence each
// line stands in: the line that opens it and whether it is quoted.
func TestFenceStack(t *testing.T) {
	for _, tt := range []struct {
		name  string
		lines []string
		// want[i] is the fence lines[i] stands in, after the line is
		// seen: "-" none, "N" the fence opened on line index N, "qN" the
		// same, quoted in another.
		want []string
	}{
		{"closed", []string{"```go", "x", "```", "y"}, []string{"0", "0", "-", "-"}},
		{"quoted", []string{"````md", "```go", "x", "```", "````"}, []string{"0", "q1", "q1", "0", "-"}},
		{"quoted bare", []string{"````", "```", "x", "```", "````"}, []string{"0", "q1", "q1", "0", "-"}},
		{"tilde around backticks", []string{"~~~", "```", "```", "~~~"}, []string{"0", "q1", "0", "-"}},
		{"outer closes inner", []string{"````", "```go", "````", "x"}, []string{"0", "q1", "-", "-"}},
		{"left unclosed", []string{"```python", "x", "```python", "y", "```"}, []string{"0", "0", "2", "2", "-"}},
		{"longer close", []string{"```", "`````"}, []string{"0", "-"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var s fenceStack
			for i, line := range tt.lines {
				s.see(i, line)
				at, _, quoted := s.top()
				got := "-"
				switch {
				case at >= 0 && quoted:
					got = fmt.Sprintf("q%d", at)
				case at >= 0:
					got = fmt.Sprint(at)
				}
				if got != tt.want[i] {
					t.Errorf("after line %d %q: in fence %s, want %s", i, line, got, tt.want[i])
				}
			}
		})
	}
}
