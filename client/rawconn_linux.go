package client

import (
	"context"
	"io"
	"net"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// rawDial dials with d and wraps a TCP connection so that its reads do
// not enter the scheduler's syscall path (see rawConn).
func rawDial(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		tc, ok := c.(*net.TCPConn)
		if !ok {
			return c, nil
		}
		rc, err := tc.SyscallConn()
		if err != nil {
			return c, nil
		}
		return &rawConn{TCPConn: tc, rc: rc}, nil
	}
}

// rawConn reads its socket with a raw read(2): the socket is
// non-blocking, so the call never waits in the kernel, and when nothing is
// there the netpoller waits as for any connection. A read through the
// syscall package instead tells the scheduler it may block, which wakes
// Go's system monitor from its sleep and sets it polling every few microseconds
// while the program runs. On a busy stream that monitor cost octop more
// CPU than drawing did (make bench-live, perf).
//
// Because the raw read sees whether the socket was empty, the connection
// also knows when the bytes of each read reached it (Arrived).
type rawConn struct {
	*net.TCPConn
	rc syscall.RawConn
	// Unix ns: when the socket was last seen empty (a read found nothing,
	// or took less than it could; or woke from waiting on it, as the
	// bytes came), and the Arrived of the last read.
	empty, arrived atomic.Int64
}

// Arrived is the earliest time the bytes of the last read that returned
// any may have reached the socket: when the read returned, if it had to
// wait for them; else when the socket was last seen empty (or a read
// woke from waiting on it), as they came after that.
// Zero until a read returns bytes.
func (c *rawConn) Arrived() time.Time {
	if at := c.arrived.Load(); at != 0 {
		return time.Unix(0, at)
	}
	return time.Time{}
}

func (c *rawConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	waited := false
	err := c.rc.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			if e == syscall.EINTR {
				continue
			}
			n, errno = int(r), e
			if e == syscall.EAGAIN {
				waited = true
				c.empty.Store(time.Now().UnixNano())
			}
			return e != syscall.EAGAIN
		}
	})
	if n > 0 && errno == 0 {
		now := time.Now().UnixNano()
		if empty := c.empty.Load(); waited || empty == 0 {
			c.arrived.Store(now)
		} else {
			c.arrived.Store(empty)
		}
		if n < len(p) || waited {
			// It gave all it had; or it waited on an empty socket
			// and woke as the first bytes came, so whatever it
			// left came after them.
			c.empty.Store(now)
		}
	}
	if err == nil && errno != 0 {
		err = errno
	}
	if err != nil {
		return 0, &net.OpError{Op: "read", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// quietLowat is the receive low-water mark of a quiet connection: more
// than a busy stream sends in a pace (StreamOptions.Pace), less than
// would make the kernel grow the socket's buffer to hold it.
const quietLowat = 32 << 10

// Quiet, while on, has the kernel hold what arrives without waking
// anyone, up to quietLowat bytes (SO_RCVLOWAT): a paced stream waits out
// its pace with the data that comes meanwhile left in the socket, and the
// netpoller, which watches every socket it has whether anyone waits on it
// or not, would wake octop at each event the server wrote. Off, the next
// byte wakes it as before, and what came while it was on is read at once.
// A raw system call, as Read's: through the syscall package it would wake
// Go's system monitor.
func (c *rawConn) Quiet(on bool) {
	lowat := int32(1)
	if on {
		lowat = quietLowat
	}
	_ = c.rc.Control(func(fd uintptr) {
		_, _, _ = syscall.RawSyscall6(syscall.SYS_SETSOCKOPT, fd, syscall.SOL_SOCKET, syscall.SO_RCVLOWAT,
			uintptr(unsafe.Pointer(&lowat)), 4, 0)
	})
}
