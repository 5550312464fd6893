package dialect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/graft-editor/graft/engine"
	"github.com/sourcegraph/go-diff/diff"
)

// The unified-diff dialect of git, diff -u and aider:
//
//	diff --git a/src/a.go b/src/a.go
//	index 3b18e51..a5c1966 100644
//	--- a/src/a.go
//	+++ b/src/a.go
//	@@ -12,7 +12,8 @@ func main() {
//	 context
//	-old line
//	+new line
//
// Each hunk becomes one edit: Old is its context and removed lines, New its
// context and added lines, and its numbers are only a line hint, since the
// resolver finds the place by the text. "/dev/null" on one side creates or
// deletes the file (a deletion carries the removed lines in Old, which must
// be the whole file), and two different names move it before its hunks
// apply.
//
// go-diff reads the names in the file headers (see headerNames). The hunks
// are read by hand (see unidiffhunk.go), because models write them loosely
// and a strict reader would refuse most of them: aider's hunks have no
// numbers ("@@ ... @@"), models miscount lines, strip the space of blank
// context lines, drop trailing context, and leave out the file header
// altogether.

// A udParser reads the unified diffs of one document, line by line.
type udParser struct {
	doc    *document
	blocks []Block
	// fence is the markdown code fence the parser is in, between diffs.
	fence fence
	// lastEnd is the index of the last line of the previous diff, -1
	// before the first.
	lastEnd int
}

// parseUnifiedDiff reads the unified diffs in doc. A diff starts at a
// "diff --git" line, at a "---"/"+++" pair followed by a hunk, or, without
// a file header, at an "@@" line that has numbers or is aider's bare one and
// is followed by changed lines.
//
// When doc follows an earlier parse of the same answer (see Parser), it
// goes on from the last line before the first diff-like line of that
// parse whose look-ahead the change left as it was: before such a line,
// the parser has only followed the code fences. Past it, it reads the
// whole text.
func parseUnifiedDiff(doc *document) []Block {
	p := &udParser{doc: doc, lastEnd: -1}
	n := len(doc.lines)
	start := 0
	var memo *udMemo // what this parse leaves for the next, when there is one
	if doc.prev != nil {
		memo = &udMemo{}
		if prev := doc.prev.ud; prev != nil {
			for k := len(prev.points) - 1; k >= 0; k-- {
				if pt := prev.points[k]; pt.line+1 < doc.changed && pt.line <= n {
					start, p.fence = pt.line, pt.fence
					// The last parse's memo is done with: its
					// points are taken over, not copied.
					memo.points = prev.points[:k+1]
					break
				}
			}
		}
		defer func(m *udMemo) { doc.prev.ud = m }(memo)
	}
	// recording says the parser has only followed the fences so far.
	recording := memo != nil
	for i := start; i < n; i++ {
		if recording {
			memo.points = append(memo.points, udPoint{line: i, fence: p.fence.clone()})
		}
		line := doc.lines[i]
		if p.fileStart(i) {
			recording = false // reading a diff looks ahead as far as it goes
			i = p.file(i)
			continue
		}
		if h, ok := parseHunkHeader(line); ok && h.standalone {
			recording = false
			if end, ok := p.headerless(i, h); ok {
				i = end
				continue
			}
		}
		p.fence.see(i, line)
	}
	return p.blocks
}

// A udMemo is what a unified-diff parse leaves for the next parse of the
// same answer: the lines before its first diff-like line, from which the
// next may go on.
type udMemo struct {
	points []udPoint
}

// A udPoint is where the unified-diff parser stood before reading
// lines[line], having only followed the code fences, in fence. Reading
// lines[line-1] looked at most two lines ahead, at lines[line+1] (the end
// of the text when that is len(lines)): a text whose lines up to that one
// are the same stands there the same.
type udPoint struct {
	line  int
	fence fence
}

// fileStart reports whether the diff of a file starts at lines[i].
func (p *udParser) fileStart(i int) bool {
	if strings.HasPrefix(p.doc.lines[i], gitHeader) {
		return true
	}
	if !p.namesAt(i) || i+2 >= len(p.doc.lines) {
		return false
	}
	next := p.doc.lines[i+2]
	if _, ok := parseHunkHeader(next); ok {
		return true
	}
	// Models leave the "@@" line out of a new file's diff.
	return isDevNull(p.doc.lines[i][len(oldMark):]) && strings.HasPrefix(next, "+")
}

// The prefixes of the lines of a file header.
const (
	gitHeader = "diff --git "
	oldMark   = "--- "
	newMark   = "+++ "
)

