package sleep

import (
	"errors"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// alarm is one timerfd, non-blocking, in the netpoller.
type alarm struct {
	f  *os.File
	rc syscall.RawConn
	fd int
}

// spare keeps the alarms not in use; a few goroutines wait at once at
// most (the stream's pace, the screen's clock).
var spare struct {
	sync.Mutex
	free []*alarm
}

const maxSpare = 8

// get takes a spare alarm or makes one; nil if none can be had.
func get() *alarm {
	spare.Lock()
	if n := len(spare.free); n > 0 {
		a := spare.free[n-1]
		spare.free = spare.free[:n-1]
		spare.Unlock()
		return a
	}
	spare.Unlock()
	fd, err := unix.TimerfdCreate(unix.CLOCK_MONOTONIC, unix.TFD_NONBLOCK|unix.TFD_CLOEXEC)
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(fd), "timerfd") // non-blocking: the netpoller waits on it
	rc, err := f.SyscallConn()
	if err != nil {
		f.Close()
		return nil
	}
	return &alarm{f: f, rc: rc, fd: fd}
}

// put keeps a for the next Timer.
func put(a *alarm) {
	spare.Lock()
	defer spare.Unlock()
	if len(spare.free) < maxSpare {
		spare.free = append(spare.free, a)
		return
	}
	a.f.Close()
}

// settime arms the alarm to fire once after d (0 disarms it), with a raw
// system call: one through the syscall package would wake Go's system
// monitor, which this package is here to let sleep.
func (a *alarm) settime(d time.Duration) error {
	spec := unix.ItimerSpec{Value: unix.NsecToTimespec(int64(d))}
	_, _, e := syscall.RawSyscall6(unix.SYS_TIMERFD_SETTIME, uintptr(a.fd), 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0)
	if e != 0 {
		return e
	}
	return nil
}

// drain reads the expirations the alarm counted: 0 when it had fired,
// EAGAIN when it had not.
func (a *alarm) drain() syscall.Errno {
	var n uint64
	_, _, e := syscall.RawSyscall(syscall.SYS_READ, uintptr(a.fd), uintptr(unsafe.Pointer(&n)), 8)
	return e
}

// wait waits d on the alarm, or until it is cut; false when the alarm
// failed.
func (a *alarm) wait(d time.Duration) bool {
	_ = a.drain() // an expiry left over from a wait cut short
	if a.settime(d) != nil {
		return false
	}
	var errno syscall.Errno
	err := a.rc.Read(func(uintptr) bool {
		errno = a.drain()
		return errno != syscall.EAGAIN
	})
	if errors.Is(err, os.ErrDeadlineExceeded) {
		_ = a.settime(0)
		return true // cut short
	}
	return err == nil && errno == 0
}

// cut ends the wait under way and every later one.
func (a *alarm) cut() { _ = a.f.SetReadDeadline(time.Unix(1, 0)) }

// close lets the alarm go.
func (a *alarm) close() { a.f.Close() }
