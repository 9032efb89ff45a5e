package ui

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/wire"
)

func TestDemoLoops(t *testing.T) {
	frames := []DemoFrame{
		{At: 0, Event: wire.Envelope{Event: wire.SessionCreated{Info: wire.Session{ID: "ses_a",
			Time: wire.SessionTime{Created: 1_700_000_000_000}}}}},
		{At: 5 * time.Millisecond, Event: wire.Envelope{Event: wire.SessionIdle{SessionID: "ses_a"}}},
	}
	d := NewDemo(frames)
	d.Pause = 10 * time.Millisecond
	if got := d.Clock(); got.Before(time.UnixMilli(1_700_000_000_000)) || got.After(time.UnixMilli(1_700_000_060_000)) {
		t.Fatalf("demo clock %v is not on the recording's time", got)
	}
	var mu sync.Mutex
	var got []any
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.Run(ctx, func(v any) {
			mu.Lock()
			got = append(got, v)
			mu.Unlock()
		})
	}()
	// One loop is two events, the pause, then a reset and the events again.
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the demo did not loop: %d values", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	if _, ok := got[2].(ResetMsg); !ok {
		t.Fatalf("third value %#v, want ResetMsg between loops", got[2])
	}
	if e, ok := got[3].(wire.Envelope); !ok || e.Event.EventType() != "session.created" {
		t.Fatalf("fourth value %#v, want the recording's first event again", got[3])
	}
}