// namesAt reports whether lines[i] and lines[i+1] are the "---" and "+++"
// lines of a file header, each naming a file.
func (p *udParser) namesAt(i int) bool {
	if i+1 >= len(p.doc.lines) {
		return false
	}
	oldName, ok1 := strings.CutPrefix(p.doc.lines[i], oldMark)
	newName, ok2 := strings.CutPrefix(p.doc.lines[i+1], newMark)
	return ok1 && ok2 && strings.TrimSpace(oldName) != "" && strings.TrimSpace(newName) != ""
}

// A fileDiff is the diff of one file, as read from the answer.
type fileDiff struct {
	// first is the index of its first line; header holds the lines from
	// there to the end of its file header.
	first  int
	header []string
	// names reports whether the header has its "---"/"+++" lines.
	names bool
	// What git's extended header lines say.
	binary, copied, created, deleted bool
	renameFrom, renameTo             string
	hunks                            []hunk
}

// last returns the index of the last line of the diff.
func (f *fileDiff) last() int {
	if len(f.hunks) > 0 {
		return f.hunks[len(f.hunks)-1].last
	}
	return f.first + len(f.header) - 1
}

// file reads the diff of one file, which starts at lines[i], and returns
// the index of its last line.
func (p *udParser) file(i int) int {
	f := &fileDiff{first: i}
	j := i
	if strings.HasPrefix(p.doc.lines[i], gitHeader) {
		j = p.extendedHeaders(i+1, f)
	}
	if p.namesAt(j) {
		f.names = true
		j += 2
	}
	f.header = p.doc.lines[i:j]
	inFence := p.fence.open
	if f.names && isDevNull(p.doc.lines[j-2][len(oldMark):]) && j < len(p.doc.lines) && strings.HasPrefix(p.doc.lines[j], "+") {
		// A new file's lines without their "@@" line.
		f.hunks = append(f.hunks, p.readHunk(j, j, hunkHeader{}, inFence))
	}
	f.hunks = append(f.hunks, p.moreHunks(f.last()+1, inFence)...)
	p.emitFile(f)
	return f.last()
}

// extendedHeaders reads the extended header lines of git that start at
// lines[j], records what they say in f and returns the index of the line
// after them.
func (p *udParser) extendedHeaders(j int, f *fileDiff) int {
	lines := p.doc.lines
	for ; j < len(lines); j++ {
		line := lines[j]
		switch {
		case strings.HasPrefix(line, "rename from "):
			f.renameFrom = cleanName(strings.TrimPrefix(line, "rename from "))
		case strings.HasPrefix(line, "rename to "):
			f.renameTo = cleanName(strings.TrimPrefix(line, "rename to "))
		case strings.HasPrefix(line, "new file mode "):
			f.created = true
		case strings.HasPrefix(line, "deleted file mode "):
			f.deleted = true
		case strings.HasPrefix(line, "copy from "), strings.HasPrefix(line, "copy to "):
			f.copied = true
		case strings.HasPrefix(line, "Binary files "):
			f.binary = true
		case line == "GIT binary patch":
			f.binary = true
			j = binaryData(lines, j+1)
		case strings.HasPrefix(line, "index "), strings.HasPrefix(line, "old mode "),
			strings.HasPrefix(line, "new mode "), strings.HasPrefix(line, "similarity index "),
			strings.HasPrefix(line, "dissimilarity index "):
		default:
			return j
		}
	}
	return j
}

// binaryData returns the index of the last line of the literal and delta
// sections of a git binary patch that start at lines[j].
func binaryData(lines []string, j int) int {
	last := j - 1
	for ; j < len(lines); j++ {
		line := lines[j]
		switch {
		case line == "":
		case strings.HasPrefix(line, "literal "), strings.HasPrefix(line, "delta "), isBase85Line(line):
			last = j
		default:
			return last
		}
	}
	return last
}

// isBase85Line reports whether line is a line of git's base-85 encoding: a
// length letter and the characters of the encoding.
func isBase85Line(line string) bool {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"
	c := line[0]
	if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') || len(line) < 6 {
		return false
	}
	for i := 1; i < len(line); i++ {
		if strings.IndexByte(alphabet, line[i]) < 0 {
			return false
		}
	}
	return true
}

