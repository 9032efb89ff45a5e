package replay

import (
	"context"
	"testing"

	"github.com/octop-dev/octop/model"
)

// TestSnapshotOfAReadThatGaveUp: a snapshot handed to a read whose context
// ended just then is not lost: the next read gets it, even when it was the
// pass's last.
func TestSnapshotOfAReadThatGaveUp(t *testing.T) {
	var q snapshotQueue
	ch := make(chan model.Snapshot, 1)
	q.waiters = append(q.waiters, ch)
	q.arrive(model.Snapshot{Complete: true}, false) // handed to ch, the pass's last
	q.forget(ch)                                    // ch's read gave up
	s, err := q.read(context.Background())
	if err != nil || !s.Complete {
		t.Fatalf("the next read got %+v, %v; want the snapshot", s, err)
	}
	// A read that gives up before any snapshot leaves no waiter behind.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := q.read(ctx); err == nil {
		t.Fatal("a cancelled read with nothing ready returned no error")
	}
	if len(q.waiters) != 0 {
		t.Fatalf("%d waiters left", len(q.waiters))
	}
}
