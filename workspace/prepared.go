package workspace

import (
	"slices"
	"sync"

	"github.com/graft-editor/graft/engine"
)

// Prepared keeps the engine's Documents that plans leave their files in,
// for the next plan of the same text: an editor applies one answer after
// another to the same open buffer, and a plan of a text a plan before
// left starts from that Document rather than splitting the text into
// lines and indexing them again (on a 5,000-line buffer about a tenth of
// a graft.apply round trip). A Document is found only for the very text
// it was prepared from, and is counted as the file is now (see
// engine.Document.Rebased), so what a plan finds is what it finds without.
//
// Prepared keeps the last few files, and none of more than maxPrepared
// bytes. It is safe for plans that run at once: a Document is taken out
// while a plan uses it. The zero value is ready to use.
type Prepared struct {
	mu   sync.Mutex
	docs []preparedDoc // the most recently kept last
}

type preparedDoc struct {
	abs string
	doc *engine.Document
}

const (
	// keptPrepared is how many files Prepared keeps.
	keptPrepared = 8
	// maxPrepared is the size of the largest text Prepared keeps.
	maxPrepared = 16 << 20
)

// take returns, and no longer keeps, the Document kept for the file at
// abs if its text is text; nil otherwise. p may be nil.
func (p *Prepared) take(abs, text string) *engine.Document {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if doc := p.removeLocked(abs); doc != nil && doc.Text() == text {
		return doc
	}
	return nil
}

// keep keeps doc, the Document a plan left the file at abs in, in place
// of any other of that file, and forgets the file used least recently
// when it keeps too many. The plan must not use doc after. p may be nil.
func (p *Prepared) keep(abs string, doc *engine.Document) {
	if p == nil || doc == nil || len(doc.Text()) > maxPrepared {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.removeLocked(abs)
	if len(p.docs) == keptPrepared {
		p.docs = slices.Delete(p.docs, 0, 1)
	}
	p.docs = append(p.docs, preparedDoc{abs, doc.Rebased()})
}

// removeLocked forgets the Document kept for the file at abs, and returns
// it; nil when none is kept. p.mu is held.
func (p *Prepared) removeLocked(abs string) *engine.Document {
	i := slices.IndexFunc(p.docs, func(k preparedDoc) bool { return k.abs == abs })
	if i < 0 {
		return nil
	}
	doc := p.docs[i].doc
	p.docs = slices.Delete(p.docs, i, i+1) // which clears the slot it frees
	return doc
}
