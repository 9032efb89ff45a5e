package record

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/octop-dev/octop/internal/bytesize"
)

// MaxLine is the longest line a recording may hold: one event can carry
// a tool's whole input (megabytes are seen), and a snapshot a whole tree. It is
// the stream's own limit on one event (client.DefaultMaxEventSize).
const MaxLine = 64 << 20

// Recording is a recording as read whole (Read): for a small one, or a
// test. A replay reads its file as a stream instead (Source).
type Recording struct {
	// Header is the first line: the format and the octop that wrote it.
	Header Entry
	// Entries are the other lines, in file order.
	Entries []Entry
	// Truncated says the recording ended in the middle (octop was killed
	// while recording): Entries hold everything up to the cut.
	Truncated bool
}

// EntryReader reads a recording's entries one at a time, so that a recording
// of any length costs the memory of its longest line, not of the whole.
type EntryReader struct {
	lr        *bufio.Reader
	maxLine   int // MaxLine; tests lower it
	header    Entry
	line      int // the number of the last line read
	truncated bool
}

// NewEntryReader starts reading a recording, gzip-compressed or plain, from r:
// it reads up to its header, and fails with a one-line error when r is
// not an octop recording this octop can read.
func NewEntryReader(r io.Reader) (*EntryReader, error) { return newEntryReader(r, MaxLine) }

func newEntryReader(r io.Reader, maxLine int) (*EntryReader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	in, err := decompress(br)
	if err != nil {
		return nil, err
	}
	rd := &EntryReader{lr: bufio.NewReaderSize(in, 64<<10), maxLine: maxLine}
	e, err := rd.Next()
	switch {
	case errors.Is(err, io.EOF):
		return nil, errors.New("this is not an octop recording (it has no header line)")
	case err != nil && rd.line == 1 && strings.Contains(err.Error(), "is corrupt"):
		return nil, errors.New("this is not an octop recording (its first line is not JSON)")
	case err != nil:
		return nil, err
	case e.Kind != KindHeader || !strings.HasPrefix(e.Format, "octop-recording/"):
		return nil, errors.New("this is not an octop recording (its first line is not the header)")
	case e.Format != Format:
		return nil, fmt.Errorf("the recording is in format %q, which this octop cannot read; it reads %q", e.Format, Format)
	}
	rd.header = e
	return rd, nil
}

// Header is the recording's first line.
func (r *EntryReader) Header() Entry { return r.header }

// Truncated says the recording stopped mid-way (octop was killed while
// recording): Next gave io.EOF at the cut.
func (r *EntryReader) Truncated() bool { return r.truncated }

// Next is the next entry. It is io.EOF at the end, a clean one or a cut
// (then Truncated is true); anything else wrong is a one-line error
// naming the line.
func (r *EntryReader) Next() (Entry, error) {
	for {
		r.line++
		line, complete, err := readLine(r.lr, r.maxLine)
		if err != nil && !errors.Is(err, io.EOF) {
			if errors.Is(err, io.ErrUnexpectedEOF) {
				r.truncated = true // the gzip stream stops mid-way: a crash
				return Entry{}, io.EOF
			}
			if errors.Is(err, errLineTooLong) {
				return Entry{}, fmt.Errorf("line %d of the recording is longer than %s, the most octop reads of one line", r.line, bytesize.Text(int64(r.maxLine)))
			}
			return Entry{}, fmt.Errorf("the recording is corrupt at line %d: %v", r.line, err)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			var e Entry
			if perr := json.Unmarshal(line, &e); perr != nil {
				if !complete {
					r.truncated = true // a last line cut short
					return Entry{}, io.EOF
				}
				return Entry{}, fmt.Errorf("the recording is corrupt at line %d: %v", r.line, perr)
			}
			if e.Kind == "" {
				return Entry{}, fmt.Errorf("the recording is corrupt at line %d: no \"kind\"", r.line)
			}
			return e, nil
		}
		if err != nil { // io.EOF
			return Entry{}, io.EOF
		}
	}
}

// Read reads a whole recording, gzip-compressed or plain. A recording cut
// short by a crash reads up to its last whole line, with Truncated set.
// Anything else wrong is a one-line error saying where.
func Read(r io.Reader) (Recording, error) {
	rd, err := NewEntryReader(r)
	if err != nil {
		return Recording{}, err
	}
	rec := Recording{Header: rd.Header()}
	for {
		e, err := rd.Next()
		if errors.Is(err, io.EOF) {
			rec.Truncated = rd.Truncated()
			return rec, nil
		}
		if err != nil {
			return rec, err
		}
		rec.Entries = append(rec.Entries, e)
	}
}

// Source opens a recording from its start, as often as a replay asks: a
// replay reads its recording as a stream, once to learn what it holds,
// then again for each pass (a loop) and for each server of a recording
// of several.
type Source func() (io.ReadCloser, error)

// File is the recording in the file at path.
func File(path string) Source {
	return func() (io.ReadCloser, error) { return os.Open(path) }
}

// Source is the recording as a Source, for a recording made or read in
// memory (the demo, tests). One with no header gets one.
func (rec Recording) Source() Source {
	h := rec.Header
	h.Kind, h.Format = KindHeader, Format
	var b bytes.Buffer
	for _, e := range append([]Entry{h}, rec.Entries...) {
		line, _ := json.Marshal(e)
		b.Write(append(line, '\n'))
	}
	data := b.Bytes()
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }
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

// errLineTooLong is a line over MaxLine.
var errLineTooLong = errors.New("line too long")

// readLine reads one line without its newline, of at most max bytes.
// complete is false when the data ended before a newline. err is io.EOF
// at a clean end.
func readLine(r *bufio.Reader, max int) (line []byte, complete bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > max {
			return nil, false, errLineTooLong
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
