package main

import (
	"slices"
	"strings"
	"testing"
)

// aiderHistory is a chat history as aider writes it: the user's lines
// begin "#### " and end with a markdown line break, aider's own begin
// "> ", and between them stand the model's answers. The first answer has a
// block aider applies and one it cannot; the second is the model's fix,
// applied whole; the third fails whole, with no "Just reply" line, and
// the fourth, its fix, is committed.
const aiderHistory = `
#### rename total to sum  

app.py
` + "```" + `python
<<<<<<< SEARCH
total = 0
=======
sum = 0
>>>>>>> REPLACE
` + "```" + `

app.py
` + "```" + `python
<<<<<<< SEARCH
print(totl)
=======
print(sum)
>>>>>>> REPLACE
` + "```" + `

> Tokens: 1k sent, 100 received.  
> The LLM did not conform to the edit format.  
> # 1 SEARCH/REPLACE block failed to match!

## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in app.py
<<<<<<< SEARCH
print(totl)
=======
print(sum)
>>>>>>> REPLACE

The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc

# The other 1 SEARCH/REPLACE block were applied successfully.
Don't re-send them.
Just reply with fixed versions of the block above that failed to match.  
> Commit 1111111 refactor: rename total to sum  

app.py
` + "```" + `python
<<<<<<< SEARCH
print(total)
=======
print(sum)
>>>>>>> REPLACE
` + "```" + `

> Tokens: 1k sent, 50 received.  
> Applied edit to app.py  
> Commit 2222222 fix: print sum  

#### add a docstring  

app.py
` + "```" + `python
<<<<<<< SEARCH
def main():
=======
def main():
    """Run."""
>>>>>>> REPLACE
` + "```" + `

> Tokens: 1k sent, 60 received.  
> # 1 SEARCH/REPLACE block failed to match!

## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in app.py
<<<<<<< SEARCH
def main():
=======
def main():
    """Run."""
>>>>>>> REPLACE

The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc

app.py
` + "```" + `python
<<<<<<< SEARCH
def main(argv):
=======
def main(argv):
    """Run."""
>>>>>>> REPLACE
` + "```" + `

> Tokens: 1k sent, 60 received.  
> Committing app.py before applying edits.  
> Commit 3333333 the person's own change  
> Applied edit to app.py  
> Commit 4444444 docs: main  
`

// TestAiderExchanges reads a chat history into its answers, what aider did
// with each, and the runs of answers that fixed blocks aider refused.
func TestAiderExchanges(t *testing.T) {
	exs := aiderExchanges(aiderHistory)
	type summary struct {
		first          string // the answer's first line of code
		commit         string
		files          []string
		partial, retry bool
	}
	var got []summary
	for _, ex := range exs {
		_, rest, _ := strings.Cut(ex.answer, "<<<<<<< SEARCH\n")
		line, _, _ := strings.Cut(rest, "\n")
		got = append(got, summary{line, ex.commit, ex.files, ex.partial, ex.retry})
	}
	want := []summary{
		// Applied in part, and its part committed after aider's report.
		{"total = 0", "1111111", nil, true, false},
		{"print(total)", "2222222", []string{"app.py"}, false, true},
		// Failed whole: no commit, and its fix follows the report's end.
		{"def main():", "", nil, true, false},
		// The commit before the edits holds the person's change.
		{"def main(argv):", "4444444", []string{"app.py"}, false, true},
	}
	if !slices.EqualFunc(got, want, func(a, b summary) bool {
		return a.first == b.first && a.commit == b.commit && slices.Equal(a.files, b.files) && a.partial == b.partial && a.retry == b.retry
	}) {
		t.Errorf("exchanges:\n got %+v\nwant %+v", got, want)
	}
	runs := aiderRetries(exs)
	if len(runs) != 2 || len(runs[0]) != 2 || len(runs[1]) != 2 || runs[0][1].commit != "2222222" || runs[1][1].commit != "4444444" {
		t.Errorf("runs: got %d, want the two answers fixed by the one after each", len(runs))
	}
}
