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
// they insert and the lines they replace), the logarithm of the number of
// lines (to find where they start), and, when they add or remove lines,
// the number of chunks (to renumber them), never the whole text: the text
// is kept as lines in chunks of up to 512, and joined only when a
// Snapshot needs it.
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

// A Change replaces the bytes of a buffer's text from Start to End, End
// excluded, with Text; or, when Whole is set, the whole text.
type Change struct {
	Start, End int
	Text       string
	Whole      bool
}

// Change applies changes in order, each to the text the one before left,
// and sets the buffer's version.
//
// A change that cannot apply (a span out of the text, a start after the
// end) leaves the buffer out of sync: the editor's text is no longer
// known, and Snapshot fails with an error wrapping ErrOutOfSync until a
// change replaces the whole text. Change then returns that error.
func (b *Buffer) Change(version int32, changes []Change) error {
	return b.ChangeFunc(version, len(changes), func(i int, _ Text) (Change, error) {
		return changes[i], nil
	})
}

// ChangeFunc is Change for n changes whose offsets are found in the text
// the changes before them left, as an editor that counts places in lines
// sends them: it calls change(i, text) for i from 0 to n-1, text being the
// buffer's text as change i finds it, and applies the change it returns,
// all under the buffer's lock, so that no Snapshot sees a text between
// them. An error from change leaves the buffer out of sync as a change
// that cannot apply does; while it is out of sync, only a change that
// replaces the whole text is applied, and text is the last one known.
func (b *Buffer) ChangeFunc(version int32, n int, change func(i int, text Text) (Change, error)) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.version = version
	b.snap = nil
	for i := range n {
		c, err := change(i, Text{&b.lines})
		if err == nil && c.Whole {
			b.lines = newLineStore(c.Text)
			b.stale = nil
			continue
		}
		if b.stale != nil {
			continue // only a whole text can bring it back
		}
		if err == nil {
			err = b.lines.apply(c.Start, c.End, c.Text)
		}
		if err != nil {
			b.stale = fmt.Errorf("version %d, change %d of %d: %w", version, i+1, n, err)
		}
	}
	return b.outOfSync()
}

// A Text is a buffer's text as one change of ChangeFunc finds it, read by
// lines: lines end at "\n", "\r\n" or "\r", and a text that ends with a
// line break has an empty last line. It is valid only during the call of
// the change function it was given to.
type Text struct{ s *lineStore }

// Lines returns the number of lines, at least one.
func (t Text) Lines() int { return t.s.n }

// Line returns line i, 0-based, with its line break, and the byte offset
// where it starts. It panics when i is not a line of the text.
func (t Text) Line(i int) (start int, line string) {
	if i < 0 || i >= t.s.n {
		panic(fmt.Sprintf("workspace: line %d of a text of %d lines", i, t.s.n))
	}
	return t.s.lineStart(i)
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

	starts []int // where the lines of Text start; shared by the copies of one snapshot
	// utf8 says Text is known to be UTF-8: a Buffer makes no snapshot of
	// a text that is not.
	utf8 bool
}

// Snapshot returns the buffer's current text and version. It fails with an
// error wrapping ErrOutOfSync when the buffer is out of sync, and with one
// wrapping ErrNotUTF8 when the text is not valid UTF-8: graft edits no
// such document, nor reads edits from it, as it does not a file on disk.
// Snapshots of an unchanged buffer share their text and its line starts;
// the first after a change joins the text, in time linear in its length.
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
		text, starts := b.lines.join()
		b.snap = &Snapshot{Path: b.path, Text: text, Version: b.version, starts: starts, utf8: true}
	}
	return *b.snap, nil
}

