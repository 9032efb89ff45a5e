package sleep

import (
	"context"
	"time"
)

// For waits d, or until ctx ends; it returns ctx.Err() when ctx ended
// first (or had ended), else nil.
func For(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil || d <= 0 {
		return err
	}
	t := New(ctx)
	defer t.Close()
	return t.For(d)
}

// Timer waits again and again, until its context ends: what a loop that
// waits every round keeps (the stream's pace), so that a wait costs only
// arming the clock and waiting for it.
type Timer struct {
	ctx  context.Context
	a    *alarm        // nil: Go timers
	stop func() bool   // ends the watch on ctx; nil if ctx never ends
	cut  chan struct{} // closed once ctx's end has cut the alarm short
}

// New is a Timer that waits until ctx ends; Close lets it go.
func New(ctx context.Context) *Timer {
	t := &Timer{ctx: ctx, a: get()}
	if t.a != nil && ctx.Done() != nil {
		a, cut := t.a, make(chan struct{})
		t.cut = cut
		// A read deadline in the past ends a wait at once, and every
		// later one: how ctx's end cuts the timer short.
		t.stop = context.AfterFunc(ctx, func() {
			a.cut()
			close(cut)
		})
	}
	return t
}

// For waits d, or until the Timer's context ends; it returns ctx.Err()
// when that ended first (or had ended), else nil.
func (t *Timer) For(d time.Duration) error {
	if err := t.ctx.Err(); err != nil || d <= 0 {
		return err
	}
	if t.a != nil {
		if t.a.wait(d) {
			return t.ctx.Err()
		}
		t.release(false) // the alarm failed: Go timers from now on
	}
	return timer(t.ctx, d)
}

// Close lets the Timer go; it must not wait again.
func (t *Timer) Close() {
	if t.a != nil {
		t.release(true)
	}
}

// release gives the alarm back for another Timer when keep says it may
// and ctx's end has not cut it short, else closes it.
func (t *Timer) release(keep bool) {
	a := t.a
	t.a = nil
	if t.stop != nil && !t.stop() {
		<-t.cut // the deadline is in place; the alarm goes with it
		keep = false
	}
	if keep {
		put(a)
		return
	}
	a.close()
}

// timer is For with a Go timer.
func timer(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
