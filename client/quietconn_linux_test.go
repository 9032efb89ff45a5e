package client

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"testing"
	"time"
)

// TestQuietConnReadsWhatWasSent: 4 MB written in random pieces with
// pauses comes out of a quietConn byte for byte, then io.EOF; a read
// deadline still ends a read that waits.
func TestQuietConnReadsWhatWasSent(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	want := make([]byte, 4<<20)
	for i := range want {
		want[i] = byte(rng.IntN(256))
	}
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		for rest := want; len(rest) > 0; {
			n := min(len(rest), 1+rng.IntN(70_000))
			if _, err := c.Write(rest[:n]); err != nil {
				return
			}
			rest = rest[n:]
			if rng.IntN(8) == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := quietDial(&net.Dialer{})(ctx, "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, ok := c.(*quietConn); !ok {
		t.Fatalf("dialled a %T, want a quietConn", c)
	}
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	got, err := io.ReadAll(c)
	if err != nil {
		t.Fatalf("reading: %v after %d bytes", err, len(got))
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes that differ from the %d sent", len(got), len(want))
	}

	// A read waiting on a silent peer ends at its deadline.
	go func() {
		c2, err := ln.Accept()
		if err == nil {
			time.Sleep(5 * time.Second)
			c2.Close()
		}
	}()
	c3, err := quietDial(&net.Dialer{})(ctx, "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c3.Close()
	_ = c3.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := c3.Read(make([]byte, 10)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a read past its deadline returned %v, want the deadline's error", err)
	}
}

// TestQuietConnArrived: bytes a read waited for arrived when it returned;
// bytes that were there before the read arrived after the socket was last
// seen empty, and no later than they were written.
func TestQuietConnArrived(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	peer := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			peer <- c
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	nc, err := quietDial(&net.Dialer{})(ctx, "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	c := nc.(*quietConn)
	var p net.Conn
	select {
	case p = <-peer:
	case <-ctx.Done():
		t.Fatal("no connection")
	}
	defer p.Close()
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	buf := make([]byte, 64)

	// 1. The read starts on an empty socket and waits: the bytes are
	// written after it started, and arrive as it returns.
	go func() {
		time.Sleep(30 * time.Millisecond)
		_, _ = p.Write([]byte("one"))
	}()
	start := time.Now()
	if n, err := c.Read(buf); err != nil || string(buf[:n]) != "one" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	end := time.Now()
	if a := c.Arrived(); a.Before(start.Add(25*time.Millisecond)) || a.After(end) {
		t.Errorf("waited-for bytes arrived at +%v, want within the read's wait (+25ms..+%v)", a.Sub(start), end.Sub(start))
	}

	// 2. The bytes are written, and read only later: they arrived no
	// later than they were written, and after the first read emptied
	// the socket (which was after its bytes were written, 25 ms in).
	before := time.Now()
	if _, err := p.Write([]byte("two")); err != nil {
		t.Fatal(err)
	}
	written := time.Now()
	time.Sleep(50 * time.Millisecond) // the bytes wait in the socket
	if n, err := c.Read(buf); err != nil || string(buf[:n]) != "two" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	if a := c.Arrived(); a.After(written) || !a.After(start.Add(25*time.Millisecond)) {
		t.Errorf("bytes waiting in the socket arrived at %v after the write began, want before it ended (%v) and after the first read (%v)",
			a.Sub(before), written.Sub(before), start.Add(25*time.Millisecond).Sub(before))
	}

	// 3. A read waits, and its bytes fill its buffer; the rest, found at
	// once by the next read, came with them, not when the socket was
	// seen empty before the wait.
	go func() {
		time.Sleep(30 * time.Millisecond)
		_, _ = p.Write([]byte("three and more"))
	}()
	start = time.Now()
	small := make([]byte, 5)
	if n, err := c.Read(small); err != nil || string(small[:n]) != "three" {
		t.Fatalf("read %q, %v", small[:n], err)
	}
	if n, err := c.Read(small); err != nil || string(small[:n]) != " and " {
		t.Fatalf("read %q, %v", small[:n], err)
	}
	if a := c.Arrived(); a.Before(start.Add(25 * time.Millisecond)) {
		t.Errorf("the rest of a burst a read waited for arrived at +%v, before the burst was written (+30ms)", a.Sub(start))
	}
}
