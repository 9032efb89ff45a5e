package feed

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/internal/wire"
)

// FrameInterval is how often a busy live stream is read (octop paces its
// screens' streams with it, client.StreamOptions.Pace) and how long a
// replay's Batcher gathers events: 20 batches a second at most. Each batch
// costs a wake-up, an Update, a View and a frame, so fewer batches cost
// less (make bench-live measured it; docs/perf.md), and an event still
// reaches the screen well within its target. Keys do not wait for it:
// they are drawn at once.
const FrameInterval = 50 * time.Millisecond

// Batcher sits between the event stream and the program. The server sends
// events much faster than a terminal redraws (a fan-out is hundreds of part
// updates a second), so it gathers envelopes and sends them as one
// EventsMsg per frame: a burst of 1,000 updates costs one Update and one
// render. Anything that is not an envelope (ConnState, ResyncNeeded, …)
// first flushes what is pending, so order is kept.
//
// With a paced stream (client.StreamOptions.Pace = FrameInterval) the
// stream does the gathering: it reads once per interval and sends
// wire.CaughtUp after each read's events, which flushes at once. Its
// Batcher has no interval and so no timer: a timer per batch would wake
// the program (and Go's system monitor) once more per batch for nothing.
type Batcher struct {
	send     func(tea.Msg)
	interval time.Duration

	mu      sync.Mutex
	pending EventsMsg
	timer   *time.Timer
}

// NewBatcher returns a Batcher that delivers to send (a Program's Send),
// at the latest interval after the first event of a batch; with interval
// 0, only on wire.CaughtUp or a message that is not an event (a paced
// stream's).
func NewBatcher(send func(tea.Msg), interval time.Duration) *Batcher {
	return &Batcher{send: send, interval: interval}
}

// Send takes one value from client.Stream (or the demo). It matches the
// stream's send func(any).
func (b *Batcher) Send(v any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch v := v.(type) {
	case wire.Envelope:
		b.pending = append(b.pending, v)
		if b.timer == nil && b.interval > 0 {
			b.timer = time.AfterFunc(b.interval, b.Flush)
		}
		return
	case wire.CaughtUp:
		// A paced stream has handed on all the server sent: draw it now,
		// the stream itself waits the interval before it reads again.
		b.flushLocked()
		return
	}
	b.flushLocked()
	b.send(v)
}

// Flush delivers the pending events now.
func (b *Batcher) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
}

// flushLocked sends while holding the lock, so a flush from the timer and
// a Send from the stream cannot overtake each other.
func (b *Batcher) flushLocked() {
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	if len(b.pending) == 0 {
		return
	}
	batch := b.pending
	b.pending = nil
	b.send(batch)
}
