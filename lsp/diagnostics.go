package lsp

import (
	"context"
	"reflect"
	"slices"
	"sync"

	"go.lsp.dev/protocol"
)

// diagnostics holds the diagnostics the server publishes, per document
// and per part of the server that makes them (answer buffers,
// suggestions), and publishes their union: a publishDiagnostics replaces
// all of a document's diagnostics, so each part must not erase the
// other's.
type diagnostics struct {
	mu    sync.Mutex
	byURI map[protocol.DocumentURI]map[string][]protocol.Diagnostic
}

// publish sets the diagnostics of source on the document at uri, and
// sends the document's diagnostics to the client. version is the
// version of the document they were computed against; nil for none.
func (s *server) publish(ctx context.Context, uri protocol.DocumentURI, version *int32, source string, diags []protocol.Diagnostic) {
	d := &s.diags
	d.mu.Lock()
	defer d.mu.Unlock() // held while sending, so that publications stay in order
	if d.byURI == nil {
		d.byURI = map[protocol.DocumentURI]map[string][]protocol.Diagnostic{}
	}
	m := d.byURI[uri]
	if len(diags) == 0 && len(m[source]) == 0 {
		return // nothing was shown, nothing to clear
	}
	if m == nil {
		m = map[string][]protocol.Diagnostic{}
		d.byURI[uri] = m
	}
	if len(diags) == 0 {
		delete(m, source)
	} else {
		m[source] = diags
	}
	all := []protocol.Diagnostic{} // never null: clients reject it
	for _, src := range []string{sourceAnswers, sourceSuggestions} {
		all = append(all, m[src]...)
	}
	if len(m) == 0 {
		delete(d.byURI, uri)
	}
	p := protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: all}
	if version != nil {
		p.Version = uint32(*version)
	}
	s.notify(ctx, "textDocument/publishDiagnostics", p)
}

// The parts of the server that publish diagnostics.
const (
	sourceAnswers     = "answers"
	sourceSuggestions = "suggestions"
)

// sameDiagnostics reports whether a and b are the same diagnostics, in
// the same order. It compares field by field what the server sets, for
// a refresh compares them each time; reflection is left for values of
// other types in Code and Data.
func sameDiagnostics(a, b []protocol.Diagnostic) bool {
	if len(a) == len(b) && len(a) > 0 && &a[0] == &b[0] {
		return true // the very same diagnostics, as a refresh that moved nothing keeps
	}
	return slices.EqualFunc(a, b, func(x, y protocol.Diagnostic) bool {
		return x.Range == y.Range && x.Severity == y.Severity && x.Source == y.Source && x.Message == y.Message &&
			sameValue(x.Code, y.Code) && sameValue(x.Data, y.Data) &&
			(x.CodeDescription == nil) == (y.CodeDescription == nil) &&
			(x.CodeDescription == nil || *x.CodeDescription == *y.CodeDescription) &&
			slices.Equal(x.Tags, y.Tags) && slices.Equal(x.RelatedInformation, y.RelatedInformation)
	})
}

// sameValue reports whether x and y, a diagnostic's Code or Data, are
// equal.
func sameValue(x, y any) bool {
	switch x := x.(type) {
	case nil:
		return y == nil
	case string:
		y, ok := y.(string)
		return ok && x == y
	case blockData:
		y, ok := y.(blockData)
		return ok && x == y
	}
	return reflect.DeepEqual(x, y)
}
