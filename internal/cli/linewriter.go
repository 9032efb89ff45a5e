package cli

import (
	"bytes"
	"io"
)

// lineWriterSize is how much a lineWriter gathers before it writes.
const lineWriterSize = 64 << 10

// lineWriter gathers what is written and hands the writer under it whole
// lines, lineWriterSize or more at a time: a long output (octop tree's
// 50,000 lines) then costs a few hundred writes, and sanitize.Writer,
// which cleans each Write on its own, never sees a character cut in two.
type lineWriter struct {
	w   io.Writer
	buf []byte
}

func newLineWriter(w io.Writer) *lineWriter { return &lineWriter{w: w} }

func (l *lineWriter) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	if len(l.buf) < lineWriterSize {
		return len(p), nil
	}
	i := bytes.LastIndexByte(l.buf, '\n')
	if i < 0 {
		return len(p), nil // one long line: it goes out whole, at its end
	}
	_, err := l.w.Write(l.buf[:i+1])
	l.buf = l.buf[:copy(l.buf, l.buf[i+1:])]
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is left.
func (l *lineWriter) Flush() error {
	if len(l.buf) == 0 {
		return nil
	}
	_, err := l.w.Write(l.buf)
	l.buf = l.buf[:0]
	return err
}
