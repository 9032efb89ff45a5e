package live

import (
	"context"
	"sync"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
)

// messagesOf is how this package reads one session's messages for
// task.ReadHistories: decoded into the caller's own message type T, from
// the session's own project directory when it is not the client's; a
// session the server does not have is task.ErrNoSession.
func messagesOf[T any](c *client.Client) func(context.Context, task.HistoryRef) ([]T, error) {
	return func(ctx context.Context, r task.HistoryRef) ([]T, error) {
		cl := c
		if r.Dir != "" && r.Dir != c.Directory() {
			cl = c.WithDirectory(r.Dir)
		}
		msgs, err := client.MessagesOf[T](ctx, cl, r.ID)
		return msgs, kind(err)
	}
}

// historiesOf reads the histories of refs into a map by session
// id, all of them or an error (task.ReadHistories; a session deleted
// meanwhile is left out).
func historiesOf[T any](ctx context.Context, c *client.Client, refs []task.HistoryRef) (map[string][]T, error) {
	out := make(map[string][]T, len(refs))
	var mu sync.Mutex
	err := task.ReadHistories(ctx, refs, messagesOf[T](c), func(r task.HistoryRef, msgs []T, err error) error {
		if err != nil {
			return err
		}
		mu.Lock()
		out[r.ID] = msgs
		mu.Unlock()
		return nil
	})
	return out, err
}

// refsOf names the sessions ss to read, each in its own directory.
func refsOf(ss []wire.Session) []task.HistoryRef {
	refs := make([]task.HistoryRef, len(ss))
	for i, s := range ss {
		refs[i] = task.HistoryRef{ID: s.ID, Dir: s.Directory}
	}
	return refs
}
