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
		// Followed by its word, a run of any length from 5 is a marker,
		// as Cline reads them; a bare run of "=" longer than 9 is a
		// divider only where block structure says so.
		{"<<<<<<<<<< SEARCH", searchMarker},
		{"<<<<<<<<<<<<<<<<<<<<<<<< SEARCH", searchMarker},
		{"----------- SEARCH", searchMarker},
		{">>>>>>>>>>> REPLACE", replaceMarker},
		{"+++++++++++ REPLACE>", replaceMarker},
		{"==========", longDivider},
		{"  =================================  ", longDivider},

		// The word is required for the first and the last marker.
		{"<<<<<<< HEAD", notMarker},
		{"<<<<<<<", notMarker},
		{">>>>>>> feature-branch", notMarker},
		{">>>>>>>", notMarker},
		{"-------", notMarker},
		{"+++++++", notMarker},
		// At least 5 marker characters.
		{"<<<< SEARCH", notMarker},
		{"---- SEARCH", notMarker},
		{"====", notMarker},
		{">>>> REPLACE", notMarker},
		{"++++ REPLACE", notMarker},
		{"----------- REPLACE", notMarker},
		{"========== SEARCH", notMarker},
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
		{`\=============`, "============="},
		{`    \:start_line:12`, "    :start_line:12"},
		{"\t\\:end_line:", "\t:end_line:"},

		// Only a backslash at the start of the line escapes, and only a marker.
		{` \=======`, ` \=======`},
		{`\n`, `\n`},
		{`\`, `\`},
		{`\==`, `\==`},
		{`\\=======`, `\\=======`},
		{`x \=======`, `x \=======`},
		{`  \=======`, `  \=======`},
	} {
		if got := unescape(tt.line); got != tt.want {
			t.Errorf("unescape(%q) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestLineMarker(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{":start_line:12", true},
		{":end_line:14", true},
		{":start_line:", true},
		{":start_line:twelve", true},
		// Indented, with a line number or none: a misplaced marker too.
		{"    :start_line:12", true},
		{"\t:end_line: 7", true},
		{"  :start_line:", true},

		// Indented text that only begins like one is content.
		{"  :start_line: is the key", false},
		{"    x := 1", false},
		{`    \:start_line:12`, false},
		{"a :start_line:12", false},
		{"", false},
	} {
		if got := lineMarker(tt.line); got != tt.want {
			t.Errorf("lineMarker(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}
