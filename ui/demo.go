package ui

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/octop-dev/octop/wire"
)

// DemoFrame is one recorded event and when it arrived, counted from the
// start of the recording.
type DemoFrame struct {
	At    time.Duration
	Event wire.Envelope
}

// demoPause is how long the last state of a loop stays on screen before
// the recording starts over.
const demoPause = 8 * time.Second

// Demo replays a recording at real pace, on a loop, with no server. Its
// Clock runs on the recording's time, so elapsed times and durations read
// as they did when it was recorded.
type Demo struct {
	// Pause is how long the end of a loop stays on screen (demoPause).
	Pause  time.Duration
	frames []DemoFrame
	base   time.Time // the recording's wall time at offset 0

	// loopStart is when the current loop began, in Unix ns. Run sets it
	// on its goroutine; Clock reads it on the program's.
	loopStart atomic.Int64
}

// NewDemo prepares a replay of frames, which must be in time order.
func NewDemo(frames []DemoFrame) *Demo {
	d := &Demo{Pause: demoPause, frames: frames, base: recordingBase(frames)}
	d.loopStart.Store(time.Now().UnixNano())
	return d
}

// recordingBase finds the wall time the recording started at, from the
// first event that carries a timestamp.
func recordingBase(frames []DemoFrame) time.Time {
	for _, f := range frames {
		var ms int64
		switch e := f.Event.Event.(type) {
		case wire.SessionCreated:
			ms = e.Info.Time.Created
		case wire.SessionUpdated:
			ms = e.Info.Time.Updated
		case wire.MessageUpdated:
			ms = e.Info.Time.Created
		case wire.PartUpdated:
			ms = e.Time
		}
		if ms > 0 {
			return time.UnixMilli(ms).Add(-f.At)
		}
	}
	return time.Now()
}

// Clock is the recording's time now: its start plus the time since the
// current loop began.
func (d *Demo) Clock() time.Time {
	return d.base.Add(time.Since(time.Unix(0, d.loopStart.Load())))
}

// Run sends the recording's events through send (a Batcher's Send) at the
// pace they were recorded, then a ResetMsg, and again, until ctx is done.
func (d *Demo) Run(ctx context.Context, send func(any)) {
	if len(d.frames) == 0 {
		<-ctx.Done()
		return
	}
	for first := true; ; first = false {
		start := time.Now()
		d.loopStart.Store(start.UnixNano())
		if !first {
			send(ResetMsg{})
		}
		for _, f := range d.frames {
			if !sleepUntil(ctx, start.Add(f.At)) {
				return
			}
			send(f.Event)
		}
		if !sleepUntil(ctx, time.Now().Add(d.Pause)) {
			return
		}
	}
}

// sleepUntil waits for t or ctx, and reports whether t came first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}
