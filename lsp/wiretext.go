package lsp

import (
	"encoding/json"

	"go.lsp.dev/jsonrpc2"

	"github.com/graft-editor/graft/internal/jsonutf8"
)

// The texts of a document's notifications and of a command's argument
// arrive as JSON, which encoding/json decodes by turning each byte that
// is not UTF-8 (and each escape of an unpaired surrogate) into U+FFFD,
// silently. Graft must not write U+FFFD where the editor has other bytes,
// as graft apply does not rewrite a file that is not UTF-8, so the raw
// params are checked before their decoded strings are trusted: with
// jsonutf8.Check, at about 2 GB/s, against encoding/json's 150 MB/s for
// the decoding itself. Only params that fail are decoded again.

// openText returns the text of a didOpen whose params are raw and whose
// text decoded as decoded: decoded itself, unless raw holds what decoding
// turned into U+FFFD; then the text as the editor has it, bytes that are
// not UTF-8 kept, and why it is not UTF-8. A buffer of such a text gives
// no snapshot (workspace.Buffer.Snapshot), so that no edit is made to it,
// while changes that take the bad bytes out are followed exactly.
func openText(raw json.RawMessage, decoded string) (string, error) {
	if jsonutf8.Check(raw) == nil {
		return decoded, nil
	}
	var p struct {
		TextDocument struct {
			Text json.RawMessage `json:"text"`
		} `json:"textDocument"`
	}
	if json.Unmarshal(raw, &p) != nil {
		return decoded, nil
	}
	return keepText(p.TextDocument.Text, decoded)
}

// changeTexts does what openText does for the texts of a didChange's
// changes, in place, and returns why the first that is not UTF-8 is not.
func changeTexts(raw json.RawMessage, changes []contentChange) error {
	if jsonutf8.Check(raw) == nil {
		return nil
	}
	var p struct {
		ContentChanges []struct {
			Text json.RawMessage `json:"text"`
		} `json:"contentChanges"`
	}
	if json.Unmarshal(raw, &p) != nil || len(p.ContentChanges) != len(changes) {
		return nil
	}
	var first error
	for i, c := range p.ContentChanges {
		text, err := keepText(c.Text, changes[i].Text)
		changes[i].Text = text
		if first == nil {
			first = err
		}
	}
	return first
}

// keepText returns the JSON string lit as its sender wrote it, bytes that
// are not UTF-8 kept, and why it is not UTF-8; decoded, what
// encoding/json made of lit, when lit is UTF-8.
func keepText(lit json.RawMessage, decoded string) (string, error) {
	bad := jsonutf8.Check(lit)
	if bad == nil {
		return decoded, nil
	}
	text, err := jsonutf8.Unquote(lit)
	if err != nil {
		return decoded, bad // cannot be: encoding/json read lit
	}
	return text, bad
}

// refuseNotUTF8 returns the error of a graft.apply, graft.preview or
// graft.suggest whose argument, raw, is not UTF-8: decoding would put
// U+FFFD in place of the bad bytes, and the edit would write it into the
// files. A U+FFFD written as such passes, as any character.
func refuseNotUTF8(raw json.RawMessage) error {
	bad := jsonutf8.Check(raw)
	if bad == nil {
		return nil
	}
	what := "the argument"
	var p struct {
		Text  json.RawMessage `json:"text"`
		Edits json.RawMessage `json:"edits"`
	}
	if json.Unmarshal(raw, &p) == nil {
		if err := jsonutf8.Check(p.Text); err != nil {
			what, bad = "text", err
		} else if err := jsonutf8.Check(p.Edits); err != nil {
			what, bad = "edits", err
		}
	}
	return jsonrpc2.Errorf(jsonrpc2.InvalidParams,
		"%s: not valid UTF-8 (%v): graft will not write U+FFFD in place of the bytes; send the answer as UTF-8", what, bad)
}
