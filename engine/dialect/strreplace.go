package dialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/graft-editor/graft/engine"
)

// The str-replace dialect: the arguments of OpenCode's edit tool and of
// Claude's text-editor tools, as JSON objects standing alone, in arrays, as
// JSON Lines or in ```json fences of a markdown answer, bare or wrapped in the
// tool calls of the common model APIs:
//
//	{"filePath": "src/a.go", "oldString": "x := 1", "newString": "x := 2"}
//	{"command": "create", "path": "b.txt", "file_text": "hello\n"}
//	{"command": "insert", "path": "b.txt", "insert_line": 0, "new_str": "# title\n"}

// The keys of each field, in the order they are looked up.
var (
	pathKeys       = [...]string{"filePath", "path", "file_path"}
	oldKeys        = [...]string{"oldString", "old_string", "old_str"}
	newKeys        = [...]string{"newString", "new_string", "new_str"}
	insertKeys     = [...]string{"new_str", "newString", "new_string", "insert_text"}
	replaceAllKeys = [...]string{"replaceAll", "replace_all"}
	startLineKeys  = [...]string{"startLine", "start_line"}
	// wrapperKeys hold the arguments of a tool call: Anthropic's "input",
	// OpenAI's "arguments" (an object or a JSON string) inside "function",
	// and the "tool_input", "parameters" and "tool_calls" of other clients.
	wrapperKeys = [...]string{"input", "arguments", "function", "tool_input", "parameters", "tool_calls"}
)

// maxNesting bounds how deep arrays and tool-call wrappers are followed.
// Each level decodes its value again, so it also bounds the work per byte.
const maxNesting = 8

// A strParser reads the str-replace edits of one document.
type strParser struct {
	doc    *document
	blocks []Block
}

// parseStrReplace reads the str-replace edits in doc. A JSON value may start
// on any line that begins with "{" or "[": a whole-JSON answer, JSON Lines
// and the JSON in a fence all do. Values follow one another from there until
// text that is not JSON; the search then goes on after that text, so that
// every byte is decoded about once.
func parseStrReplace(doc *document) []Block {
	p := &strParser{doc: doc}
	start, found := doc.passedOver(quietStrReplace)
	for i := start; i < len(doc.lines); i++ {
		t := trimIndent(doc.lines[i])
		if t != "" && (t[0] == '{' || t[0] == '[') {
			found(i)
			i = p.stream(doc.starts[i] + len(doc.lines[i]) - len(t))
		}
	}
	return p.blocks
}

// stream reads the JSON values that follow one another from text[start:]
// and returns the index of the last line it consumed.
func (p *strParser) stream(start int) int {
	rest := p.doc.text[start:]
	dec := json.NewDecoder(strings.NewReader(rest))
	for {
		from := skipSeparators(rest, int(dec.InputOffset()))
		var raw json.RawMessage
		err := dec.Decode(&raw)
		var syntax *json.SyntaxError
		switch {
		case err == nil:
			at := start + from
			p.value(raw, at, p.doc.span(at, start+int(dec.InputOffset())), 0)
		case errors.As(err, &syntax):
			// The line of the offending byte is consumed: it is not JSON.
			p.broken(start+from, start+int(syntax.Offset)-1, syntax)
			return p.doc.lineAt(start+int(syntax.Offset)-1) - 1
		default:
			// The end of the text, or a value it cuts short: stop, rather
			// than decode the rest of the text again from each later line.
			if errors.Is(err, io.ErrUnexpectedEOF) {
				p.broken(start+from, len(p.doc.text), nil)
			}
			return len(p.doc.lines)
		}
	}
}

// broken reports the JSON value that starts at text[at] and breaks at
// text[end] (the end of the text when syntax is nil: the value is cut
// short) as a malformed block, when it names the keys of an edit: an edit
// cut short by a model's output limit must not pass for prose.
func (p *strParser) broken(at, end int, syntax *json.SyntaxError) {
	end = max(at, min(end, len(p.doc.text)))
	if at >= len(p.doc.text) || !mentionsEdit(p.doc.text[at:min(end+1, len(p.doc.text))]) {
		return
	}
	if syntax != nil && strings.TrimSpace(p.doc.text[end:]) == "" {
		syntax = nil // a string cut short, then only the end of the text
	}
	line := p.doc.lineAt(min(end, len(p.doc.text)-1))
	col := end - p.doc.starts[line-1] + 1
	var err error
	switch {
	case syntax == nil:
		err = fmt.Errorf("line %d: the JSON value is truncated: the answer ends at line %d, column %d, before the value closes; it was likely cut short, send it whole", p.doc.lineAt(at), line, col)
	case p.fenceAfter(line):
		err = fmt.Errorf("line %d: the JSON value is truncated: %v at line %d, column %d, and the code fence closes after it; it was likely cut short, send it whole", p.doc.lineAt(at), syntax, line, col)
	default:
		err = fmt.Errorf("line %d: the JSON value is not valid: %v at line %d, column %d", p.doc.lineAt(at), syntax, line, col)
	}
	p.blocks = append(p.blocks, Block{
		Edit: engine.Edit{Dialect: StrReplace, Source: engine.Span{StartLine: p.doc.lineAt(at), EndLine: line}},
		Err:  err,
	})
}

