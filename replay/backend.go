package replay

import (
	"context"
	"errors"
	"sync"

	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/record"
	"github.com/octop-dev/octop/wire"
)

// errEnded answers a read the recording holds no reply for.
var errEnded = errors.New("the recording ends before this read's answer")

// snapshotQueue hands the recorded snapshots to the screen's reads in
// order: a read waits for the next one, as it waited for the server live.
type snapshotQueue struct {
	mu      sync.Mutex
	waiters []chan model.Snapshot
	ready   *model.Snapshot // arrived with nobody waiting
	ended   bool            // no snapshot is left in this pass
}

// arrive hands s to the oldest waiting read, or keeps it for the next.
func (q *snapshotQueue) arrive(s model.Snapshot, more bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.ended = !more
	if len(q.waiters) > 0 {
		q.waiters[0] <- s
		q.waiters = q.waiters[1:]
		return
	}
	q.ready = &s
}

// end marks the end of a pass: reads from now on get errEnded.
func (q *snapshotQueue) end() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.ended = true
	for _, w := range q.waiters {
		close(w)
	}
	q.waiters = nil
}

// reset starts a new pass.
func (q *snapshotQueue) reset() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.ready, q.ended = nil, false
}

func (q *snapshotQueue) read(ctx context.Context) (model.Snapshot, error) {
	q.mu.Lock()
	if q.ready != nil {
		s := *q.ready
		q.ready = nil
		q.mu.Unlock()
		return s, nil
	}
	if q.ended {
		q.mu.Unlock()
		return model.Snapshot{}, errEnded
	}
	ch := make(chan model.Snapshot, 1)
	q.waiters = append(q.waiters, ch)
	q.mu.Unlock()
	select {
	case s, ok := <-ch:
		if !ok {
			return model.Snapshot{}, errEnded
		}
		return s, nil
	case <-ctx.Done():
		q.forget(ch)
		return model.Snapshot{}, ctx.Err()
	}
}

// forget takes a read that gave up off the queue. A snapshot handed to it
// meanwhile is kept for the next read: dropped, a later read would find
// the pass ended and the screen would say the recording has no answer.
func (q *snapshotQueue) forget(ch chan model.Snapshot) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for i, w := range q.waiters {
		if w == ch {
			q.waiters = append(q.waiters[:i], q.waiters[i+1:]...)
			return
		}
	}
	select {
	case s, ok := <-ch:
		if ok {
			q.ready = &s
		}
	default:
	}
}

// Backend answers the screen's reads from the recording, or is nil when
// the recording holds no snapshot (the screen then reads nothing, and
// builds the tree from the events alone).
func (p *Player) Backend() record.Backend {
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
