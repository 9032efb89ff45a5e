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
