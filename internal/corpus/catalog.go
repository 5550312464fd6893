package corpus

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Limits on the files the cases are made from: big enough to hold several
// functions, small enough that a case stays readable in a failure report.
const (
	minFileLines = 40
	maxFileLines = 5000
	maxFileBytes = 256 << 10
	maxLineBytes = 160
)

// SourceRoot returns the source tree of the Go installation on the PATH
// (`go env GOROOT` + "/src"): a few thousand real files, in Go and in the
// other languages the Go tree holds, that nobody on this project wrote.
func SourceRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("corpus: go env GOROOT: %w", err)
	}
	root := strings.TrimSpace(string(out))
	if root == "" {
		return "", errors.New("corpus: go env GOROOT printed nothing")
	}
	return filepath.Join(root, "src"), nil
}

// A catalog lists the files under a root by language and loads them on
// demand.
type catalog struct {
	root   string
	langs  []lang
	byLang [][]string         // slash-separated paths relative to root, sorted, per language
	cache  map[string]*source // loaded files; nil for a file that is unfit
}

// newCatalog lists the files under root whose extension belongs to one of
// the languages, skipping testdata and hidden directories.
func newCatalog(root string) (*catalog, error) {
	c := &catalog{root: root, langs: languages(), cache: map[string]*source{}}
	c.byLang = make([][]string, len(c.langs))
	byExt := map[string]int{}
	for i := range c.langs {
		c.langs[i].index = i
		for _, ext := range c.langs[i].exts {
			byExt[ext] = i
		}
	}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		i, ok := byExt[filepath.Ext(name)]
		if !ok || !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		c.byLang[i] = append(c.byLang[i], filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("corpus: listing %s: %w", root, err)
	}
	if len(c.byLang[0]) == 0 {
		return nil, fmt.Errorf("corpus: no Go files under %s", root)
	}
	return c, nil
}

// pick draws a language by weight among those accept allows, then a file
// of it, until one is fit to make cases from.
func (c *catalog) pick(rng *rand.Rand, accept func(*lang) bool) (*source, error) {
	total := 0
	for i := range c.langs {
		if len(c.byLang[i]) > 0 && (accept == nil || accept(&c.langs[i])) {
			total += c.langs[i].weight
		}
	}
	if total == 0 {
		return nil, errors.New("corpus: no file of an accepted language")
	}
	for range 100 {
		w := rng.IntN(total)
		for i := range c.langs {
			l := &c.langs[i]
			if len(c.byLang[i]) == 0 || (accept != nil && !accept(l)) {
				continue
			}
			if w -= l.weight; w >= 0 {
				continue
			}
			s, err := c.load(c.byLang[i][rng.IntN(len(c.byLang[i]))], l)
			if err != nil {
				return nil, err
			}
			if s != nil {
				return s, nil
			}
			break
		}
	}
	return nil, errors.New("corpus: found no fit file in 100 draws")
}

// sibling draws another fit file of the same language as s, from a
// different directory when far is set (so that it is no variant of s for
// another architecture), from the same directory otherwise.
func (c *catalog) sibling(rng *rand.Rand, s *source, far bool) (*source, error) {
	i := s.lang.index
	paths := c.byLang[i]
	dir := path.Dir(s.path)
	for range 50 {
		p := paths[rng.IntN(len(paths))]
		if p == s.path || (path.Dir(p) == dir) == far {
			continue
		}
		o, err := c.load(p, s.lang)
		if err != nil {
			return nil, err
		}
		if o != nil {
			return o, nil
		}
	}
	return nil, errSkip
}

// load reads a file of the catalog, or returns nil when the file is unfit:
// generated, too small or too big, not UTF-8, with CR or NUL bytes.
func (c *catalog) load(rel string, l *lang) (*source, error) {
	if s, ok := c.cache[rel]; ok {
		return s, nil
	}
	data, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var s *source
	if fit(data) {
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if len(lines) >= minFileLines && len(lines) <= maxFileLines {
			s = &source{path: rel, lang: l, doc: newDoc(lines)}
			s.unit = indentUnit(lines)
		}
	}
	c.cache[rel] = s
	return s, nil
}

// fit reports whether a file's bytes can make cases: hand-written UTF-8
// text with LF line endings.
func fit(data []byte) bool {
	if len(data) > maxFileBytes || !utf8.Valid(data) || bytes.ContainsAny(data, "\r\x00") {
		return false
	}
	head := data[:min(len(data), 4096)]
	return !bytes.Contains(head, []byte("DO NOT EDIT")) && !bytes.Contains(head, []byte("Code generated"))
}

// A source is a file of the catalog.
type source struct {
	path string // relative to the root, slash-separated
	lang *lang
	unit string // one level of indentation: a tab, or spaces
	*doc

	// Filled by index when a trap asks.
	squeezed    map[string]bool // the lines without blanks
	names       map[string]bool // the identifiers
	squeezedAll string          // the text without blanks, for squeezedText
}

