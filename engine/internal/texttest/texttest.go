// Package texttest makes the texts the engine's tests read: random texts
// with every feature that changes where a line is, texts that look like
// Go code, and the plain split of a text into lines that the fast passes
// are held to. It is for tests only.
package texttest

import (
	"math/rand/v2"
	"strings"
)

const bom = "\ufeff"

// PlainSplit returns the lines of text[from:to], which begins a line, as
// textscan.Lines does, with one strings.IndexByte call per line: the
// start of each, the end of its content, and how many end in "\r\n".
func PlainSplit(text string, from, to int) (start, end []int, crlf int) {
	for at := from; at < to; {
		i := strings.IndexByte(text[at:to], '\n')
		if i < 0 {
			start = append(start, at)
			end = append(end, to)
			break
		}
		e := at + i
		if e > at && text[e-1] == '\r' {
			e--
			crlf++
		}
		start = append(start, at)
		end = append(end, e)
		at += i + 1
	}
	return start, end, crlf
}

// Random returns a text of up to about 200 lines made of the pieces
// that matter to the line passes: line feeds, "\r\n" and lone "\r", a
// byte order mark, control bytes, white space of every kind, bytes beyond
// ASCII (valid or not), lines empty, short, longer than a word scan
// goes, and now and then one of more than 0xffff bytes.
func Random(rng *rand.Rand) string {
	pieces := []string{"a", "}", "x := f(a)", "\t", " ", "  ", "\v", "\f", "\r", "\x00", "\x08", "\x0e", "\x1f", "\x7f", "!", "~",
		"\u00a0", "\u3000", "é", "\xff", "\x80", "\t\treturn err", "// ...", "\u201cq\u201d"}
	var b strings.Builder
	if rng.IntN(8) == 0 {
		b.WriteString(bom)
	}
	eol := []string{"\n", "\r\n"}[rng.IntN(2)]
	lines := rng.IntN(200)
	if rng.IntN(16) == 0 {
		lines = 0
	}
	huge := rng.IntN(8) == 0 // one line of about 0xffff bytes not white space
	for range lines {
		switch r := rng.IntN(40); {
		case huge && r < 2:
			huge = false
			if r == 0 {
				b.WriteString(strings.Repeat("x ", 0x8000+rng.IntN(4)-2))
			} else {
				b.WriteString(strings.Repeat("y", 0xfffd+rng.IntN(4)))
			}
		case r < 5:
			b.WriteString(Pieces(rng, pieces, 10+rng.IntN(300)))
		case r < 8:
			// white space only
			for range rng.IntN(20) {
				b.WriteByte(" \t\v\f\r"[rng.IntN(5)])
			}
		default:
			b.WriteString(Pieces(rng, pieces, rng.IntN(12)))
		}
		switch rng.IntN(10) {
		case 0:
			b.WriteString([]string{"\n", "\r\n"}[rng.IntN(2)]) // mixed endings
		default:
			b.WriteString(eol)
		}
	}
	s := b.String()
	if rng.IntN(3) == 0 {
		s = strings.TrimRight(s, "\r\n") // no final newline
	}
	return s
}

// Pieces returns n of pieces, picked at random by rng, one after another.
func Pieces(rng *rand.Rand, pieces []string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

// Code returns n lines that look like Go code: indented, of varied
// length, some blank.
func Code(n int) string {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"if", "err", "!=", "nil", "{", "}", "return", "x", ":=", "f(a,", "b)", "fmt.Errorf(\"load %q: %w\",", "key,", "err)", "for", "range", "v.Name"}
	var b strings.Builder
	for range n {
		if rng.IntN(8) == 0 {
			b.WriteString("\n")
			continue
		}
		b.WriteString(strings.Repeat("\t", rng.IntN(4)))
		for k := range 1 + rng.IntN(6) {
			if k > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[rng.IntN(len(words))])
		}
		b.WriteString("\n")
	}
	return b.String()
}
