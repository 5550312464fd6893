package workspace

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// ErrOutOfSync reports that a buffer's text is no longer known: a change
// the editor sent could not be applied to it, so no edit may be computed
// against it until the editor sends the whole text again.
var ErrOutOfSync = errors.New("the editor's text is no longer known")

// A Buffer is an open document: its text and its version, as the editor
// has them. Changes to it cost time in proportion to their size (the text
// they insert and the lines they replace) and to the square root of the
// number of lines, never to the whole text: the text is kept as lines in
// chunks, and joined only when a Snapshot needs it.
//
// The text is the editor's bytes, UTF-8 or not: a buffer counts its lines
// that are not valid UTF-8, and gives no Snapshot while it has any, so
// that no edit is computed against text graft would not write.
//
// A Buffer is safe for concurrent use.
type Buffer struct {
	path string

	mu      sync.Mutex
	version int32
	lines   lineStore
	stale   error     // why the text is out of sync, or nil
	snap    *Snapshot // the current text, joined; nil until asked for
}

// NewBuffer returns a buffer holding text at version. path is the
// document's absolute path, as the editor opened it.
func NewBuffer(path string, text string, version int32) *Buffer {
	return &Buffer{path: path, version: version, lines: newLineStore(text)}
}

// Path returns the path the buffer was opened under.
func (b *Buffer) Path() string { return b.path }

// Len returns the length of the buffer's text in bytes, without joining
// it.
func (b *Buffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.lines.size
}

// A Change is one content change of an LSP didChange notification: Text
// replaces Range, or the whole text when Range is nil.
type Change struct {
	Range *Range
	Text  string
}

// Change applies changes in order, each to the text the one before left,
// as LSP orders them, and sets the buffer's version. Positions count their
// characters in enc.
//
// A change that cannot apply (a range past the end of the text, a start
// after the end) leaves the buffer out of sync: the editor's text is no
// longer known, and Snapshot fails with an error wrapping ErrOutOfSync
// until a change replaces the whole text. Change then returns that error.
func (b *Buffer) Change(version int32, changes []Change, enc Encoding) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.version = version
	b.snap = nil
	for i, c := range changes {
		if c.Range == nil {
			b.lines = newLineStore(c.Text)
			b.stale = nil
			continue
		}
		if b.stale != nil {
			continue // only a whole text can bring it back
		}
		if err := b.lines.apply(*c.Range, c.Text, enc); err != nil {
			b.stale = fmt.Errorf("version %d, change %d of %d: %w", version, i+1, len(changes), err)
		}
	}
	return b.outOfSync()
}

// outOfSync returns the error that says the buffer is out of sync, or nil.
func (b *Buffer) outOfSync() error {
	if b.stale == nil {
		return nil
	}
	return fmt.Errorf("%s: %w (%v); the editor must send the whole text again", b.path, ErrOutOfSync, b.stale)
}

// A Snapshot is a buffer's text at one version, frozen.
type Snapshot struct {
	// Path is the path the buffer was opened under.
	Path string
	// Text is the buffer's whole text.
	Text string
	// Version is the version the editor gave this text.
	Version int32

	mapper *Mapper // shared by the copies of one snapshot
}

// Snapshot returns the buffer's current text and version. It fails with an
// error wrapping ErrOutOfSync when the buffer is out of sync, and with one
// wrapping ErrNotUTF8 when the text is not valid UTF-8: graft edits no
// such document, nor reads edits from it, as it does not a file on disk.
// Snapshots of an unchanged buffer share their text and their Mapper; the
// first after a change joins the text, in time linear in its length.
func (b *Buffer) Snapshot() (Snapshot, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.outOfSync(); err != nil {
		return Snapshot{}, err
	}
	if b.lines.bad > 0 {
		return Snapshot{}, b.lines.notUTF8()
	}
	if b.snap == nil {
		m := b.lines.mapper()
		b.snap = &Snapshot{Path: b.path, Text: m.text, Version: b.version, mapper: m}
	}
	return *b.snap, nil
}

// Mapper returns the Mapper over the snapshot's text, shared by every copy
// of the snapshot. The buffer made it with the text, from the lines it
// keeps, at little cost. A Snapshot not made by a Buffer gets a new Mapper
// each time.
func (s Snapshot) Mapper() *Mapper {
	if s.mapper == nil {
		return NewMapper(s.Text)
	}
	return s.mapper
}

