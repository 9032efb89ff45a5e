package record

import (
	"context"
	"errors"
	"sync"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// errEnded answers a read the recording holds no reply for.
var errEnded = errors.New("the recording ends before this read's answer")

// answer is the recorded reply to one snapshot read: the snapshot, or the
// error the read failed with live.
type answer struct {
	read int // which of the screen's reads it answered, 1 the first
	snap model.Snapshot
	err  error
}

// snapshotQueue hands the recorded answers to the screen's snapshot reads:
// its nth read gets the answer the live screen's nth read got, when the
// replay reaches it, as it waited for the server live. Matched by number,
// a read whose live answer was a failure, or came after a later read's,
// does not take another read's snapshot.
type snapshotQueue struct {
	mu      sync.Mutex
	last    int                 // the highest read number recorded
	reads   int                 // reads made in this pass
	waiting map[int]chan answer // reads waiting, by number
	ready   map[int]answer      // answers that came before their read
	ended   bool                // the pass is over
}

// arrive hands a to its read, waiting or still to come.
func (q *snapshotQueue) arrive(a answer) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if w, ok := q.waiting[a.read]; ok {
		w <- a
		delete(q.waiting, a.read)
		return
	}
	if q.ready == nil {
		q.ready = map[int]answer{}
	}
	q.ready[a.read] = a
}

// end marks the end of a pass: reads from now on get errEnded.
func (q *snapshotQueue) end() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.ended = true
	for _, w := range q.waiting {
		close(w)
	}
	q.waiting = nil
}

// reset starts a new pass: its reads are numbered from 1 again.
func (q *snapshotQueue) reset() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, w := range q.waiting {
		close(w)
	}
	q.waiting, q.ready, q.reads, q.ended = nil, nil, 0, false
}

func (q *snapshotQueue) read(ctx context.Context) (model.Snapshot, error) {
	q.mu.Lock()
	q.reads++
	n := q.reads
	if a, ok := q.ready[n]; ok {
		delete(q.ready, n)
		q.mu.Unlock()
		return a.snap, a.err
	}
	if q.ended || n > q.last {
		q.mu.Unlock()
		return model.Snapshot{}, errEnded
	}
	ch := make(chan answer, 1)
	if q.waiting == nil {
		q.waiting = map[int]chan answer{}
	}
	q.waiting[n] = ch
	q.mu.Unlock()
	select {
	case a, ok := <-ch:
		if !ok {
			return model.Snapshot{}, errEnded
		}
		return a.snap, a.err
	case <-ctx.Done():
		q.mu.Lock()
		delete(q.waiting, n)
		q.mu.Unlock()
		return model.Snapshot{}, ctx.Err()
	}
}

// Backend answers the screen's reads from the recording, or is nil when
// the recording holds no snapshot (the screen then reads nothing, and
// builds the tree from the events alone).
func (p *Player) Backend() Backend {
	if !p.hasSnaps {
		return nil
	}
	return backend{p}
}

type backend struct{ p *Player }

func (b backend) Snapshot(ctx context.Context) (model.Snapshot, error) { return b.p.snaps.read(ctx) }

// HasHistories says the recording holds histories the live screen read.
func (p *Player) HasHistories() bool { return len(p.histories) > 0 }

// History is the messages of session id the live screen read; ok is
// false when it read none.
func (b backend) History(id string) ([]wire.MessageWithParts, bool) {
	msgs, ok := b.p.histories[id]
	return msgs, ok
}

func (b backend) Health(context.Context) (wire.Health, error) {
	if b.p.health == nil {
		return wire.Health{}, errors.New("the recording holds no version")
	}
	return *b.p.health, nil
}
