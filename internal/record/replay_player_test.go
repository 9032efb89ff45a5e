package record

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// recording writes entries through a Writer and reads them back,
// the way --replay gets them.
func recording(t *testing.T, write func(w *Writer)) Recording {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, "test", 0)
	if err != nil {
		t.Fatal(err)
	}
	write(w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rec, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func idle(id string) []byte {
	return []byte(`{"type":"session.idle","properties":{"sessionID":"` + id + `"}}`)
}

// sink collects what the player sends.
type sink struct {
	mu  sync.Mutex
	got []any
}

func (s *sink) send(v any) { s.mu.Lock(); s.got = append(s.got, v); s.mu.Unlock() }
func (s *sink) len() int   { s.mu.Lock(); defer s.mu.Unlock(); return len(s.got) }

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Eventually(t, cond, 5*time.Second, "%s", what)
}

func TestPlaysInOrderAtSpeed(t *testing.T) {
	rec := recording(t, func(w *Writer) {
		w.Conn("s", t0, wire.ConnState{State: wire.Connected})
		w.Event("s", t0.Add(100*time.Millisecond), idle("a"))
		w.Event("s", t0.Add(4*time.Second), idle("b"))
	})
	p, err := New(rec, Options{Speed: 32})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var s sink
	start := time.Now()
	go p.Run(ctx, s.send)
	eventually(t, "all three", func() bool { return s.len() == 3 })
	// 4 s of recording at 32× is 125 ms; at 1× it would be 4 s.
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("4 s at 32× took %s", el)
	}
	if c, ok := s.got[0].(wire.ConnState); !ok || c.State != wire.Connected {
		t.Errorf("first = %#v", s.got[0])
	}
	if env := s.got[2].(wire.Envelope); env.Event != (wire.SessionIdle{SessionID: "b"}) {
		t.Errorf("last = %#v", env.Event)
	}
	if c := p.Clock(); c.Before(t0.Add(4 * time.Second)) {
		t.Errorf("clock %v is before the last event", c.Sub(t0))
	}
}

