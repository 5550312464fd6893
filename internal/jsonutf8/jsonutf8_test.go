package jsonutf8

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want string // the error, "" for none
	}{
		{`"caf` + "\xe9" + ` = 1"`, "byte 0xe9 on line 1 is not UTF-8"},
		{`{"text":"a\nb\n` + "b\xe9ta" + `"}`, "byte 0xe9 on line 3 is not UTF-8"},
		{`"a\\nb` + "\xff" + `"`, "byte 0xff on line 1 is not UTF-8"}, // \\n is no line break
		{`"\udce9"`, `\udce9 on line 1 is half of a UTF-16 surrogate pair, not a character`},
		{`"\uD800x"`, `\uD800 on line 1 is half of a UTF-16 surrogate pair, not a character`},
		{`"\ud800\ud800\udc00"`, `\ud800 on line 1 is half of a UTF-16 surrogate pair, not a character`},
		{`"x\n\ud83d"`, `\ud83d on line 2 is half of a UTF-16 surrogate pair, not a character`},
		{"\"\xed\xa0\x80\"", "byte 0xed on line 1 is not UTF-8"}, // a surrogate in UTF-8 form
		{`"café = 1"`, ""},
		{`"` + "\uFFFD" + `"`, ""}, // U+FFFD meant as such
		{`"\ufffd\uFFFD"`, ""},
		{`"\ud83d\ude00 😀"`, ""},
		{`"\\udce9"`, ""}, // a backslash, then udce9
		{`"\\\udce9"`, `\udce9 on line 1 is half of a UTF-16 surrogate pair, not a character`},
		{`"\u12"`, ""}, // not JSON: left to the decoder
		{`"\`, ""},
		{``, ""},
	} {
		err := Check([]byte(tc.raw))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("Check(%q) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

func TestUnquote(t *testing.T) {
	for _, tc := range []struct{ lit, want string }{
		{`"caf` + "\xe9" + ` = 1"`, "caf\xe9 = 1"},
		{`"a\n\t\"\\\/\u00e9\ud83d\ude00"`, "a\n\t\"\\/é😀"},
		{`"\udce9!"`, "\xed\xb3\xa9!"},
		{`"\ud800\ud800\udc00"`, "\xed\xa0\x80\U00010000"},
		{`"\ufffd"`, "\ufffd"},
		{`null`, ""},
	} {
		got, err := Unquote([]byte(tc.lit))
		if err != nil || got != tc.want {
			t.Errorf("Unquote(%s) = %q, %v; want %q", tc.lit, got, err, tc.want)
		}
	}
	for _, bad := range []string{``, `"`, `x`, `"\"`, `"\u12"`, `"\x"`, `1`} {
		if got, err := Unquote([]byte(bad)); err == nil {
			t.Errorf("Unquote(%s) = %q, want an error", bad, got)
		}
	}
}

func TestErrorOffset(t *testing.T) {
	raw := []byte(`{"a":"x","b":"\ud800"}`)
	var e *Error
	if err := Check(raw); !errors.As(err, &e) || e.Offset != strings.Index(string(raw), `\ud800`) {
		t.Fatalf("Check = %v", err)
	}
}

// strict decodes the JSON string literal lit as a decoder that refuses
// what is not text would: false for a byte that is not UTF-8 or a
// surrogate escape that is not half of a pair.
func strict(lit []byte) (string, bool) {
	body := lit[1 : len(lit)-1]
	var units []uint16
	var out []rune
	flush := func() bool {
		for _, r := range utf16.Decode(units) {
			if r == utf8.RuneError {
				return false // utf16.Decode's mark of an unpaired surrogate
			}
			out = append(out, r)
		}
		units = units[:0]
		return true
	}
	for i := 0; i < len(body); {
		if body[i] == '\\' {
			c := body[i+1]
			if c == 'u' {
				r, _ := hex4(body, i+2)
				if r == 0xfffd {
					// Meant as such; utf16.Decode could not tell it from
					// its own mark.
					if !flush() {
						return "", false
					}
					out = append(out, r)
				} else {
					units = append(units, uint16(r))
				}
				i += 6
				continue
			}
			if !flush() {
				return "", false
			}
			out = append(out, map[byte]rune{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}[c])
			i += 2
			continue
		}
		if !flush() {
			return "", false
		}
		r, size := utf8.DecodeRune(body[i:])
		if r == utf8.RuneError && size <= 1 {
			return "", false
		}
		out = append(out, r)
		i += size
	}
	if !flush() {
		return "", false
	}
	return string(out), true
}

