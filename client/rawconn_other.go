//go:build !linux

package client

import (
	"context"
	"net"
)

// rawDial is d.DialContext: only Linux reads its sockets raw.
func rawDial(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return d.DialContext
}
