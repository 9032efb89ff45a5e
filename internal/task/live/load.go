package live

import (
	"context"
	"sync"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// LoadState reads the sessions, their status and every session's messages
// (task.ReadHistories, newest first) into a model.State: what the screen
// shows once its history is loaded. history is the messages read, by
// session id; skipped the ids left out as malformed.
func LoadState(ctx context.Context, c *client.Client) (st *model.State, history map[string][]wire.MessageWithParts, skipped []string, err error) {
	return loadState(ctx, c, nil)
}

// LoadTrees is LoadState reading the messages of the subtrees rooted at
// roots only (`octop export`, and `octop watch --otlp` when a root ends):
// every session is in st, but only those have their history.
func LoadTrees(ctx context.Context, c *client.Client, roots []string) (st *model.State, history map[string][]wire.MessageWithParts, skipped []string, err error) {
	if roots == nil {
		roots = []string{}
	}
	return loadState(ctx, c, roots)
}

// loadState reads the messages of the subtrees rooted at roots, or of
// every session when roots is nil.
func loadState(ctx context.Context, c *client.Client, roots []string) (st *model.State, history map[string][]wire.MessageWithParts, skipped []string, err error) {
	listed, err := c.Sessions(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	sessions := listed[:0:0]
	for _, s := range listed {
		if client.ValidSessionID(s.ID) {
			sessions = append(sessions, s)
		} else {
			skipped = append(skipped, s.ID)
		}
	}
	status, err := c.Status(ctx)
	if err != nil {
		return nil, nil, skipped, err
	}
	st = model.New()
	st.SetNow(nowMS())
	st.ApplySnapshot(model.Snapshot{Sessions: sessions, Status: status, Complete: true})
	var in map[string]bool
	if roots != nil {
		in = map[string]bool{}
		for _, r := range roots {
			for _, id := range st.SubtreeIDs(r) {
				in[id] = true
			}
		}
	}
	var refs []task.HistoryRef
	for _, id := range st.NeedsHistory() {
		if in == nil || in[id] {
			refs = append(refs, task.HistoryRef{ID: id})
		}
	}
	history = make(map[string][]wire.MessageWithParts, len(refs))
	// Each list is folded in by one goroutine as it arrives, while the
	// next ones are read, as the screen does in its own loop.
	type read struct {
		id   string
		msgs []wire.MessageWithParts
	}
	reads := make(chan read, task.HistoryParallel)
	applied := make(chan struct{})
	go func() {
		defer close(applied)
		for r := range reads {
			history[r.id] = r.msgs
			st.ApplyMessages(map[string][]wire.MessageWithParts{r.id: r.msgs})
		}
	}()
	err = task.ReadHistories(ctx, refs, messagesOf[wire.MessageWithParts](c),
		func(r task.HistoryRef, msgs []wire.MessageWithParts, err error) error {
			if err == nil {
				reads <- read{r.ID, msgs}
			}
			return err
		})
	close(reads)
	<-applied
	if err == nil {
		err = waitStops(ctx, c, st, func(ids []string) error { return readAgain(ctx, c, st, history, ids) })
	}
	if err != nil {
		return nil, nil, skipped, err
	}
	return st, history, skipped, nil
}

// readAgain reads ids' histories again into st and history: a run that
// stopped a moment ago without a word on how, once its grace is over.
func readAgain(ctx context.Context, c *client.Client, st *model.State, history map[string][]wire.MessageWithParts, ids []string) error {
	again := make([]task.HistoryRef, len(ids))
	for i, id := range ids {
		again[i] = task.HistoryRef{ID: id}
	}
	var mu sync.Mutex
	return task.ReadHistories(ctx, again, messagesOf[wire.MessageWithParts](c),
		func(r task.HistoryRef, msgs []wire.MessageWithParts, err error) error {
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			history[r.ID] = msgs
			st.ApplyMessages(map[string][]wire.MessageWithParts{r.ID: msgs})
			return nil
		})
}
