package client

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// TestRawConnReadsWhatWasSent: 4 MB written in random pieces with
// pauses comes out of a rawConn byte for byte, then io.EOF; a read
// deadline still ends a read that waits.
func TestRawConnReadsWhatWasSent(t *testing.T) {
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
	c := dialQuiet(t, ln.Addr().String())
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
	c3 := dialQuiet(t, ln.Addr().String())
	_ = c3.SetReadDeadline(time.Now().Add(50 * time.Millisecond)) // unscaled: nothing is sent, and the read is to time out
	if _, err := c3.Read(make([]byte, 10)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a read past its deadline returned %v, want the deadline's error", err)
	}
}

// dialQuiet dials addr through rawDial, which must give a rawConn,
// with a read deadline far enough for any test; it is closed at the end.
func dialQuiet(t *testing.T, addr string) *rawConn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(30*time.Second))
	defer cancel()
	nc, err := rawDial(&net.Dialer{})(ctx, "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	c, ok := nc.(*rawConn)
	if !ok {
		t.Fatalf("dialled a %T, want a rawConn", nc)
	}
	_ = c.SetReadDeadline(time.Now().Add(testwait.Scale(30 * time.Second)))
	return c
}

// pending is how many bytes wait in c's socket (FIONREAD).
func pending(c *rawConn) int {
	var n int32
	_ = c.rc.Control(func(fd uintptr) {
		_, _, _ = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
	})
	return int(n)
}

// TestRawConnArrived: bytes a read waited for arrived when it woke;
// bytes that were there before the read arrived after the socket was last
// seen empty, and no later than they were written. The peer writes only
// once the read has found the socket empty, or the test has seen the bytes
// wait in it, so no step depends on how fast the machine is.
func TestRawConnArrived(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	peer := make(chan net.Conn, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			peer <- c
		}
	}()
	c := dialQuiet(t, ln.Addr().String())
	var p net.Conn
	select {
	case p = <-peer:
	case <-time.After(testwait.Scale(30 * time.Second)):
		t.Fatal("no connection")
	}
	defer p.Close()

	// writeOnceWaiting writes data once a read that began after since
	// has found the socket empty, and says when it began writing.
	writeOnceWaiting := func(since time.Time, data string) <-chan time.Time {
		began := make(chan time.Time, 1)
		go func() {
			_ = testwait.Poll(func() error {
				if c.empty.Load() < since.UnixNano() {
					return errors.New("not waiting yet")
				}
				return nil
			}, 30*time.Second)
			began <- time.Now()
			_, _ = p.Write([]byte(data))
		}()
		return began
	}

	// 1. The read waits on an empty socket: the bytes arrived when it
	// woke, after they were written.
	buf := make([]byte, 64)
	began := writeOnceWaiting(time.Now(), "one")
	if n, err := c.Read(buf); err != nil || string(buf[:n]) != "one" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	end := time.Now()
	w1 := <-began
	if a := c.Arrived(); a.Before(w1) || a.After(end) {
		t.Errorf("waited-for bytes arrived %v after their write began, want between it and the read's end (+%v)", a.Sub(w1), end.Sub(w1))
	}

	// 2. The bytes are written and wait in the socket before the read:
	// they arrived after the first read emptied it, and no later than
	// they were written.
	if _, err := p.Write([]byte("two")); err != nil {
		t.Fatal(err)
	}
	written := time.Now()
	testwait.Eventually(t, func() bool { return pending(c) == 3 }, 10*time.Second, "the 3 bytes waiting in the socket")
	if n, err := c.Read(buf); err != nil || string(buf[:n]) != "two" {
		t.Fatalf("read %q, %v", buf[:n], err)
	}
	if a := c.Arrived(); a.After(written) || a.Before(w1) {
		t.Errorf("bytes waiting in the socket arrived %v after the first write began, want after it and by the second's end (+%v)",
			a.Sub(w1), written.Sub(w1))
	}

	// 3. A read waits, and its bytes fill its buffer; the rest, found at
	// once by the next read, came with them, not when the socket was
	// seen empty before the wait.
	began = writeOnceWaiting(time.Now(), "three and more")
	small := make([]byte, 5)
	if n, err := c.Read(small); err != nil || string(small[:n]) != "three" {
		t.Fatalf("read %q, %v", small[:n], err)
	}
	if n, err := c.Read(small); err != nil || string(small[:n]) != " and " {
		t.Fatalf("read %q, %v", small[:n], err)
	}
	if w3, a := <-began, c.Arrived(); a.Before(w3) {
		t.Errorf("the rest of a burst a read waited for arrived %v before the burst was written", w3.Sub(a))
	}
}

// readable says whether poll(2) finds c's socket readable now: what
// wakes the netpoller.
func readable(c *rawConn) bool {
	var ready bool
	_ = c.rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, _ := unix.Poll(fds, 0)
		ready = n > 0 && fds[0].Revents&unix.POLLIN != 0
	})
	return ready
}

// TestQuietHoldsWhatArrives: while quiet, a few events' worth of bytes
// leave the socket unreadable to poll (nothing wakes for them); once not,
// it is readable at once and Read has every byte.
func TestQuietHoldsWhatArrives(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	served := make(chan net.Conn, 1)
	go func() {
		s, err := ln.Accept()
		if err == nil {
			served <- s
		}
	}()
	c := dialQuiet(t, ln.Addr().String())
	s := <-served
	defer s.Close()
	c.Quiet(true)
	want := bytes.Repeat([]byte("data: {}\n\n"), 100)
	if _, err := s.Write(want); err != nil {
		t.Fatal(err)
	}
	testwait.Eventually(t, func() bool { return pending(c) == len(want) }, 10*time.Second, "the bytes to reach the socket")
	if readable(c) {
		t.Fatal("a quiet socket holding 1 KB polls readable: it would wake the netpoller")
	}
	c.Quiet(false)
	if !readable(c) {
		t.Fatal("once not quiet, the socket holding 1 KB does not poll readable")
	}
	got := make([]byte, 4096)
	n, err := c.Read(got)
	if err != nil || !bytes.Equal(got[:n], want) {
		t.Fatalf("Read = %d, %v; want the %d bytes sent", n, err, len(want))
	}
}
