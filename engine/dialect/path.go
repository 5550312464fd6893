package dialect

import (
	"strings"
	"unicode"
)

// Finding the file a block is for is this package's own edge: models name it
// in markdown decorations, in prose, in fence info strings. The rules below
// take a path only where it is plain and refuse prose, since a wrong path is
// worse than none (the caller reports a missing one).

// cleanPath returns the path written in s without its decorations: the
// surrounding space, backticks, quotes and bold markers, a leading markdown
// heading "#", a "File:" label, a trailing ":" and a leading "./".
func cleanPath(s string) string {
	s = strings.ReplaceAll(s, "**", "")
	for {
		prev := s
		s = strings.TrimSpace(s)
		s = strings.TrimSuffix(s, ":")
		s = strings.TrimLeft(s, "#")
		s = strings.TrimSpace(s)
		s = trimLabel(s)
		for _, q := range []string{"`", `"`, "'"} {
			if len(s) >= 2 && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) {
				s = s[1 : len(s)-1]
			}
		}
		if s == prev {
			break
		}
	}
	for strings.HasPrefix(s, "./") {
		s = strings.TrimLeft(s[2:], " ")
	}
	return s
}

// trimLabel removes a leading label such as "File:" from s.
func trimLabel(s string) string {
	for _, label := range [...]string{"file:", "filename:", "file name:", "filepath:", "file path:", "path:"} {
		if len(s) >= len(label) && strings.EqualFold(s[:len(label)], label) {
			return s[len(label):]
		}
	}
	return s
}

// maxPathWords is the most words a path with spaces may have before the
// line it stands on is taken for prose.
const maxPathWords = 4

// startsProse reports whether a line whose first word is w reads as a
// sentence ("Update main.go", "In the handler.go") rather than as a path with
// spaces.
func startsProse(w string) bool {
	switch strings.ToLower(w) {
	case "a", "add", "an", "and", "apply", "change", "changes", "create", "delete",
		"edit", "edits", "fix", "for", "from", "here", "here's", "i", "in", "into",
		"it", "let's", "modify", "new", "now", "of", "on", "open", "or", "remove",
		"replace", "see", "the", "then", "this", "to", "update", "updated", "we",
		"with", "you":
		return true
	}
	return false
}

// isWellKnownName reports whether base is a file name without an extension
// that is still plainly a file name when it stands alone on a line.
func isWellKnownName(base string) bool {
	switch base {
	case "Makefile", "GNUmakefile", "makefile", "Dockerfile", "Containerfile",
		"Gemfile", "Rakefile", "Procfile", "Jenkinsfile", "Vagrantfile", "Brewfile",
		"Justfile", "justfile", "LICENSE", "README", "CODEOWNERS":
		return true
	}
	return false
}

// isPath reports whether s, already cleaned, reads as a file path: it has a
// directory or an extension (or is a well-known name), holds none of the
// characters of code or markup, and, when it has spaces, is short and does not
// start like a sentence.
func isPath(s string) bool {
	base, ok := pathBase(s)
	return ok && (base != s || hasExtension(base) || isWellKnownName(base))
}

// pathBase returns the file name that ends s, already cleaned, when s could
// be a path: it holds none of the characters of code or markup, and, when
// it has spaces, is short and does not start like a sentence.
func pathBase(s string) (string, bool) {
	if s == "" || containsCodeChar(s) || strings.Contains(s, "://") ||
		strings.IndexFunc(s, unicode.IsControl) >= 0 || strings.ContainsAny(s[:1], "-+") {
		return "", false
	}
	if words := strings.Fields(s); len(words) > 1 {
		if len(words) > maxPathWords || startsProse(words[0]) {
			return "", false
		}
	}
	if strings.ContainsAny(s[len(s)-1:], ".,;!?") {
		return "", false
	}
	base := s[strings.LastIndexAny(s, `/\`)+1:]
	return base, base != ""
}

// codeChars are the characters of code or markup, which no path holds.
var codeChars = func() (set [256]bool) {
	for _, c := range []byte("<>|\"`*?{};=") {
		set[c] = true
	}
	return set
}()

// containsCodeChar reports whether s holds one of codeChars: it is
// strings.ContainsAny(s, "<>|\"`*?{};="), which sets up its set at each
// call, for every line before a block that may name its file.
func containsCodeChar(s string) bool {
	for i := 0; i < len(s); i++ {
		if codeChars[s[i]] {
			return true
		}
	}
	return false
}

// isPath reports whether s, already cleaned, reads as a file path, as the
// function isPath says, or is a bare name (one word, without a folder or an
// extension: "Pipfile", "VERSION", "configure") of a file that exists, as
// the document's exists says (nil: no file is known to exist).
func (d *document) isPath(s string) bool {
	if is, ok := d.paths[s]; ok {
		return is
	}
	is := isPath(s)
	if !is {
		_, ok := pathBase(s)
		is = ok && d.exists != nil && !strings.ContainsAny(s, " \t") && d.exists(s)
	}
	if d.paths == nil {
		d.paths = map[string]bool{}
	}
	d.paths[s] = is // the blocks of an answer name the same few files
	return is
}

// hasExtension reports whether the file name base ends in an extension: a dot
// and a short run of letters, digits, "_", "+" or "-" holding a letter.
func hasExtension(base string) bool {
	dot := strings.LastIndexByte(base, '.')
	if dot < 0 || len(base)-dot-1 > 12 {
		return false
	}
	ext := base[dot+1:]
	letter := false
	for _, r := range ext {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r) || r == '_' || r == '+' || r == '-':
		default:
			return false
		}
	}
	return letter
}

