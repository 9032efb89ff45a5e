package feed

import (
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// recorder collects what a Batcher delivers.
type recorder struct {
	mu   sync.Mutex
	msgs []tea.Msg
}

func (r *recorder) send(m tea.Msg) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, m)
}

func (r *recorder) snapshot() []tea.Msg {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]tea.Msg(nil), r.msgs...)
}

func partEnv(i int) wire.Envelope {
	return wire.Envelope{ID: string(rune('a' + i%26)), Event: wire.PartDelta{PartID: "p", Delta: string(rune('a' + i%26))}}
}

// waitFor waits until cond holds, for at most 5 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Eventually(t, cond, 5*time.Second, "%s", what)
}

func TestBatcherCoalescesABurst(t *testing.T) {
	var r recorder
	b := NewBatcher(r.send, 50*time.Millisecond)
	for i := range 1000 {
		b.Send(partEnv(i))
	}
	total := func() (n int) {
		for _, m := range r.snapshot() {
			n += len(m.(EventsMsg))
		}
		return n
	}
	waitFor(t, "the burst to be delivered", func() bool { return total() == 1000 })
	// 1,000 events sent well within one interval: one message, maybe two
	// if the timer fired midway on a loaded machine; never one per event.
	if n := len(r.snapshot()); n > 2 {
		t.Fatalf("1000 events became %d messages", n)
	}
}

func TestBatcherKeepsOrder(t *testing.T) {
	var r recorder
	b := NewBatcher(r.send, time.Hour) // only non-events flush
	b.Send(partEnv(0))
	b.Send(partEnv(1))
	b.Send(wire.ResyncNeeded{})
	b.Send(partEnv(2))
	b.Send(wire.ConnState{State: wire.Connected})
	got := r.snapshot()
	if len(got) != 4 {
		t.Fatalf("got %d messages, want 4: %#v", len(got), got)
	}
	if ev, ok := got[0].(EventsMsg); !ok || len(ev) != 2 {
		t.Fatalf("first message %#v, want the two events before the resync", got[0])
	}
	if _, ok := got[1].(wire.ResyncNeeded); !ok {
		t.Fatalf("second message %#v, want ResyncNeeded", got[1])
	}
	if ev, ok := got[2].(EventsMsg); !ok || len(ev) != 1 {
		t.Fatalf("third message %#v, want the event after the resync", got[2])
	}
	b.Flush()
	if len(r.snapshot()) != 4 {
		t.Fatal("Flush with nothing pending sent something")
	}
}

// TestBatcherFlushesWhenCaughtUp: wire.CaughtUp delivers what is pending
// at once, as one batch, and is not passed on; with nothing pending it
// sends nothing.
func TestBatcherFlushesWhenCaughtUp(t *testing.T) {
	var r recorder
	b := NewBatcher(r.send, time.Hour) // the timer never fires here
	b.Send(wire.CaughtUp{})
	if got := r.snapshot(); len(got) != 0 {
		t.Fatalf("CaughtUp with nothing pending sent %#v", got)
	}
	b.Send(partEnv(0))
	b.Send(partEnv(1))
	b.Send(wire.CaughtUp{})
	got := r.snapshot()
	if len(got) != 1 {
		t.Fatalf("got %d messages, want the one batch: %#v", len(got), got)
	}
	if ev, ok := got[0].(EventsMsg); !ok || len(ev) != 2 {
		t.Fatalf("got %#v, want the two events in one batch", got[0])
	}
}
