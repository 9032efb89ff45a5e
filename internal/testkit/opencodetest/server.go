package opencodetest

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// The versions whose behaviour the fake follows.
const (
	V118 = "1.18.33"
	V11  = "1.1.65"
)

// DefaultDirectory is the project directory of the fake's sessions when
// Options.Directory is empty.
const DefaultDirectory = "/home/dev/project"

// Options says how the fake behaves. The zero value is a 1.18.33 server
// with no password, in DefaultDirectory, without heartbeats.
type Options struct {
	// Version is V118 (default) or V11.
	Version string
	// Username and Password turn on basic auth when Password is set, as
	// OPENCODE_SERVER_PASSWORD does. Username defaults to "opencode".
	Username, Password string
	// Directory is the server's own project directory: the one a request
	// without ?directory= reads.
	Directory string
	// Heartbeat, when set, sends server.heartbeat on every stream this often.
	Heartbeat time.Duration
	// Hostile puts Payload (escape sequences, C1 and bidi controls,
	// backspaces, a bell) before and after every string the fake sends,
	// in its answers, its error bodies and its events, but the
	// identifiers and enumerations (see poison), and in the
	// WWW-Authenticate header of a 401: the server a hostile agent writes
	// to.
	Hostile bool
}

// Server is a running fake. Its methods are safe for concurrent use.
type Server struct {
	t    testing.TB
	opts Options

	mu        sync.Mutex
	srv       *httptest.Server
	addr      string
	stopping  chan struct{} // closed by Stop: the streams end
	overrides map[string]http.Handler
	mux       *http.ServeMux // the overrides, rebuilt on every change
	own       *http.ServeMux // the fake's own routes
	requests  []Request
	st        state
	streams   map[chan []byte]string // subscriber -> directory ("" for global)
}

// New starts a fake for the test and stops it when the test ends.
func New(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.Version == "" {
		opts.Version = V118
	}
	if opts.Username == "" {
		opts.Username = "opencode"
	}
	if opts.Directory == "" {
		opts.Directory = DefaultDirectory
	}
	s := &Server{t: t, opts: opts, overrides: map[string]http.Handler{}, streams: map[chan []byte]string{}}
	s.st = newState(opts)
	s.mux = http.NewServeMux()
	s.own = s.routes()
	s.listen(nil)
	t.Cleanup(s.Stop)
	return s
}

// listen starts serving on l, or on a new loopback port when l is nil.
func (s *Server) listen(l net.Listener) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(s.serve))
	if l != nil {
		srv.Listener.Close()
		srv.Listener = l
	}
	srv.Start()
	s.mu.Lock()
	s.srv, s.addr, s.stopping = srv, srv.Listener.Addr().String(), make(chan struct{})
	s.mu.Unlock()
}

// URL is the server's base URL, e.g. http://127.0.0.1:40123. It stays the
// same across Stop and Start.
func (s *Server) URL() string { return "http://" + s.Addr() }

// Addr is the server's host:port.
func (s *Server) Addr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addr
}

// Version is the OpenCode version the fake plays.
func (s *Server) Version() string { return s.opts.Version }

// Stop takes the server down: open streams and connections are cut and
// the port refuses connections until Start. The state is kept, as a real
// server keeps its sessions on disk. Stopping twice does nothing.
func (s *Server) Stop() {
	s.mu.Lock()
	srv := s.srv
	s.srv = nil
	if srv != nil {
		close(s.stopping)
	}
	s.mu.Unlock()
	if srv == nil {
		return
	}
	srv.CloseClientConnections()
	srv.Close()
}

// Start brings a stopped server back on the same address, waiting up to
// 10s for the port to be free again.
func (s *Server) Start() {
	s.t.Helper()
	var l net.Listener
	testwait.Check(s.t, func() (err error) {
		l, err = net.Listen("tcp", s.Addr())
		return err
	}, 10*time.Second, "port %s to be free again", s.Addr())
	s.listen(l)
}

// serve records the request, checks the password, then answers with an
// override if one matches, else with the fake's own route.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	s.mu.Lock()
	s.requests = append(s.requests, newRequest(r, body))
	mux := s.mux
	s.mu.Unlock()
	if !s.authorized(r) {
		realm := "Secure Area"
		if s.opts.Hostile {
			realm = Payload + realm // net/http's own client refuses such a header, answer and all
		}
		w.Header().Set("WWW-Authenticate", `Basic realm="`+realm+`"`)
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	if _, pattern := mux.Handler(r); pattern != "" {
		mux.ServeHTTP(w, r)
		return
	}
	s.own.ServeHTTP(w, r)
}

func (s *Server) authorized(r *http.Request) bool {
	if s.opts.Password == "" {
		return true
	}
	u, p, ok := r.BasicAuth()
	return ok && u == s.opts.Username && p == s.opts.Password
}

// Handle answers requests that match pattern (an http.ServeMux pattern
// such as "POST /session/{id}/abort", or "/" for every request) with h
// instead of the fake's own route, until the test ends or Handle is called
// again with the same pattern. A nil h removes the override. Requests are
// still recorded and the password still checked.
func (s *Server) Handle(pattern string, h http.Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h == nil {
		delete(s.overrides, pattern)
	} else {
		s.overrides[pattern] = h
	}
	mux := http.NewServeMux()
	for p, h := range s.overrides {
		mux.Handle(p, h)
	}
	s.mux = mux
}

// HandleFunc is Handle with a function.
func (s *Server) HandleFunc(pattern string, f func(http.ResponseWriter, *http.Request)) {
	s.Handle(pattern, http.HandlerFunc(f))
}

// Fail answers requests matching pattern with status and an error body in
// the server's shape: NotFoundError for a 404, else UnknownError with msg.
func (s *Server) Fail(pattern string, status int, msg string) {
	s.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		name := "UnknownError"
		if status == http.StatusNotFound {
			name = "NotFoundError"
		}
		s.writeJSON(w, status, wire.ErrorInfo{Name: name, Data: wire.ErrorInfoData{Message: msg}})
	})
}
