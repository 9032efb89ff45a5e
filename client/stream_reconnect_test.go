package client

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// TestStreamReconnects: a server that drops every connection. Each
// reconnect is announced, followed by ResyncNeeded, and backs off further.
func TestStreamReconnects(t *testing.T) {
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		w.event(ev("server.connected", `{}`))
		w.event(ev("session.idle", fmt.Sprintf(`{"sessionID":"ses_%d"}`, n)))
	})
	c := mustNew(t, Options{BaseURL: srv.URL, Stream: fastStream()})
	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	// Each connection's two events come after its Connected: wait for
	// them too, or the last connection's may not be in yet.
	testwait.Eventually(t, func() bool { return rec.countState(wire.Connected) >= 4 && len(rec.envelopes()) >= 8 },
		10*time.Second, "4 connections and their 8 events")
	_ = stop()

	msgs := rec.all()
	connected, resyncs := 0, 0
	for i, m := range msgs {
		switch m := m.(type) {
		case wire.ConnState:
			if m.State == wire.Connected {
				connected++
				if i+1 >= len(msgs) || msgs[i+1] != (wire.ResyncNeeded{}) {
					t.Errorf("message %d: Connected not followed by ResyncNeeded", i)
				}
			}
		case wire.ResyncNeeded:
			resyncs++
		}
	}
	if resyncs != connected {
		t.Errorf("%d resyncs for %d connects", resyncs, connected)
	}
	// The states cycle connecting → connected → disconnected(err, retry),
	// with the attempt counting up because no connection lived long.
	st := rec.states()
	for i := 0; i+2 < len(st) && i < 9; i += 3 {
		want := i/3 + 1
		a, b, d := st[i], st[i+1], st[i+2]
		if a.State != wire.Connecting || b.State != wire.Connected || d.State != wire.Disconnected {
			t.Fatalf("states %d..%d: %v %v %v", i, i+2, a.State, b.State, d.State)
		}
		if a.Attempt != want || b.Attempt != want || d.Attempt != want {
			t.Errorf("cycle %d: attempts %d %d %d, want %d", want, a.Attempt, b.Attempt, d.Attempt, want)
		}
		if d.Err == nil || !strings.Contains(d.Err.Error(), "closed the event stream") {
			t.Errorf("cycle %d: disconnect error %v", want, d.Err)
		}
		if d.RetryAt.IsZero() {
			t.Errorf("cycle %d: no retry time", want)
		}
	}
	if got := len(rec.envelopes()); got < 8 {
		t.Errorf("%d events over 4 connections, want at least 8", got)
	}
}

func TestStreamBackoffResetsAfterStableConnection(t *testing.T) {
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		w.event(ev("server.connected", `{}`))
	})
	o := fastStream()
	o.StableAfter = time.Nanosecond // every connection counts as stable
	c := mustNew(t, Options{BaseURL: srv.URL, Stream: o})
	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	testwait.Eventually(t, func() bool { return rec.countState(wire.Connected) >= 4 }, 10*time.Second, "4 connections")
	_ = stop()
	for _, s := range rec.states() {
		if s.Attempt != 1 {
			t.Fatalf("state %+v: attempt should stay 1 after stable connections", s)
		}
	}
}

func TestBackoff(t *testing.T) {
	o := StreamOptions{Jitter: -1}.withDefaults()
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second,
		4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	for i, w := range want {
		if got := o.backoff(i + 1); got != w {
			t.Errorf("backoff(%d) = %v, want %v", i+1, got, w)
		}
	}
	if got := o.backoff(1000); got != 10*time.Second {
		t.Errorf("backoff(1000) = %v", got)
	}
	j := StreamOptions{}.withDefaults()
	seen := map[time.Duration]bool{}
	for range 200 {
		d := j.backoff(3) // 1s ± 20%
		if d < 800*time.Millisecond || d > 1200*time.Millisecond {
			t.Fatalf("jittered backoff %v outside 1s ± 20%%", d)
		}
		seen[d] = true
	}
	if len(seen) < 10 {
		t.Errorf("only %d distinct jittered waits in 200", len(seen))
	}
}

func TestStreamIdleWatchdog(t *testing.T) {
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		w.event(ev("server.connected", `{}`))
		w.event(ev("server.heartbeat", `{}`))
		w.hold() // then silence: a hung server
	})
	o := fastStream()
	o.IdleTimeout = 200 * time.Millisecond
	c := mustNew(t, Options{BaseURL: srv.URL, Stream: o})
	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	testwait.Eventually(t, func() bool { return rec.countState(wire.Connected) >= 2 }, 10*time.Second, "a reconnect after silence")
	_ = stop()
	var d wire.ConnState
	for _, s := range rec.states() {
		if s.State == wire.Disconnected {
			d = s
			break
		}
	}
	if !IsTimeout(d.Err) || !strings.Contains(d.Err.Error(), "went silent for 200ms") {
		t.Errorf("disconnect error %v, want the idle timeout", d.Err)
	}
}

