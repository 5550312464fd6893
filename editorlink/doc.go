// Package editorlink carries an agent's edits to the graft serve that an
// editor runs for a workspace, so that they land in the editor's buffers
// (with undo, unsaved changes respected) rather than on the disk behind
// them. It holds both ends of the link: Server, which graft serve runs for
// each workspace folder it serves, and Send, which graft apply --editor
// and graft mcp call.
//
// # Where the sockets live
//
// Each server listens on a Unix socket in a directory private to the user
// (Dir): $XDG_RUNTIME_DIR/graft when XDG_RUNTIME_DIR is set, else
// os.TempDir()/graft-<uid>. The directory is created with mode 0700, and
// both ends refuse to use it when it is not a directory owned by the user
// with no permission for group or others. The socket of a workspace root
// is named after the SHA-256 of the root's real path (SocketPath), so that
// every spelling of the root, through links or not, finds the same socket.
// A client finds the server of its root, or of the nearest folder above
// it (an editor with the repository open, graft apply run in one of its
// folders). For the servers of folders below its root (an editor with
// web/ open, an agent at the top), each server writes beside its socket
// a root file that names its root and the server (see registry.go), and a
// client that knows which files a request changes sends it to the server
// whose folders hold them all. A request whose files lie in such a
// folder and outside it, or in two servers' folders, goes nowhere
// (SplitError): an editor would take only its own, and the disk the
// rest.
//
// One root has at most one socket: the first server to claim it keeps it.
// A socket nobody answers on (its server was killed) is stale, and the
// next server to claim the root replaces it. A server that found the root
// claimed by a live server tries again every few seconds, so that when the
// first editor exits, the next one takes over its workspace. Claims and
// removals hold a lock on the directory (an flock on its file "lock"), so
// that two servers never replace each other's sockets; a claim also
// removes the stale sockets of other roots, and root files whose socket is
// gone, so that killed servers do not fill the directory. A server removes its socket when it stops,
// only if the socket is still its own.
//
// # Who may connect
//
// Nothing is accepted from another user: the server checks the peer's
// credentials (SO_PEERCRED) on every connection and closes those of other
// users, and the client checks that the server runs as the user too. The
// directory's mode keeps other users from reaching the socket at all.
//
// # The protocol
//
// One connection carries one request and one reply, each a JSON object on
// one line (newline-delimited JSON; encoding/json never writes a raw
// newline inside a value). The request is Request: the params of the
// graft.apply and graft.suggest commands (text, edits, uri, atomic,
// format) plus "suggest", and the root the client means. The reply is
// Reply: the reply of graft.apply (applied, failureReason, blocks with
// path, status, strategy, lines and message), or of graft.suggest, or an
// error. A request longer than the server's limit (32 MiB by default) is
// refused.
//
// # Many clients at once
//
// Agents send many requests at once, and the server takes them all in
// turn rather than turning any away. A connection holds no turn while its
// request arrives: the server reads each request as it comes, and only
// then does the request wait for its turn, in the order the requests
// arrived. The requests are handled one at a time, for all the roots of
// the server together (the editor takes them one at a time anyway, and a
// request handled while the edit before it is still on its way would be
// resolved against buffers about to change). A request that waited 30
// seconds without its turn coming is answered with an error saying how
// long it waited and behind how many requests, and nothing of it is
// applied.
//
// What the server bounds is what connections hold: a file descriptor
// each, 256 at most per root. A connection past them is answered with an
// error and closed, unread. A client must start sending its request within
// 5 seconds of connecting, and finish within 30 seconds of its first byte,
// or its connection is answered with an error and closed: a connection
// that sends nothing holds nothing up but its descriptor, and not for
// long. The handler has 2 minutes, and the reply 30 seconds to be
// written. When the server stops, the requests it is reading or that wait
// for their turn are answered at once, and those handled are cancelled
// and waited for.
//
// A client keeps its connection open until the reply comes: closing it
// (the client was interrupted, or cancelled) cancels the request. The
// server then drops it if its edit has not been sent to the editor yet,
// and otherwise follows the edit through as if the client were there,
// never leaving it half-done; the reply is not delivered. The client
// cannot know which happened, and Send's error says so (ErrNoReply): the
// editor may have applied the edit. A client may shut down its side of
// the connection for writing after its request: that is not closing it.
//
// The server resolves and applies a request exactly as it does
// graft.apply from the editor, in the same order as the editor's own
// messages: the answer is resolved against the buffers as they are when
// its turn comes, and the edit goes to the editor as a versioned
// workspace/applyEdit, never written to the disk by the server.
//
// # When the link cannot be used
//
// A client writes the disk instead only when no server can serve the
// root: no directory, no socket, a stale socket (ErrNoServer), or a link
// that cannot work where it runs (ErrLinkDisabled). When a server may be
// there but cannot be reached safely (the directory is not private, the
// socket cannot be connected to, its server runs as another user),
// Lookup and Send return an *UnreachableError, which says how to fix it:
// writing the disk then would go behind an editor that may hold the
// files open.
//
// # Platforms
//
// The link works on Linux. It builds everywhere, but elsewhere it is
// disabled: on other Unix systems (macOS) a server listens but refuses
// every connection, since it cannot check the peer's credentials, and a
// client goes to the disk (ErrLinkDisabled); on Windows no server listens
// and no client connects (ErrLinkDisabled too). CheckDir, which graft's
// journal uses as well, reads a Windows directory's owner and access list
// where Unix has its owner and mode.
package editorlink
