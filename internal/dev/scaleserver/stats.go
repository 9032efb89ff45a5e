package main

import (
	"net/http"
	"sync"
	"time"
)

// stats counts requests by route ("GET /session/{id}/message"), the bytes
// answered, and the most requests in flight at once. Event streams are
// counted as requests but not as in flight: they stay open.
type stats struct {
	mu       sync.Mutex
	routes   map[string]*routeStats
	inFlight int
	maxIn    int
	streams  int
	conns    int
	first    time.Time
	last     time.Time
}

type routeStats struct {
	Count int   `json:"count"`
	Bytes int64 `json:"bytes"`
	// DoneMS is when the route's last answer was written whole (Unix ms):
	// for GET /session, when the list reached a client on this host.
	DoneMS int64 `json:"done_ms,omitempty"`
}

// Stats is GET /_stats's answer.
type Stats struct {
	Total       int                   `json:"total"`
	Bytes       int64                 `json:"bytes"`
	MaxInFlight int                   `json:"max_in_flight"`
	InFlight    int                   `json:"in_flight"`
	Streams     int                   `json:"streams_open"`
	Connections int                   `json:"connections"`
	FirstMS     int64                 `json:"first_ms,omitempty"`
	LastMS      int64                 `json:"last_ms,omitempty"`
	Routes      map[string]routeStats `json:"routes"`
}

func newStats() *stats { return &stats{routes: map[string]*routeStats{}} }

func (s *stats) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes = map[string]*routeStats{}
	s.maxIn = s.inFlight
	s.conns = 0
	s.first, s.last = time.Time{}, time.Time{}
}

// conn counts a new TCP connection: a client that does not keep its
// connections alive opens one per request.
func (s *stats) conn() {
	s.mu.Lock()
	s.conns++
	s.mu.Unlock()
}

func (s *stats) snapshot() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := Stats{MaxInFlight: s.maxIn, InFlight: s.inFlight, Streams: s.streams, Connections: s.conns, Routes: map[string]routeStats{}}
	if !s.first.IsZero() {
		out.FirstMS, out.LastMS = s.first.UnixMilli(), s.last.UnixMilli()
	}
	for k, v := range s.routes {
		out.Routes[k] = *v
		out.Total += v.Count
		out.Bytes += v.Bytes
	}
	return out
}

// wrap counts every request to m but those to /_stats.
func (s *stats) wrap(m *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, pattern := m.Handler(r)
		if pattern == "GET /_stats" || pattern == "POST /_stats/reset" {
			m.ServeHTTP(w, r)
			return
		}
		if pattern == "" {
			pattern = r.Method + " (unknown) " + r.URL.Path
		}
		stream := pattern == "GET /event" || pattern == "GET /global/event"
		s.mu.Lock()
		rs := s.routes[pattern]
		if rs == nil {
			rs = &routeStats{}
			s.routes[pattern] = rs
		}
		rs.Count++
		now := time.Now()
		if s.first.IsZero() {
			s.first = now
		}
		if stream {
			s.streams++
		} else {
			s.inFlight++
			s.maxIn = max(s.maxIn, s.inFlight)
		}
		s.mu.Unlock()
		cw := &countingWriter{ResponseWriter: w}
		m.ServeHTTP(cw, r)
		s.mu.Lock()
		if rs2 := s.routes[pattern]; rs2 != nil {
			rs2.Bytes += cw.n
			rs2.DoneMS = time.Now().UnixMilli()
		}
		if stream {
			s.streams--
		} else {
			s.inFlight--
		}
		s.last = time.Now()
		s.mu.Unlock()
	})
}

type countingWriter struct {
	http.ResponseWriter
	n int64
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.ResponseWriter.Write(b)
	c.n += int64(n)
	return n, err
}

func (c *countingWriter) Flush() {
	if f, ok := c.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
