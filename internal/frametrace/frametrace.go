// Package frametrace measures how long octop takes to show what happens:
// for each stream event and each key press, the time it arrived and the
// time the first terminal write after the frame that shows it. It is off
// unless OCTOP_TRACE names a file (see README, "Measured speed");
// `make bench-live` turns it on and reads the file.
//
// It wraps three places and changes none of them: the stream's send func
// (event arrival), the program's model (which frame first differs after an
// event or key was handled) and the terminal output (when that frame was
// written). An event or key after which the frame did not change shows
// nothing new and is counted apart, not timed.
package frametrace

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/octop-dev/octop/internal/wire"
)

// Trace records to one file. Its methods are safe for the goroutines that
// call them: the stream's, the program's event loop and its renderer.
type Trace struct {
	mu   sync.Mutex
	f    *os.File
	w    *bufio.Writer
	now  func() time.Time
	last []string // the lines of the last frame View returned

	arrived []int64 // events sent on, not yet handed to Update (Unix ns)
	handled []item  // handled by Update, waiting for a frame that differs
	drawn   []item  // in a frame View returned, waiting for the write
	unseen  int     // handled, but the frame did not change
}

type item struct {
	kind string // "event" or "key"
	at   int64  // arrival (events) or handling (keys), Unix ns
	what string
}

// Open starts a trace into path, truncating it.
func Open(path string) (*Trace, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("OCTOP_TRACE: %w", err)
	}
	return &Trace{f: f, w: bufio.NewWriter(f), now: time.Now}, nil
}

// Close writes the summary line and closes the file.
func (t *Trace) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.w, "unseen %d\n", t.unseen+len(t.handled))
	if err := t.w.Flush(); err != nil {
		t.f.Close()
		return err
	}
	return t.f.Close()
}

// Send wraps the stream's send func: it stamps each event's arrival, the
// envelope's Received when the stream set it.
func (t *Trace) Send(next func(any)) func(any) {
	return func(v any) {
		if env, ok := v.(wire.Envelope); ok {
			// A paced stream reads what waited in the socket: the event
			// counts from when it may have arrived there, not from the
			// read.
			at := env.Received
			if at.IsZero() {
				at = t.now()
			}
			t.mu.Lock()
			t.arrived = append(t.arrived, at.UnixNano())
			t.mu.Unlock()
		}
		next(v)
	}
}

// Events tells the trace that Update is handling n events, the oldest
// arrivals first (the Batcher keeps their order).
func (t *Trace) events(n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n = min(n, len(t.arrived))
	for _, at := range t.arrived[:n] {
		t.handled = append(t.handled, item{kind: "event", at: at})
	}
	t.arrived = append(t.arrived[:0], t.arrived[n:]...)
}

func (t *Trace) key(k string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.handled = append(t.handled, item{kind: "key", at: t.now().UnixNano(), what: k})
}

// frame tells the trace View returned lines: if they differ from the
// last frame's, what was handled is in them. The lines are kept, not
// copied: a frame's lines do not change.
func (t *Trace) frame(lines []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if slices.Equal(lines, t.last) {
		t.unseen += len(t.handled)
		t.handled = t.handled[:0]
		return
	}
	t.last = lines
	t.drawn = append(t.drawn, t.handled...)
	t.handled = t.handled[:0]
}

// written tells the trace the renderer wrote to the terminal now.
func (t *Trace) written() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.drawn) == 0 {
		return
	}
	now := t.now().UnixNano()
	for _, it := range t.drawn {
		fmt.Fprintf(t.w, "%s %d %d %s\n", it.kind, it.at, now, it.what)
	}
	t.drawn = t.drawn[:0]
}
