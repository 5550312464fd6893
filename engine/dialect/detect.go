package dialect

import (
	"cmp"
	"slices"
)

// Detect returns the name of the dialect of the first edit block in text, or
// "" when the text holds none.
func Detect(text string) string {
	blocks := detectBlocks(newDocument(text))
	if len(blocks) == 0 {
		return ""
	}
	return blocks[0].Dialect
}

// detectBlocks reads doc in every dialect and returns the blocks of all of
// them in the order of the text. A block that overlaps an earlier block of
// another dialect is dropped: it is text inside that block (a JSON edit
// quoted in the content of a SEARCH/REPLACE block, say), not an edit of its
// own. Blocks of one dialect may share lines (the objects of a one-line JSON
// array) and are all kept.
func detectBlocks(doc *document) []Block {
	var all []Block
	for _, d := range dialects {
		all = append(all, d.parse(doc)...)
	}
	slices.SortStableFunc(all, func(a, b Block) int {
		return cmp.Compare(a.Source.StartLine, b.Source.StartLine)
	})
	// reach[name] is the last line covered by a kept block of that dialect.
	reach := make(map[string]int, len(dialects))
	kept := all[:0]
	for _, b := range all {
		if overlapsOther(reach, b) {
			continue
		}
		kept = append(kept, b)
		reach[b.Dialect] = max(reach[b.Dialect], b.Source.EndLine)
	}
	return kept
}

// overlapsOther reports whether b starts on a line covered by a kept block
// of another dialect.
func overlapsOther(reach map[string]int, b Block) bool {
	for name, last := range reach {
		if name != b.Dialect && b.Source.StartLine <= last {
			return true
		}
	}
	return false
}
