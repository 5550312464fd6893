package lsp

import "testing"

func TestProbeID(t *testing.T) {
	tests := []struct {
		data, id string
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"m"}`, "1"},
		{`{"jsonrpc":"2.0","id":"a b","method":`, `"a b"`},
		{`{"jsonrpc":"2.0","method":"m","params":{"id":3},"id":4}`, "4"},
		{` {"id": 5 , "x`, "5"},
		{`{"id":5}`, "5"},
		{`{"id":12`, ""},
		{`{"id":"ab`, ""},
		{`{"id":null,"method":"m"}`, ""},
		{`{"id":{"x":1},"method":"m"}`, ""},
		{`{"params":{"text":"abc`, ""},
		{`[{"id":1}]`, ""},
		{`{"jsonrpc":"2.0" "id":1}`, ""},
		{`not json`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		if got := string(probeID([]byte(tt.data))); got != tt.id {
			t.Errorf("probeID(%q) = %q, want %q", tt.data, got, tt.id)
		}
	}
}
