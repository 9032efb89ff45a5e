package fakellm

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// Listener is a fake model served on a loopback port: what the harness
// points a real `opencode serve` at, and what this package's tests call.
type Listener struct {
	// URL is the server's base, http://127.0.0.1:PORT.
	URL string

	srv   *http.Server
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// Listen serves h (a *Server, usually) on a free loopback port until
// Close.
func Listen(h http.Handler) (*Listener, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	l := &Listener{URL: "http://" + ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	l.srv = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ConnState: l.track}
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

// track keeps the open connections, so CloseClientConnections can cut
// them (a model's streamed reply stops mid-way, as when a provider drops).
func (l *Listener) track(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch st {
	case http.StateNew:
		l.conns[c] = struct{}{}
	case http.StateClosed, http.StateHijacked:
		delete(l.conns, c)
	}
}

// CloseClientConnections cuts every open connection at once.
func (l *Listener) CloseClientConnections() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.conns {
		_ = c.Close()
	}
}

// Close stops serving and cuts every connection.
func (l *Listener) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if l.srv.Shutdown(ctx) != nil {
		_ = l.srv.Close()
	}
}