// Chunk sizes of a lineStore, in lines: a chunk that grows past chunkMax
// is split, and one that shrinks under chunkMin joins a neighbour, so that
// a change moves at most a few chunks' worth of lines and the index of the
// chunks stays short.
const (
	chunkMax = 512
	chunkMin = chunkMax / 4
)

// A lineStore holds a text as its lines, each with its line break (the
// last line has none and may be empty), in chunks of consecutive lines.
type lineStore struct {
	chunks [][]string // at least one, none empty: a text has at least one line
	first  []int      // first[i] is the number of the first line of chunks[i]
	n      int        // lines in all
	size   int        // bytes in all
	bad    int        // lines that are not valid UTF-8
}

// newLineStore returns the store of text.
func newLineStore(text string) lineStore {
	var s lineStore
	s.chunks = chunk(splitLines(text))
	s.index(0)
	s.size = len(text)
	if !utf8.ValidString(text) {
		for _, c := range s.chunks {
			s.bad += invalid(c)
		}
	}
	return s
}

// invalid returns the number of lines that are not valid UTF-8. A
// sequence of UTF-8 never holds a line break, so a text is valid UTF-8
// exactly when all of its lines are.
func invalid(lines []string) int {
	n := 0
	for _, l := range lines {
		if !utf8.ValidString(l) {
			n++
		}
	}
	return n
}

// splitLines returns the lines of text, each with its line break; the last
// one has none and is empty when text ends with a line break.
func splitLines(text string) []string {
	starts := lineStarts(text)
	lines := make([]string, len(starts))
	for i, start := range starts {
		if i+1 < len(starts) {
			lines[i] = text[start:starts[i+1]]
		} else {
			lines[i] = text[start:]
		}
	}
	return lines
}

// chunk cuts lines into chunks of at most chunkMax lines, of even sizes.
// The chunks share lines' array but cannot grow into each other.
func chunk(lines []string) [][]string {
	k := (len(lines) + chunkMax - 1) / chunkMax
	if k == 0 {
		return nil
	}
	chunks := make([][]string, k)
	for i := range k {
		lo, hi := i*len(lines)/k, (i+1)*len(lines)/k
		chunks[i] = lines[lo:hi:hi]
	}
	return chunks
}

// index recounts first and n from chunk i on.
func (s *lineStore) index(i int) {
	s.first = slices.Grow(s.first[:i], len(s.chunks)-i)[:len(s.chunks)]
	n := 0
	if i > 0 {
		n = s.first[i-1] + len(s.chunks[i-1])
	}
	for ; i < len(s.chunks); i++ {
		s.first[i] = n
		n += len(s.chunks[i])
	}
	s.n = n
}

// locate returns the chunk that holds line i and the line's index in it.
func (s *lineStore) locate(i int) (c, j int) {
	c, found := slices.BinarySearch(s.first, i)
	if !found {
		c--
	}
	return c, i - s.first[c]
}

// line returns line i, with its line break.
func (s *lineStore) line(i int) string {
	c, j := s.locate(i)
	return s.chunks[c][j]
}

// String returns the whole text.
func (s *lineStore) String() string {
	var sb strings.Builder
	sb.Grow(s.size)
	for _, c := range s.chunks {
		for _, l := range c {
			sb.WriteString(l)
		}
	}
	return sb.String()
}

