package renderer

import (
	"fmt"
	"io"
	"os"
	"syscall"
	"unsafe"

	"github.com/charmbracelet/x/term"
)

// RawInput is where keys from the terminal f are best read: f's device
// opened again, non-blocking, read with a raw read(2), while Go's
// netpoller waits for the next key through an epoll of its own that
// watches the terminal for input alone.
//
// Bubble Tea reads a terminal through cancelreader, which waits for each
// key in epoll_wait(2) through the syscall package: the goroutine then
// holds the program's one processor in a system call until Go's system
// monitor takes it back, and the monitor, woken by that and by the call's
// return, polls every few microseconds for its next thousand rounds
// while octop works (make bench-live, perf: most of its wake-ups, with a
// key a second). A read the netpoller waits for holds nothing.
//
// The terminal is not handed to the netpoller itself: it would register
// it for output too, and wake at every frame the terminal takes (see
// RawOutput). The epoll in between asks for input only.
//
// stop ends a read under way and every later one (the program has
// ended). When f is not a terminal, or any of that fails, r is f and
// stop does nothing.
func RawInput(f *os.File) (r io.Reader, stop func()) {
	if f == nil || !term.IsTerminal(f.Fd()) {
		return f, func() {}
	}
	tty, err := syscall.Open(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return f, func() {}
	}
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		syscall.Close(tty)
		return f, func() {}
	}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(tty)}
	if syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, tty, &ev) != nil || syscall.SetNonblock(ep, true) != nil {
		syscall.Close(ep)
		syscall.Close(tty)
		return f, func() {}
	}
	keys := os.NewFile(uintptr(ep), "keys") // non-blocking: the netpoller waits on it
	rc, err := keys.SyscallConn()
	if err != nil {
		keys.Close()
		syscall.Close(tty)
		return f, func() {}
	}
	// Closing keys waits for a read under way to leave before tty goes.
	return &quietInput{rc: rc, tty: tty}, func() { keys.Close(); syscall.Close(tty) }
}

// quietInput reads the terminal tty when the epoll behind rc says it has
// input.
type quietInput struct {
	rc  syscall.RawConn
	tty int
}

func (q *quietInput) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	n := 0
	var errno syscall.Errno
	err := q.rc.Read(func(uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(q.tty), uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait for the next key
			case 0:
				n = int(r)
			default:
				errno = e
			}
			return true
		}
	})
	if err == nil && errno != 0 {
		err = &os.PathError{Op: "read", Path: "terminal", Err: errno}
	}
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}
