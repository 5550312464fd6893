// Package fakeeditor drives the built graft binary's language server over
// stdio the way a real editor does, for end-to-end tests and benchmarks.
//
// testenv.Build compiles ./cmd/graft once per test process; Start launches
// `graft serve` and returns an Editor: a small, independent LSP client with
// its own JSON-RPC 2.0 framing (Conn), its own buffers (Open, Edit,
// SetText, Close), its own position arithmetic (Offset, PositionAt,
// ApplyEdits) and an editor's answers to the server's requests, above all
// workspace/applyEdit, which it applies to its buffers and to the disk as
// VS Code or Neovim 0.7.2 would (see Flavor).
//
// Nothing here shares code with the server: a bug on one side cannot be
// cancelled out by the same bug on the other.
package fakeeditor
