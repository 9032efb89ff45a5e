package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/octop-dev/octop/internal/sanitize"
)

// maxIndent is how many levels printJSON indents at most: deeper levels
// stay at this indent, so a chain of thousands of sessions costs output
// in proportion to its size rather than to its size times its depth.
const maxIndent = 32

// printJSON writes v as indented JSON (two spaces a level, at most
// maxIndent levels) with every control character in its strings escaped
// (sanitize.JSON), then a newline.
func printJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var out bytes.Buffer
	out.Grow(len(b) + len(b)/2)
	indentCapped(&out, sanitize.JSON(b), maxIndent, 0)
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}

// printJSONLine writes v as one line of compact JSON (NDJSON) with every
// control character in its strings escaped (sanitize.JSON).
func printJSONLine(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(sanitize.JSON(b), '\n'))
	return err
}

// jsonArray writes a JSON array one element at a time, each as printJSON
// would write it inside the whole array (the same bytes), so a list too
// large to hold encoded at once (octop tree's 50,000 sessions) is never
// held whole.
type jsonArray struct {
	w   *lineWriter
	n   int
	buf bytes.Buffer
}

func newJSONArray(w io.Writer) *jsonArray { return &jsonArray{w: newLineWriter(w)} }

// add writes the next element.
func (a *jsonArray) add(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return a.addJSON(b)
}

// addJSON writes the next element, given as compact JSON.
func (a *jsonArray) addJSON(b []byte) error {
	a.buf.Reset()
	if a.n == 0 {
		a.buf.WriteByte('[')
	} else {
		a.buf.WriteByte(',')
	}
	a.buf.WriteString("\n  ")
	indentCapped(&a.buf, sanitize.JSON(b), maxIndent, 1)
	a.n++
	_, err := a.w.Write(a.buf.Bytes())
	return err
}

// close ends the array and the line, and flushes.
func (a *jsonArray) close() error {
	end := "\n]\n"
	if a.n == 0 {
		end = "[]\n"
	}
	if _, err := io.WriteString(a.w, end); err != nil {
		return err
	}
	return a.w.Flush()
}

// indentCapped is json.Indent with two spaces a level, levels past limit
// indented as limit, for src starting at depth. src must be compact JSON
// (json.Marshal's); an empty object or array stays {} or [].
func indentCapped(dst *bytes.Buffer, src []byte, limit, depth int) {
	pad := strings.Repeat("  ", limit)
	newline := func() {
		dst.WriteByte('\n')
		dst.WriteString(pad[:2*min(depth, limit)])
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			j := i + 1
			for ; j < len(src) && src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			dst.Write(src[i:min(j+1, len(src))])
			i = j
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst.Write(src[i : i+2])
				i++
				continue
			}
			dst.WriteByte(c)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst.WriteByte(c)
		case ',':
			dst.WriteByte(c)
			newline()
		case ':':
			dst.WriteString(": ")
		default:
			dst.WriteByte(c)
		}
	}
}