// notUTF8 returns the error of a text that is not valid UTF-8, which says
// where its first bad byte is.
func (s *lineStore) notUTF8() error {
	for i := range s.n {
		l := s.line(i)
		if utf8.ValidString(l) {
			continue
		}
		col := 0
		for col < len(l) {
			r, size := utf8.DecodeRuneInString(l[col:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			col += size
		}
		return fmt.Errorf("%w (the editor's buffer: byte %#02x on line %d, at byte %d of the line)", ErrNotUTF8, l[col], i+1, col+1)
	}
	return ErrNotUTF8
}

// mapper returns a Mapper over the whole text, its line starts counted
// from the lines rather than found again in the text.
func (s *lineStore) mapper() *Mapper {
	var sb strings.Builder
	sb.Grow(s.size)
	starts := make([]int, 0, s.n)
	for _, c := range s.chunks {
		for _, l := range c {
			starts = append(starts, sb.Len())
			sb.WriteString(l)
		}
	}
	return &Mapper{text: sb.String(), starts: starts}
}

// point returns the line and the byte column in it of p, its character
// counted in enc, as Mapper.Offset finds them.
func (s *lineStore) point(p Position, enc Encoding) (line, col int, err error) {
	if err := checkPosition(p, enc); err != nil {
		return 0, 0, err
	}
	if p.Line >= s.n {
		if p.Line == s.n && p.Character == 0 {
			return s.n - 1, len(s.line(s.n - 1)), nil // the end of the text
		}
		return 0, 0, fmt.Errorf("position %v: line %d is past the end of the text (%d lines)", p, p.Line, s.n)
	}
	l := s.line(p.Line)
	return p.Line, byteColumn(l[:len(l)-len(lineBreak(l))], p.Character, enc), nil
}

// lineBreak returns the line break that ends l: "\r\n", "\n", "\r" or "".
func lineBreak(l string) string {
	switch {
	case strings.HasSuffix(l, "\r\n"):
		return "\r\n"
	case strings.HasSuffix(l, "\n"):
		return "\n"
	case strings.HasSuffix(l, "\r"):
		return "\r"
	}
	return ""
}

// apply replaces r, its characters counted in enc, with text. It changes
// nothing when r does not lie in the text or its start comes after its end.
func (s *lineStore) apply(r Range, text string, enc Encoding) error {
	sl, sc, err := s.point(r.Start, enc)
	if err != nil {
		return fmt.Errorf("range %v: %w", r, err)
	}
	el, ec, err := s.point(r.End, enc)
	if err != nil {
		return fmt.Errorf("range %v: %w", r, err)
	}
	if sl > el || sl == el && sc > ec {
		return fmt.Errorf("range %v: start comes after end", r)
	}
	last := s.line(el)
	piece := s.line(sl)[:sc] + text + last[ec:]
	// A "\r" ending the line before and a "\n" starting the piece are one
	// line break: the lines are split again from that line on.
	if sl > 0 && piece != "" && piece[0] == '\n' {
		if prev := s.line(sl - 1); strings.HasSuffix(prev, "\r") {
			sl--
			piece = prev + piece
		}
	}
	lines := splitLines(piece)
	if el < s.n-1 {
		// The piece ends with the line break of line el, which is not the
		// last: splitLines' empty last line is no line of the text.
		lines = lines[:len(lines)-1]
	}
	s.replace(sl, el, lines)
	return nil
}

// replace replaces lines lo to hi, both included, with lines, of which
// there is at least one.
func (s *lineStore) replace(lo, hi int, lines []string) {
	cl, jl := s.locate(lo)
	ch, jh := s.locate(hi)
	for c, j := cl, jl; c < ch || c == ch && j <= jh; j++ {
		if j == len(s.chunks[c]) {
			c, j = c+1, -1
			continue
		}
		s.size -= len(s.chunks[c][j])
		if !utf8.ValidString(s.chunks[c][j]) {
			s.bad--
		}
	}
	for _, l := range lines {
		s.size += len(l)
	}
	s.bad += invalid(lines)
	if cl == ch && len(lines) == hi-lo+1 {
		copy(s.chunks[cl][jl:], lines) // the chunk's lines are its own
		return
	}
	prefix, suffix := s.chunks[cl][:jl], s.chunks[ch][jh+1:]
	n := len(prefix) + len(lines) + len(suffix)
	if n < chunkMin && (cl > 0 || ch+1 < len(s.chunks)) {
		// Too few lines for a chunk of their own: join a neighbour, when
		// the change left one (it may have spanned every chunk).
		if ch+1 < len(s.chunks) {
			ch++
			suffix = append(suffix[:len(suffix):len(suffix)], s.chunks[ch]...)
		} else {
			cl--
			prefix = append(s.chunks[cl][:len(s.chunks[cl]):len(s.chunks[cl])], prefix...)
		}
		n = len(prefix) + len(lines) + len(suffix)
	}
	merged := make([]string, 0, n)
	merged = append(merged, prefix...)
	merged = append(merged, lines...)
	merged = append(merged, suffix...)
	s.chunks = slices.Replace(s.chunks, cl, ch+1, chunk(merged)...)
	s.index(cl)
}
