package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/graft-editor/graft/engine/dialect"
	"github.com/graft-editor/graft/workspace"
)

// stdinName is the FILE that stands for standard input.
const stdinName = "-"

// maxAnswer is the largest answer graft apply reads, from a FILE or from
// standard input: the limit on the files it edits, workspace.MaxFileSize
// (32 MiB), which is also the editor link's bound on the request that
// carries an answer to graft serve. A model's answer runs to kilobytes;
// past the limit, the input is a log, a dump or the wrong file.
const maxAnswer = workspace.MaxFileSize

// errAnswerTooLarge is the error of an answer larger than maxAnswer.
var errAnswerTooLarge = errors.New("too large")

// An answer is the text of one answer, and where it came from.
type answer struct{ name, text string }

// parseAnswers parses the answers, in order. An answer without blocks is
// only an error when no answer has any.
func parseAnswers(answers []answer, opt dialect.Options, stderr io.Writer) ([]dialect.Block, error) {
	var all []dialect.Block
	for _, a := range answers {
		blocks, err := dialect.Parse(a.text, opt)
		switch {
		case errors.Is(err, dialect.ErrNoBlocks):
			if len(answers) > 1 {
				fmt.Fprintf(stderr, "graft apply: %s: no edit blocks\n", escapeText(a.name))
			}
			continue
		case err != nil:
			return nil, fmt.Errorf("%s: %w", a.name, err)
		}
		all = append(all, blocks...)
	}
	if len(all) == 0 {
		names := make([]string, len(answers))
		for i, a := range answers {
			names[i] = a.name
		}
		return nil, fmt.Errorf("no edit blocks in %s", strings.Join(names, ", "))
	}
	return all, nil
}

// readAnswers reads the answers named by files, or stdin when there is
// none. Each must be UTF-8 text of at most maxAnswer bytes. Reading
// stops as soon as ctx is done.
func readAnswers(ctx context.Context, files []string, stdin io.Reader, stderr io.Writer) ([]answer, error) {
	if len(files) == 0 {
		files = []string{stdinName}
	}
	var answers []answer
	readStdin := false
	for _, name := range files {
		var read func() ([]byte, error)
		if name == stdinName {
			if readStdin {
				return nil, errors.New(`"-" (standard input) is named twice`)
			}
			readStdin = true
			name = "stdin"
			if isTerminal(stdin) {
				fmt.Fprintf(stderr, "graft apply: reading the answer from standard input; end it with %s, or press Ctrl-C to cancel\n", endOfInput())
			}
			read = func() ([]byte, error) { return readAnswer(stdin) }
		} else {
			read = func() ([]byte, error) {
				f, err := os.Open(name)
				if err != nil {
					return nil, err
				}
				defer f.Close()
				return readAnswer(f)
			}
		}
		data, err := readInterruptibly(ctx, read)
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("interrupted while reading %s: %w", name, ctx.Err())
		case errors.Is(err, errAnswerTooLarge):
			return nil, fmt.Errorf("%s: %w", name, err)
		case err != nil && name == "stdin":
			return nil, fmt.Errorf("read stdin: %w", err)
		case err != nil:
			return nil, err
		}
		if err := checkUTF8(data); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		answers = append(answers, answer{name, string(data)})
	}
	return answers, nil
}

// readAnswer reads an answer from r, refusing one larger than maxAnswer
// with an error wrapping errAnswerTooLarge: when r is a regular file, by
// the size its Stat gives, before reading a byte, and else once it has
// read maxAnswer bytes and one more.
func readAnswer(r io.Reader) ([]byte, error) {
	data := make([]byte, 0, 512)
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if fi.Size() > maxAnswer {
				return nil, answerTooLarge(fi.Size())
			}
			data = make([]byte, 0, fi.Size()+1) // one more: the end is seen without growing
		}
	}
	r = io.LimitReader(r, maxAnswer+1)
	for {
		if len(data) == cap(data) {
			// Double, up to the limit and a byte.
			data = slices.Grow(data, min(cap(data), maxAnswer+1-len(data)))
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(data) > maxAnswer {
		return nil, answerTooLarge(0)
	}
	return data, nil
}

// answerTooLarge returns the error of an answer of size bytes, over
// maxAnswer; a size of 0 is not known, only that it is over.
func answerTooLarge(size int64) error {
	over := "over"
	if size > 0 {
		over = fmt.Sprintf("%s (%d bytes), over", workspace.ByteSize(size), size)
	}
	return fmt.Errorf("%w: %s the %s limit on an answer; pass the model's answer itself, not a log or a dump",
		errAnswerTooLarge, over, workspace.ByteSize(maxAnswer))
}

// readInterruptibly returns what read returns, or as soon as ctx is done:
// a read from a terminal or a pipe may never end, and Ctrl-C must stop
// graft at once.
func readInterruptibly(ctx context.Context, read func() ([]byte, error)) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := read()
		done <- result{data, err}
	}()
	select {
	case r := <-done:
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// checkUTF8 says where data is not valid UTF-8: an answer is text, and
// bytes that are not would reach the files as they are.
func checkUTF8(data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return fmt.Errorf("not valid UTF-8: byte %#02x at line %d, column %d; answers are read as UTF-8 text", data[i], line, col)
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return errors.New("not valid UTF-8")
}

// isTerminal reports whether f is a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

// endOfInput says how to end the input on a terminal of this system.
func endOfInput() string {
	if runtime.GOOS == "windows" {
		return "Ctrl-Z then Enter on a line of its own"
	}
	return "Ctrl-D on a line of its own"
}
