package mcpserver

import (
	"fmt"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// checkArguments refuses a call whose arguments are not valid UTF-8 as
// they came over the wire: JSON decoding would turn each bad byte into
// U+FFFD, which would then be written into the file, where graft apply
// refuses such an answer outright.
func checkArguments(req *mcp.CallToolRequest) error {
	raw := req.Params.Arguments
	if utf8.Valid(raw) {
		return nil
	}
	at := 0
	for at < len(raw) {
		r, size := utf8.DecodeRune(raw[at:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		at += size
	}
	return fmt.Errorf("the arguments are not valid UTF-8 (byte %#x at offset %d); send the text as UTF-8", raw[at], at)
}
