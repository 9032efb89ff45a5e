package calls

import (
	"context"
	"maps"

	tea "charm.land/bubbletea/v2"
	"github.com/octop-dev/octop/ui/intent"
)

// InFlight is the calls under way, by tag. It is a value: Start and
// Finish return a changed copy and never touch the map of an older one.
type InFlight struct {
	tag   int
	calls map[int]entry
}

// entry is one call under way: its cancel, and whether it outlives the
// dialog that asked (see intent.Detached).
type entry struct {
	cancel   context.CancelFunc
	detached bool
}

// Reply is a call's reply, tagged so that the reply of a cancelled call
// is dropped.
type Reply struct {
	tag int
	// Msg is what the call hands back to the room (intent.Launched, …).
	Msg tea.Msg
}

// Start runs r on o in the returned Cmd, with a context whose cancel f
// keeps. Nothing here waits: the call happens in the Cmd.
func (f InFlight) Start(o Ops, r intent.Request, detached bool) (InFlight, tea.Cmd) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout(r))
	f.tag++
	tag := f.tag
	f.calls = maps.Clone(f.calls)
	if f.calls == nil {
		f.calls = map[int]entry{}
	}
	f.calls[tag] = entry{cancel: cancel, detached: detached}
	run := call(o, r)
	return f, func() tea.Msg {
		defer cancel()
		return Reply{tag: tag, Msg: run(ctx)}
	}
}

// Finish takes the call r answers off the list. ok is false when that
// call was cancelled: its reply is to be dropped. detached says the call
// outlived its dialog.
func (f InFlight) Finish(r Reply) (next InFlight, detached, ok bool) {
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
func (f InFlight) Cancel(all bool) InFlight {
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
func (f InFlight) Busy() bool {
	for _, e := range f.calls {
		if !e.detached {
			return true
		}
	}
	return false
}
