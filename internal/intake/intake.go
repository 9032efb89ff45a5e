// Package intake takes one server's data into a model.State by the same
// rules for the screen and for `octop watch`: the stream's events as they
// come; after every (re)connect, since the stream has no replay, a
// snapshot read over REST and laid under them, the events that came while
// it was read applied again over it; and, after an outage, the messages
// of the sessions whose end that snapshot cannot tell.
//
// Nothing here waits on a server but Read, which the caller runs where
// its I/O belongs: the screen in a command, watch in its loop.
package intake

import (
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// maxHeld bounds the events kept for replay over one snapshot.
const maxHeld = 50000

// Intake is one server's way into a model.State: which snapshot read is
// the newest, and what came while it was out. The zero value is ready.
// Its methods take the state they change; it holds none, so the screen
// keeps it as a value in its Model.
type Intake struct {
	tag int // the newest snapshot read; a reply of an older one is dropped
	// pending is true while that read is out. The events that arrive
	// meanwhile are kept in held and applied again over the snapshot,
	// since its REST reads may be older than some of them (a status that
	// changed during the read would otherwise go stale). Apply is
	// idempotent, so the ones the snapshot already has do no harm.
	pending bool
	held    []wire.Event
	// raced says a session was created while the read was out (or more
	// events came than are kept): its listing may predate that session,
	// so it is not taken as complete, which would drop the newcomer as
	// deleted.
	raced bool
	// primed says a snapshot has been laid: a later one follows an
	// outage, and what ended meanwhile is news.
	primed bool
}

// Events applies a batch of the stream's envelopes to st, in order,
// keeping the events to apply again over a snapshot still being read.
func (in *Intake) Events(st *model.State, batch []wire.Envelope) {
	for _, env := range batch {
		if env.Event == nil {
			continue
		}
		if _, ok := env.Event.(wire.SessionCreated); ok {
			in.raced = true
		}
		st.Apply(env.Event)
		if in.pending {
			if len(in.held) < maxHeld {
				in.held = append(in.held, env.Event)
			} else {
				in.raced = true // too many to replay: at least keep every session
			}
		}
	}
}

// Resync starts a snapshot read after the stream (re)connected and
// returns its tag; the reply of any older read is stale from now on.
func (in *Intake) Resync() int {
	in.tag++
	in.raced = false
	in.pending, in.held = true, nil
	return in.tag
}

// Tag is the newest snapshot read's tag (0 before the first).
func (in *Intake) Tag() int { return in.tag }

// Primed says a snapshot has been laid under the state.
func (in *Intake) Primed() bool { return in.primed }

// Snapshot takes the outcome of read tag: it lays snap under st and
// applies again the events that came while it was read, and reports
// whether it did. A stale tag changes nothing; a failed read (err) ends
// the wait for it, and the state stays as the events left it.
func (in *Intake) Snapshot(st *model.State, tag int, snap model.Snapshot, err error) bool {
	if tag != in.tag {
		return false
	}
	replay := in.held
	in.pending, in.held = false, nil
	if err != nil {
		return false
	}
	if in.raced {
		snap.Complete = false
	}
	st.ApplySnapshot(snap)
	for _, ev := range replay {
		st.Apply(ev)
	}
	in.primed = true
	return true
}
