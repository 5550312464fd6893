//go:build !amd64 || purego

package engine

// feedLines appends to start and end the lines of text[from:to] that end
// in a line feed among its whole blocks of 64 bytes, from the line that
// starts at from, and returns them, the start of the line then being
// read, the next byte to read, and whether the bytes read have a '\r'.
func feedLines(text string, from, to int, start, end []int) (_, _ []int, at, i int, cr bool) {
	return feedLinesGo(text, from, to, start, end)
}
