package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// sendRecorder collects what Stream sends.
type sendRecorder struct {
	mu   sync.Mutex
	msgs []any
}

func (r *sendRecorder) send(m any) {
	r.mu.Lock()
	r.msgs = append(r.msgs, m)
	r.mu.Unlock()
}

func (r *sendRecorder) all() []any {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]any(nil), r.msgs...)
}

func (r *sendRecorder) states() []wire.ConnState {
	var s []wire.ConnState
	for _, m := range r.all() {
		if cs, ok := m.(wire.ConnState); ok {
			s = append(s, cs)
		}
	}
	return s
}

func (r *sendRecorder) envelopes() []wire.Envelope {
	var s []wire.Envelope
	for _, m := range r.all() {
		if e, ok := m.(wire.Envelope); ok {
			s = append(s, e)
		}
	}
	return s
}

func (r *sendRecorder) countState(st wire.State) int {
	n := 0
	for _, s := range r.states() {
		if s.State == st {
			n++
		}
	}
	return n
}

// sseServer is the shared fake server with every request answered by
// handle, which writes connection n's events (n counts from 1). When
// handle returns, the connection is dropped.
type sseServer struct {
	*opencodetest.Server
	URL   string
	conns atomic.Int32
}

func newSSEServer(t *testing.T, handle func(n int, w *sseWriter)) *sseServer {
	t.Helper()
	s := &sseServer{Server: opencodetest.New(t, opencodetest.Options{})}
	s.URL = s.Server.URL()
	s.Handle("/", s.handler(handle))
	return s
}

func (s *sseServer) handler(handle func(n int, w *sseWriter)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(s.conns.Add(1))
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		handle(n, &sseWriter{w: w, r: r})
	})
}

type sseWriter struct {
	w http.ResponseWriter
	r *http.Request
}

func (s *sseWriter) event(data string) {
	fmt.Fprintf(s.w, "data: %s\n\n", data)
	s.w.(http.Flusher).Flush()
}

// hold keeps the connection open until the client goes away.
func (s *sseWriter) hold() { <-s.r.Context().Done() }

func ev(typ, props string) string {
	return fmt.Sprintf(`{"id":"evt_x","type":%q,"properties":%s}`, typ, props)
}

// runStream starts Stream in a goroutine; stop cancels it and returns its
// result, failing if it does not end promptly.
func runStream(t *testing.T, c *Client, rec *sendRecorder) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Stream(ctx, rec.send) }()
	var once sync.Once
	var result error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case result = <-done:
			case <-time.After(testwait.Scale(10 * time.Second)):
				t.Fatal("Stream did not return after its context was cancelled")
			}
		})
		return result
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

func fastStream() StreamOptions {
	return StreamOptions{MinBackoff: 2 * time.Millisecond, MaxBackoff: 10 * time.Millisecond}
}

func TestStreamDecodes(t *testing.T) {
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		if w.r.URL.Path != "/event" || w.r.URL.Query().Get("directory") != "/p" || w.r.Header.Get("Accept") != "text/event-stream" {
			w.event(ev("test.bad.request", `{}`))
		}
		w.event(ev("server.connected", `{}`))
		w.event(ev("session.created", `{"sessionID":"ses_b","info":{"id":"ses_b","parentID":"ses_a","title":"child (@general subagent)","time":{"created":1,"updated":1}}}`))
		w.event(ev("foo.bar", `{"x":1}`))
		w.event(`{not json`)
		w.event(ev("session.status", `{"status":{"type":"busy"}}`)) // no sessionID
		w.event(ev("message.part.delta", `{"sessionID":"ses_b","messageID":"msg_1","partID":"prt_1","field":"text","delta":"hel"}`))
		w.hold()
	})
	c := mustNew(t, Options{BaseURL: srv.URL, Directory: "/p"})
	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	testwait.Eventually(t, func() bool { return len(rec.envelopes()) == 4 }, 10*time.Second, "the delta event")
	if err := stop(); err != nil {
		t.Fatalf("Stream returned %v after cancel, want nil", err)
	}

	msgs := rec.all()
	var kinds []string
	for _, m := range msgs {
		switch m := m.(type) {
		case wire.ConnState:
			kinds = append(kinds, "state:"+m.State.String())
		case wire.ResyncNeeded:
			kinds = append(kinds, "resync")
		case wire.Envelope:
			kinds = append(kinds, m.Event.EventType())
		case wire.DecodeError:
			kinds = append(kinds, "decode-error")
		default:
			kinds = append(kinds, fmt.Sprintf("%T", m))
		}
	}
	want := []string{"state:connecting", "state:connected", "resync", "server.connected", "session.created",
		"foo.bar", "decode-error", "decode-error", "message.part.delta", "state:disconnected"}
	if strings.Join(kinds, " ") != strings.Join(want, " ") {
		t.Fatalf("sent\n %v\nwant\n %v", kinds, want)
	}
	if u, ok := msgs[5].(wire.Envelope).Event.(wire.Unknown); !ok || u.Type != "foo.bar" {
		t.Errorf("unknown type came as %#v", msgs[5])
	}
	if sc := msgs[4].(wire.Envelope).Event.(wire.SessionCreated); sc.Info.ParentID != "ses_a" || msgs[4].(wire.Envelope).ID != "evt_x" {
		t.Errorf("session.created: %+v", msgs[4])
	}
	if de := msgs[6].(wire.DecodeError); string(de.Data) != "{not json" || de.Err == nil {
		t.Errorf("decode error %+v", de)
	}
	if de := msgs[7].(wire.DecodeError); !strings.Contains(de.Error(), "session.status") {
		t.Errorf("decode error for a bad known type: %v", de.Err)
	}
	if d := msgs[8].(wire.Envelope).Event.(wire.PartDelta); d.Delta != "hel" || d.PartID != "prt_1" {
		t.Errorf("delta %+v", d)
	}
	last := msgs[len(msgs)-1].(wire.ConnState)
	if last.Err != nil || !last.RetryAt.IsZero() {
		t.Errorf("final state after cancel %+v, want no error and no retry", last)
	}
	if st := rec.states(); st[0].Attempt != 1 || st[1].Attempt != 1 {
		t.Errorf("attempts %+v, want 1", st)
	}
}

