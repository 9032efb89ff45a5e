package client

import (
	"bytes"
	"context"
	"net"
	"sync/atomic"
	"time"
)

// cleanHeads dials with dial and wraps each connection in a headerConn.
func cleanHeads(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &headerConn{Conn: c}, nil
	}
}

// headerConn turns the control characters in the head of each answer
// read on a plain HTTP/1 connection into spaces. net/http refuses an
// answer whose header holds one, status and all: a 401 whose
// WWW-Authenticate carried an escape sequence read as "cannot reach
// OpenCode", where it is a refused password. Every header value octop
// reads is cleaned again before it is shown, so nothing is lost.
//
// A head starts after each request written (net/http writes a request
// whole, and reads its answer only after) and ends at its blank line; the
// body after it is left as it is. A connection whose first write is a TLS
// handshake carries no plain text and is left alone, from the start or
// after a proxy's CONNECT.
type headerConn struct {
	net.Conn
	tls   atomic.Bool // the connection carries TLS: nothing to clean
	fresh atomic.Bool // a request went out: its answer's head comes next

	// Read's own: where the head being read is.
	inHead    bool
	lineStart bool
	held      bool // a CR, the last byte read, is kept back (clean)
}

// methods start every request line octop's requests can have.
var methods = [][]byte{[]byte("GET "), []byte("POST "), []byte("PUT "), []byte("PATCH "), []byte("DELETE "),
	[]byte("HEAD "), []byte("OPTIONS "), []byte("CONNECT ")}

func (c *headerConn) Write(p []byte) (int, error) {
	switch {
	case len(p) > 0 && p[0] == 0x16: // a TLS handshake record
		c.tls.Store(true)
	case !c.tls.Load() && isRequestLine(p):
		c.fresh.Store(true)
	}
	return c.Conn.Write(p)
}

func isRequestLine(p []byte) bool {
	for _, m := range methods {
		if bytes.HasPrefix(p, m) {
			return true
		}
	}
	return false
}

func (c *headerConn) Read(p []byte) (int, error) {
	for {
		switch {
		case !c.held && (c.tls.Load() || len(p) < 2):
			return c.Conn.Read(p)
		case len(p) < 2: // no room to read what follows the CR (net/http reads 4 KiB)
			p[0], c.held = '\r', false
			return 1, nil
		}
		off := 0
		if c.held { // a CR kept back from the last read: what follows says what it is
			p[0], off, c.held = '\r', 1, false
		}
		n, err := c.Conn.Read(p[off:])
		n += off
		if c.fresh.Load() && c.fresh.Swap(false) {
			c.inHead, c.lineStart = true, true
		}
		if !c.inHead {
			return n, err
		}
		n = c.clean(p[:n], err == nil)
		if n > 0 || err != nil {
			return n, err
		}
	}
}

// clean turns the control characters of the head in b into spaces, and
// notes where the head ends. A CR stays where a LF follows it: it ends a
// line. A CR that ends b is kept back, when more may come (c.held), until
// the next read says which it is; clean returns how much of b to give.
func (c *headerConn) clean(b []byte, more bool) int {
	for i, x := range b {
		switch {
		case x == '\n':
			if c.lineStart { // the blank line: the body follows
				c.inHead = false
				return len(b)
			}
			c.lineStart = true
		case x == '\r' && i+1 == len(b) && more:
			c.held = true
			return i
		case x == '\r' && i+1 < len(b) && b[i+1] == '\n':
		case x < ' ' && x != '\t' || x == 0x7f:
			b[i] = ' '
			c.lineStart = false
		default:
			c.lineStart = false
		}
	}
	return len(b)
}

// Arrived is the wrapped connection's (arrivals), or zero.
func (c *headerConn) Arrived() time.Time {
	if a, ok := c.Conn.(arrivals); ok {
		return a.Arrived()
	}
	return time.Time{}
}

// Quiet is the wrapped connection's (quieter), if it has it.
func (c *headerConn) Quiet(on bool) {
	if q, ok := c.Conn.(quieter); ok {
		q.Quiet(on)
	}
}
