package cli

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"

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

// readHistories reads the messages of ids into snap, a few at a time.
func readHistories(ctx context.Context, o *live.Server, snap *model.Snapshot, ids []string, dirOf map[string]string) {
	var mu sync.Mutex
	var g errgroup.Group
	g.SetLimit(4)
	for _, id := range ids {
		g.Go(func() error {
			msgs, err := o.History(ctx, id, dirOf[id])
			if err != nil {
				return nil // deleted meanwhile, or the server went again: the rest still helps
			}
			mu.Lock()
			snap.Messages[id] = msgs
			mu.Unlock()
			return nil
		})
	}
	_ = g.Wait()
}
