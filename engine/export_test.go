package engine

// ResolveExhaustive is Resolve with a fuzzy search aligned in all that is
// left of every window, as no threshold prunes it (see restMatters): the
// tests expect the same outcome from both.
func ResolveExhaustive(text string, e Edit, opt Options) (*Match, error) {
	doc := NewDocument(text)
	doc.exhaustive = true
	return doc.Resolve(e, opt)
}

// ResolveAnchored is Resolve with every alignment made between anchors, as
// those of a search too long for one table are (see anchoredAlign).
func ResolveAnchored(text string, e Edit, opt Options) (*Match, error) {
	doc := NewDocument(text)
	doc.anchorAll = true
	return doc.Resolve(e, opt)
}
