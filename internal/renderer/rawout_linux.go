package renderer

import (
	"fmt"
	"io"
	"os"
	"syscall"
	"unsafe"

	"github.com/charmbracelet/x/term"
)

// RawOutput is where frames for the terminal f are best written: f's
// device opened again, non-blocking, and written with a raw write(2).
//
// A write through the syscall package tells the scheduler it may block.
// On a terminal it may (the reader drains it at its own pace), so the
// scheduler's monitor, with octop on one processor, takes the processor
// back from every write that lasts and then polls every few microseconds
// while octop runs; a write into a sleeping monitor wakes it the same way.
// Each of its wake-ups is a thread switch, and on a busy stream those cost
// octop more CPU than drawing (make bench-live, perf). A non-blocking raw
// write never waits in the kernel.
//
// The descriptor is not Go's netpoller's either: the netpoller would
// watch it for output edge-triggered and wake at every frame, when the
// terminal has taken it and has room again, for nobody. What does not fit
// (the terminal has fallen a whole buffer behind, tens of kilobytes) is
// written the plain way to f, which waits.
//
// The device is opened anew, not set non-blocking, so the shell's own
// descriptor (shared with stdin) is left as it was. When f is not a
// terminal, or that fails, it is f.
func RawOutput(f *os.File) io.Writer {
	if f == nil || !term.IsTerminal(f.Fd()) {
		return f
	}
	fd, err := syscall.Open(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return f
	}
	return &quietFile{fd: fd, fallback: f}
}

// quietFile writes frames to the terminal fd for the life of the
// process; fallback takes what fd does not.
type quietFile struct {
	fd       int
	fallback *os.File
}

func (q *quietFile) Write(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, uintptr(q.fd), uintptr(unsafe.Pointer(&p[n])), uintptr(len(p)-n))
		switch e {
		case 0:
			n += int(r)
		case syscall.EINTR:
		default:
			// Full (EAGAIN) or failed: the rest goes the plain way,
			// which waits for room, or says what is wrong.
			m, err := q.fallback.Write(p[n:])
			return n + m, err
		}
	}
	return n, nil
}