// LineStarts returns the byte offsets where the lines of the snapshot's
// text start, lines ending at "\n", "\r\n" or "\r"; the first is 0, and
// a text that ends with a line break has an empty last line, which starts
// at its end. The buffer counted them with the text, from the lines it
// keeps, and every copy of the snapshot shares them: they must not be
// changed. A Snapshot not made by a Buffer finds them again each time.
func (s Snapshot) LineStarts() []int {
	if s.starts == nil {
		return LineStarts(s.Text)
	}
	return s.starts
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
// It finds a line by its number or by a byte offset in the text in time
// logarithmic in the number of lines, and a change costs the lines it
// touches and the few chunks it may split or join.
type lineStore struct {
	chunks [][]string // at least one, none empty: a text has at least one line
	// lengths[i] sums the lengths of the lines of chunks[i], in bytes;
	// nil until a line of the chunk is first found by its offset.
	lengths []fenwick
	first   []int   // first[i] is the number of the first line of chunks[i]
	sizes   []int   // sizes[i] is the length of chunks[i] in bytes
	at      fenwick // sums sizes: where each chunk starts
	spare   fenwick // the lengths of a chunk that is no more, for reuse
	n       int     // lines in all
	size    int     // bytes in all
	bad     int     // lines that are not valid UTF-8
	hints   [2]hint // the lines whose starts were asked for last, last first
}

// A hint is a line whose start was asked for, where a change that follows
// most often starts or ends: find looks there first, and the change need
// not be searched for. Hints are forgotten when the text changes.
type hint struct {
	line, start int
	p           place
	ok          bool
}

// newLineStore returns the store of text.
func newLineStore(text string) lineStore {
	starts := LineStarts(text)
	var s lineStore
	s.chunks = chunk(linesAt(text, starts))
	s.lengths = make([]fenwick, len(s.chunks))
	s.sizes = make([]int, len(s.chunks))
	line := 0
	for i, c := range s.chunks {
		start := starts[line]
		line += len(c)
		end := len(text)
		if line < len(starts) {
			end = starts[line]
		}
		s.sizes[i] = end - start
	}
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

// LineStarts returns the offsets where the lines of text start: the first
// at 0, the others after each "\n", "\r\n" or "\r", as editors count
// lines (and the Language Server Protocol with them).
func LineStarts(text string) []int {
	starts := make([]int, 1, strings.Count(text, "\n")+1)
	if strings.IndexByte(text, '\r') < 0 {
		for i := 0; ; {
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				return starts
			}
			i += j + 1
			starts = append(starts, i)
		}
	}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case '\n':
			starts = append(starts, i+1)
		}
	}
	return starts
}

// splitLines returns the lines of text, each with its line break; the last
// one has none and is empty when text ends with a line break.
func splitLines(text string) []string {
	return linesAt(text, LineStarts(text))
}

// linesAt returns the lines of text that start at starts.
func linesAt(text string, starts []int) []string {
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

// index recounts first and n from chunk i on, and at from the sizes.
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
	s.at = append(s.at[:0], s.sizes...).build()
}

// locate returns the chunk that holds line i and the line's index in it.
func (s *lineStore) locate(i int) (c, j int) {
	c, found := slices.BinarySearch(s.first, i)
	if !found {
		c--
	}
	return c, i - s.first[c]
}

// lineLengths returns the tree of the line lengths of chunk c, made on
// first use.
func (s *lineStore) lineLengths(c int) fenwick {
	if s.lengths[c] == nil {
		f := s.spare[:0]
		s.spare = nil
		for _, l := range s.chunks[c] {
			f = append(f, len(l))
		}
		s.lengths[c] = f.build()
	}
	return s.lengths[c]
}

// offset returns the byte offset where line j of chunk c starts.
func (s *lineStore) offset(c, j int) int {
	return s.at.sum(c) + s.lineLengths(c).sum(j)
}

// lineStart returns the offset where line i starts, and the line, and
// keeps it as a hint.
func (s *lineStore) lineStart(i int) (start int, line string) {
	for _, h := range s.hints {
		if h.ok && h.line == i {
			return h.start, s.lineAt(h.p)
		}
	}
	c, j := s.locate(i)
	h := hint{line: i, start: s.offset(c, j), p: place{c, j}, ok: true}
	s.hints[0], s.hints[1] = h, s.hints[0]
	return h.start, s.lineAt(h.p)
}

// A place is where a line is in a lineStore: line j of chunks[c].
type place struct{ c, j int }

// find returns the place of the line that holds the byte at offset off and
// the offset's column in it, in bytes; the end of the text is the end of
// the last line. off must lie in the text or at its end.
func (s *lineStore) find(off int) (p place, col int) {
	for _, h := range s.hints {
		if h.ok && h.start <= off && off < h.start+len(s.lineAt(h.p)) {
			return h.p, off - h.start
		}
	}
	c, rest := s.at.search(off)
	if c == len(s.chunks) {
		c-- // the end of the text
		rest += s.sizes[c]
	}
	j, col := s.lineLengths(c).search(rest)
	if j == len(s.chunks[c]) {
		j--
		col += len(s.chunks[c][j])
	}
	return place{c, j}, col
}

// lineAt returns the line at p, with its line break.
func (s *lineStore) lineAt(p place) string { return s.chunks[p.c][p.j] }

// before returns the place of the line before the one at p, which is not
// the first.
func (s *lineStore) before(p place) place {
	if p.j > 0 {
		return place{p.c, p.j - 1}
	}
	return place{p.c - 1, len(s.chunks[p.c-1]) - 1}
}

