package editorlink

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/graft-editor/graft/internal/jsonutf8"
	"github.com/graft-editor/graft/workspace"
)

// A Request is what a client asks the server of a workspace root: the
// params of graft.apply, or of graft.suggest when Suggest is set.
type Request struct {
	// Root is the workspace root the client means; the server refuses a
	// request for another root than its socket's.
	Root string `json:"root"`
	// Text holds edit blocks in any dialect.
	Text string `json:"text,omitempty"`
	// Edits are str-replace objects.
	Edits []json.RawMessage `json:"edits,omitempty"`
	// URI is the target of blocks that name no file (a file:// URI).
	URI string `json:"uri,omitempty"`
	// Atomic applies nothing unless every block resolves.
	Atomic bool `json:"atomic,omitempty"`
	// Format forces a dialect.
	Format string `json:"format,omitempty"`
	// Suggest shows the blocks as pending suggestions in the editor, with
	// code actions to apply or dismiss them, instead of applying them.
	Suggest bool `json:"suggest,omitempty"`
	// Decisions, when set, asks only how the person decided the hunks of
	// the suggestions these ids name (a suggestion's id names each of its
	// hunks): a review an agent waits for. Nothing else is done.
	Decisions []string `json:"decisions,omitempty"`
}

// A Reply is the server's answer to a Request: graft.apply's reply, or
// graft.suggest's, or Error.
type Reply struct {
	// Applied says the editor applied the edit (graft.apply); false for a
	// suggestion, which applies nothing.
	Applied bool `json:"applied"`
	// FailureReason is why the editor did not apply the edit, if it said.
	FailureReason string `json:"failureReason,omitempty"`
	// Blocks report each block as graft apply --json does, with the
	// document and range it landed in.
	Blocks []Block `json:"blocks"`
	// Suggestions are the pending suggestions a Suggest request made, as
	// graft.suggestions lists them.
	Suggestions []json.RawMessage `json:"suggestions,omitempty"`
	// Decisions answers a request's Decisions: each hunk's id with
	// "accepted" (its change is in the editor's buffer), "rejected" or
	// "pending".
	Decisions map[string]string `json:"decisions,omitempty"`
	// Error, when set, says why the server did not handle the request;
	// the other fields are then empty. Send returns it as an error.
	Error string `json:"error,omitempty"`
}

// A Block is a block's entry in a Reply.
type Block struct {
	workspace.BlockReport
	// URI is the document the block names, as the editor spells it.
	URI string `json:"uri,omitempty"`
	// Range is the region the block changed or would change, as LSP
	// positions in the document.
	Range *Range `json:"range,omitempty"`
	// ID names the suggestion the block became (Suggest requests only).
	ID string `json:"id,omitempty"`
}

// A Range is an LSP range: zero-based lines and characters.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// A Position is an LSP position.
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// DefaultMaxRequest is the largest request, in bytes, a server accepts
// unless told otherwise.
const DefaultMaxRequest = 32 << 20

// maxReply bounds the reply a client reads: a report is far smaller than
// the answer it reports on, but an answer may hold many blocks.
const maxReply = 256 << 20

// ErrTooLarge is wrapped by the error of a message longer than its limit.
var ErrTooLarge = errors.New("message too large")

// writeMessage writes v as one line of JSON.
func writeMessage(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	_, err = w.Write(data)
	return err
}

// readMessage reads one line of at most limit bytes, its newline
// included, and decodes it into v. A line past limit is an error wrapping
// ErrTooLarge, read no further; a line that is not UTF-8 (bytes, or
// escapes of unpaired surrogates, that decoding turns into U+FFFD) is an
// error wrapping a *jsonutf8.Error.
func readMessage(r io.Reader, limit int, v any) error {
	br := bufio.NewReaderSize(io.LimitReader(r, int64(limit)+1), 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > limit {
			return fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
		}
		if err == nil {
			break
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) {
			if len(line) == 0 {
				return io.ErrUnexpectedEOF
			}
			return fmt.Errorf("message not ended by a newline: %w", io.ErrUnexpectedEOF)
		}
		return err
	}
	if err := jsonutf8.Check(line); err != nil {
		// Decoding would turn the bad bytes into U+FFFD, which would be
		// written into the files.
		return fmt.Errorf("message not valid UTF-8 (%w): graft will not write U+FFFD in place of the bytes; send text as UTF-8", err)
	}
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("decoding message: %w", err)
	}
	return nil
}
