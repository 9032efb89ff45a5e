package live

import (
	"context"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// waitStops is how a reader that prints once (`octop tree`, `usage`,
// `export`) gives a run that stopped a moment ago without a word on how
// its grace (model.Grace): it waits until the grace of st's stopping
// sessions is over, reads their statuses into st and their messages
// again (reread), and tells st the time, so what it prints is how they
// ended, never a guess that flips. A read may find a new stop: it waits
// a few times at most.
func waitStops(ctx context.Context, c *client.Client, st *model.State, reread func(ids []string) error) error {
	for range 3 {
		ids, until := st.Stopping()
		if len(ids) == 0 {
			return nil
		}
		if err := sleepUntil(ctx, until); err != nil {
			return err
		}
		status, err := c.Status(ctx)
		if err != nil {
			return err
		}
		st.SetNow(nowMS())
		for _, id := range ids {
			s, ok := status[id]
			if !ok {
				s = wire.SessionStatus{Type: wire.StatusIdle}
			}
			st.Apply(wire.SessionStatusChanged{SessionID: id, Status: s})
		}
		if err := reread(ids); err != nil {
			return err
		}
		st.SetNow(nowMS())
	}
	return nil
}