func TestStreamLargeEvent(t *testing.T) {
	const size = 5 << 20
	output := strings.Repeat("0123456789abcdef", size/16)
	part := fmt.Sprintf(`{"part":{"id":"prt_big","sessionID":"ses_a","messageID":"msg_1","type":"tool","tool":"bash","callID":"c1","state":{"status":"completed","input":{},"output":%q,"time":{"start":1,"end":2}}}}`, output)
	big := ev("message.part.updated", part)
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		w.event(ev("server.connected", `{}`))
		// Written in pieces, as a real server's socket would deliver it.
		b := []byte("data: " + big + "\n\n")
		for len(b) > 0 {
			k := min(len(b), 64<<10)
			_, _ = w.w.Write(b[:k])
			w.w.(http.Flusher).Flush()
			b = b[k:]
		}
		w.event(ev("session.idle", `{"sessionID":"ses_a"}`))
		w.hold()
	})
	c := mustNew(t, Options{BaseURL: srv.URL})
	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	testwait.Eventually(t, func() bool { return len(rec.envelopes()) == 3 }, 30*time.Second, "the event after the 5 MB one")
	_ = stop()
	envs := rec.envelopes()
	pu, ok := envs[1].Event.(wire.PartUpdated)
	if !ok {
		t.Fatalf("second event is %#v", envs[1].Event)
	}
	if pu.Part.State == nil || len(pu.Part.State.Output) != size || pu.Part.State.Output != output {
		t.Errorf("the 5 MB output did not arrive whole")
	}
	if _, ok := envs[2].Event.(wire.SessionIdle); !ok {
		t.Errorf("third event is %#v", envs[2].Event)
	}
	if n := srv.conns.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
	for _, m := range rec.all() {
		if de, ok := m.(wire.DecodeError); ok {
			t.Errorf("decode error %v", de.Err)
		}
	}
}

func TestStreamTooLargeEventReconnects(t *testing.T) {
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		w.event(ev("server.connected", `{}`))
		if n == 1 {
			w.event(ev("session.idle", `{"sessionID":"ses_`+strings.Repeat("a", 4096)+`"}`))
		}
		w.hold()
	})
	o := fastStream()
	o.MaxEventSize = 1024
	c := mustNew(t, Options{BaseURL: srv.URL, Stream: o})
	rec := &sendRecorder{}
	runStream(t, c, rec)
	testwait.Eventually(t, func() bool { return rec.countState(wire.Connected) == 2 }, 10*time.Second, "a second connection")
	var lost error
	for _, s := range rec.states() {
		if s.State == wire.Disconnected {
			lost = s.Err
		}
	}
	if lost == nil || !strings.Contains(lost.Error(), "lost the event stream") ||
		!strings.Contains(lost.Error(), "an event is larger than 1 KiB, the most octop reads of one event") {
		t.Errorf("disconnect error %v, want the limit named", lost)
	}
}

func TestStreamGlobal(t *testing.T) {
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		if w.r.URL.Path != "/global/event" {
			w.event(ev("test.wrong.path", `{}`))
		}
		w.event(`{"directory":"/home/dev/p","payload":{"id":"evt_1","type":"session.idle","properties":{"sessionID":"ses_a"}}}`)
		w.event(`{"directory":"/home/dev/q","payload":{"type":"something.new","properties":{}}}`)
		w.hold()
	})
	c := mustNew(t, Options{BaseURL: srv.URL, Global: true})
	if c.StreamPath() != "/global/event" {
		t.Errorf("StreamPath() = %q", c.StreamPath())
	}
	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	testwait.Eventually(t, func() bool { return len(rec.envelopes()) >= 2 }, 10*time.Second, "two events")
	_ = stop()
	envs := rec.envelopes()
	want := wire.Envelope{ID: "evt_1", Directory: "/home/dev/p", Event: wire.SessionIdle{SessionID: "ses_a"}}
	if envs[0].Received.IsZero() {
		t.Errorf("envelope %+v: Received not set", envs[0])
	}
	envs[0].Received = time.Time{}
	if envs[0] != want {
		t.Errorf("got %+v, want %+v", envs[0], want)
	}
	if envs[1].Directory != "/home/dev/q" || envs[1].Event != (wire.Unknown{Type: "something.new"}) {
		t.Errorf("got %+v", envs[1])
	}
}