// fenceAfter reports whether line (1-based), or the line after it, is a
// code fence line.
func (p *strParser) fenceAfter(line int) bool {
	for i := line - 1; i <= line && i < len(p.doc.lines); i++ {
		if isFence(p.doc.lines[i]) {
			return true
		}
	}
	return false
}

// skipSeparators returns the offset of the first byte at or after i in s that
// is neither space nor the comma between array elements.
func skipSeparators[T string | []byte](s T, i int) int {
	for i < len(s) && strings.IndexByte(" \t\r\n,", s[i]) >= 0 {
		i++
	}
	return i
}

// value reads the edits in one JSON value, raw, that stands at offset base
// of the text and on the lines span. A base of -1 means raw is not in the
// text (it was decoded from a string): its edits then get span.
func (p *strParser) value(raw []byte, base int, span engine.Span, depth int) {
	if depth > maxNesting {
		return
	}
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0:
	case raw[0] == '[':
		p.array(raw, base, span, depth)
	case raw[0] == '{':
		p.object(raw, span, depth)
	}
}

// array reads the edits in the elements of a JSON array, each on its own
// lines when the array stands in the text.
func (p *strParser) array(raw []byte, base int, span engine.Span, depth int) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		return
	}
	for dec.More() {
		from := skipSeparators(raw, int(dec.InputOffset()))
		var elem json.RawMessage
		if dec.Decode(&elem) != nil {
			return
		}
		at, elemSpan := -1, span
		if base >= 0 {
			at = base + from
			elemSpan = p.doc.span(at, base+int(dec.InputOffset()))
		}
		p.value(elem, at, elemSpan, depth+1)
	}
}

// object reads a JSON object: an edit, a Claude Code MultiEdit call (a path
// and an "edits" array), or a tool call whose arguments hold edits.
func (p *strParser) object(raw []byte, span engine.Span, depth int) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return
	}
	if isEdit(obj) {
		p.add(obj, span)
		return
	}
	if edits, ok := obj["edits"]; ok && hasAny(obj, pathKeys[:]) {
		p.multiEdit(obj, edits, span)
		return
	}
	for _, key := range wrapperKeys {
		v, ok := obj[key]
		if !ok {
			continue
		}
		var encoded string
		if json.Unmarshal(v, &encoded) == nil {
			p.encoded(key, encoded, span, depth)
			continue
		}
		p.value(v, -1, span, depth+1)
	}
}

// encoded reads the edits in tool-call arguments given as a JSON string.
// Arguments that are not valid JSON are reported only when they mention the
// keys of an edit: otherwise they belong to some other tool.
func (p *strParser) encoded(key, s string, span engine.Span, depth int) {
	t := strings.TrimSpace(s)
	if t == "" || (t[0] != '{' && t[0] != '[') {
		return
	}
	var raw json.RawMessage
	if err := json.Unmarshal([]byte(t), &raw); err != nil {
		if mentionsEdit(t) {
			p.blocks = append(p.blocks, Block{
				Edit: engine.Edit{Dialect: StrReplace, Source: span},
				Err:  fmt.Errorf("the %q of a tool call are not valid JSON: %w", key, err),
			})
		}
		return
	}
	p.value(raw, -1, span, depth+1)
}

// mentionsEdit reports whether text names one of the keys of an edit.
func mentionsEdit(text string) bool {
	for _, keys := range [][]string{oldKeys[:], newKeys[:]} {
		for _, k := range keys {
			if strings.Contains(text, strconv.Quote(k)) {
				return true
			}
		}
	}
	return false
}

// multiEdit reads the "edits" of a Claude Code MultiEdit call, which share
// the call's path.
func (p *strParser) multiEdit(call map[string]json.RawMessage, edits json.RawMessage, span engine.Span) {
	var list []json.RawMessage
	if err := json.Unmarshal(edits, &list); err != nil {
		return
	}
	for _, raw := range list {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil || !isEdit(obj) {
			continue
		}
		if !hasAny(obj, pathKeys[:]) {
			for _, k := range pathKeys {
				if v, ok := call[k]; ok {
					obj[k] = v
				}
			}
		}
		p.add(obj, span)
	}
}

// isEdit reports whether obj is the arguments of an edit: it has an old or
// a new text, or a command on a path.
func isEdit(obj map[string]json.RawMessage) bool {
	_, command := obj["command"]
	return hasAny(obj, oldKeys[:]) || hasAny(obj, newKeys[:]) ||
		command && hasAny(obj, pathKeys[:])
}

func hasAny(obj map[string]json.RawMessage, keys []string) bool {
	for _, k := range keys {
		if _, ok := obj[k]; ok {
			return true
		}
	}
	return false
}

