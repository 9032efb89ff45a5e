package record

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxLine is the longest line Read accepts. One event can carry a tool's
// whole input (megabytes are seen), and a snapshot a whole tree.
const MaxLine = 64 << 20

// Recording is a recording as read.
type Recording struct {
	// Header is the first line: the format and the octop that wrote it.
	Header Entry
	// Entries are the other lines, in file order.
	Entries []Entry
	// Truncated says the recording ended in the middle (octop was killed
	// while recording): Entries hold everything up to the cut.
	Truncated bool
}

// Read reads a whole recording, gzip-compressed or plain. A recording cut
// short by a crash reads up to its last whole line, with Truncated set.
// Anything else wrong is a one-line error saying where.
func Read(r io.Reader) (Recording, error) {
	var rec Recording
	br := bufio.NewReaderSize(r, 64<<10)
	in, err := decompress(br)
	if err != nil {
		return rec, err
	}
	lr := bufio.NewReaderSize(in, 64<<10)
	for n := 1; ; n++ {
		line, complete, err := readLine(lr)
		if err != nil && !errors.Is(err, io.EOF) {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				rec.Truncated = true // the gzip stream stops mid-way: a crash
				return rec, rec.check()
			}
			return rec, fmt.Errorf("the recording is corrupt at line %d: %v", n, err)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if perr := rec.add(n, line); perr != nil {
				if !complete {
					rec.Truncated = true // a last line cut short
					return rec, rec.check()
				}
				return rec, perr
			}
		}
		if err != nil { // io.EOF
			return rec, rec.check()
		}
	}
}

// decompress picks gzip when the data starts with its magic number.
func decompress(br *bufio.Reader) (io.Reader, error) {
	magic, err := br.Peek(2)
	if err != nil {
		if len(magic) == 0 {
			return nil, errors.New("the recording is empty")
		}
		return br, nil
	}
	if magic[0] != 0x1f || magic[1] != 0x8b {
		return br, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("the recording is corrupt: %v", err)
	}
	return zr, nil
}

// readLine reads one line without its newline. complete is false when
// the data ended before a newline. err is io.EOF at a clean end.
func readLine(r *bufio.Reader) (line []byte, complete bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine {
			return nil, false, fmt.Errorf("a line is longer than %d MB", MaxLine>>20)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return line, false, err
		}
	}
}

// add parses line n: the header first, then entries.
func (rec *Recording) add(n int, line []byte) error {
	var e Entry
	if err := json.Unmarshal(line, &e); err != nil {
		if n == 1 {
			return errors.New("this is not an octop recording (its first line is not JSON)")
		}
		return fmt.Errorf("the recording is corrupt at line %d: %v", n, err)
	}
	if rec.Header.Kind == "" {
		if e.Kind != KindHeader || !strings.HasPrefix(e.Format, "octop-recording/") {
			return errors.New("this is not an octop recording (its first line is not the header)")
		}
		if e.Format != Format {
			return fmt.Errorf("the recording is in format %q, which this octop cannot read; it reads %q", e.Format, Format)
		}
		rec.Header = e
		return nil
	}
	if e.Kind == "" {
		return fmt.Errorf("the recording is corrupt at line %d: no \"kind\"", n)
	}
	rec.Entries = append(rec.Entries, e)
	return nil
}

// check is the verdict at the end: a recording has at least its header.
func (rec *Recording) check() error {
	if rec.Header.Kind == "" {
		return errors.New("this is not an octop recording (it has no header line)")
	}
	return nil
}