// last reports whether the line at p is the last of the text.
func (s *lineStore) last(p place) bool {
	return p.c == len(s.chunks)-1 && p.j == len(s.chunks[p.c])-1
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

// join returns the whole text and where its lines start, counted from the
// lines rather than found again in the text.
func (s *lineStore) join() (text string, starts []int) {
	var sb strings.Builder
	sb.Grow(s.size)
	starts = make([]int, 0, s.n)
	for _, c := range s.chunks {
		for _, l := range c {
			starts = append(starts, sb.Len())
			sb.WriteString(l)
		}
	}
	return sb.String(), starts
}

// apply replaces the bytes from start to end of the text with text. It
// changes nothing when they are not a span of the text.
func (s *lineStore) apply(start, end int, text string) error {
	if start < 0 || end < start || end > s.size {
		return fmt.Errorf("bytes %d-%d are not a span of the text (%d bytes)", start, end, s.size)
	}
	lo, sc := s.find(start)
	hi, ec := lo, sc+end-start
	if ec >= len(s.lineAt(lo)) && !s.last(lo) {
		hi, ec = s.find(end) // end is on a later line
	}
	piece := s.lineAt(lo)[:sc] + text + s.lineAt(hi)[ec:]
	// A "\r" ending the line before and a "\n" starting the piece are one
	// line break: the lines are split again from that line on.
	if (lo.c > 0 || lo.j > 0) && piece != "" && piece[0] == '\n' {
		if prev := s.before(lo); strings.HasSuffix(s.lineAt(prev), "\r") {
			piece = s.lineAt(prev) + piece
			lo = prev
		}
	}
	lines := splitLines(piece)
	if !s.last(hi) {
		// The piece ends with the line break of line hi, which is not the
		// last: splitLines' empty last line is no line of the text.
		lines = lines[:len(lines)-1]
	}
	s.replace(lo, hi, lines)
	return nil
}

// replace replaces the lines from lo to hi, both included, with lines, of
// which there is at least one.
func (s *lineStore) replace(lo, hi place, lines []string) {
	s.hints = [2]hint{}
	cl, jl, ch, jh := lo.c, lo.j, hi.c, hi.j
	added, removed := 0, 0
	for c, j := cl, jl; c < ch || c == ch && j <= jh; j++ {
		if j == len(s.chunks[c]) {
			c, j = c+1, -1
			continue
		}
		removed += len(s.chunks[c][j])
		if !utf8.ValidString(s.chunks[c][j]) {
			s.bad--
		}
	}
	for _, l := range lines {
		added += len(l)
	}
	s.size += added - removed
	s.bad += invalid(lines)
	if cl == ch && len(lines) == jh-jl+1 {
		// The chunk's lines are its own: change them in place.
		c, lengths := s.chunks[cl], s.lengths[cl]
		for k, l := range lines {
			j := jl + k
			if d := len(l) - len(c[j]); d != 0 && lengths != nil {
				lengths.add(j, d)
			}
			c[j] = l
		}
		if d := added - removed; d != 0 {
			s.sizes[cl] += d
			s.at.add(cl, d)
		}
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
	if s.spare == nil {
		s.spare = s.lengths[cl]
	}
	if n <= chunkMax && cl == ch {
		// Still one chunk: the others keep their places.
		s.chunks[cl] = merged
		s.lengths[cl] = nil
		s.sizes[cl] += added - removed
		s.at.add(cl, added-removed)
		for c := cl + 1; c < len(s.first); c++ {
			s.first[c] += len(lines) - (jh - jl + 1)
		}
		s.n += len(lines) - (jh - jl + 1)
		return
	}
	chunks := chunk(merged)
	sizes := make([]int, len(chunks))
	for i, c := range chunks {
		for _, l := range c {
			sizes[i] += len(l)
		}
	}
	s.chunks = slices.Replace(s.chunks, cl, ch+1, chunks...)
	s.sizes = slices.Replace(s.sizes, cl, ch+1, sizes...)
	s.lengths = slices.Replace(s.lengths, cl, ch+1, make([]fenwick, len(chunks))...)
	s.index(cl)
}

// A fenwick is a Fenwick tree over a list of numbers that are not
// negative: it changes one and sums a prefix of them in time logarithmic
// in their number. Element k sums the numbers from k&(k+1) to k.
type fenwick []int

// build turns f, holding the numbers themselves, into their tree.
func (f fenwick) build() fenwick {
	for i := range f {
		if j := i | (i + 1); j < len(f) {
			f[j] += f[i]
		}
	}
	return f
}

// add adds d to number i.
func (f fenwick) add(i, d int) {
	for ; i < len(f); i |= i + 1 {
		f[i] += d
	}
}

// sum returns the sum of the numbers before number i.
func (f fenwick) sum(i int) int {
	s := 0
	for ; i > 0; i &= i - 1 {
		s += f[i-1]
	}
	return s
}

// search returns the number of numbers from the first whose sum is at
// most x, and x less that sum: number i holds the x-th unit of the total
// when i < len(f), and rest is where in it.
func (f fenwick) search(x int) (i, rest int) {
	step := 1
	for step*2 <= len(f) {
		step *= 2
	}
	for ; step > 0; step /= 2 {
		if j := i + step; j <= len(f) && f[j-1] <= x {
			i = j
			x -= f[j-1]
		}
	}
	return i, x
}
