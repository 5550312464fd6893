package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// uriPath returns the absolute file path of a file: URI. Other schemes
// (untitled:, say) and relative paths are errors: they name no file of the
// workspace.
func uriPath(u string) (string, error) {
	parsed, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("uri %q: %w", u, err)
	}
	if parsed.Scheme != "file" {
		return "", fmt.Errorf("uri %q: not a file: URI", u)
	}
	if parsed.Host != "" && parsed.Host != "localhost" {
		return "", fmt.Errorf("uri %q: a file on another host", u)
	}
	p := filepath.FromSlash(parsed.Path)
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("uri %q: not an absolute path", u)
	}
	return filepath.Clean(p), nil
}

// fileURI returns the file: URI of an absolute path.
func fileURI(path string) protocol.DocumentURI {
	return uri.File(path)
}
