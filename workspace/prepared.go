package workspace

import (
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
	for i, k := range p.docs {
		if k.abs != abs {
			continue
		}
		p.docs = append(p.docs[:i], p.docs[i+1:]...)
		if k.doc.Text() != text {
			return nil
		}
		return k.doc
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
	for i, k := range p.docs {
		if k.abs == abs {
			p.docs = append(p.docs[:i], p.docs[i+1:]...)
			break
		}
	}
	if len(p.docs) == keptPrepared {
		p.docs = append(p.docs[:0], p.docs[1:]...)
	}
	p.docs = append(p.docs, preparedDoc{abs, doc.Rebased()})
}
