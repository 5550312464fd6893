package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A search none of whose lines is in the file says "not found", even when
// the file holds so many lines like them that they cannot all be compared:
// nothing of the search is there, which is no ambiguity.
func TestNotFoundAmongManyLookAlikes(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "\trecord%05d := lookup(table, %05d)\n", i, i)
	}
	search := "\trecordXYZ01 := lookup(tablet, 0000A)\n\trecordXYZ02 := lookup(tablet, 0000B)\n\trecordXYZ03 := lookup(tablet, 0000C)\n"
	_, err := Resolve(b.String(), Edit{Old: search, New: "x\n"}, Options{})
	var e *Error
	if !errors.As(err, &e) || e.Reason != ReasonNotFound {
		t.Fatalf("got %v, want a not-found refusal", err)
	}
}