// pathFromLine returns the path a line names on its own: the whole line once
// cleaned ("src/a.go", "**src/a.go**", "# File: `src/a.go`"), or a short
// lead-in ending in ":" that quotes exactly one path ("In `src/a.go`:").
func pathFromLine(line string) (string, bool) {
	return namedOnLine(line, isPath)
}

// pathFromLine is the function pathFromLine that also takes the bare name
// of a file that exists for a path.
func (d *document) pathFromLine(line string) (string, bool) {
	return namedOnLine(line, d.isPath)
}

// namedOnLine returns the path a line names on its own, as pathFromLine
// says, where isPath tells which cleaned text reads as a path.
func namedOnLine(line string, isPath func(string) bool) (string, bool) {
	if p := cleanPath(line); isPath(p) {
		return p, true
	}
	return quotedPath(line, isPath)
}

// lookBackLines is how many non-blank lines before a block (and again before
// its code fence) may name its file.
const lookBackLines = 3

// pathBefore returns the path named before lines[i], the first line of a
// block: on one of the few non-blank lines before it, in the info string of
// the code fence f around it, or on one of the few lines before that fence.
// It looks back no further than the line after lines[after], the end of
// the previous block, nor into another fence, nor past a line for which
// stop (nil: none) reports true; it skips prose.
func (d *document) pathBefore(i, after int, f fence, stop func(j int) bool) string {
	budget := lookBackLines
	for j := i - 1; j > after && budget > 0; j-- {
		line := d.lines[j]
		switch {
		case strings.TrimSpace(line) == "":
			continue
		case isFence(line):
			if !f.open || j != f.line {
				return d.fencedName(j, after)
			}
			if path := fenceInfoPath(f.info); path != "" {
				return path
			}
			budget = lookBackLines
			continue
		case stop != nil && stop(j):
			return ""
		}
		if path, ok := d.pathFromLine(line); ok {
			return path
		}
		budget--
	}
	return ""
}

// fencedName returns the path named alone in a small code fence that
// lines[j] closes, after lines[after]: an opening fence, one line that names
// a file (without spaces) and a closing fence, as some models write the name
// of the file before a block. The fence of a shell session holds a command,
// not a name.
func (d *document) fencedName(j, after int) string {
	if j-2 <= after {
		return ""
	}
	char, n, info, ok := fenceOf(d.lines[j-2])
	endChar, endN, endInfo, endOK := fenceOf(d.lines[j])
	if !ok || !endOK || endChar != char || endN != n || endInfo != "" || isShell(info) {
		return ""
	}
	name := cleanPath(d.lines[j-1])
	if strings.ContainsAny(name, " \t") || isFence(d.lines[j-1]) || !d.isPath(name) {
		return ""
	}
	return name
}

// isShell reports whether a code fence's info string names a shell, whose
// fences hold commands.
func isShell(info string) bool {
	lang, _, _ := strings.Cut(strings.ToLower(info), " ")
	switch lang {
	case "sh", "bash", "zsh", "fish", "shell", "console", "terminal", "shellsession",
		"powershell", "pwsh", "ps1", "cmd", "bat", "batch":
		return true
	}
	return false
}

// maxLeadInWords is the most words a lead-in line such as "In `a.go`:" may
// have; a longer line is a sentence, and a path quoted in it is not taken.
const maxLeadInWords = 6

// quotedPath returns the single path quoted in code or bold in a short line
// ending in ":", where isPath tells which cleaned text reads as a path.
func quotedPath(line string, isPath func(string) bool) (string, bool) {
	s := strings.TrimSpace(line)
	if !strings.HasSuffix(s, ":") || len(strings.Fields(s)) > maxLeadInWords {
		return "", false
	}
	found := ""
	for _, quote := range []string{"`", "**"} {
		parts := strings.Split(s, quote)
		for i := 1; i < len(parts)-1; i += 2 {
			p := cleanPath(parts[i])
			if !isPath(p) || strings.ContainsAny(p, " \t") {
				continue
			}
			if found != "" && found != p {
				return "", false
			}
			found = p
		}
	}
	return found, found != ""
}

// fenceInfoPath returns the path in a code fence's info string, as in
// "```python src/a.py", "```src/a.py", "```python:src/a.py" or
// "```go title=\"a.go\""; a bare language name is not a path.
func fenceInfoPath(info string) string {
	for _, field := range strings.Fields(info) {
		field = strings.Trim(field, "{}")
		if strings.HasPrefix(field, ".") && !strings.HasPrefix(field, "./") {
			continue // a pandoc class such as {.python}
		}
		if k := strings.IndexByte(field, '='); k >= 0 {
			field = field[k+1:]
		}
		if k := strings.IndexByte(field, ':'); k >= 0 {
			field = field[k+1:]
		}
		field = strings.Trim(field, `"'`)
		if p := cleanPath(field); isPath(p) && !isWellKnownName(p) {
			return p
		}
	}
	return ""
}