// add appends the edit obj describes, which stands on the lines span.
func (p *strParser) add(obj map[string]json.RawMessage, span engine.Span) {
	e, err := readEdit(obj)
	e.Dialect, e.Source = StrReplace, span
	p.blocks = append(p.blocks, Block{Edit: e, Err: err})
}

// readEdit reads the arguments of an edit. On error the Edit holds what could
// be read.
func readEdit(obj map[string]json.RawMessage) (engine.Edit, error) {
	var e engine.Edit
	path, _, err := stringField(obj, pathKeys[:])
	if err != nil {
		return e, err
	}
	e.Path = cleanPath(path)
	command, _, err := stringField(obj, []string{"command"})
	if err != nil {
		return e, err
	}
	switch command {
	case "", "str_replace":
		return readReplace(e, obj)
	case "create":
		text, ok, err := stringField(obj, []string{"file_text"})
		if err == nil && !ok {
			err = errors.New(`a "create" command needs "file_text"`)
		}
		e.Op, e.New = engine.OpCreate, text
		return e, err
	case "insert":
		return readInsert(e, obj)
	}
	return e, fmt.Errorf("the command %q is not an edit", command)
}

// readReplace reads the fields of a str_replace edit into e.
func readReplace(e engine.Edit, obj map[string]json.RawMessage) (engine.Edit, error) {
	old, hasOld, err := stringField(obj, oldKeys[:])
	if err != nil {
		return e, err
	}
	if !hasOld {
		return e, missing(oldKeys[:])
	}
	repl, hasNew, err := stringField(obj, newKeys[:])
	if err != nil {
		return e, err
	}
	if !hasNew {
		// A missing new text is a cut-short call more often than a
		// deletion: refusing is safer than deleting.
		return e, missing(newKeys[:])
	}
	if old == repl {
		return e, errors.New("no change: the old and the new text are the same")
	}
	e.Old, e.New = old, repl
	if old == "" {
		// OpenCode's convention: an empty old text writes the file anew.
		e.Op = engine.OpCreate
		return e, nil
	}
	if e.ReplaceAll, err = boolField(obj, replaceAllKeys[:]); err != nil {
		return e, err
	}
	line, _, err := intField(obj, startLineKeys[:])
	e.Line = line
	return e, err
}

// readInsert reads the fields of an insert command into e.
func readInsert(e engine.Edit, obj map[string]json.RawMessage) (engine.Edit, error) {
	e.Op = engine.OpInsert
	line, ok, err := intField(obj, []string{"insert_line"})
	if err == nil && !ok {
		err = missing([]string{"insert_line"})
	}
	if err != nil {
		return e, err
	}
	e.Line = line
	text, ok, err := stringField(obj, insertKeys[:])
	if err == nil && !ok {
		err = missing(insertKeys[:])
	}
	e.New = text
	return e, err
}

// missing says that none of keys is in an edit.
func missing(keys []string) error {
	if len(keys) == 1 {
		return fmt.Errorf("missing %q", keys[0])
	}
	return fmt.Errorf("missing %q (or %s)", keys[0], quoteAll(keys[1:]))
}

// quoteAll quotes each of words and joins them with commas.
func quoteAll(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = strconv.Quote(w)
	}
	return strings.Join(quoted, ", ")
}

// field returns the value under the first of keys that obj holds; null
// counts as absent.
func field(obj map[string]json.RawMessage, keys []string) (key string, raw json.RawMessage, ok bool) {
	for _, k := range keys {
		if v, ok := obj[k]; ok && string(bytes.TrimSpace(v)) != "null" {
			return k, v, true
		}
	}
	return "", nil, false
}

// stringField returns the string under the first of keys that obj holds,
// and whether there is one; null counts as absent.
func stringField(obj map[string]json.RawMessage, keys []string) (string, bool, error) {
	k, raw, ok := field(obj, keys)
	if !ok {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", true, fmt.Errorf("%q is %s, not a string", k, kindOf(raw))
	}
	return s, true, nil
}

// boolField returns the boolean under the first of keys that obj holds, false
// when there is none. The strings "true" and "false" are accepted too.
func boolField(obj map[string]json.RawMessage, keys []string) (bool, error) {
	k, raw, ok := field(obj, keys)
	if !ok {
		return false, nil
	}
	var b bool
	if json.Unmarshal(raw, &b) == nil {
		return b, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if b, err := strconv.ParseBool(s); err == nil {
			return b, nil
		}
	}
	return false, fmt.Errorf("%q is %s, not true or false", k, kindOf(raw))
}

// intField returns the whole number at least 0 under the first of keys that
// obj holds, and whether there is one. A number written as a string is
// accepted too; null counts as absent.
func intField(obj map[string]json.RawMessage, keys []string) (int, bool, error) {
	k, raw, ok := field(obj, keys)
	if !ok {
		return 0, false, nil
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		if i, err := strconv.Atoi(n.String()); err == nil && i >= 0 {
			return i, true, nil
		}
	}
	return 0, true, fmt.Errorf("%q is %s, not a line number", k, bytes.TrimSpace(raw))
}

// kindOf names the kind of JSON value raw is, for messages.
func kindOf(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
