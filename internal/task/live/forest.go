package live

import (
	"context"
	"sync"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Forest is what `octop tree` reads of a server: every session, folded
// into the model the screen uses from the list, the statuses and each
// session's whole history, with what each used. It is built to be light
// at 50,000 sessions: the list is read as a stream, each history is
// folded as it arrives, its usage taken, and it is sealed (model.Seal:
// its state, counts and times kept, its calls and texts let go); the
// Nodes are made one root at a time (Each).
type Forest struct {
	st    *model.State
	usage map[string]Usage // each read session's own usage, running or not yet told
	now   int64
	// Skipped are the sessions left out because their ids are malformed
	// (the server's own never are; a hostile or broken one's may be).
	Skipped []string
}

// ReadForest reads every session of the client's directory, its status
// and its whole history (client.HistoryOf, newest first, HistoryParallel
// at a time, decoded as forest_decode.go says), and the todo list of each
// session whose history has a todowrite call (the only tool that writes
// one).
func ReadForest(ctx context.Context, c *client.Client) (*Forest, error) {
	f := &Forest{st: model.New(), now: time.Now().UnixMilli()}
	f.st.SetNow(f.now)
	sessions, err := listSessions(ctx, c, func(s *wire.Session) bool {
		if !client.ValidSessionID(s.ID) {
			f.Skipped = append(f.Skipped, s.ID)
			return false
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	status, err := c.Status(ctx)
	if err != nil {
		return nil, err
	}
	f.st.ApplySnapshot(model.Snapshot{Sessions: sessions, Status: status, Complete: true})
	reqs := make([]client.HistoryRequest, 0, f.st.Len())
	for _, id := range f.st.NeedsHistory() {
		reqs = append(reqs, client.HistoryRequest{ID: id})
	}
	f.usage = make(map[string]Usage, len(reqs))
	if err := f.readHistories(ctx, c, reqs); err != nil {
		return nil, err
	}
	// A run that stopped a moment ago without a word on how is printed
	// as it ended, once its grace is over.
	err = waitStops(ctx, c, f.st, func(ids []string) error {
		again := make([]client.HistoryRequest, len(ids))
		for i, id := range ids {
			again[i] = client.HistoryRequest{ID: id}
		}
		f.now = nowMS()
		return f.readHistories(ctx, c, again)
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// history is one session's read: its messages and, when it has a
// todowrite call, its todo list.
type history struct {
	id    string
	msgs  []wire.MessageWithParts
	todos []wire.Todo
}

// readHistories reads the histories and folds each in as it arrives, on
// one goroutine, while the next ones are read.
func (f *Forest) readHistories(ctx context.Context, c *client.Client, reqs []client.HistoryRequest) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	reads := make(chan history, client.HistoryParallel)
	var wg sync.WaitGroup
	wg.Go(func() {
		for h := range reads {
			f.fold(h)
		}
	})
	err := client.HistoryOf(ctx, c, reqs, client.HistoryParallel, func(id string, lean []treeMessage) {
		msgs := wireOf(lean)
		h := history{id: id, msgs: msgs}
		if hasTodoWrite(msgs) {
			todos, err := c.Todos(ctx, id)
			if err != nil && !client.IsNotFound(err) {
				cancel(err)
				return
			}
			h.todos = todos
		}
		reads <- h
	})
	close(reads)
	wg.Wait()
	if cause := context.Cause(ctx); cause != nil && cause != context.Canceled {
		return cause
	}
	return err
}

// fold takes one history into the model, keeps the session's usage and
// seals it.
func (f *Forest) fold(h history) {
	f.st.ApplyMessages(map[string][]wire.MessageWithParts{h.id: h.msgs})
	ss := f.st.Session(h.id)
	if ss == nil {
		return
	}
	info := wire.Session{ID: h.id, Time: wire.SessionTime{Created: ss.Created, Updated: ss.Updated}}
	f.usage[h.id] = SessionUsage(info, h.msgs, h.todos, false, f.now)
	f.st.Seal(h.id)
}

// hasTodoWrite says whether a history has a todowrite call.
func hasTodoWrite(msgs []wire.MessageWithParts) bool {
	for i := range msgs {
		for j := range msgs[i].Parts {
			if p := &msgs[i].Parts[j]; p.Type == wire.PartTool && p.Tool == "todowrite" {
				return true
			}
		}
	}
	return false
}

// Each hands fn the roots, newest first, each with its subtree (children
// in creation order) and its figures rolled up, made one root at a time.
// A session whose parent is not on the server is a root. fn's error stops
// it and is returned.
func (f *Forest) Each(fn func(root *Node) error) error {
	for _, id := range f.st.Roots() {
		roots := linkTree([]string{id}, f.visit)
		if len(roots) == 0 {
			continue // a placeholder, which no listing named
		}
		RollUp(roots, f.now)
		if err := fn(roots[0]); err != nil {
			return err
		}
	}
	return nil
}

// visit makes a session's node, with its usage: what its history said,
// ended and timed by its state now that every history is in.
func (f *Forest) visit(id string) ([]string, *Node) {
	ss := f.st.Session(id)
	if ss == nil || !ss.Known {
		return nil, nil
	}
	n := nodeOf(f.st, ss)
	running := n.Status == model.StatusRunning
	u, ok := f.usage[id]
	if !ok {
		info := wire.Session{ID: id, Time: wire.SessionTime{Created: ss.Created, Updated: ss.Updated}}
		u = SessionUsage(info, nil, nil, running, f.now)
	}
	u.running = running
	if running {
		u.Ended = 0
	} else if end := f.st.Ended(id); end > u.Ended {
		// A run cut short (an abort, a crash) has no reply that
		// completed: it ended at its last activity, as on screen.
		u.Ended = end
	}
	u.setDuration(f.now)
	n.Usage = u
	return ss.ChildIDs(), n
}