// indentUnit guesses one level of indentation of a file: a tab when tabs
// start more lines than spaces do, else the smallest space indentation.
func indentUnit(lines []string) string {
	tabs, spaces, least := 0, 0, 0
	for _, line := range lines {
		switch {
		case strings.HasPrefix(line, "\t"):
			tabs++
		case strings.HasPrefix(line, " "):
			n := len(line) - len(strings.TrimLeft(line, " "))
			if n == len(line) {
				continue
			}
			spaces++
			if least == 0 || n < least {
				least = n
			}
		}
	}
	if tabs >= spaces || least == 0 {
		return "\t"
	}
	return strings.Repeat(" ", min(least, 8))
}

// A doc is a text as lines, with what region picking asks of it.
type doc struct {
	lines []string
	text  string         // the lines, each followed by "\n"
	count map[string]int // occurrences of each trimmed line

	// Filled on demand by rivalled.
	byPrefix, bySuffix map[string][]string // squeezed lines by their first and last bytes
	rivals             map[string]bool     // rivalled's answers
}

func newDoc(lines []string) *doc {
	d := &doc{lines: lines, count: make(map[string]int, len(lines))}
	var b strings.Builder
	for _, line := range lines {
		b.WriteString(line)
		b.WriteByte('\n')
		d.count[strings.TrimSpace(line)]++
	}
	d.text = b.String()
	return d
}

// distinctive reports whether line says where it is: it is long enough to
// mean something and no other line of the text looks like it.
func (d *doc) distinctive(line string) bool {
	t := strings.TrimSpace(line)
	return len(t) >= 10 && d.count[t] == 1
}

// rivalKey is how many bytes of a squeezed line rivalled buckets lines by.
const rivalKey = 5

// rivalled reports whether another line of the text is nearly the same as
// line (at least 80% similar, blanks aside): such a line tells its place
// only by a word or two, as in code written twice with small changes, and
// cannot vouch for a damaged copy. Only lines that share their first or
// last bytes with line are compared, which finds the twins of copied code
// at a small cost.
func (d *doc) rivalled(line string) bool {
	q := squeeze(line)
	if len(q) < rivalKey {
		return true
	}
	if d.rivals == nil {
		d.rivals = map[string]bool{}
		d.byPrefix, d.bySuffix = map[string][]string{}, map[string][]string{}
		for k := range d.count {
			if k := squeeze(k); len(k) >= rivalKey {
				d.byPrefix[k[:rivalKey]] = append(d.byPrefix[k[:rivalKey]], k)
				d.bySuffix[k[len(k)-rivalKey:]] = append(d.bySuffix[k[len(k)-rivalKey:]], k)
			}
		}
	}
	if r, ok := d.rivals[q]; ok {
		return r
	}
	r := false
	checked := 0
	for _, bucket := range [][]string{d.byPrefix[q[:rivalKey]], d.bySuffix[q[len(q)-rivalKey:]]} {
		for _, k := range bucket {
			if k == q || 5*abs(len(k)-len(q)) > len(q) {
				continue
			}
			if checked++; checked > 200 || similarity(k, q) >= 0.8 {
				// Too many look-alikes to tell apart is a rival too.
				r = true
				break
			}
		}
	}
	d.rivals[q] = r
	return r
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// occurrences counts the places where block (lines joined by "\n") stands
// in the text.
func (d *doc) occurrences(block []string) int {
	return strings.Count(d.text, strings.Join(block, "\n"))
}

// quotable reports whether lines [start, start+n) make a region a model
// could quote and a reader would place without doubt: it starts and ends
// with code, has no overlong lines, no trailing blanks or control bytes,
// holds at least two distinctive lines (or is one) and occurs once.
func (d *doc) quotable(start, n int) bool {
	if start < 0 || start+n > len(d.lines) || n < 1 {
		return false
	}
	region := d.lines[start : start+n]
	if isBlank(region[0]) || isBlank(region[n-1]) {
		return false
	}
	distinct := 0
	for _, line := range region {
		if len(line) > maxLineBytes || line != strings.TrimRight(line, " \t") || hasControl(line) {
			return false
		}
		if d.distinctive(line) {
			distinct++
		}
	}
	return distinct >= min(2, n) && d.occurrences(region) == 1
}

// region draws the start of a quotable region of n lines, or returns false
// after a few tries.
func (d *doc) region(rng *rand.Rand, n int) (int, bool) {
	if n > len(d.lines) {
		return 0, false
	}
	for range 12 {
		start := rng.IntN(len(d.lines) - n + 1)
		if d.quotable(start, n) {
			return start, true
		}
	}
	return 0, false
}

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

func hasControl(line string) bool {
	for _, r := range line {
		if r < ' ' && r != '\t' || r == 0x7f {
			return true
		}
	}
	return false
}
