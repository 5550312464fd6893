package engine

import "strings"

// Finding a search as written costs a pass over the whole text, and an
// answer of many blocks resolves each against the text the blocks before
// it left: 20 blocks on a 200 KB file read 4 MB. From the third search on
// along the Documents that Apply returns (see Document.searches), each
// line carries the set of the byte pairs it holds, hashed into a word;
// a search then reads only the lines whose set holds all of its pairs,
// and the sets of the lines a change leaves alone are carried over. The
// sets only turn lines away: every line they let through is compared as
// a search of the text would, so the places found are the same
// (TestLineGramsFindWhatAScanFinds, FuzzLineGrams). Measured alternately
// on the built server, BenchmarkApplyRoundTrip (20 blocks, 5,000 lines):
// p50 5.5-5.8 ms without, 4.7-5.3 ms with.

// gramsAfter is how many searches along a Document's line of descent
// read the whole text before its lines get their sets of pairs: building
// them costs about as much as three such searches.
const gramsAfter = 2

// pairSet returns the set of the byte pairs of s, each hashed to one of
// the 64 bits of a word.
func pairSet(s string) uint64 {
	var set uint64
	for i := 1; i < len(s); i++ {
		set |= 1 << ((uint64(s[i-1])<<8 | uint64(s[i])) * mix >> 58)
	}
	return set
}

// buildGrams sets d.grams, the pair set of every line.
func (d *document) buildGrams() {
	d.grams = make([]uint64, len(d.start))
	for i := range d.grams {
		d.grams[i] = pairSet(d.line(i))
	}
}

// occurrencesByLine returns what occurrences returns for d.lf, sub and
// limit, reading only the lines that may hold sub's longest piece within
// a line (the part before its first line feed, or after its last), which
// d.grams tells; false when that piece is too short to tell lines apart,
// having read nothing.
func (d *document) occurrencesByLine(sub string, limit int) ([]int, bool) {
	first, last := strings.IndexByte(sub, '\n'), strings.LastIndexByte(sub, '\n')
	piece, atEnd := sub, false // atEnd: piece ends a line, and sub goes on
	if first >= 0 {
		head, tail := sub[:first], sub[last+1:]
		piece, atEnd = head, true
		if len(tail) > len(head) {
			piece, atEnd = tail, false
		}
	}
	if len(piece) < 4 {
		return nil, false
	}
	want := pairSet(piece)
	var found []int
	for i, set := range d.grams {
		if set&want != want || d.end[i]-d.start[i] < len(piece) {
			continue
		}
		line := d.line(i)
		switch {
		case first < 0: // every place of sub within the line
			for from := 0; ; {
				j := strings.Index(line[from:], sub)
				if j < 0 {
					break
				}
				found = append(found, d.lfOffset(i)+from+j)
				if len(found) == limit {
					return found, true
				}
				from += j + 1
			}
			continue
		case atEnd: // sub starts where the piece ends the line
			if !strings.HasSuffix(line, piece) {
				continue
			}
			if at := d.lfOffset(i) + len(line) - len(piece); at+len(sub) <= len(d.lf) && d.lf[at:at+len(sub)] == sub {
				found = append(found, at)
			}
		default: // sub ends where the piece starts the line
			if !strings.HasPrefix(line, piece) {
				continue
			}
			if at := d.lfOffset(i) - (len(sub) - len(piece)); at >= 0 && d.lf[at:at+len(sub)] == sub {
				found = append(found, at)
			}
		}
		if len(found) == limit {
			break
		}
	}
	return found, true
}
