package live

import (
	"context"
	"sync"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
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
// and its whole history (task.ReadHistories, newest first, decoded as
// forest_decode.go says), and the todo list of each session whose
// history has a todowrite call (the only tool that writes one).
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
	refs := make([]task.HistoryRef, 0, f.st.Len())
	for _, id := range f.st.NeedsHistory() {
		refs = append(refs, task.HistoryRef{ID: id})
	}
	f.usage = make(map[string]Usage, len(refs))
	if err := f.readHistories(ctx, c, refs); err != nil {
		return nil, err
	}
	// A run that stopped a moment ago without a word on how is printed
	// as it ended, once its grace is over.
	err = waitStops(ctx, c, f.st, func(ids []string) error {
		again := make([]task.HistoryRef, len(ids))
		for i, id := range ids {
			again[i] = task.HistoryRef{ID: id}
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
func (f *Forest) readHistories(ctx context.Context, c *client.Client, refs []task.HistoryRef) error {
	reads := make(chan history, task.HistoryParallel)
	var wg sync.WaitGroup
	wg.Go(func() {
		for h := range reads {
			f.fold(h)
		}
	})
	err := task.ReadHistories(ctx, refs, messagesOf[treeMessage](c), func(r task.HistoryRef, lean []treeMessage, err error) error {
		if err != nil {
			return err
		}
		msgs := wireOf(lean)
		h := history{id: r.ID, msgs: msgs}
		if hasTodoWrite(msgs) {
			todos, err := c.Todos(ctx, r.ID)
			if err != nil && !client.IsNotFound(err) {
				return err
			}
			h.todos = todos
		}
		reads <- h
		return nil
	})
	close(reads)
	wg.Wait()
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
	f.usage[h.id] = SessionUsage(info, h.msgs, h.todos)
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
// timed by the model now that every history is in.
func (f *Forest) visit(id string) ([]string, *Node) {
	ss := f.st.Session(id)
	if ss == nil || !ss.Known {
		return nil, nil
	}
	n := nodeOf(f.st, ss)
	u, ok := f.usage[id]
	if !ok {
		info := wire.Session{ID: id, Time: wire.SessionTime{Created: ss.Created, Updated: ss.Updated}}
		u = SessionUsage(info, nil, nil)
	}
	u.SetRuns(f.st.Runs(id), ss.Created, f.now) // the model's, as on screen
	n.Usage = u
	return ss.ChildIDs(), n
}
