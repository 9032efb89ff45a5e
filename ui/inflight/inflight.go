package inflight

import (
	"context"
	"maps"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/ui/room"
)

// List is the requests under way, by tag. It is a value: Start and
// Finish return a changed copy and never touch the map of an older one.
type List struct {
	tag   int
	calls map[int]entry
}

// entry is one call under way: its cancel, and whether it outlives the
// dialog that asked (see task.Detached).
type entry struct {
	cancel   context.CancelFunc
	detached bool
}

// Reply is a request's reply, tagged so that the reply of a cancelled
// request is dropped.
type Reply struct {
	tag int
	// Reply is what the server's call handed back (task.LaunchReply, …),
	// for the room that asked.
	Reply task.Reply
}

// Start runs r on s (task.Run) in the returned Cmd, with a context whose cancel f
// keeps. Nothing here waits: the call happens in the Cmd.
func (f List) Start(s task.Server, r task.Request, detached bool) (List, tea.Cmd) {
	ctx, cancel := context.WithTimeout(context.Background(), task.Timeout(r))
	f.tag++
	tag := f.tag
	f.calls = maps.Clone(f.calls)
	if f.calls == nil {
		f.calls = map[int]entry{}
	}
	f.calls[tag] = entry{cancel: cancel, detached: detached}
	return f, func() tea.Msg {
		defer cancel()
		return Reply{tag: tag, Reply: task.Run(ctx, s, r)}
	}
}

// Finish takes the call r answers off the list. ok is false when that
// call was cancelled: its reply is to be dropped. detached says the call
// outlived its dialog.
func (f List) Finish(r Reply) (next List, detached, ok bool) {
	e, ok := f.calls[r.tag]
	if !ok {
		return f, false, false
	}
	f.calls = maps.Clone(f.calls)
	delete(f.calls, r.tag)
	return f, e.detached, true
}

// Cancel cancels the calls under way: all of them, or only those bound to
// the dialog.
func (f List) Cancel(all bool) List {
	if len(f.calls) == 0 {
		return f
	}
	keep := map[int]entry{}
	for tag, e := range f.calls {
		if e.detached && !all {
			keep[tag] = e
			continue
		}
		e.cancel()
	}
	f.calls = keep
	return f
}

// Busy says a call bound to the dialog is under way.
func (f List) Busy() bool {
	for _, e := range f.calls {
		if !e.detached {
			return true
		}
	}
	return false
}

// SnapshotReply is the reply to Snapshot. Tag is the read's number: a
// reply older than the newest read is dropped.
type SnapshotReply struct {
	Tag  int
	Snap model.Snapshot
	Err  error
	// held has Snap's sessions when Snapshot read them, for Take.
	held *[]wire.Session
}

// Take is the reply's snapshot, its sessions handed out once: a reply is
// copied on its way through Update, and the list (tens of megabytes at
// scale) must be garbage once folded in, not when the last copy goes.
func (r SnapshotReply) Take() model.Snapshot {
	s := r.Snap
	if r.held != nil {
		s.Sessions, *r.held = *r.held, nil
	}
	return s
}

// HealthReply is the reply to Health, tagged like SnapshotReply.
type HealthReply struct {
	Tag    int
	Health wire.Health
	Err    error
}

// Snapshot reads the whole tree in a Cmd. It captures plain values only,
// so the Cmd can run on any goroutine while Update goes on.
func Snapshot(s task.Server, tag int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), task.RequestTimeout)
		defer cancel()
		snap, err := s.Snapshot(ctx)
		held := snap.Sessions
		snap.Sessions = nil
		return SnapshotReply{Tag: tag, Snap: snap, Err: err, held: &held}
	}
}

// Health asks the server for its version in a Cmd.
func Health(s task.Server, tag int) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h, err := s.Health(ctx)
		return HealthReply{Tag: tag, Health: h, Err: err}
	}
}

// FirstReadWait is how long a screen waiting for its stream's first
// resync waits before it reads the tree anyway.
const FirstReadWait = 2 * time.Second

// FirstReadMsg ends that wait: the tree is read now, unless a resync has
// already read it.
type FirstReadMsg struct{}

// First is a screen's first reads: the snapshot and the health, tagged 0,
// or, when it waits for its stream's first resync, that wait.
func First(s task.Server, wait bool) tea.Cmd {
	if wait {
		return room.After(FirstReadWait, FirstReadMsg{}) // on the screen's Timer
	}
	return tea.Batch(Snapshot(s, 0), Health(s, 0))
}

// Stamped is a request with the generation of the dialog that made it:
// the root drops one whose dialog has closed since.
type Stamped struct {
	Gen int
	Req task.Request
}

// Stamp marks the requests cmd yields with the dialog generation gen.
func Stamp(gen int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case task.Request:
			return Stamped{Gen: gen, Req: msg}
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(msg))
			for i, c := range msg {
				out[i] = Stamp(gen, c)
			}
			return out
		default:
			return msg
		}
	}
}
