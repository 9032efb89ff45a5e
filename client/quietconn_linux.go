package client

import (
	"context"
	"io"
	"net"
	"syscall"
	"unsafe"
)

// quietDial dials with d and wraps a TCP connection so that its reads do
// not enter the scheduler's syscall path (see quietConn).
func quietDial(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
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
		return &quietConn{TCPConn: tc, rc: rc}, nil
	}
}

// quietConn reads its socket with a raw read(2): the socket is
// non-blocking, so the call never waits in the kernel, and when nothing is
// there the netpoller waits as for any connection. A read through the
// syscall package instead tells the scheduler it may block, which wakes
// Go's system monitor from its sleep and sets it polling every 20 µs
// while the program runs. On a busy stream that monitor cost octop more
// CPU than drawing did (make bench-live, perf).
type quietConn struct {
	*net.TCPConn
	rc syscall.RawConn
}

func (c *quietConn) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := c.rc.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			if e == syscall.EINTR {
				continue
			}
			n, errno = int(r), e
			return e != syscall.EAGAIN
		}
	})
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
