package lsp

import (
	"fmt"
	"net/url"
	"path"
	"runtime"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// uriPath returns the absolute file path of a file: URI, clean: every
// spelling of one file gives the same path, so that the path is what
// tells whether two URIs are one document. Other schemes (untitled:, say)
// and relative paths are errors: they name no file of the workspace.
//
// The spellings it makes one are those gopls makes one, and more:
//   - percent-encoding: %61.txt is a.txt, and c%3A is c: (VS Code encodes
//     the colon of a drive letter);
//   - file:///p, file://localhost/p, file:/p, and the scheme's case;
//   - dot segments and doubled slashes: /R/./a.txt, /R//a.txt and
//     /R/sub/../a.txt are /R/a.txt, as filepath.Clean has them;
//   - on Windows, the drive letter's case (file:///c:/x is C:\x), and a
//     host is a UNC share (file://server/share/x is \\server\share\x).
//
// The case of the rest of the path is kept, on every system: a system
// whose file names ignore case may hold one file under two spellings
// that differ in case, and the overlay finds one through the other only
// when it opened that file under a link to it.
func uriPath(u string) (string, error) {
	return filePath(u, runtime.GOOS == "windows")
}

// filePath is uriPath for Windows when windows is set, for Unix
// otherwise, whatever the system it runs on.
//
// As gopls does, everything after the authority is the path, unescaped: a
// raw "?" or "#" is no query or fragment, which a document's URI does not
// have, but a character of the file's name that the editor did not
// escape.
func filePath(u string, windows bool) (string, error) {
	if len(u) < len("file:") || !strings.EqualFold(u[:len("file:")], "file:") {
		return "", fmt.Errorf("uri %q: not a file: URI", u)
	}
	if i := strings.IndexFunc(u, func(r rune) bool { return r < ' ' || r == 0x7f }); i >= 0 {
		return "", fmt.Errorf("uri %q: a control character", u)
	}
	rest := u[len("file:"):]
	host := ""
	if strings.HasPrefix(rest, "//") {
		authority, p, found := strings.Cut(rest[2:], "/")
		host, rest = authority, ""
		if found {
			rest = "/" + p
		}
		if strings.ContainsAny(host, "@:%") {
			return "", fmt.Errorf("uri %q: the host %q is no plain host name", u, host)
		}
		if strings.EqualFold(host, "localhost") {
			host = ""
		}
	}
	p, err := url.PathUnescape(rest)
	if err != nil {
		return "", fmt.Errorf("uri %q: %w", u, err)
	}
	if !windows {
		if host != "" {
			return "", fmt.Errorf("uri %q: a file on another host", u)
		}
		if !strings.HasPrefix(p, "/") {
			return "", fmt.Errorf("uri %q: not an absolute path", u)
		}
		return path.Clean(p), nil
	}
	p = strings.ReplaceAll(p, `\`, "/") // a separator, on Windows
	switch {
	case host != "":
		// A UNC path: the host, a share, and a path in it.
		share, rest, _ := strings.Cut(strings.TrimLeft(p, "/"), "/")
		if share == "" {
			return "", fmt.Errorf("uri %q: a host without a share", u)
		}
		return `\\` + host + `\` + share + winSlashes(path.Clean("/"+rest)), nil
	case len(p) >= 3 && p[0] == '/' && isLetter(p[1]) && p[2] == ':' && (len(p) == 3 || p[3] == '/'):
		return strings.ToUpper(p[1:2]) + ":" + winSlashes(path.Clean("/"+p[3:])), nil
	}
	return "", fmt.Errorf("uri %q: not an absolute path (no drive letter)", u)
}

// winSlashes turns the slashes of a clean, rooted path into backslashes.
func winSlashes(p string) string { return strings.ReplaceAll(p, "/", `\`) }

// isLetter reports whether c is an ASCII letter, as drive letters are.
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// fileURI returns the file: URI of an absolute path.
func fileURI(path string) protocol.DocumentURI {
	return uri.File(path)
}
