package record

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// TestEachReadGetsItsOwnAnswer: live, the screen's first read failed (it
// timed out) and its second was answered; the answers were recorded
// numbered. The replay's first read fails as live and the second gets the
// snapshot: handed out in file order instead, the snapshot went to the
// first read, which the screen drops as superseded, and the second found
// the recording at its end (TestRecordThenReplay failed so, on a loaded
// machine).
func TestEachReadGetsItsOwnAnswer(t *testing.T) {
	snap := model.Snapshot{Sessions: []wire.Session{{ID: "ses_before"}}}
	rec := recording(t, func(w *Writer) {
		w.Resync("s", t0)
		w.SnapshotFailed("s", t0.Add(40*time.Millisecond), 1, errors.New("context deadline exceeded"))
		w.Snapshot("s", t0.Add(50*time.Millisecond), 2, snap)
	})
	p, err := New(rec, Options{Speed: 4})
	if err != nil {
		t.Fatal(err)
	}
	b := p.Backend()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		s   model.Snapshot
		err error
	}
	first, second := make(chan result, 1), make(chan result, 1)
	go func() { s, err := b.Snapshot(ctx); first <- result{s, err} }()
	waitReads(t, p, 1)
	go func() { s, err := b.Snapshot(ctx); second <- result{s, err} }()
	waitReads(t, p, 2)
	var s sink
	go p.Run(ctx, s.send)
	if r := <-first; r.err == nil || r.err.Error() != "context deadline exceeded" {
		t.Errorf("the first read got %+v, want live's failure", r)
	}
	if r := <-second; r.err != nil || len(r.s.Sessions) != 1 || r.s.Sessions[0].ID != "ses_before" {
		t.Errorf("the second read got %+v, want the snapshot", r)
	}
	if _, err := b.Snapshot(ctx); !errors.Is(err, errEnded) {
		t.Errorf("a third read, which live never made, got %v; want %v at once", err, errEnded)
	}
}

// TestAReadThatGaveUpLeavesNoWaiter: a read whose context ends stops
// waiting, and the answer for its number, when it comes, is kept by no one.
func TestAReadThatGaveUpLeavesNoWaiter(t *testing.T) {
	q := snapshotQueue{last: 2}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := q.read(ctx); err == nil {
		t.Fatal("a cancelled read with nothing ready returned no error")
	}
	if len(q.waiting) != 0 {
		t.Fatalf("%d waiters left", len(q.waiting))
	}
	q.arrive(answer{read: 2, snap: model.Snapshot{Complete: true}})
	if s, err := q.read(context.Background()); err != nil || !s.Complete {
		t.Fatalf("read 2 got %+v, %v; want its snapshot, which came first", s, err)
	}
}

// waitReads waits until p's snapshot queue has seen n reads.
func waitReads(t *testing.T, p *Player, n int) {
	t.Helper()
	testwait.Eventually(t, func() bool {
		p.snaps.mu.Lock()
		defer p.snaps.mu.Unlock()
		return p.snaps.reads >= n
	}, 5*time.Second, "%d snapshot reads", n)
}
