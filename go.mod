module github.com/graft-editor/graft

go 1.26.8

require (
	github.com/aymanbagabas/go-udiff v0.4.1
	github.com/rogpeppe/go-internal v1.16.0
	github.com/sourcegraph/go-diff v0.9.0
)

require (
	golang.org/x/sys v0.26.0 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
