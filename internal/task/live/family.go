package live

import (
	"context"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
)

// derive is the session's result, with the background tasks it launched,
// read at clk.
func derive(ctx context.Context, c *client.Client, s wire.Session, all map[string]wire.SessionStatus, msgs []wire.MessageWithParts, clk task.Clock) (task.Result, error) {
	fam, err := readFamily(ctx, c, s.ID, all, msgs)
	if err != nil {
		return task.Result{}, err
	}
	st, ok := all[s.ID]
	if !ok {
		st.Type = wire.StatusIdle
	}
	return task.DeriveResultAt(s, st, msgs, fam, clk), nil
}

// readFamily reads what a result needs of the background tasks session id
// launched (task.ReadFamily): their run states from all, and the messages
// of those that no longer run. A session that launched none costs nothing.
func readFamily(ctx context.Context, c *client.Client, id string, all map[string]wire.SessionStatus, msgs []wire.MessageWithParts) (task.Family, error) {
	return task.ReadFamily(id, msgs, func(x string) wire.SessionStatus { return all[x] },
		func(x string) ([]wire.MessageWithParts, error) { return c.Messages(ctx, x, 0) })
}
