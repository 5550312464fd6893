package lsp

import (
	"encoding/json"
	"reflect"
	"testing"

	"go.lsp.dev/protocol"
)

// FuzzDecode holds decode to what its doc says: whatever the params, it
// decodes them as encoding/json does, or fails where encoding/json fails,
// into the params of the requests and notifications that come most
// often.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"textDocument":{"uri":"file:///a","version":2},"contentChanges":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":0}},"text":"x\n"}]}`,
		"{\"TEXTDOCUMENT\":{\"URI\":\"file:///a\",\"Version\":2},\"contentChanges\":[{\"text\":\"\xff\xfe\"}]}",
		`{"textDocument":{"uri":"file:///a","version":2.5},"contentChanges":[]}`,
		`{"textDocument":{"uri":"file:///a","version":99999999999},"contentChanges":null}`,
		`{"textDocument":{"uri":"file:///a","version":2},"textDocument":{"uri":"b"}}`,
		`{"textDocument":{"uri":"\ud800","version":2}}`,
		`{"contentChanges":[{"text":"a\u0000b"}], "x": [1,2,{"y":null}]}`,
		`{"command":"graft.apply","arguments":[{"uri":"file:///x","text":"a"}, 1, null]}`,
		`{"textDocument":{"uri":"file:///x"},"range":{"start":{"line":0,"character":0},"end":{"line":2,"character":3}},"context":{"diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"m","severity":1,"data":{"a":1}}],"only":["quickfix"]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		type didChange struct {
			TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
			ContentChanges []contentChange                          `json:"contentChanges"`
		}
		same(t, data, new(didChange), new(didChange))
		same(t, data, new(protocol.ExecuteCommandParams), new(protocol.ExecuteCommandParams))
		same(t, data, new(protocol.CodeActionParams), new(protocol.CodeActionParams))
	})
}

// same fails t unless decode makes of data into got what encoding/json
// makes of it into want.
func same[T any](t *testing.T, data []byte, got, want *T) {
	t.Helper()
	errGot, errWant := decode(data, got), json.Unmarshal(data, want)
	if len(data) == 0 || string(data) == "null" {
		return // decode refuses missing params
	}
	if (errGot == nil) != (errWant == nil) {
		t.Fatalf("%q: decode: %v; encoding/json: %v", data, errGot, errWant)
	}
	if errGot == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: decode: %+v; encoding/json: %+v", data, *got, *want)
	}
}
