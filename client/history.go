package client

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/octop-dev/octop/internal/wire"
)

// HistoryParallel is how many message lists History reads at once by
// default: enough to hide a round trip, few enough that a server with
// thousands of sessions is not flooded.
const HistoryParallel = 4

// HistoryRequest names one session whose messages to read, and the
// directory (project) it lives in; empty means the client's own.
type HistoryRequest struct {
	ID        string
	Directory string
}

// History reads the whole message list of each session, at most parallel
// at a time, starting them in the order given (put the sessions a person
// most likely looks at first), and hands each list to got as it arrives.
// got may be called from several goroutines at once. A session deleted
// meanwhile is skipped; any other error stops the reads and is returned.
//
// parallel workers each read one session after another, rather than a
// goroutine per session: at 50,000 sessions a fresh goroutine's stack,
// grown again by every decode, cost 7% of the time.
func (c *Client) History(ctx context.Context, reqs []HistoryRequest, parallel int,
	got func(id string, msgs []wire.MessageWithParts)) error {
	return HistoryOf(ctx, c, reqs, parallel, got)
}

// HistoryOf is History decoding each list into a slice of the caller's
// own message type T, for a reader that needs less of a message than
// wire.MessageWithParts keeps: octop tree decodes no output or text it
// does not print, a third of the work of reading 50,000 histories.
func HistoryOf[T any](ctx context.Context, c *Client, reqs []HistoryRequest, parallel int,
	got func(id string, msgs []T)) error {
	if parallel < 1 {
		parallel = HistoryParallel
	}
	g, gctx := errgroup.WithContext(ctx)
	jobs := make(chan HistoryRequest)
	for range min(parallel, len(reqs)) {
		g.Go(func() error {
			for r := range jobs {
				cl := c
				if r.Directory != "" && r.Directory != c.dir {
					cl = c.WithDirectory(r.Directory)
				}
				var msgs []T
				err := cl.messagesInto(gctx, r.ID, 0, &msgs)
				switch {
				case IsNotFound(err):
					continue // deleted since it was listed
				case err != nil:
					return err
				}
				got(r.ID, msgs)
			}
			return nil
		})
	}
	go func() {
		defer close(jobs)
		for _, r := range reqs {
			select {
			case jobs <- r:
			case <-gctx.Done():
				return
			}
		}
	}()
	return g.Wait()
}
