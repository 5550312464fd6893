package workspace

// A BlockReport is a block's entry in the JSON report, as the outside
// contract fixes it: fields may be added, never removed or renamed.
type BlockReport struct {
	Index         int     `json:"index"`
	Path          string  `json:"path"`
	Dialect       string  `json:"dialect"`
	Status        string  `json:"status"`
	Strategy      string  `json:"strategy"`
	Score         float64 `json:"score"`
	StartLine     int     `json:"startLine"`
	EndLine       int     `json:"endLine"`
	Message       string  `json:"message"`
	ElapsedMicros int64   `json:"elapsedMicros"`
}

// Report returns the block's entry in the JSON report.
func (b *BlockResult) Report() BlockReport {
	return BlockReport{
		Index:         b.Index,
		Path:          b.Path,
		Dialect:       b.Dialect,
		Status:        string(b.Status),
		Strategy:      b.Strategy,
		Score:         b.Score,
		StartLine:     b.StartLine,
		EndLine:       b.EndLine,
		Message:       b.Message,
		ElapsedMicros: b.Elapsed.Microseconds(),
	}
}
