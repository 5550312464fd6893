package dialect

import "testing"

func TestMarkerOf(t *testing.T) {
	for _, tt := range []struct {
		line string
		want marker
	}{
		{"<<<<<<< SEARCH", searchMarker},
		{"<<<<< SEARCH", searchMarker},
		{"<<<<<<<<< SEARCH", searchMarker},
		{"  <<<<<<< SEARCH  \t", searchMarker},
		{"<<<<<<< SEARCH>", searchMarker},
		{"<<<<<<<SEARCH", searchMarker},
		{"------- SEARCH", searchMarker},
		{"=======", dividerMarker},
		{"=====", dividerMarker},
		{"=========", dividerMarker},
		{"\t=======  ", dividerMarker},
		{">>>>>>> REPLACE", replaceMarker},
		{">>>>>>> REPLACE>", replaceMarker},
		{"+++++++ REPLACE", replaceMarker},
		{">>>>>>>>> REPLACE", replaceMarker},

		// The word is required for the first and the last marker.
		{"<<<<<<< HEAD", notMarker},
		{"<<<<<<<", notMarker},
		{">>>>>>> feature-branch", notMarker},
		{">>>>>>>", notMarker},
		{"-------", notMarker},
		{"+++++++", notMarker},
		// 5 to 9 marker characters.
		{"<<<< SEARCH", notMarker},
		{"<<<<<<<<<< SEARCH", notMarker},
		{"====", notMarker},
		{"==========", notMarker},
		{">>>> REPLACE", notMarker},
		// The words belong to their markers, in capitals, alone.
		{"<<<<<<< REPLACE", notMarker},
		{">>>>>>> SEARCH", notMarker},
		{"======= SEARCH", notMarker},
		{"<<<<<<< search", notMarker},
		{"<<<<<<< SEARCH here", notMarker},
		{"======= x", notMarker},
		{"\\=======", notMarker},
		{"", notMarker},
	} {
		if got := markerOf(tt.line); got != tt.want {
			t.Errorf("markerOf(%q) = %d, want %d", tt.line, got, tt.want)
		}
	}
}

func TestUnescape(t *testing.T) {
	for _, tt := range []struct{ line, want string }{
		{`\=======`, "======="},
		{`\<<<<<<< HEAD`, "<<<<<<< HEAD"},
		{`\>>>>>>> main`, ">>>>>>> main"},
		{`\-------`, "-------"},
		{`\+++++++ REPLACE`, "+++++++ REPLACE"},
		{`\<<<<<<< SEARCH`, "<<<<<<< SEARCH"},
		{`\:start_line:12`, ":start_line:12"},
		{`\:end_line:14`, ":end_line:14"},
		{`\=====`, "====="},

		// Only a backslash at the start of the line escapes, and only a marker.
		{` \=======`, ` \=======`},
		{`\n`, `\n`},
		{`\`, `\`},
		{`\==`, `\==`},
		{`\\=======`, `\\=======`},
		{`x \=======`, `x \=======`},
	} {
		if got := unescape(tt.line); got != tt.want {
			t.Errorf("unescape(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}