// moreHunks reads the hunks that start at lines[j], or after blank lines
// there, one after another.
func (p *udParser) moreHunks(j int, inFence bool) []hunk {
	var hunks []hunk
	for {
		k := j
		for k < len(p.doc.lines) && isBlank(p.doc.lines[k]) {
			k++
		}
		if k == len(p.doc.lines) {
			return hunks
		}
		h, ok := parseHunkHeader(p.doc.lines[k])
		if !ok {
			return hunks
		}
		hk := p.readHunk(k, k+1, h, inFence)
		hunks = append(hunks, hk)
		j = hk.last + 1
	}
}

// headerless reads the hunks without a file header that start at
// lines[i], with h, and returns the index of their last line; it reports
// false, and reads nothing, when the first hunk changes no line (then the
// "@@" line is likely prose). The hunks are for the file named before them,
// if any: a file an earlier diff named is not taken, as it would override
// Options.Target with a guess.
func (p *udParser) headerless(i int, h hunkHeader) (int, bool) {
	inFence := p.fence.open
	first := p.readHunk(i, i+1, h, inFence)
	if !first.changes() {
		return i, false
	}
	path := p.doc.pathBefore(i, p.lastEnd, p.fence, nil)
	hunks := append([]hunk{first}, p.moreHunks(first.last+1, inFence)...)
	for _, hk := range hunks {
		p.emitHunk(hk, path, hk.first)
	}
	p.lastEnd = hunks[len(hunks)-1].last
	return p.lastEnd, true
}

// emitFile turns the diff of one file into blocks: one for a create, a
// delete or a malformed header, otherwise a move when the file changes its
// name, then one per hunk.
func (p *udParser) emitFile(f *fileDiff) {
	if len(f.hunks) == 0 && !f.names && !f.binary && !f.copied && !f.created && !f.deleted && f.renameTo == "" {
		return // a mode change, or a "diff --git" line in prose
	}
	oldPath, newPath := f.paths()
	p.lastEnd = f.last()
	path := newPath
	if path == devNull || path == "" {
		path = oldPath
	}
	at := f.first + 1
	b := Block{Edit: engine.Edit{Path: path, Dialect: UnifiedDiff, Source: lineSpan(f.first, f.last())}}
	switch {
	case f.binary:
		b.Err = fmt.Errorf("line %d: binary patches are not supported", at)
	case f.copied:
		b.Err = fmt.Errorf("line %d: copying a file is not supported; create the copy instead", at)
	case oldPath == "" || newPath == "":
		b.Err = fmt.Errorf("line %d: the diff header names no file", at)
	case oldPath == devNull && newPath == devNull:
		b.Err = fmt.Errorf("line %d: the diff header names /dev/null on both sides", at)
	case oldPath == devNull:
		b.Op = engine.OpCreate
		b.New, b.Err = f.content(newPath)
	case newPath == devNull:
		b.Op = engine.OpDelete
		b.Old, b.Err = f.removed(oldPath)
	case len(f.hunks) == 0 && oldPath == newPath:
		b.Err = fmt.Errorf("line %d: the diff of %s has no hunks", at, path)
	default:
		moved := oldPath != newPath
		if moved {
			b.Op, b.Path, b.NewPath = engine.OpMove, oldPath, newPath
			b.Source = lineSpan(f.first, f.first+len(f.header)-1)
			p.blocks = append(p.blocks, b)
		}
		for k, hk := range f.hunks {
			first := hk.first
			if k == 0 && !moved {
				first = f.first
			}
			p.emitHunk(hk, newPath, first)
		}
		return
	}
	p.blocks = append(p.blocks, b)
}

// paths returns the file a diff changes, before and after, as the header
// names it: without git's "a/" and "b/" prefixes, "/dev/null" for no file,
// "" when the header names none.
func (f *fileDiff) paths() (oldPath, newPath string) {
	oldPath, newPath = headerNames(f.header)
	if f.renameFrom != "" && f.renameTo != "" {
		oldPath, newPath = f.renameFrom, f.renameTo
	}
	if f.created {
		oldPath = devNull
	}
	if f.deleted {
		newPath = devNull
	}
	return oldPath, newPath
}

// content returns the content of the new file path: the new side of its
// hunks.
func (f *fileDiff) content(path string) (string, error) {
	var b strings.Builder
	for _, hk := range f.hunks {
		if hk.err != nil {
			return "", hk.err
		}
		if k := hk.index('-'); k >= 0 {
			return "", fmt.Errorf("line %d: the diff creates %s, but its hunk removes lines", hk.lines[k].at+1, path)
		}
		_, side := hk.sides()
		b.WriteString(side)
	}
	return b.String(), nil
}

