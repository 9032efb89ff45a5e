package client

import (
	"errors"
	"fmt"
	"io"
)

// eachElement reads a JSON array (or null) from r and calls fn with the
// bytes of each element, valid until fn returns. It only finds where each
// element ends (strings, escapes and nesting); fn's decoder judges what
// is inside, so a malformed element is fn's error. The array is never
// held whole: at most the largest element and a read's worth of bytes.
//
// encoding/json's stream decoder scanned every element twice before any
// decoding began, 60% of reading a 50,000-session list (BenchmarkSessionList).
func eachElement(r io.Reader, fn func([]byte) error) error {
	f := framer{r: r, buf: make([]byte, 0, 64<<10)}
	c, err := f.next()
	if err != nil {
		return err
	}
	switch c {
	case 'n':
		if err := f.literal("ull"); err != nil {
			return err
		}
		return f.end()
	case '[':
	default:
		return fmt.Errorf("expected a list, got %q", c)
	}
	c, err = f.next()
	if err != nil {
		return err
	}
	if c == ']' {
		return f.end()
	}
	f.pos--
	for {
		el, err := f.element()
		if err != nil {
			return err
		}
		if err := fn(el); err != nil {
			return err
		}
		if c, err = f.next(); err != nil {
			return err
		}
		switch c {
		case ',':
		case ']':
			return f.end()
		default:
			return fmt.Errorf("expected , or ] after a list element, got %q", c)
		}
	}
}

// framer is a window on r: buf[pos:] is read and not yet framed.
type framer struct {
	r   io.Reader
	buf []byte
	pos int
	eof bool
}

// fill reads more, keeping buf[keep:]; it returns io.ErrUnexpectedEOF
// (or the read's error) when nothing more comes.
func (f *framer) fill(keep int) error {
	if f.eof {
		return io.ErrUnexpectedEOF
	}
	n := copy(f.buf, f.buf[keep:])
	f.buf, f.pos = f.buf[:n], f.pos-keep
	if cap(f.buf)-n < 32<<10 {
		f.buf = append(f.buf[:cap(f.buf)], make([]byte, cap(f.buf))...)[:n] // the element outgrew the window
	}
	for {
		m, err := f.r.Read(f.buf[n:cap(f.buf)])
		f.buf = f.buf[:n+m]
		if errors.Is(err, io.EOF) {
			f.eof = true
			if m == 0 {
				return io.ErrUnexpectedEOF
			}
			return nil
		}
		if err != nil {
			return err
		}
		if m > 0 {
			return nil
		}
	}
}

// next is the next byte that is not white space.
func (f *framer) next() (byte, error) {
	for {
		for f.pos < len(f.buf) {
			c := f.buf[f.pos]
			f.pos++
			if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
				return c, nil
			}
		}
		if err := f.fill(f.pos); err != nil {
			return 0, err
		}
	}
}

// literal reads the rest of a literal (null's "ull").
func (f *framer) literal(rest string) error {
	for i := range len(rest) {
		for f.pos >= len(f.buf) {
			if err := f.fill(f.pos); err != nil {
				return err
			}
		}
		if f.buf[f.pos] != rest[i] {
			return fmt.Errorf("invalid literal %q", f.buf[f.pos])
		}
		f.pos++
	}
	return nil
}

// end checks that nothing but white space follows the array.
func (f *framer) end() error {
	c, err := f.next()
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) && f.eof:
		return nil
	case err != nil:
		return err
	}
	return fmt.Errorf("more after the list: %q", c)
}

// element frames the next element: an object, array or string up to its
// closing byte, anything else up to the , or ] after it.
func (f *framer) element() ([]byte, error) {
	if _, err := f.next(); err != nil {
		return nil, err
	}
	start := f.pos - 1
	depth, inString, escaped := 0, false, false
	i := start
	for {
		for ; i < len(f.buf); i++ {
			c := f.buf[i]
			switch {
			case inString:
				switch {
				case escaped:
					escaped = false
				case c == '\\':
					escaped = true
				case c == '"':
					inString = false
					if depth == 0 {
						f.pos = i + 1
						return f.buf[start:f.pos], nil
					}
				}
			case c == '"':
				inString = true
			case c == '{' || c == '[':
				depth++
			case c == '}' || c == ']':
				if depth == 0 { // a scalar's end: the list's ]
					f.pos = i
					return f.buf[start:i], nil
				}
				depth--
				if depth == 0 {
					f.pos = i + 1
					return f.buf[start:f.pos], nil
				}
			case c == ',' && depth == 0:
				f.pos = i
				return f.buf[start:i], nil
			}
		}
		n := i - start
		if err := f.fill(start); err != nil {
			return nil, err
		}
		start, i = 0, n
	}
}
