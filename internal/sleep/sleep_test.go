package sleep

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// TestForWaitsItsTime: For returns no sooner than asked, many times over
// on the same alarms, several at once.
func TestForWaitsItsTime(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, d := range []time.Duration{time.Millisecond, 7 * time.Millisecond, 20 * time.Millisecond} {
				start := time.Now()
				if err := For(context.Background(), d); err != nil {
					t.Errorf("For(%s) = %v", d, err)
				}
				if took := time.Since(start); took < d {
					t.Errorf("For(%s) returned after %s", d, took)
				}
			}
		})
	}
	wg.Wait()
}

// TestForEndsWithItsContext: a context that ends cuts the wait short
// with its error, and the alarm it used waits its whole time next.
func TestForEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- For(ctx, time.Hour) }()
	time.AfterFunc(testwait.Scale(10*time.Millisecond), cancel)
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("For cut short returned %v, want context.Canceled", err)
		}
	case <-time.After(testwait.Scale(10 * time.Second)):
		t.Fatal("the context ended but For still waits")
	}
	if err := For(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("For on an ended context = %v", err)
	}
	for range 3 { // the same spare alarms, now with a live context
		start := time.Now()
		if err := For(context.Background(), 15*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took < 15*time.Millisecond {
			t.Fatalf("after a cut-short wait, For(15ms) returned after %s: the alarm kept a stale deadline or expiry", took)
		}
	}
}

// TestTimerWaitsAgainAndEndsWithItsContext: one Timer waits its time
// round after round; its context's end cuts the wait under way short and
// every later one; the next Timers wait their whole time.
func TestTimerWaitsAgainAndEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	tm := New(ctx)
	for range 5 {
		start := time.Now()
		if err := tm.For(3 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took < 3*time.Millisecond {
			t.Fatalf("For(3ms) returned after %s", took)
		}
	}
	done := make(chan error, 1)
	go func() { done <- tm.For(time.Hour) }()
	time.AfterFunc(testwait.Scale(10*time.Millisecond), cancel)
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cut short: %v, want context.Canceled", err)
		}
	case <-time.After(testwait.Scale(10 * time.Second)):
		t.Fatal("the context ended but the Timer still waits")
	}
	if err := tm.For(time.Hour); !errors.Is(err, context.Canceled) {
		t.Fatalf("after its context ended: %v", err)
	}
	tm.Close()
	for range 3 {
		next := New(context.Background())
		start := time.Now()
		if err := next.For(10 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took < 10*time.Millisecond {
			t.Fatalf("a later Timer returned after %s: it got the cut alarm", took)
		}
		next.Close()
	}
}
