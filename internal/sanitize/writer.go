package sanitize

import (
	"io"
	"unicode/utf8"
)

// Writer is the one way octop's command line writes to a terminal or a
// pipe: what is written through it comes out as Text makes it, line
// breaks and tabs kept, every other control shown as its picture. Each
// Write is cleaned on its own, so a character split across two Writes
// shows as two replacement characters; octop writes whole lines.
type Writer struct{ w io.Writer }

// NewWriter returns a Writer onto w; w itself when it is one already.
func NewWriter(w io.Writer) io.Writer {
	if _, ok := w.(*Writer); ok || w == nil {
		return w
	}
	return &Writer{w: w}
}

// Raw is the writer under w, for octop's own escape sequences (a
// notification's OSC 9, a bell): w itself when it is not a Writer.
func Raw(w io.Writer) io.Writer {
	if s, ok := w.(*Writer); ok {
		return s.w
	}
	return w
}

// Write writes p cleaned. It reports len(p) written when the cleaned text
// was written whole.
func (w *Writer) Write(p []byte) (int, error) {
	if cleanBytes(p) {
		return w.w.Write(p)
	}
	if _, err := io.WriteString(w.w, Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// cleanBytes is clean(string(p), true) without the copy.
func cleanBytes(p []byte) bool {
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 || c == 0x7f) && c != '\n' && c != '\t' {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(p[i:])
		if (r == utf8.RuneError && n == 1) || Bad(r) || Invisible(r) {
			return false
		}
		i += n
	}
	return true
}
