package client

import (
	"context"
	"errors"
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
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
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
	wctx, wcancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
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
// last seen empty.
func TestPacedReaderSince(t *testing.T) {
	slow := &slowFirst{delay: 20 * time.Millisecond, parts: []string{"data: 1\n\n", "data: 2\n\n"}}
	p := &pacedReader{ctx: context.Background(), r: slow}
	buf := make([]byte, 64)
	if _, err := p.Read(buf); err != nil {
		t.Fatal(err)
	}
	first := p.since
	if first.Before(slow.returned[0]) {
		t.Fatalf("a read that waited %v counts its bytes from %v, before it returned at %v", slow.delay, first, slow.returned[0])
	}
	if _, err := p.Read(buf); err != nil {
		t.Fatal(err)
	}
	if !p.since.Equal(first) {
		t.Fatalf("a read that found its bytes at once counts them from %v, not from when the socket was last seen empty (%v)", p.since, first)
	}
}

// slowFirst waits before its first chunk only.
type slowFirst struct {
	delay    time.Duration
	parts    []string
	returned []time.Time
}

func (s *slowFirst) Read(p []byte) (int, error) {
	if len(s.parts) == 0 {
		return 0, io.EOF
	}
	if len(s.returned) == 0 {
		time.Sleep(s.delay)
	}
	n := copy(p, s.parts[0])
	s.parts = s.parts[1:]
	s.returned = append(s.returned, time.Now())
	return n, nil
}
