package testenv

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// WriteTxtar writes the files of the txtar archive at path into dir, making
// the folders they are in; a failure fails tb.
func WriteTxtar(tb testing.TB, path, dir string) {
	tb.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	for _, f := range ar.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}
