package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/octop-dev/octop/internal/record"
)

// script is what a recording of one live server holds for the fake: the
// first snapshot's sessions (what the screen reads at start) and the
// events after it, with their times.
type script struct {
	sessions json.RawMessage
	version  string
	events   []timed
}

// timed is one event's SSE data and when it came, after the first.
type timed struct {
	after time.Duration
	data  []byte
}

// load reads a recording made with --record of one server. Events
// before the fan-out (server.connected, heartbeats while octop waited)
// are left out: the fake sends its own server.connected, and the play
// starts with the first event that is neither.
func load(path string) (script, error) {
	var s script
	rec, err := readRecording(path)
	if err != nil {
		return s, err
	}
	var start int64
	for _, e := range rec.Entries {
		switch e.Kind {
		case record.KindSnapshot:
			if s.sessions == nil {
				var snap struct{ Sessions json.RawMessage }
				if err := json.Unmarshal(e.Data, &snap); err != nil {
					return s, fmt.Errorf("%s: snapshot: %w", path, err)
				}
				s.sessions = snap.Sessions
			}
		case record.KindHealth:
			var h struct{ Version string }
			_ = json.Unmarshal(e.Data, &h)
			s.version = h.Version
		case record.KindEvent:
			if start == 0 {
				if t := eventType(e.Data); t == "server.connected" || t == "server.heartbeat" {
					continue
				}
				start = e.At
			}
			s.events = append(s.events, timed{after: time.Duration(e.At-start) * time.Millisecond, data: e.Data})
		}
	}
	if s.sessions == nil || len(s.events) == 0 {
		return s, fmt.Errorf("%s: no snapshot or no events", path)
	}
	return s, nil
}

func eventType(data []byte) string {
	var e struct{ Type string }
	_ = json.Unmarshal(data, &e)
	return e.Type
}

// fake is an OpenCode server that answers the screen's start-up reads
// from the script and plays its events on /event when told.
type fake struct {
	sc  script
	srv *http.Server
	url string

	mu      sync.Mutex
	streams []chan []byte
}

func serve(sc script) (*fake, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f := &fake{sc: sc, url: "http://" + l.Addr().String()}
	f.srv = &http.Server{Handler: http.HandlerFunc(f.serveHTTP)}
	go func() { _ = f.srv.Serve(l) }()
	return f, nil
}

func (f *fake) close() { _ = f.srv.Close() }

func (f *fake) serveHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	json := func(body string) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}
	switch {
	case p == "/event":
		f.stream(w, r)
	case p == "/global/health":
		json(`{"healthy":true,"version":"` + f.sc.version + `"}`)
	case p == "/session":
		json(string(f.sc.sessions))
	case p == "/session/status":
		json(`{}`)
	case p == "/permission", p == "/question", strings.HasSuffix(p, "/message"),
		strings.HasSuffix(p, "/todo"), strings.HasSuffix(p, "/diff"), strings.HasSuffix(p, "/children"):
		json(`[]`)
	default:
		w.WriteHeader(http.StatusNotFound)
		json(`{"name":"NotFoundError","data":{"message":"not in the recording"}}`)
	}
}

// stream sends server.connected, then whatever play hands it.
func (f *fake) stream(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	ch := make(chan []byte, 1<<14)
	f.mu.Lock()
	f.streams = append(f.streams, ch)
	f.mu.Unlock()
	write := func(data []byte) bool {
		_, err := fmt.Fprintf(w, "data: %s\n\n", data)
		w.(http.Flusher).Flush()
		return err == nil
	}
	if !write([]byte(`{"id":"evt_replay","type":"server.connected","properties":{}}`)) {
		return
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case d := <-ch:
			if !write(d) {
				return
			}
		}
	}
}

// connected is how many streams are open.
func (f *fake) connected() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.streams)
}

// play sends the script's events to every stream at the pace they came,
// speed times faster.
func (f *fake) play(speed float64) {
	start := time.Now()
	for _, e := range f.sc.events {
		if d := time.Duration(float64(e.after)/speed) - time.Since(start); d > 0 {
			time.Sleep(d)
		}
		f.mu.Lock()
		for _, ch := range f.streams {
			ch <- e.data
		}
		f.mu.Unlock()
	}
}
