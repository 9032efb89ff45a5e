package main

import (
	"net/http"
	"sync"
	"time"
)

// idGenLocked numbers the events of every stream: evt_ ids ascend with
// time, as the real server's do.
type idGenLocked struct {
	mu sync.Mutex
	g  idGen
	n  uint64
}

func (e *idGenLocked) next() string {
	e.mu.Lock()
	ts, c := e.g.next(time.Now().UnixMilli())
	e.n++
	n := e.n
	e.mu.Unlock()
	return "evt_" + ascendingID(ts, c) + base62(splitmix(n), 14)
}

// stream serves /event or /global/event: server.connected, then a
// server.heartbeat every s.beat, until the client goes. /global/event
// wraps each event as {"payload": …}.
func (s *server) stream(global bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(200)
		send := func(typ string) bool {
			b := []byte("data: ")
			if global {
				b = append(b, `{"payload":`...)
			}
			b = append(b, '{')
			b = kstr(b, "id", s.evt.next())
			b = kstr(b, "type", typ)
			b = append(b, `,"properties":{}}`...)
			if global {
				b = append(b, '}')
			}
			b = append(b, "\n\n"...)
			if _, err := w.Write(b); err != nil {
				return false
			}
			w.(http.Flusher).Flush()
			return true
		}
		if !send("server.connected") {
			return
		}
		var beat <-chan time.Time
		if s.beat > 0 {
			t := time.NewTicker(s.beat)
			defer t.Stop()
			beat = t.C
		}
		for {
			select {
			case <-beat:
				if !send("server.heartbeat") {
					return
				}
			case <-r.Context().Done():
				return
			}
		}
	}
}
