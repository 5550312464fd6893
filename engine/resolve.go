package engine

// Resolve finds the region of text that e.Old means and returns the match
// that replaces it with e.New, or an *Error that says why it refused.
func Resolve(text string, e Edit, opt Options) (*Match, error) {
	return nil, refuse(ReasonNotFound, "resolver under construction")
}