// TestStreamSlowConsumerNotIdle: time spent in send does not count as the
// server being silent.
func TestStreamSlowConsumerNotIdle(t *testing.T) {
	// The server's next event must come within idle of the slow send's
	// end, even on a loaded machine.
	const idle = 250 * time.Millisecond
	resume := make(chan struct{}) // closed when the consumer has been slow
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		// One write, so that only the consumer can be slow, not the server.
		fmt.Fprintf(w.w, "data: %s\n\ndata: %s\n\n", ev("server.heartbeat", `{}`), ev("session.idle", `{"sessionID":"ses_a"}`))
		w.w.(http.Flusher).Flush()
		select {
		case <-resume:
		case <-w.r.Context().Done():
			return
		}
		w.event(ev("session.idle", `{"sessionID":"ses_b"}`))
		w.hold()
	})
	o := fastStream()
	o.IdleTimeout = idle
	c := mustNew(t, Options{BaseURL: srv.URL, Stream: o})
	rec := &sendRecorder{}
	var once sync.Once
	slow := func(m any) {
		rec.send(m)
		if e, ok := m.(wire.Envelope); ok && e.Event == (wire.SessionIdle{SessionID: "ses_a"}) {
			once.Do(func() {
				// Hold the stream well past the idle limit, as a busy UI might.
				<-time.After(4 * idle)
				close(resume)
			})
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Stream(ctx, slow) }()
	testwait.Eventually(t, func() bool {
		for _, e := range rec.envelopes() {
			if e.Event == (wire.SessionIdle{SessionID: "ses_b"}) {
				return true
			}
		}
		return false
	}, 10*time.Second, "the event sent after the slow send")
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := srv.conns.Load(); n != 1 || rec.countState(wire.Disconnected) != 1 {
		t.Errorf("%d connections, %d disconnects: a slow consumer was taken for a dead server", n, rec.countState(wire.Disconnected))
	}
}

func TestDecodeErrorDataTruncated(t *testing.T) {
	junk := strings.Repeat("x", 10<<10)
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		w.event(junk)
		w.hold()
	})
	c := mustNew(t, Options{BaseURL: srv.URL})
	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	var de wire.DecodeError
	testwait.Eventually(t, func() bool {
		for _, m := range rec.all() {
			if d, ok := m.(wire.DecodeError); ok {
				de = d
				return true
			}
		}
		return false
	}, 10*time.Second, "the decode error")
	_ = stop()
	if len(de.Data) != decodeErrorDataMax || !errors.Is(de.Err, de.Err) {
		t.Errorf("Data is %d bytes, want %d", len(de.Data), decodeErrorDataMax)
	}
}

// TestStreamIgnoresHTTPClientTimeout: a caller's http.Client with a
// Timeout must not cut the long-lived stream.
func TestStreamIgnoresHTTPClientTimeout(t *testing.T) {
	const limit = 100 * time.Millisecond
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		w.event(ev("server.connected", `{}`))
		select {
		case <-time.After(5 * limit):
		case <-w.r.Context().Done():
			return
		}
		w.event(ev("session.idle", `{"sessionID":"ses_a"}`))
		w.hold()
	})
	c := mustNew(t, Options{BaseURL: srv.URL, HTTPClient: &http.Client{Timeout: limit}, Stream: fastStream()})
	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	testwait.Eventually(t, func() bool { return len(rec.envelopes()) >= 2 }, 10*time.Second, "the late event")
	_ = stop()
	if n := srv.conns.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
}

// TestStreamRaw: --record depends on Raw seeing every event's data as the
// server sent it, undecodable ones included, before the screen gets it.
func TestStreamRaw(t *testing.T) {
	sent := []string{ev("server.connected", `{}`), `{not json`, ev("session.idle", `{"sessionID":"ses_a"}`)}
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		for _, d := range sent {
			w.event(d)
		}
		w.hold()
	})
	var mu sync.Mutex
	var raw []string
	o := Options{BaseURL: srv.URL, Stream: StreamOptions{Raw: func(d string) { mu.Lock(); raw = append(raw, d); mu.Unlock() }}}
	rec := &sendRecorder{}
	runStream(t, mustNew(t, o), rec)
	testwait.Eventually(t, func() bool { return len(rec.envelopes()) == 2 }, 10*time.Second, "the idle event")
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(raw, "\n") != strings.Join(sent, "\n") {
		t.Fatalf("Raw saw\n %q\nwant\n %q", raw, sent)
	}
}