func TestPauseHoldsEventsAndClock(t *testing.T) {
	rec := recording(t, func(w *Writer) {
		w.Event("s", t0, idle("a"))
		w.Event("s", t0.Add(200*time.Millisecond), idle("b"))
	})
	p, _ := New(rec, Options{})
	if !p.Toggle() {
		t.Fatal("Toggle did not pause")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var s sink
	go p.Run(ctx, s.send)
	eventually(t, "the first event", func() bool { return s.len() == 1 })
	c1 := p.Clock()
	// Paused: a wait well past the second event's time brings nothing.
	timer := time.NewTimer(testwait.Scale(400 * time.Millisecond))
	<-timer.C
	if s.len() != 1 || !p.Clock().Equal(c1) {
		t.Fatalf("while paused: %d events, clock moved %v", s.len(), p.Clock().Sub(c1))
	}
	if p.Toggle() {
		t.Fatal("Toggle did not resume")
	}
	eventually(t, "the second event after resuming", func() bool { return s.len() == 2 })
}

func TestSpeedSteps(t *testing.T) {
	p, _ := New(Recording{}, Options{Speed: 16})
	if got := p.Faster(); got != 32 {
		t.Errorf("Faster from 16 = %g", got)
	}
	if got := p.Faster(); got != 32 {
		t.Errorf("Faster stops at 32, got %g", got)
	}
	for range 10 {
		p.Slower()
	}
	if _, got := p.State(); got != 0.25 {
		t.Errorf("Slower stops at 0.25, got %g", got)
	}
	if _, err := New(Recording{}, Options{Speed: 3}); err == nil {
		t.Error("--speed 3 was accepted")
	}
}

// TestSnapshotsAnswerReadsInOrder: in a recording whose reads are not
// numbered, each read gets the next recorded snapshot, when the replay
// reaches it, as it did live.
func TestSnapshotsAnswerReadsInOrder(t *testing.T) {
	snap := func(id string) model.Snapshot { return model.Snapshot{Sessions: []wire.Session{{ID: id}}} }
	rec := recording(t, func(w *Writer) {
		w.Resync("s", t0)
		w.Health("s", t0, wire.Health{Healthy: true, Version: "1.1.65"})
		// Numbered 0: a recording from before reads were numbered.
		w.Snapshot("s", t0.Add(50*time.Millisecond), 0, snap("first"))
		w.Snapshot("s", t0.Add(100*time.Millisecond), 0, snap("second"))
	})
	p, _ := New(rec, Options{Speed: 4})
	b := p.Backend()
	if b == nil {
		t.Fatal("a recording with snapshots gave no backend")
	}
	if h, err := b.Health(context.Background()); err != nil || h.Version != "1.1.65" {
		t.Errorf("health = %+v, %v", h, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results := make(chan string, 3)
	read := func() {
		s, err := b.Snapshot(ctx)
		if err != nil {
			results <- "error: " + err.Error()
			return
		}
		results <- s.Sessions[0].ID
	}
	go read()
	var s sink
	go p.Run(ctx, s.send)
	if got := <-results; got != "first" {
		t.Fatalf("first read got %q", got)
	}
	go read()
	if got := <-results; got != "second" {
		t.Fatalf("second read got %q", got)
	}
	go read()
	if got := <-results; got != "error: "+errEnded.Error() {
		t.Fatalf("a read past the last snapshot got %q", got)
	}
	if _, ok := s.got[0].(wire.ResyncNeeded); !ok || len(s.got) != 1 {
		t.Errorf("sent %#v, want only the resync (snapshots go to reads)", s.got)
	}
}

func TestNoSnapshotsNoBackend(t *testing.T) {
	rec := recording(t, func(w *Writer) { w.Event("s", t0, idle("a")) })
	p, _ := New(rec, Options{})
	if p.Backend() != nil {
		t.Error("a recording without snapshots should read nothing")
	}
}

func TestLoopCallsOnLoop(t *testing.T) {
	rec := recording(t, func(w *Writer) { w.Event("s", t0, idle("a")) })
	loops := make(chan struct{}, 10)
	p, _ := New(rec, Options{Loop: true, LoopPause: time.Millisecond, OnLoop: func() { loops <- struct{}{} }})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var s sink
	go p.Run(ctx, s.send)
	select {
	case <-loops:
	case <-time.After(testwait.Scale(5 * time.Second)):
		t.Fatal("the loop never started over")
	}
	eventually(t, "the event again", func() bool { return s.len() >= 2 })
}

// TestHistoriesAnswerReads: a history the live screen read is the
// replay's answer for that session, and is not sent as an event.
func TestHistoriesAnswerReads(t *testing.T) {
	msgs := []wire.MessageWithParts{{Info: wire.Message{ID: "msg_1", SessionID: "ses_old", Role: "user"}}}
	rec := recording(t, func(w *Writer) {
		w.Snapshot("s", t0, 1, model.Snapshot{Sessions: []wire.Session{{ID: "ses_old"}}})
		w.History("s", t0.Add(time.Millisecond), "ses_old", msgs)
		w.History("s", t0.Add(2*time.Millisecond), "ses_old", nil) // a later read: the first is kept
		w.Event("s", t0.Add(3*time.Millisecond), idle("ses_old"))
	})
	p, err := New(rec, Options{Speed: 32})
	if err != nil {
		t.Fatal(err)
	}
	h, ok := p.Backend().(interface {
		History(string) ([]wire.MessageWithParts, bool)
	})
	if !ok {
		t.Fatal("the replay's backend answers no history")
	}
	if got, ok := h.History("ses_old"); !ok || len(got) != 1 || got[0].Info.ID != "msg_1" {
		t.Errorf("History(ses_old) = %v, %v", got, ok)
	}
	if _, ok := h.History("ses_other"); ok {
		t.Error("a session never read has a history")
	}
	s := &sink{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.Run(ctx, s.send)
	go func() { _, _ = p.Backend().Snapshot(ctx) }()
	eventually(t, "the idle event", func() bool { return s.len() == 1 })
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.got[0].(wire.Envelope); !ok {
		t.Errorf("sent %T, want only the event", s.got[0])
	}
}
