package corpus

import "strings"

// A lang is a source language of the catalog: how its files are named,
// how its comments start, and which lines a model would add to its code.
type lang struct {
	name    string
	index   int // position in the catalog's table
	exts    []string
	weight  int    // share of the cases drawn from this language
	comment string // line comment marker; "" when there is none
	quotes  string // bytes that open a string literal
	// keywords are never renamed, space-separated.
	keywords string
	// logs and guards are the statements an edit inserts. NAME stands
	// for an identifier of the code around; a leading tab stands for one
	// level of the file's indentation, added to the indentation of the
	// place of insertion.
	logs   [][]string
	guards [][]string
	// capsOnly says all-capital words are mnemonics or registers, not
	// names a model would rename (assembly).
	capsOnly bool
}

// languages returns the languages of the catalog with their share of the
// cases: mostly Go, as the Go tree is, and a little of everything else it
// holds.
func languages() []lang {
	return []lang{
		{
			name: "go", exts: []string{".go"}, weight: 70, comment: "//", quotes: "\"'`",
			keywords: goKeywords,
			logs: [][]string{
				{`log.Printf("graft: NAME = %v", NAME)`},
				{`fmt.Fprintf(os.Stderr, "debug: NAME=%v\n", NAME)`},
				{`defer trace("NAME")()`},
			},
			guards: [][]string{
				{"if NAME == nil {", "\tpanic(\"graft: nil NAME\")", "}"},
				{"if err := check(NAME); err != nil {", "\treturn err", "}"},
			},
		},
		{
			name: "c", exts: []string{".c", ".h"}, weight: 6, comment: "//", quotes: "\"'",
			keywords: cKeywords,
			logs:     [][]string{{`fprintf(stderr, "graft: NAME=%p\n", (void*)NAME);`}},
			guards:   [][]string{{"if (NAME == NULL) {", "\treturn;", "}"}},
		},
		{
			name: "asm", exts: []string{".s"}, weight: 6, comment: "//", quotes: "\"",
			keywords: "define include ifdef ifndef endif undef elif else", capsOnly: true,
			logs: [][]string{{"// graft: NAME is live here"}, {"NOP"}},
		},
		{
			name: "js", exts: []string{".js"}, weight: 3, comment: "//", quotes: "\"'`",
			keywords: jsKeywords,
			logs:     [][]string{{`console.log("graft:", NAME);`}},
			guards:   [][]string{{"if (!NAME) {", "\treturn;", "}"}},
		},
		{
			name: "python", exts: []string{".py"}, weight: 2, comment: "#", quotes: "\"'",
			keywords: pyKeywords,
			logs:     [][]string{{`logging.debug("graft: %r", NAME)`}},
			guards:   [][]string{{"if NAME is None:", "\treturn None"}},
		},
		{
			name: "yaml", exts: []string{".yaml", ".yml"}, weight: 5, comment: "#", quotes: "\"'",
			keywords: "true false null",
			logs:     [][]string{{"# graft: check NAME"}},
		},
		{
			name: "json", exts: []string{".json"}, weight: 2, quotes: "\"",
			keywords: "true false null",
		},
		{
			name: "shell", exts: []string{".sh", ".bash"}, weight: 4, comment: "#", quotes: "\"'",
			keywords: shKeywords,
			logs:     [][]string{{`echo "graft: NAME=$NAME" >&2`}},
			guards:   [][]string{{`if [ -z "$NAME" ]; then`, "\texit 1", "fi"}},
		},
		{
			name: "perl", exts: []string{".pl"}, weight: 2, comment: "#", quotes: "\"'",
			keywords: plKeywords,
			logs:     [][]string{{`print STDERR "graft: NAME\n";`}},
		},
	}
}

// The words that are never renamed. They are plain strings so that the
// tables stay constant.
const (
	goKeywords = "break case chan const continue default defer else fallthrough for func go goto if " +
		"import interface map package range return select struct switch type var " +
		"nil true false iota bool byte rune int int8 int16 int32 int64 uint uint8 uint16 uint32 " +
		"uint64 uintptr float32 float64 string error any len cap make new append copy panic " +
		"recover print println delete close"
	cKeywords = "auto break case char const continue default do double else enum extern float for " +
		"goto if int long register return short signed sizeof static struct switch typedef " +
		"union unsigned void volatile while include define ifdef ifndef endif pragma NULL"
	jsKeywords = "break case catch class const continue debugger default delete do else export " +
		"extends finally for function if import in instanceof let new return super switch this " +
		"throw try typeof var void while with yield null undefined true false"
	pyKeywords = "and as assert break class continue def del elif else except finally for from " +
		"global if import in is lambda nonlocal not or pass raise return try while with yield " +
		"None True False self"
	shKeywords = "if then else elif fi case esac for while until do done in function return " +
		"exit local export echo set shift"
	plKeywords = "my our local sub if elsif else unless while until for foreach do last next " +
		"return use require package print"
)

// isKeyword reports whether word is one of l's keywords, or a word it
// would not rename.
func (l *lang) isKeyword(word string) bool {
	if l.capsOnly && strings.ToUpper(word) == word {
		return true
	}
	return containsWord(l.keywords, word)
}

// containsWord reports whether the space-separated list holds word.
func containsWord(list, word string) bool {
	for w := range strings.FieldsSeq(list) {
		if w == word {
			return true
		}
	}
	return false
}

// opens reports whether a line of l ending with trimmed text opens a
// block whose lines are indented one level more.
func (l *lang) opens(trimmed string) bool {
	switch l.name {
	case "python":
		return strings.HasSuffix(trimmed, ":")
	case "shell":
		return strings.HasSuffix(trimmed, "then") || strings.HasSuffix(trimmed, "do") || strings.HasSuffix(trimmed, "{")
	case "yaml", "json", "asm":
		return false
	}
	return strings.HasSuffix(trimmed, "{")
}

// closes reports whether a trimmed line of l closes a block.
func (l *lang) closes(trimmed string) bool {
	if trimmed == "" {
		return false
	}
	switch l.name {
	case "shell":
		return trimmed == "fi" || trimmed == "done" || trimmed == "esac" || trimmed[0] == '}'
	case "python", "yaml":
		return false
	}
	return strings.IndexByte("})]", trimmed[0]) >= 0
}

// elision is the line a model writes for code it left out.
func (l *lang) elision() string {
	if l.comment == "" {
		return "..."
	}
	return l.comment + " ... existing code ..."
}