// TestStreamNoHeartbeatNoWatchdog: a server that never sends heartbeats
// (1.1.65) is not cut for being quiet.
func TestStreamNoHeartbeatNoWatchdog(t *testing.T) {
	const idle = 100 * time.Millisecond
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		w.event(ev("server.connected", `{}`))
		select {
		case <-time.After(5 * idle):
		case <-w.r.Context().Done():
			return
		}
		w.event(ev("session.idle", `{"sessionID":"ses_a"}`))
		w.hold()
	})
	o := fastStream()
	o.IdleTimeout = idle
	c := mustNew(t, Options{BaseURL: srv.URL, Stream: o})
	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	testwait.Eventually(t, func() bool { return len(rec.envelopes()) >= 2 }, 10*time.Second, "the late event")
	_ = stop()
	if n := srv.conns.Load(); n != 1 {
		t.Errorf("%d connections, want 1: a quiet stream without heartbeats was cut", n)
	}
}

func TestStreamConnectTimeout(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done() // accepts, never answers
	})
	o := fastStream()
	o.ConnectTimeout = 100 * time.Millisecond
	c := mustNew(t, Options{BaseURL: srv.URL(), Stream: o})
	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	testwait.Eventually(t, func() bool { return rec.countState(wire.Disconnected) >= 2 }, 10*time.Second, "two failed attempts")
	_ = stop()
	d := rec.states()[1]
	if d.State != wire.Disconnected || !IsTimeout(d.Err) || !strings.Contains(d.Err.Error(), "accepted no stream within 100ms") {
		t.Errorf("state %+v, want a connect timeout", d)
	}
	if n := len(srv.Requests()); n < 2 {
		t.Errorf("%d attempts, want it to retry", n)
	}
}

func TestStreamPermanentFailures(t *testing.T) {
	cases := []struct {
		name   string
		status int
		ctype  string
		body   string
		kind   Kind
		msg    string
	}{
		{"html", 200, "text/html", "<!doctype html><html>", KindBadResponse, `expected an event stream from GET /event but got text/html: "<!doctype html><html>"`},
		{"404", 404, "text/plain", "Not Found", KindNotFound, "GET /event: the server has no such endpoint"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRecorder(t)
			srv.answer(tc.status, tc.ctype, tc.body)
			c := mustNew(t, Options{BaseURL: srv.URL, Stream: fastStream()})
			err := c.Stream(context.Background(), (&sendRecorder{}).send)
			if ErrorKind(err) != tc.kind || !strings.HasPrefix(err.Error(), tc.msg) {
				t.Errorf("got %v (%v), want %v %q", err, ErrorKind(err), tc.kind, tc.msg)
			}
			if n := srv.count(); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

func TestStreamRetriesServerErrors(t *testing.T) {
	srv := newRecorder(t)
	srv.answer(503, "text/plain", "starting")
	c := mustNew(t, Options{BaseURL: srv.URL, Stream: fastStream()})
	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	testwait.Eventually(t, func() bool { return srv.count() >= 3 }, 10*time.Second, "3 attempts")
	if err := stop(); err != nil {
		t.Errorf("Stream returned %v", err)
	}
	d := rec.states()[1]
	if ErrorKind(d.Err) != KindServer || !strings.Contains(d.Err.Error(), "503") {
		t.Errorf("disconnect error %v", d.Err)
	}
}

// TestStreamSurvivesServerRestart stops the server, checks the stream says
// it cannot reach it, then starts it again on the same address.
func TestStreamSurvivesServerRestart(t *testing.T) {
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		w.event(ev("server.connected", `{}`))
		w.hold()
	})
	c := mustNew(t, Options{BaseURL: srv.URL, Stream: fastStream()})
	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	testwait.Eventually(t, func() bool { return rec.countState(wire.Connected) == 1 }, 10*time.Second, "the first connection")

	srv.Stop()
	testwait.Eventually(t, func() bool {
		for _, s := range rec.states() {
			if s.State == wire.Disconnected && IsUnreachable(s.Err) && strings.HasPrefix(s.Err.Error(), "cannot reach OpenCode at "+srv.URL) {
				return true
			}
		}
		return false
	}, 10*time.Second, "a refused reconnect")

	srv.Start()
	testwait.Eventually(t, func() bool { return rec.countState(wire.Connected) == 2 }, 10*time.Second, "the reconnect")
	_ = stop()
	msgs := rec.all()
	resyncs := 0
	for _, m := range msgs {
		if m == (wire.ResyncNeeded{}) {
			resyncs++
		}
	}
	if resyncs != 2 {
		t.Errorf("%d resyncs, want 2", resyncs)
	}
}

// TestStreamNoGoroutineLeak reconnects 20 times to a server that drops
// every connection, then checks the goroutine count comes back down.
func TestStreamNoGoroutineLeak(t *testing.T) {
	srv := newSSEServer(t, func(n int, w *sseWriter) {
		w.event(ev("server.connected", `{}`))
		w.event(ev("server.heartbeat", `{}`)) // arms the idle watchdog too
	})
	o := fastStream()
	o.IdleTimeout = time.Minute
	c := mustNew(t, Options{BaseURL: srv.URL, Stream: o})
	before := runtime.NumGoroutine()

	rec := &sendRecorder{}
	stop := runStream(t, c, rec)
	testwait.Eventually(t, func() bool { return rec.countState(wire.Connected) >= 21 }, 30*time.Second, "20 reconnects")
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	c.CloseIdleConnections()

	testwait.Check(t, func() error {
		if n := runtime.NumGoroutine(); n > before {
			var buf bytes.Buffer
			_ = pprof.Lookup("goroutine").WriteTo(&buf, 1)
			return fmt.Errorf("%d goroutines after 20 reconnects, %d before:\n%s", n, before, buf.String())
		}
		return nil
	}, 10*time.Second, "the stream's goroutines to end")
}
