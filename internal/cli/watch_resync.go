package cli

import (
	"context"
	"sync"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// endedWhileAway adds to snap the messages of the sessions that may have
// ended while watch could not hear them: those it knew as live before the
// resync, and those new since, that the snapshot shows idle. The snapshot
// reads only running sessions' messages, so without this an abort or a
// failure during the outage would leave the session "not loaded" and its
// end event would never be printed.
func endedWhileAway(ctx context.Context, o *live.Server, st *model.State, snap *model.Snapshot) {
	var ids []string
	dirOf := map[string]string{}
	for _, ses := range snap.Sessions {
		if _, read := snap.Messages[ses.ID]; read || snap.Status[ses.ID].Type == wire.StatusBusy || snap.Status[ses.ID].Type == wire.StatusRetry {
			continue
		}
		if st.Session(ses.ID) == nil || st.StateOf(ses.ID).Kind.Live() {
			ids = append(ids, ses.ID)
			dirOf[ses.ID] = ses.Directory
		}
	}
	readHistories(ctx, o, snap, ids, dirOf)
}

// treeHistory adds to snap the messages of every session of root's tree
// it lacks, so --until-done knows how each idle one ended: a root idle
// while background tasks it launched run is not done, and only its
// messages and its children's say so. (The snapshot reads the idle
// ancestors of running sessions itself.)
func treeHistory(ctx context.Context, o *live.Server, snap *model.Snapshot, root string) {
	dirOf := map[string]string{}
	kids := map[string][]string{}
	for _, ses := range snap.Sessions {
		dirOf[ses.ID] = ses.Directory
		kids[ses.ParentID] = append(kids[ses.ParentID], ses.ID)
	}
	var ids []string
	seen := map[string]bool{} // a server's parent links are not trusted to form a tree
	for stack := []string{root}; len(stack) > 0; {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		stack = append(stack, kids[id]...)
		if _, read := snap.Messages[id]; !read {
			ids = append(ids, id)
		}
	}
	readHistories(ctx, o, snap, ids, dirOf)
}

// readHistories reads the messages of ids into snap, a few at a time
// (task.ReadHistories). A read that fails is left out: the session was
// deleted meanwhile, or the server went again, and the rest still helps.
func readHistories(ctx context.Context, o *live.Server, snap *model.Snapshot, ids []string, dirOf map[string]string) {
	refs := make([]task.HistoryRef, len(ids))
	for i, id := range ids {
		refs[i] = task.HistoryRef{ID: id, Dir: dirOf[id]}
	}
	var mu sync.Mutex
	_ = task.ReadHistories(ctx, refs, func(ctx context.Context, r task.HistoryRef) ([]wire.MessageWithParts, error) {
		return o.History(ctx, r.ID, r.Dir)
	}, func(r task.HistoryRef, msgs []wire.MessageWithParts, err error) error {
		if err == nil {
			mu.Lock()
			snap.Messages[r.ID] = msgs
			mu.Unlock()
		}
		return nil
	})
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
