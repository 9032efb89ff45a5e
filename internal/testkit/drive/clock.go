package drive

import (
	"sort"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/internal/testkit/testwait"
)

// Clock is a fake clock for a screen's timers: it meets ui's room.Timer
// (After, Every) and gives the time (Now). A timer's Cmd, once a Driver
// runs it, waits on the clock; it fires only when the test moves the clock
// past it (Driver.Advance), never on its own.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	seq     int
	pending []*timer
	// parked carries each timer whose Cmd has started waiting to the
	// Driver that runs that Cmd; done is closed by Close.
	parked chan *timer
	done   chan struct{}
	closed bool
}

// timer is one waiting Cmd: when it is due, the channel it is fired on, and
// where the Cmd's message comes out once fired (the run it belongs to).
type timer struct {
	at   time.Time
	seq  int
	fire chan time.Time
	out  chan result
}

// NewClock returns a clock at start. The test's cleanup releases the
// timers still waiting, so their goroutines end.
func NewClock(t testing.TB, start time.Time) *Clock {
	c := &Clock{now: start, parked: make(chan *timer), done: make(chan struct{})}
	t.Cleanup(c.Close)
	return c
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After is tea.Tick on this clock: fn's message d after the call.
func (c *Clock) After(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	return c.wait(c.Now().Add(d), fn)
}

// Every is tea.Every on this clock: fn's message at its next multiple of d.
func (c *Clock) Every(d time.Duration, fn func(time.Time) tea.Msg) tea.Cmd {
	now := c.Now()
	return c.wait(now.Truncate(d).Add(d), fn)
}

// wait is a Cmd that hands itself to the Driver running it and blocks
// until the clock reaches at (or closes: then it yields nothing).
func (c *Clock) wait(at time.Time, fn func(time.Time) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		tm := &timer{at: at, fire: make(chan time.Time, 1)}
		lost := time.NewTimer(testwait.Scale(hangAfter))
		defer lost.Stop()
		select {
		case c.parked <- tm:
		case <-c.done:
			return nil
		case <-lost.C:
			panic("drive: a timer's Cmd was run outside a Driver, which alone can file it: run it with Driver.Run")
		}
		when, ok := <-tm.fire
		if !ok {
			return nil
		}
		return fn(when)
	}
}

// add files a timer a Driver found waiting, after every earlier one.
func (c *Clock) add(tm *timer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		close(tm.fire)
		return
	}
	c.seq++
	tm.seq = c.seq
	c.pending = append(c.pending, tm)
}

// next takes the first timer due by until (the earliest, then the first
// filed) off the list and sets the time to its own; nil when none is due.
func (c *Clock) next(until time.Time) *timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	sort.SliceStable(c.pending, func(i, j int) bool {
		a, b := c.pending[i], c.pending[j]
		return a.at.Before(b.at) || (a.at.Equal(b.at) && a.seq < b.seq)
	})
	if len(c.pending) == 0 || c.pending[0].at.After(until) {
		return nil
	}
	tm := c.pending[0]
	c.pending = c.pending[1:]
	if tm.at.After(c.now) {
		c.now = tm.at
	}
	return tm
}

// set moves the time forward to t (never back).
func (c *Clock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.now) {
		c.now = t
	}
}

// Pending is how far off each waiting timer is, soonest first.
func (c *Clock) Pending() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]time.Duration, 0, len(c.pending))
	for _, tm := range c.pending {
		out = append(out, tm.at.Sub(c.now))
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Close releases every waiting timer without firing it; a timer Cmd run
// later yields nothing. NewClock's cleanup calls it.
func (c *Clock) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	close(c.done)
	for _, tm := range c.pending {
		close(tm.fire)
	}
	c.pending = nil
}
