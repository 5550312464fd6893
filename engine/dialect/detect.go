package dialect

import (
	"cmp"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Auto-detection reads an answer in every dialect at once and merges their
// blocks by position. An answer also holds text that only looks like an
// edit: a block quoted inside another, a format explained by an example, a
// diff shown to say where a bug came from. Such text is content of the
// answer, and detection leaves it out by the rules below. Leaving a block
// out is the one decision the report cannot show, so each rule asks for
// evidence that a human reader would point at, and a block that names a
// real file is an edit unless the answer says plainly that it is history.
//
//  1. Overlap. A block that starts on a line of an earlier block of another
//     dialect is text inside that block (a JSON edit quoted in the content
//     of a SEARCH/REPLACE block, say), not an edit of its own. Blocks of one
//     dialect may share lines (the objects of a one-line JSON array) and
//     are all kept.
//
//  2. Examples. A block is an example of its format when
//     - it names a placeholder for a file (path/to/file.py, <file>,
//     your_file.py, name.ext): nobody's file is called that; or
//     - it stands in a code fence quoted inside another fence (```python
//     inside ````markdown): that is the source of an answer shown as text,
//     as documentation shows it; or
//     - neither it nor a block presented with it names a file of its own
//     (it has no path, one it inherits from an earlier block, or a line
//     that does not read as a path, as edit-v3 takes the sentence before
//     its marker) and the answer presents it as an example: the last lines
//     of the paragraph before it, or before its fence, speak of an example
//     ("for example", "e.g.", "looks like", "format" or "syntax" said of
//     blocks, edits, diffs or patches) and not of a fix ("fix", "apply",
//     "update"), or its fence's info string says "example".
//
//     A fence's info string of text or markdown is not enough: aider fences
//     the edit of a markdown file in ```markdown, and a block that names no
//     file may be meant for Options.Target.
//
//  3. History. A unified diff is shown for discussion when the answer
//     presents it as history, by a git log header before it in its fence
//     or paragraph ("commit 3f2a1b9", format-patch's "From <hash>") or by
//     a paragraph that speaks of the past ("introduced", "regression", "in
//     commit", "git show", "was changed") and not of a fix ("fix", "apply",
//     "revert"), and a later block of the answer edits a file it changes
//     (or names no file, and so may edit any). Such a diff is no change to
//     make: applied, it fails, its old side gone from the file, and skips
//     the fix that follows for its file (or at best changes nothing, its
//     new side being there already). Without a later edit of its file it
//     is kept: a pasted `git show` still applies, and a diff that does not
//     fit the file is refused by the resolver, harming nothing after it.
//
//  4. Reasoning. A block in the model's reasoning, between a line that
//     opens it (<think>, <thinking>, or aider's <thinking-content-...>)
//     and the line that closes it, or the end of the answer while it is
//     still open, is a draft the model thought through before it
//     answered, which it may then have written otherwise. The tags count
//     on lines of their own outside any block: a file's own tag in a
//     block's text is its content.
//
// Blocks presented together share the decision: the blocks of one code
// fence, and blocks with nothing but blank lines between them (the hunks
// of one diff, the sections of one patch). Forcing a dialect
// (Options.Format) reads every block of it, examples and history included:
// that is the way to apply a block these rules take for content.

// Detect returns the name of the dialect of the first edit block in text, or
// "" when the text holds none.
func Detect(text string) string {
	blocks := detectBlocks(newDocument(text))
	if len(blocks) == 0 {
		return ""
	}
	return blocks[0].Dialect
}

// detectBlocks reads doc in every dialect and returns the edit blocks of all
// of them in the order of the text, without the blocks that are content.
// What it finds of each block but for the history rule (which looks at
// the blocks after) is kept for a Parser's next parse, which takes it for
// the blocks that did not change (see seenBlock).
func detectBlocks(doc *document) []Block {
	blocks := mergeDialects(doc)
	settled := doc.settled(blocks)
	seen := doc.seen()[:settled] // taken over, not copied: the last parse is done with it
	for _, b := range blocks[settled:] {
		seen = append(seen, seenBlock{source: b.Source, dialect: b.Dialect, path: strings.Clone(b.Path), newPath: strings.Clone(b.NewPath)})
	}
	frameBlocks(doc, blocks, seen, settled)
	inReasoning(doc, blocks, seen, settled)
	// named[k] says a block framed with blocks[k] names its own file; the
	// blocks framed together are consecutive.
	named := make([]bool, len(blocks))
	for k := range blocks {
		s := &seen[k]
		if k >= settled || !s.ownKnown {
			s.own = namesOwnFile(doc, blocks, k)
			// Known for the next parse unless the existence of a file
			// told it, which may change.
			s.ownKnown = blocks[k].Path == "" || isPath(blocks[k].Path)
		}
		named[k] = s.own
	}
	for first := 0; first < len(blocks); {
		last := first
		for last+1 < len(blocks) && seen[last+1].frame == seen[first].frame {
			last++
		}
		if slices.Contains(named[first:last+1], true) {
			for k := first; k <= last; k++ {
				named[k] = true
			}
		}
		first = last + 1
	}
	drop := make([]bool, len(blocks))
	frames := make([]*framing, len(blocks))
	for k, b := range blocks {
		s := &seen[k]
		if n := named[k]; k >= settled || n != s.named {
			s.example, s.named = isExample(b, s.frame, n), n
		}
		drop[k] = s.example || s.reasoning
		frames[k] = s.frame
	}
	doc.keep(seen, settled)
	markHistory(blocks, frames, drop)
	kept := blocks[:0]
	for k, b := range blocks {
		if !drop[k] {
			kept = append(kept, b)
		}
	}
	return kept
}

// inReasoning tells, in seen, which blocks stand in the model's reasoning
// (rule 4): after a line that opens it, and no line that closes it
// since. The tags count on lines outside the blocks. The blocks before
// from are told already, and where the reading stood after them.
func inReasoning(doc *document, blocks []Block, seen []seenBlock, from int) {
	open, next := 0, 1 // the line of the opening tag, 0 outside reasoning; the next line to read, 1-based
	if from > 0 {
		open, next = seen[from-1].reasonOpen, seen[from-1].scan
	}
	for k := from; k < len(blocks); k++ {
		b := blocks[k]
		for ; next < b.Source.StartLine; next++ {
			t := strings.TrimSpace(doc.lines[next-1])
			if !strings.HasPrefix(t, "<") {
				continue
			}
			switch {
			case open == 0 && reasoningTag(t, "<"):
				open = next
			case open > 0 && reasoningTag(t, "</"):
				open = 0
			}
		}
		next = max(next, b.Source.EndLine+1)
		seen[k].reasoning = open > 0
		seen[k].reasonOpen, seen[k].scan = open, next
	}
}

// reasoningTag reports whether the line t starts with a reasoning tag
// that begins with prefix ("<" to open, "</" to close).
func reasoningTag(t, prefix string) bool {
	rest, ok := strings.CutPrefix(t, prefix)
	if !ok {
		return false
	}
	return strings.HasPrefix(rest, "think>") || strings.HasPrefix(rest, "thinking>") || strings.HasPrefix(rest, "thinking-content-")
}

// mergeDialects reads doc in every dialect and returns the blocks of all of
// them in the order of the text, but for those that overlap an earlier
// block of another dialect (rule 1).
func mergeDialects(doc *document) []Block {
	var each [len(dialects)][]Block
	n := 0
	for i, d := range dialects {
		each[i] = d.parse(doc)
		n += len(each[i])
	}
	all := make([]Block, 0, n)
	sorted := true // as they are when one dialect has blocks
	for _, blocks := range each {
		for _, b := range blocks {
			sorted = sorted && (len(all) == 0 || all[len(all)-1].Source.StartLine <= b.Source.StartLine)
			all = append(all, b)
		}
	}
	if !sorted {
		slices.SortStableFunc(all, func(a, b Block) int { return cmp.Compare(a.Source.StartLine, b.Source.StartLine) })
	}
	// reach holds, for each dialect with a kept block, the last line its
	// kept blocks cover.
	var reach []dialectReach
	kept := all[:0]
	for _, b := range all {
		if overlapsOther(reach, b) {
			continue
		}
		kept = append(kept, b)
		k := slices.IndexFunc(reach, func(r dialectReach) bool { return r.dialect == b.Dialect })
		if k < 0 {
			reach = append(reach, dialectReach{b.Dialect, b.Source.EndLine})
		} else {
			reach[k].last = max(reach[k].last, b.Source.EndLine)
		}
	}
	return kept
}

// A dialectReach is the last line covered by the kept blocks of a dialect.
type dialectReach struct {
	dialect string
	last    int
}

// overlapsOther reports whether b starts on a line covered by a kept block
// of another dialect.
func overlapsOther(reach []dialectReach, b Block) bool {
	for _, r := range reach {
		if r.dialect != b.Dialect && b.Source.StartLine <= r.last {
			return true
		}
	}
	return false
}

// A framing is how the answer presents a block: the code fence it stands
// in and the prose before it.
type framing struct {
	// fence is the index of the line that opens the innermost fence the
	// block stands in, -1 when it stands in none; info is that fence's
	// info string, and quoted reports whether the fence is quoted inside
	// another.
	fence  int
	info   string
	quoted bool
	// intro is the paragraph that introduces the block, or its fence: the
	// last lines of prose before it, joined.
	intro string
	// gitLog reports whether a git log header stands between the intro
	// and the block.
	gitLog bool
}

// frameBlocks sets the framing of each block in seen; blocks presented
// together share one. The blocks before from are framed already, and
// seen holds where the reading stood after them.
func frameBlocks(doc *document, blocks []Block, seen []seenBlock, from int) {
	var fences fenceStack
	next := 0     // the next line to follow for fences
	prevEnd := -1 // the index of the last line of the blocks so far
	if from > 0 {
		s := seen[from-1]
		fences, next, prevEnd = s.fences.clone(), s.next, s.prevEnd
	}
	for k := from; k < len(blocks); k++ {
		b := blocks[k]
		start := b.Source.StartLine - 1
		for ; next < start; next++ {
			fences.see(next, doc.lines[next])
		}
		fence, info, quoted := fences.top()
		if k > 0 && sameFrame(doc, seen[k-1].frame, fence, prevEnd, start) {
			seen[k].frame = seen[k-1].frame
		} else {
			seen[k].frame = newFraming(doc, fence, info, quoted, prevEnd, start)
		}
		next = max(next, b.Source.EndLine)
		prevEnd = max(prevEnd, b.Source.EndLine-1)
		seen[k].fences, seen[k].next, seen[k].prevEnd = fences.clone(), next, prevEnd
	}
}

// sameFrame reports whether the block that starts on lines[start], in the
// fence opened on lines[fence], is presented together with the previous
// block, framed by prev and ending on lines[prevEnd]: they stand in one
// fence, or outside fences with only blank lines between them.
func sameFrame(doc *document, prev *framing, fence, prevEnd, start int) bool {
	if fence >= 0 || prev.fence >= 0 {
		return fence == prev.fence
	}
	for j := prevEnd + 1; j < start; j++ {
		if !isBlank(doc.lines[j]) {
			return false
		}
	}
	return true
}

// newFraming returns the framing of a block that starts on lines[start],
// in the fence opened on lines[fence] (-1: none), after a block that ends
// on lines[prevEnd].
func newFraming(doc *document, fence int, info string, quoted bool, prevEnd, start int) *framing {
	// A Parser keeps the framing across texts (see Block.Clone).
	f := &framing{fence: fence, info: strings.Clone(info), quoted: quoted}
	from := start
	if fence > prevEnd {
		from = fence
	}
	f.intro = strings.Clone(introBefore(doc, from, prevEnd))
	f.gitLog = gitLogBefore(doc, start, max(prevEnd, fence))
	return f
}

// maxIntroLines is how many lines of a paragraph before a block make its
// intro: the sentences nearest the block are the ones that present it.
const maxIntroLines = 4

// introBefore returns the intro of what starts on lines[at]: the last
// lines of the nearest paragraph of prose before it, after lines[stop],
// joined with spaces. The
// lines that name a file, the blank ones and those without letters (a "["
// that opens a JSON array) are passed over, a few at most; a code fence
// ends the search, since a paragraph beyond it presents the other code.
func introBefore(doc *document, at, stop int) string {
	budget := lookBackLines
	last := at - 1
	for ; last > stop; last-- {
		line := doc.lines[last]
		if isFence(line) {
			return ""
		}
		if doc.isProse(last) {
			break
		}
		if !isBlank(line) {
			if budget--; budget == 0 {
				return ""
			}
		}
	}
	if last <= stop {
		return ""
	}
	first := last
	for first > stop+1 && last-first+1 < maxIntroLines {
		line := doc.lines[first-1]
		if isBlank(line) || isFence(line) {
			break
		}
		first--
	}
	parts := make([]string, 0, last-first+1)
	for _, line := range doc.lines[first : last+1] {
		parts = append(parts, strings.TrimSpace(line))
	}
	return strings.Join(parts, " ")
}

// isProse reports whether line reads as prose: it has letters, and is
// neither a line that names a file nor a marker of a patch.
func isProse(line string) bool {
	if strings.IndexFunc(line, unicode.IsLetter) < 0 {
		return false
	}
	if _, ok := pathFromLine(line); ok {
		return false
	}
	m, _ := patchMarkerOf(line)
	return m == noPatchMarker
}

// maxLogLines is how far before a diff a git log header is looked for: the
// header and a commit message of a few paragraphs.
const maxLogLines = 40

// gitLogHeader matches the line that starts a commit in the output of git
// log, git show and git format-patch.
var gitLogHeader = regexp.MustCompile(`^(?:commit [0-9a-f]{7,40}\b|From [0-9a-f]{40} )`)

// gitLogBefore reports whether a git log header stands on one of the lines
// before lines[start], after lines[stop], and outside other fences.
func gitLogBefore(doc *document, start, stop int) bool {
	for j := start - 1; j > stop && start-j <= maxLogLines; j-- {
		line := doc.lines[j]
		if isFence(line) {
			return false
		}
		if gitLogHeader.MatchString(line) {
			return true
		}
	}
	return false
}

// The words that present a block, in the intro before it. Each list is
// matched as whole words, in any case.
var (
	// exampleWords present an example.
	exampleWords = regexp.MustCompile(`(?i)\b(?:examples?|e\.g\.|for instance|looks? like|placeholders?)`)
	// formatWords and editWords together speak of the format of edits; a
	// format alone may be a date's.
	formatWords = regexp.MustCompile(`(?i)\b(?:formats?|syntax)\b`)
	editWords   = regexp.MustCompile(`(?i)\b(?:blocks?|edits?|diffs?|patch(?:es)?|search/replace|tool calls?)\b`)
	// historyWords speak of a change made in the past.
	historyWords = regexp.MustCompile(`(?i)\b(?:introduced|regress(?:ed|ion)|originally|previously|git (?:show|log|blame)|changed in|` +
		`(?:in|by|from|the|this|that|which|last|previous|recent|earlier|offending|breaking|bad) commit|commit [0-9a-f]{7,40}|` +
		`(?:was|were|got|been) (?:changed|added|removed|modified|introduced|broken))\b`)
	// fixWords speak of a change to make now.
	fixWords = regexp.MustCompile(`(?i)\b(?:fix|fixes|fixing|apply|update|updates|revert|reverts|reverting|undo|undoes)\b`)
)

// presentsExample reports whether an intro presents what follows it as an
// example of a format.
func presentsExample(intro string) bool {
	if fixWords.MatchString(intro) {
		return false
	}
	return exampleWords.MatchString(intro) || formatWords.MatchString(intro) && editWords.MatchString(intro)
}

// presentsHistory reports whether an intro presents what follows it as a
// change made in the past.
func presentsHistory(intro string) bool {
	return historyWords.MatchString(intro) && !fixWords.MatchString(intro)
}

// isExample reports whether block b, framed by f, is an example of its
// format (rule 2); named reports whether a block framed by f names its own
// file.
func isExample(b Block, f *framing, named bool) bool {
	switch {
	case isPlaceholder(b.Path) || isPlaceholder(b.NewPath), f.quoted:
		return true
	case named:
		return false
	}
	return presentsExample(f.intro) || slices.Contains(strings.Fields(strings.ToLower(f.info)), "example")
}

// namesOwnFile reports whether blocks[k] names its file itself: its path
// reads as one, and, for a SEARCH/REPLACE block, which takes the path of
// the block before it when it names none, stands between that block and
// this one.
func namesOwnFile(doc *document, blocks []Block, k int) bool {
	b := blocks[k]
	if b.Path == "" || !doc.isPath(b.Path) {
		return false
	}
	if b.Dialect != SearchReplace {
		return true
	}
	from, to := 0, b.Source.StartLine-1 // the lines between the blocks
	if k > 0 {
		from = blocks[k-1].Source.EndLine
	}
	return from < to && strings.Contains(doc.text[doc.starts[from]:doc.starts[to]], b.Path)
}

// isPlaceholder reports whether p is a placeholder for a file, as format
// descriptions write them: under path/to/, in angle brackets, named
// your_file or filename, or with the extension .ext.
func isPlaceholder(p string) bool {
	if p == "" {
		return false
	}
	p = strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	if strings.ContainsAny(p, "<>") || strings.HasPrefix(p, "path/to/") || strings.Contains(p, "/path/to/") {
		return true
	}
	base := path.Base(p)
	ext := path.Ext(base)
	name := strings.TrimSuffix(base, ext)
	switch {
	case ext == ".ext" || ext == ".extension":
		return true
	case name == "filename" || name == "file_name":
		return true
	}
	return strings.HasPrefix(name, "your_") || strings.HasPrefix(name, "your-")
}

// markHistory marks in drop the unified diffs that blocks holds for
// discussion (rule 3). It walks the blocks from the end, so that the
// files that later blocks edit are known at each diff.
func markHistory(blocks []Block, frames []*framing, drop []bool) {
	if !slices.ContainsFunc(blocks, func(b Block) bool { return b.Dialect == UnifiedDiff }) {
		return // no diff to mark
	}
	later := map[string]bool{} // the files edited by kept blocks after
	for k := len(blocks) - 1; k >= 0; k-- {
		first := k
		if blocks[k].Dialect == UnifiedDiff {
			for first > 0 && blocks[first-1].Dialect == UnifiedDiff && frames[first-1] == frames[k] {
				first--
			}
			if f := frames[k]; f.gitLog || presentsHistory(f.intro) {
				if editsAny(later, blocks[first:k+1]) {
					for j := first; j <= k; j++ {
						drop[j] = true
					}
				}
			}
		}
		for j := first; j <= k; j++ {
			if !drop[j] {
				later[fileKey(blocks[j].Path)] = true
				if blocks[j].NewPath != "" {
					later[fileKey(blocks[j].NewPath)] = true
				}
			}
		}
		k = first
	}
}

// editsAny reports whether the files in later, edited by blocks after run,
// include one that run changes, or a block that names no file.
func editsAny(later map[string]bool, run []Block) bool {
	if later[fileKey("")] {
		return true
	}
	for _, b := range run {
		if later[fileKey(b.Path)] || b.NewPath != "" && later[fileKey(b.NewPath)] {
			return true
		}
	}
	return false
}

// fileKey returns the form of a block's path under which two blocks are
// known to edit the same file.
func fileKey(p string) string {
	if p == "" {
		return ""
	}
	return path.Clean(strings.ReplaceAll(p, `\`, "/"))
}

// A fenceStack follows the code fences of an answer, outside its blocks,
// and knows the fence a line stands in: a fence, and a fence quoted inside
// it, which opens with fewer fence characters or with the other one
// (```python inside ````markdown), as CommonMark lets a document quote one.
type fenceStack struct {
	open []fenceLine
}

// A fenceLine is a line that opens a code fence.
type fenceLine struct {
	line int // its index
	char byte
	n    int // how many fence characters open it
	info string
}

// see follows lines[i].
func (s *fenceStack) see(i int, line string) {
	char, n, info, ok := fenceOf(line)
	if !ok {
		return
	}
	f := fenceLine{line: i, char: char, n: n, info: info}
	for k, o := range s.open {
		if char == o.char && n >= o.n && info == "" {
			s.open = s.open[:k] // it closes this fence and those inside
			return
		}
	}
	switch {
	case len(s.open) == 0:
		s.open = append(s.open, f)
	case len(s.open) == 1 && (char != s.open[0].char || n < s.open[0].n):
		s.open = append(s.open, f)
	case len(s.open) == 1:
		// An opening fence like the open one: the model left that one
		// unclosed, and this one starts anew.
		s.open[0] = f
	}
}

// top returns the index of the line that opens the innermost open fence
// (-1 when none is), its info string, and whether it is quoted in another.
func (s *fenceStack) top() (line int, info string, quoted bool) {
	if len(s.open) == 0 {
		return -1, "", false
	}
	f := s.open[len(s.open)-1]
	return f.line, f.info, len(s.open) > 1
}
