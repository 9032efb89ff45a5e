package client

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/wire"
)

// FuzzStreamRead feeds raw bytes, as a server's socket would deliver them,
// through the stream's reader (the SSE parser, fillingReader and
// DecodeEvent). It must not panic; it sends only envelopes with an event
// and decode errors with at most decodeErrorDataMax bytes of data; and
// what it sends does not depend on how the bytes were cut into reads.
// Seeds: testdata/fuzz/FuzzStreamRead (pieces of the reference captures,
// CRLF and CR line ends, comments, multi-line data, an oversized event).
func FuzzStreamRead(f *testing.F) {
	f.Add([]byte("data: {\"type\":\"session.idle\",\"properties\":{\"sessionID\":\"ses_a\"}}\n\n"), uint8(3))
	c, err := New(Options{BaseURL: "http://127.0.0.1:1", Stream: StreamOptions{MaxEventSize: 4096, IdleTimeout: -1}})
	if err != nil {
		f.Fatal(err)
	}
	// The paced reader (StreamOptions.Pace) must not change what is sent
	// either, only add wire.CaughtUp between events.
	paced, err := New(Options{BaseURL: "http://127.0.0.1:1", Stream: StreamOptions{MaxEventSize: 4096, IdleTimeout: -1, Pace: time.Nanosecond}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte, cut uint8) {
		whole, werr := readSent(t, c, bytes.NewReader(raw))
		pieces, perr := readSent(t, c, &choppedReader{b: raw, n: int(cut)%17 + 1})
		if (werr == nil) != (perr == nil) || !reflect.DeepEqual(whole, pieces) {
			t.Fatalf("reads of %d bytes changed what was sent:\nwhole  %q (%v)\npieces %q (%v)", int(cut)%17+1, whole, werr, pieces, perr)
		}
		slow, serr := readSent(t, paced, &choppedReader{b: raw, n: int(cut)%17 + 1})
		if (werr == nil) != (serr == nil) || !reflect.DeepEqual(whole, slow) {
			t.Fatalf("a paced stream in reads of %d bytes changed what was sent:\nwhole  %q (%v)\npaced  %q (%v)", int(cut)%17+1, whole, werr, slow, serr)
		}
	})
}

// readSent runs readStream over body and describes each message it sent,
// failing on a message readStream must not send. (send runs on the
// calling goroutine, so it may stop the test.)
func readSent(t *testing.T, c *Client, body io.Reader) ([]string, error) {
	_, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	var sent []string
	err := c.readStream(context.Background(), cancel, body, nil, func(m any) {
		switch m := m.(type) {
		case wire.Envelope:
			if m.Received.IsZero() {
				t.Fatalf("sent an envelope without the time it was read: %#v", m)
			}
			m.Received = time.Time{}
			j, err := json.Marshal(m)
			if m.Event == nil || err != nil {
				t.Fatalf("sent an envelope with no event or that does not encode (%v): %#v", err, m)
			}
			sent = append(sent, string(j))
		case wire.DecodeError:
			if m.Err == nil || len(m.Data) > decodeErrorDataMax {
				t.Fatalf("sent a decode error without its error or with %d bytes of data", len(m.Data))
			}
			sent = append(sent, "decode error: "+string(m.Data))
		case wire.CaughtUp:
			if c.stream.Pace == 0 {
				t.Fatalf("sent CaughtUp without a pace")
			}
		default:
			t.Fatalf("sent %T", m)
		}
	})
	return sent, err
}

// choppedReader returns its bytes n at a time.
type choppedReader struct {
	b []byte
	n int
}

func (r *choppedReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), r.n)], r.b)
	r.b = r.b[k:]
	return k, nil
}
