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
// back from every write that lasts and then polls every few microseconds while octop
// runs; a write into a sleeping monitor wakes it the same way. Each of its
// wake-ups is a thread switch, and on a busy stream those cost octop more
// CPU than drawing (make bench-live, perf). A non-blocking raw write never
// waits in the kernel: what does not fit waits in the netpoller, as a
// socket does.
//
// The device is opened anew, not set non-blocking, so the shell's own
// descriptor (shared with stdin) is left as it was. When f is not a
// terminal, or that fails, it is f.
func RawOutput(f *os.File) io.Writer {
	if f == nil || !term.IsTerminal(f.Fd()) {
		return f
	}
	q, err := os.OpenFile(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), os.O_WRONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return f
	}
	rc, err := q.SyscallConn()
	if err != nil {
		q.Close()
		return f
	}
	return &quietFile{rc: rc, file: q, fallback: f}
}

type quietFile struct {
	rc       syscall.RawConn
	file     *os.File // kept open with rc
	fallback *os.File
}

func (q *quietFile) Write(p []byte) (int, error) {
	n := 0
	var errno syscall.Errno
	err := q.rc.Write(func(fd uintptr) bool {
		for n < len(p) {
			r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[n])), uintptr(len(p)-n))
			switch e {
			case 0:
				n += int(r)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false // the netpoller waits until the terminal takes more
			default:
				errno = e
				return true
			}
		}
		return true
	})
	if err == nil && errno != 0 {
		err = errno
	}
	if err != nil {
		// Not pollable after all, or failed: the rest goes the plain way,
		// which says what is wrong if it still is.
		m, err := q.fallback.Write(p[n:])
		return n + m, err
	}
	return n, nil
}