// keep decodes the JSON string literal lit keeping what is not text: bytes
// that are not UTF-8 as they are, unpaired surrogates in the form UTF-8
// would give them. It is Unquote written another way, for FuzzCheck.
func keep(lit []byte) string {
	body := lit[1 : len(lit)-1]
	var out []byte
	var units []uint16
	flush := func() {
		for j := 0; j < len(units); j++ {
			u := rune(units[j])
			if !utf16.IsSurrogate(u) {
				out = utf8.AppendRune(out, u)
				continue
			}
			if j+1 < len(units) {
				if r := utf16.DecodeRune(u, rune(units[j+1])); r != utf8.RuneError {
					out = utf8.AppendRune(out, r)
					j++
					continue
				}
			}
			out = append(out, 0xe0|byte(u>>12), 0x80|byte(u>>6)&0x3f, 0x80|byte(u)&0x3f)
		}
		units = units[:0]
	}
	for i := 0; i < len(body); {
		if body[i] == '\\' {
			c := body[i+1]
			if c == 'u' {
				r, _ := hex4(body, i+2)
				units = append(units, uint16(r))
				i += 6
				continue
			}
			flush()
			out = append(out, map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}[c])
			i += 2
			continue
		}
		flush()
		out = append(out, body[i])
		i++
	}
	flush()
	return string(out)
}

// FuzzCheck compares Check and Unquote, on JSON string literals, with
// decoders written another way: Check passes exactly the strings that
// decode without loss, those decode as encoding/json decodes them, and
// Unquote keeps what is lost, so that its result is UTF-8 exactly when
// Check passes. On any bytes, the fast check and the scan that locates
// agree.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		`"caf` + "\xe9" + `"`, `"\udce9"`, `"\ud83d\ude00"`, `"\\\ud800"`, `"\ufffd"`,
		"\"\xef\xbf\xbd\"", `"a\nb"`, `{"text":"\ud800\ud800\udc00"}`, `"\u12`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		err := Check(raw)
		if got, want := indexU(raw, 0), bytes.Index(raw, []byte(`\u`)); got != want {
			t.Fatalf("indexU(%q) = %d, bytes.Index %d", raw, got, want)
		}
		if fast := utf8.Valid(raw) && unpaired(raw) < 0; fast != (locate(raw) == nil) {
			t.Fatalf("%q: the fast check says %v, the scan %v", raw, fast, locate(raw))
		}
		lit := bytes.TrimSpace(raw)
		if len(lit) < 2 || lit[0] != '"' || !json.Valid(lit) {
			return
		}
		kept, uerr := Unquote(lit)
		if uerr != nil || kept != keep(lit) {
			t.Fatalf("Unquote(%q) = %q, %v; want %q", lit, kept, uerr, keep(lit))
		}
		if utf8.ValidString(kept) != (err == nil) {
			t.Fatalf("Unquote(%q) = %q, valid UTF-8 %v; Check = %v", lit, kept, utf8.ValidString(kept), err)
		}
		want, ok := strict(lit)
		if (err == nil) != ok {
			t.Fatalf("Check(%q) = %v, strict decoding ok = %v", raw, err, ok)
		}
		if !ok {
			return
		}
		var got string
		if err := json.Unmarshal(lit, &got); err != nil {
			t.Fatal(err)
		}
		if got != want || kept != want {
			t.Fatalf("%q: encoding/json decodes %q, strict %q, Unquote %q", lit, got, want, kept)
		}
	})
}

// BenchmarkCheck measures Check on 8 MB of source text in one JSON
// string, as a didOpen carries it.
func BenchmarkCheck(b *testing.B) {
	raw := benchText()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if err := Check(raw); err != nil {
			b.Fatal(err)
		}
	}
}

// benchText returns 8 MB of source text as one JSON string.
func benchText() []byte {
	line := "\tif err := f(x, \"quoted\\tvalue\"); err != nil { return fmt.Errorf(\"é %w\", err) }\n"
	raw, _ := json.Marshal(strings.Repeat(line, (8<<20)/len(line)))
	return raw
}

// BenchmarkUnmarshal measures what Check adds to: encoding/json decoding
// the same string.
func BenchmarkUnmarshal(b *testing.B) {
	raw := benchText()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			b.Fatal(err)
		}
	}
}
