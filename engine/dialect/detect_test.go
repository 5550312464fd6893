package dialect

import "testing"

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
		{"empty", "", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Detect(tt.text); got != tt.want {
				t.Errorf("Detect(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}
