package opencodetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// streamBuffer is how many events a slow stream may fall behind before
// the fake cuts it, as a real server drops a consumer that does not read.
const streamBuffer = 1024

// Emit sends an event to every open stream: {"id", "type", "properties"}
// on /event (no id on 1.1.65), wrapped as {"directory", "payload"} on
// /global/event. props is anything that encodes to the properties object.
// Events emitted while no stream is open are lost, as on a real server:
// wait for Streams to count the consumer first.
func (s *Server) Emit(typ string, props any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.emitLocked(typ, props, s.opts.Directory)
}

// EmitRaw sends data as it is, as one event's data line, to every /event
// stream; /global/event streams get it too, unwrapped.
func (s *Server) EmitRaw(data string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.streams {
		s.sendLocked(ch, []byte(data))
	}
}

// Streams is how many event streams are open.
func (s *Server) Streams() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.streams)
}

// emitLocked encodes the event once per stream kind and queues it; dir is
// the directory /global/event names ("" for the server's own).
func (s *Server) emitLocked(typ string, props any, dir string) {
	if dir == "" {
		dir = s.opts.Directory
	}
	s.st.events++
	ev := map[string]any{"type": typ, "properties": props}
	if s.opts.Version != V11 {
		ev["id"] = fmt.Sprintf("evt_fake%06d", s.st.events)
	}
	local, _ := json.Marshal(ev)
	global, _ := json.Marshal(map[string]any{"directory": dir, "payload": ev})
	local, global = s.hostile(local), s.hostile(global)
	for ch, g := range s.streams {
		if g == "global" {
			s.sendLocked(ch, global)
		} else {
			s.sendLocked(ch, local)
		}
	}
}

// sendLocked queues data on a stream, cutting the stream if it is full.
func (s *Server) sendLocked(ch chan []byte, data []byte) {
	select {
	case ch <- data:
	default:
		close(ch)
		delete(s.streams, ch)
	}
}

// stream serves /event or /global/event: server.connected first, then
// whatever is emitted, with heartbeats if Options.Heartbeat is set, until
// the client goes or the server stops.
func (s *Server) stream(global bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		kind := "local"
		if global {
			kind = "global"
		}
		ch := make(chan []byte, streamBuffer)
		s.mu.Lock()
		s.streams[ch] = kind
		stopping := s.stopping
		s.mu.Unlock()
		defer s.unsubscribe(ch)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(200)
		write := func(data []byte) {
			fmt.Fprintf(w, "data: %s\n\n", data)
			w.(http.Flusher).Flush()
		}
		write(s.encodeOne("server.connected", global))
		var beat <-chan time.Time
		if s.opts.Heartbeat > 0 {
			t := time.NewTicker(s.opts.Heartbeat)
			defer t.Stop()
			beat = t.C
		}
		for {
			select {
			case data, ok := <-ch:
				if !ok {
					return
				}
				write(data)
			case <-beat:
				write(s.encodeOne("server.heartbeat", global))
			case <-r.Context().Done():
				return
			case <-stopping:
				return
			}
		}
	}
}

func (s *Server) unsubscribe(ch chan []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.streams, ch)
}

// encodeOne encodes an event with empty properties for one stream.
func (s *Server) encodeOne(typ string, global bool) []byte {
	ev := map[string]any{"type": typ, "properties": map[string]any{}}
	if s.opts.Version != V11 {
		s.mu.Lock()
		s.st.events++
		ev["id"] = fmt.Sprintf("evt_fake%06d", s.st.events)
		s.mu.Unlock()
	}
	var b []byte
	if global {
		b, _ = json.Marshal(map[string]any{"payload": ev})
	} else {
		b, _ = json.Marshal(ev)
	}
	return b
}
