package record

import (
	"context"
	"errors"
	"fmt"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Reader is the part of the operations a recording can answer: the
// screen's own reads.
type Reader interface {
	Snapshot(ctx context.Context) (model.Snapshot, error)
	Health(ctx context.Context) (wire.Health, error)
}

// ReadOnly is the task.Server of a recording (a replay, the demo). The screen's
// reads go to r, or, when r is nil (a recording with no snapshots), find
// an empty partial snapshot, so the tree comes from the events alone. The
// read-only rooms (a result, a transcript, the files changed) are answered
// from rec, what the recording has shown so far. Every action that would
// change something answers "<label>: read-only" (task.ErrReadOnly).
func ReadOnly(r Reader, rec *Recorded, label string) Server {
	return Server{r: r, rec: rec, readOnly: task.NewError(task.ErrReadOnly, label+": read-only", nil)}
}

// Server is the operations of a recording; see ReadOnly.
type Server struct {
	r        Reader
	rec      *Recorded
	readOnly error
}

// errNoVersion answers Health for a recording with no snapshots.
var errNoVersion = errors.New("the recording holds no version")

// Snapshot reads the recording's next snapshot and keeps what it says.
func (o Server) Snapshot(ctx context.Context) (model.Snapshot, error) {
	if o.r == nil {
		return model.Snapshot{}, nil
	}
	s, err := o.r.Snapshot(ctx)
	if err == nil {
		o.rec.observeSnapshot(s)
	}
	return s, err
}

// Health is the recorded server's version.
func (o Server) Health(ctx context.Context) (wire.Health, error) {
	if o.r == nil {
		return wire.Health{}, errNoVersion
	}
	return o.r.Health(ctx)
}

// result is the session's outcome as the recording shows it so far.
func (o Server) result(id string) (task.Result, error) {
	s, st, msgs, ok := o.rec.session(id)
	if !ok {
		return task.Result{}, task.NewError(task.ErrNoSession, "the recording shows nothing of "+id, nil)
	}
	// The background tasks it launched, as the recording shows them.
	fam, _ := task.ReadFamily(id, msgs, func(x string) wire.SessionStatus {
		_, cst, _, _ := o.rec.session(x)
		return cst
	}, func(x string) ([]wire.MessageWithParts, error) {
		_, _, cm, _ := o.rec.session(x)
		return cm, nil
	})
	return task.DeriveResultIn(s, st, msgs, fam), nil
}

// messages is the session's messages as the recording shows them so far
// (the newest limit of them when limit > 0), and whether it runs.
func (o Server) messages(id string, limit int) ([]wire.MessageWithParts, bool, error) {
	_, st, msgs, ok := o.rec.session(id)
	if !ok {
		return nil, false, task.NewError(task.ErrNoSession, "the recording shows nothing of "+id, nil)
	}
	if limit > 0 && len(msgs) > limit {
		msgs = msgs[len(msgs)-limit:]
	}
	return msgs, st.Type == wire.StatusBusy || st.Type == wire.StatusRetry, nil
}

// Do answers the reads a recording can (a result, messages) from what it
// has shown so far, and every other request, anything that would change
// a server or comes only before a launch or resume (agents, wait, find),
// with "<label>: read-only". A subtree's histories are read through
// History (task.Run).
func (o Server) Do(ctx context.Context, r task.Request) task.Reply {
	switch r := r.(type) {
	case task.ResultRequest:
		res, err := o.result(r.ID)
		return task.ResultReply{Result: res, Err: err}
	case task.MessagesRequest:
		msgs, running, err := o.messages(r.ID, r.Limit)
		if err != nil {
			return r.Refused(err)
		}
		return r.Answer(msgs, running)
	}
	return r.Refused(o.readOnly)
}

// History is the session's messages as the live screen read them, when
// the recording holds that read (--record writes them), else as the
// recording shows them so far. A session the recording holds no message
// of (one that had finished before recording began, whose history was
// read but not recorded) is an error, not an empty history: that would
// draw a finished run as "✓ 0s, no tools"; the row stays "…" instead.
func (o Server) History(_ context.Context, id, _ string) ([]wire.MessageWithParts, error) {
	if h, ok := o.r.(interface {
		History(id string) ([]wire.MessageWithParts, bool)
	}); ok {
		if msgs, ok := h.History(id); ok {
			return msgs, nil
		}
	}
	if !o.rec.hasMessages(id) {
		return nil, fmt.Errorf("the recording holds no messages of %s", id)
	}
	msgs, _, err := o.messages(id, 0)
	return msgs, err
}
