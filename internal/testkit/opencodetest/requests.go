package opencodetest

import (
	"encoding/json"
	"net/http"
	"net/url"
)

// Request is one request as the fake received it.
type Request struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
}

func newRequest(r *http.Request, body []byte) Request {
	return Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body}
}

// String is "METHOD /path", e.g. "POST /session/ses_a/abort".
func (r Request) String() string { return r.Method + " " + r.Path }

// Directory is the request's ?directory=, or "".
func (r Request) Directory() string { return r.Query.Get("directory") }

// BasicAuth is the request's basic-auth user and password, if any.
func (r Request) BasicAuth() (user, pass string, ok bool) {
	hr := http.Request{Header: r.Header}
	return hr.BasicAuth()
}

// Decode decodes the request's JSON body into v.
func (r Request) Decode(v any) error { return json.Unmarshal(r.Body, v) }

// Requests is every request received so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// RequestsTo is the requests whose "METHOD /path" is call.
func (s *Server) RequestsTo(call string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.String() == call {
			out = append(out, r)
		}
	}
	return out
}

// Last is the newest request; ok is false when there was none.
func (s *Server) Last() (r Request, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.requests) == 0 {
		return Request{}, false
	}
	return s.requests[len(s.requests)-1], true
}

// Mutations is the requests that may change the server (all but GET), as
// "METHOD /path".
func (s *Server) Mutations() []string {
	var out []string
	for _, r := range s.Requests() {
		if r.Method != http.MethodGet {
			out = append(out, r.String())
		}
	}
	return out
}

// Calls is every request as "METHOD /path", oldest first.
func (s *Server) Calls() []string {
	var out []string
	for _, r := range s.Requests() {
		out = append(out, r.String())
	}
	return out
}

// ClearRequests forgets the requests received so far, so a test can check
// what one step sends.
func (s *Server) ClearRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = nil
}
