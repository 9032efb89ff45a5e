package client

import (
	"context"
	"errors"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"io"
	"testing"
	"time"
)

// chunks returns one scripted chunk per Read (each shorter than the
// buffer, as a socket's read that found nothing more is).
type chunks struct{ parts []string }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	c.parts = c.parts[1:]
	return n, nil
}

// TestPacedReaderWaitsOnlyWhenCaughtUp: with a pace of an hour, a read
// that ended mid-event is followed at once (the event is never held
// between its pieces), while a read that ended an event makes the next
// one wait (here until the context ends it).
func TestPacedReaderWaitsOnlyWhenCaughtUp(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(10*time.Second))
	defer cancel()
	src := &chunks{parts: []string{"data: {\"a\":", "1}\n", "\n", "data: {}\n\n"}}
	caught := 0
	p := &pacedReader{ctx: ctx, r: src, pace: time.Hour, caughtUp: func() { caught++ }}
	buf := make([]byte, 64)
	var got string
	for range 3 { // three pieces of one event: no wait between them
		n, err := p.Read(buf)
		if err != nil {
			t.Fatalf("a read mid-event waited or failed: %v (after %q)", err, got)
		}
		got += string(buf[:n])
	}
	if got != "data: {\"a\":1}\n\n" {
		t.Fatalf("read %q", got)
	}
	p.sent = true // the parser handed the event on
	wctx, wcancel := context.WithTimeout(context.Background(), testwait.Scale(200*time.Millisecond))
	defer wcancel()
	p.ctx = wctx
	if _, err := p.Read(buf); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the read after an event's end did not wait out the pace: %v", err)
	}
	if caught != 1 {
		t.Fatalf("caughtUp called %d times, want once, before the wait", caught)
	}
}

// TestPacedReaderSince: bytes a read waited for count from when it
// returned; bytes a read found at once count from when the socket was
// last seen empty. The clock is the test's: a read "takes" what the
// script says, whatever the machine's load.
func TestPacedReaderSince(t *testing.T) {
	clock := time.Unix(1000, 0)
	src := &timedChunks{clock: &clock, parts: []timedChunk{
		{"data: 1\n\n", 20 * time.Millisecond},  // waited for
		{"data: 2\n\n", 500 * time.Microsecond}, // found at once
		{"data: 3\n\n", 5 * time.Second},        // waited for again
	}}
	p := &pacedReader{ctx: context.Background(), r: src, now: func() time.Time { return clock }}
	buf := make([]byte, 64)
	want := []time.Time{
		time.Unix(1000, 0).Add(20 * time.Millisecond), // as the first read returned
		time.Unix(1000, 0).Add(20 * time.Millisecond), // when the socket was last empty: the first read's end
		time.Unix(1000, 0).Add(20*time.Millisecond + 60*time.Millisecond + 500*time.Microsecond + 5*time.Second),
	}
	for i, w := range want {
		if i > 0 {
			clock = clock.Add(30 * time.Millisecond) // the parser at work between reads
		}
		if _, err := p.Read(buf); err != nil {
			t.Fatal(err)
		}
		if !p.since.Equal(w) {
			t.Errorf("read %d counts its bytes from %v, want %v", i+1, p.since.Sub(time.Unix(1000, 0)), w.Sub(time.Unix(1000, 0)))
		}
	}
}

type timedChunk struct {
	data string
	took time.Duration
}

// timedChunks returns one chunk per Read, moving the test's clock on by
// how long the read took.
type timedChunks struct {
	clock *time.Time
	parts []timedChunk
}

func (c *timedChunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	*c.clock = c.clock.Add(c.parts[0].took)
	n := copy(p, c.parts[0].data)
	c.parts = c.parts[1:]
	return n, nil
}

type stamp time.Time

func (s stamp) Arrived() time.Time { return time.Time(s) }

// TestPacedReaderTakesTheConnectionsStamp: a connection that knows when its
// bytes arrived stamps them, instead of the reader's estimate.
func TestPacedReaderTakesTheConnectionsStamp(t *testing.T) {
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	p := &pacedReader{ctx: context.Background(), r: &chunks{parts: []string{"data: {}\n\n"}}, conn: stamp(at)}
	if _, err := p.Read(make([]byte, 64)); err != nil {
		t.Fatal(err)
	}
	if !p.since.Equal(at) {
		t.Fatalf("since = %v, want the connection's %v", p.since, at)
	}
}

// TestPacedReaderWithoutAStampEstimates: a connection that has no stamp
// yet leaves the reader's own estimate, never the zero time.
func TestPacedReaderWithoutAStampEstimates(t *testing.T) {
	p := &pacedReader{ctx: context.Background(), r: &chunks{parts: []string{"data: {}\n\n"}}, conn: stamp(time.Time{})}
	before := time.Now()
	if _, err := p.Read(make([]byte, 64)); err != nil {
		t.Fatal(err)
	}
	if p.since.Before(before) {
		t.Fatalf("since = %v, want the reader's estimate (after %v)", p.since, before)
	}
}
