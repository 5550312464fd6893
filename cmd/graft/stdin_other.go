//go:build !unix

package main

import (
	"io"
	"os"
)

// messageInput returns standard input for the messages of graft serve and
// graft mcp, as it is.
func messageInput() (in io.ReadCloser, restore func()) { return os.Stdin, func() {} }
