package renderer

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// openPTY is a new pseudo-terminal: the master (the terminal emulator's
// side) and the slave (the program's terminal), in raw mode.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("no pseudo-terminal to test on: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	tio, err := unix.IoctlGetTermios(int(s.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Lflag &^= unix.ICANON | unix.ECHO | unix.ISIG | unix.IEXTEN
	tio.Iflag &^= unix.ICRNL | unix.IXON
	tio.Oflag &^= unix.OPOST
	if err := unix.IoctlSetTermios(int(s.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	return m, s
}

// TestRawInputReadsKeysAndStops: what the terminal sends comes out of
// RawInput as it was sent, a read waits for the next key, and stop ends
// a read under way.
func TestRawInputReadsKeysAndStops(t *testing.T) {
	master, slave := openPTY(t)
	r, stop := RawInput(slave)
	if r == io.Reader(slave) {
		t.Fatal("RawInput fell back to the terminal itself: the test proves nothing")
	}
	var got bytes.Buffer
	buf := make([]byte, 64)
	for _, key := range []string{"j", "k", "\x1b[A", "q"} {
		if _, err := master.Write([]byte(key)); err != nil {
			t.Fatal(err)
		}
		n, err := r.Read(buf)
		if err != nil {
			t.Fatal(err)
		}
		got.Write(buf[:n])
	}
	if got.String() != "jk\x1b[Aq" {
		t.Fatalf("read %q, want %q", got.String(), "jk\x1b[Aq")
	}
	done := make(chan error, 1)
	go func() {
		_, err := r.Read(buf)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("a read with no key returned at once: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	stop()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("the read cut short by stop returned no error")
		}
	case <-time.After(testwait.Scale(10 * time.Second)):
		t.Fatal("stop did not end the read under way")
	}
}

// TestRawOutputWritesAllEvenWhenTheTerminalLags: frames larger than the
// terminal's buffer, written while the emulator reads slowly, arrive
// whole and in order (what does not fit waits on the plain path).
func TestRawOutputWritesAllEvenWhenTheTerminalLags(t *testing.T) {
	master, slave := openPTY(t)
	w := RawOutput(slave)
	if w == io.Writer(slave) {
		t.Fatal("RawOutput fell back to the terminal itself: the test proves nothing")
	}
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<14) // 256 KiB, more than a pty holds
	got := make(chan []byte, 1)
	go func() {
		var b bytes.Buffer
		buf := make([]byte, 4096)
		for b.Len() < len(want) {
			time.Sleep(time.Millisecond) // a slow emulator
			n, err := master.Read(buf)
			if err != nil {
				break
			}
			b.Write(buf[:n])
		}
		got <- b.Bytes()
	}()
	for rest := want; len(rest) > 0; {
		n := min(len(rest), 20_000)
		if m, err := w.Write(rest[:n]); err != nil || m != n {
			t.Fatalf("Write = %d, %v; want %d", m, err, n)
		}
		rest = rest[n:]
	}
	select {
	case b := <-got:
		if !bytes.Equal(b, want) {
			t.Fatalf("the terminal got %d bytes, not the %d written, in order", len(b), len(want))
		}
	case <-time.After(testwait.Scale(30 * time.Second)):
		t.Fatal("the terminal never got everything")
	}
}
