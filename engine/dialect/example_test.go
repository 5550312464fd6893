package dialect_test

import (
	"fmt"

	"github.com/graft-editor/graft/engine/dialect"
)

func ExampleParse() {
	answer := `Rename the greeting.

greet.go
<<<<<<< SEARCH
:start_line:3
-------
	return "hello"
=======
	return "hello, world"
>>>>>>> REPLACE
`
	blocks, err := dialect.Parse(answer, dialect.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range blocks {
		fmt.Printf("%s lines %d-%d: %s %s near line %d: %q -> %q\n",
			b.Dialect, b.Source.StartLine, b.Source.EndLine, b.Op, b.Path, b.Line, b.Old, b.New)
	}
	// Output:
	// search-replace lines 4-10: replace greet.go near line 3: "\treturn \"hello\"\n" -> "\treturn \"hello, world\"\n"
}

func ExampleDetect() {
	fmt.Println(dialect.Detect(`{"filePath": "a.go", "oldString": "x", "newString": "y"}`))
	// Output: str-replace
}