// removed returns the lines the diff that deletes path removes: the old
// side of its hunks, in order, which the file must hold and nothing else;
// empty when it has no hunk. A hunk that adds lines is an error.
func (f *fileDiff) removed(path string) (string, error) {
	var b strings.Builder
	for _, hk := range f.hunks {
		if hk.err != nil {
			return "", hk.err
		}
		if k := hk.index('+'); k >= 0 {
			return "", fmt.Errorf("line %d: the diff deletes %s, but its hunk adds lines", hk.lines[k].at+1, path)
		}
		old, _ := hk.sides()
		b.WriteString(old)
	}
	return b.String(), nil
}

// emitHunk adds the block of a hunk of the file path; its source starts at
// lines[first], before the hunk when the file header belongs to it.
func (p *udParser) emitHunk(hk hunk, path string, first int) {
	b := Block{Edit: engine.Edit{Path: path, Dialect: UnifiedDiff, Source: lineSpan(first, hk.last)}}
	switch {
	case hk.err != nil:
		b.Err = hk.err
	case len(hk.lines) == 0:
		b.Err = fmt.Errorf("line %d: the hunk has no lines", hk.first+1)
	default:
		b.Old, b.New = hk.sides()
		if b.Old == "" {
			b.Op, b.Line = engine.OpInsert, hk.header.insertAfter()
		} else if hk.header.numbered {
			b.Line = hk.header.oldStart
		}
	}
	p.blocks = append(p.blocks, b)
}

// devNull is the name of the missing side of a created or deleted file.
const devNull = "/dev/null"

// isDevNull reports whether the name in a "---" or "+++" line, perhaps
// followed by a timestamp, is /dev/null.
func isDevNull(name string) bool {
	fields := strings.Fields(name)
	return len(fields) > 0 && fields[0] == devNull
}

// headerNames returns the old and new names in the lines of a file header,
// without git's "a/" and "b/" prefixes. go-diff reads them, with their
// quoting, timestamps and git's rules for a header without "---"/"+++"
// lines; when it refuses the header (a label that is no timestamp, a git
// header that lacks a line git writes), the names are read from the
// "---"/"+++" lines up to a tab, or from the "diff --git" line.
func headerNames(header []string) (oldName, newName string) {
	text := strings.Join(header, "\n") + "\n"
	fd, err := diff.NewFileDiffReader(strings.NewReader(text)).ReadAllHeaders()
	if err == nil && fd.OrigName != "" && fd.NewName != "" {
		oldName, newName = fd.OrigName, fd.NewName
	} else {
		oldName, newName = plainNames(header)
	}
	return stripPrefixes(oldName, newName)
}

// plainNames reads the names of a file header that go-diff refused.
func plainNames(header []string) (oldName, newName string) {
	for _, line := range header {
		if name, ok := strings.CutPrefix(line, oldMark); ok {
			oldName = plainName(name)
		} else if name, ok := strings.CutPrefix(line, newMark); ok {
			newName = plainName(name)
		}
	}
	if oldName != "" || newName != "" || len(header) == 0 {
		return oldName, newName
	}
	args, ok := strings.CutPrefix(header[0], gitHeader)
	if !ok {
		return "", ""
	}
	args = strings.TrimSpace(args)
	if k := strings.Index(args, " b/"); strings.HasPrefix(args, "a/") && k > 0 {
		return args[:k], args[k+1:]
	}
	if fields := strings.Fields(args); len(fields) == 2 {
		return fields[0], fields[1]
	}
	return "", ""
}

// plainName returns the name in the rest of a "---" or "+++" line: up to
// a tab, unquoted when it is quoted.
func plainName(s string) string {
	name, _, _ := strings.Cut(s, "\t")
	name = strings.TrimSpace(name)
	if unquoted, err := strconv.Unquote(name); err == nil && strings.HasPrefix(name, `"`) {
		return unquoted
	}
	return name
}

// stripPrefixes removes git's "a/" and "b/" from the old and new names when
// both sides have them (or are /dev/null): a name that has only one of them
// is a folder of that name.
func stripPrefixes(oldName, newName string) (string, string) {
	oldNull, newNull := oldName == devNull, newName == devNull
	if (oldNull || strings.HasPrefix(oldName, "a/")) && (newNull || strings.HasPrefix(newName, "b/")) {
		if !oldNull {
			oldName = oldName[2:]
		}
		if !newNull {
			newName = newName[2:]
		}
	}
	return cleanName(oldName), cleanName(newName)
}

// cleanName returns a file name from a diff header without space around it
// and without leading "./".
func cleanName(name string) string {
	name = strings.TrimSpace(name)
	for strings.HasPrefix(name, "./") {
		name = name[2:]
	}
	return name
}
