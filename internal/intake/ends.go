package intake

import (
	"context"
	"sync"

	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Unsure are the sessions of snap whose end st cannot be told without
// their messages, which snap lacks: after an outage (a snapshot already
// laid), those snap shows idle that st last saw live, those new since,
// and those whose listing is newer than st's (time.updated: they changed
// while away, maybe with a whole run). A snapshot reads only running
// sessions' messages, so without them an abort or a failure during the
// outage would leave the session "not loaded", and its end would never
// be told. Call it before laying snap.
//
// The screen's history reader reads every history the model lacks
// (model.NeedsHistory), these with the rest; a reader that reads only
// what it must (`octop watch`) reads these with Read.
func (in *Intake) Unsure(st *model.State, snap model.Snapshot) []task.HistoryRef {
	if !in.primed {
		return nil // the baseline: how it ended before is no news
	}
	var out []task.HistoryRef
	for _, ses := range snap.Sessions {
		if _, read := snap.Messages[ses.ID]; read || live(snap.Status[ses.ID]) {
			continue
		}
		if ss := st.Session(ses.ID); ss == nil || ses.Time.Updated > ss.Updated || st.StateOf(ses.ID).Kind.Live() {
			out = append(out, task.HistoryRef{ID: ses.ID, Dir: ses.Directory})
		}
	}
	return out
}

// Tree are the sessions of root's tree in snap whose messages snap
// lacks: to know how each idle one ended (a root idle while background
// tasks it launched run is not done, and only its messages and its
// children's say so). The snapshot reads the idle ancestors of running
// sessions itself.
func Tree(snap model.Snapshot, root string) []task.HistoryRef {
	dirOf := make(map[string]string, len(snap.Sessions))
	kids := map[string][]string{}
	for _, ses := range snap.Sessions {
		dirOf[ses.ID] = ses.Directory
		kids[ses.ParentID] = append(kids[ses.ParentID], ses.ID)
	}
	var out []task.HistoryRef
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
			out = append(out, task.HistoryRef{ID: id, Dir: dirOf[id]})
		}
	}
	return out
}

// Read reads the messages of refs from s into snap, a few at
// a time (task.ReadHistories). A read that fails is left out: the session
// was deleted meanwhile, or the server went again, and the rest still
// helps.
func Read(ctx context.Context, s task.Server, snap *model.Snapshot, refs []task.HistoryRef) {
	if snap.Messages == nil {
		snap.Messages = map[string][]wire.MessageWithParts{}
	}
	var mu sync.Mutex
	_ = task.ReadHistories(ctx, refs, func(ctx context.Context, r task.HistoryRef) ([]wire.MessageWithParts, error) {
		return s.History(ctx, r.ID, r.Dir)
	}, func(r task.HistoryRef, msgs []wire.MessageWithParts, err error) error {
		if err == nil {
			mu.Lock()
			snap.Messages[r.ID] = msgs
			mu.Unlock()
		}
		return nil
	})
}

// live says a status is busy or retrying.
func live(s wire.SessionStatus) bool {
	return s.Type == wire.StatusBusy || s.Type == wire.StatusRetry
}
