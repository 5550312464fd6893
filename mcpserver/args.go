package mcpserver

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/graft-editor/graft/internal/jsonutf8"
)

// checkArguments refuses a call whose arguments are not valid UTF-8 as
// they came over the wire: JSON decoding would turn each bad byte, and
// each escaped half of a surrogate pair ("\udce9"), into U+FFFD, which
// would then be written into the file, where graft apply refuses such an
// answer outright.
func checkArguments(req *mcp.CallToolRequest) error {
	if err := jsonutf8.Check(req.Params.Arguments); err != nil {
		return fmt.Errorf("the arguments are not valid UTF-8 (%w); send the text as UTF-8", err)
	}
	return nil
}
