package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/intake"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/watchdog"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// resync reads the sessions again after the stream (re)connected and
// lays them under the model through the intake the screen uses: the
// snapshot, with the messages of the sessions that may have run or ended
// while watch could not hear them (intake.Unsure: last seen running, new,
// or updated since) and, with --root, of the root's whole tree, so
// --until-done knows how each idle one ended.
func (w *watcher) resync(ctx context.Context) (watchdog.Out, error) {
	ctx, cancel := context.WithTimeout(ctx, snapshotTimeout)
	defer cancel()
	o := live.New(w.c)
	tag := w.in.Resync()
	snap, err := o.Snapshot(ctx)
	if err == nil {
		refs := w.in.Unsure(w.st, snap)
		if w.o.root != "" {
			refs = append(refs, intake.Tree(snap, w.o.root)...)
		}
		intake.Read(ctx, o, &snap, refs)
		busyAfter(ctx, w.c, &snap)
	}
	primed := w.in.Primed()
	applied := w.in.Snapshot(w.st, tag, snap, err)
	switch {
	case errors.Is(err, task.ErrInvalid):
		return watchdog.Out{}, err // a --directory the server does not know: no reconnect fixes it
	case err != nil:
		// The stream goes on; the next reconnect reads again.
		fmt.Fprintf(w.cmd.stdio.err, "octop watch: could not read the sessions after connecting: %s\n", squashSpaces(err.Error()))
		return watchdog.Out{}, nil
	case !applied:
		return watchdog.Out{}, nil
	}
	if !primed {
		fmt.Fprintf(w.cmd.stdio.err, "octop watch: watching %s (%d sessions)\n", w.c.BaseURL(), w.st.Len())
	}
	if why := snap.Unread(); why != "" {
		// The asks known stay as they were (model.Snapshot); the stream
		// tells what changes from now on.
		fmt.Fprintf(w.cmd.stdio.err, "octop watch: could not read the pending asks after connecting: %s\n", squashSpaces(why))
	}
	return w.wd.Resync(w.st, nowMS()), nil
}

// busyAfter reads the statuses again after the histories watch added to
// snap, and takes every session it finds running as running. The
// snapshot's statuses were read before those histories: a run that began
// in between shows there as idle, beside a reply not finished yet, which
// reads as a run cut short; --until-done would then end at once with 4.
// A status read after the history is the newer word. It only ever says
// running: a run that ended in between is told by the stream's events,
// which follow the snapshot.
func busyAfter(ctx context.Context, c *client.Client, snap *model.Snapshot) {
	var status map[string]wire.SessionStatus
	var err error
	if c.StreamPath() == "/global/event" {
		status, _, err = c.AllStatus(ctx, snap.Sessions)
	} else {
		status, err = c.Status(ctx)
	}
	if err != nil {
		return // the snapshot's own statuses stand
	}
	for id, st := range status {
		if st.Type != wire.StatusBusy && st.Type != wire.StatusRetry {
			continue
		}
		if snap.Status == nil {
			snap.Status = map[string]wire.SessionStatus{}
		}
		snap.Status[id] = st
	}
}
