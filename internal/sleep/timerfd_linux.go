package sleep

import (
	"context"
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

// put keeps a for the next wait, disarmed and drained.
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

// wait waits d on the alarm or until ctx ends; false when the alarm
// failed (For then closes it and waits on a Go timer).
func (a *alarm) wait(ctx context.Context, d time.Duration) bool {
	_ = a.drain() // an expiry left over from a wait ctx cut short
	if a.settime(d) != nil {
		return false
	}
	// A read deadline in the past ends the wait at once: how ctx cuts
	// it short. set says the deadline is in place.
	set := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		_ = a.f.SetReadDeadline(time.Unix(1, 0))
		close(set)
	})
	var errno syscall.Errno
	err := a.rc.Read(func(uintptr) bool {
		errno = a.drain()
		return errno != syscall.EAGAIN
	})
	if !stop() {
		<-set
		_ = a.settime(0)
		_ = a.f.SetReadDeadline(time.Time{})
		return true
	}
	return err == nil && errno == 0
}

// close lets the alarm go.
func (a *alarm) close() { a.f.Close() }
