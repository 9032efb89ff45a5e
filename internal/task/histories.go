package task

import (
	"context"
	"errors"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/octop-dev/octop/internal/wire"
)

// HistoryParallel is how many message lists ReadHistories reads at once:
// enough to hide a round trip, few enough that a server with thousands
// of sessions (and one JavaScript thread) is not flooded.
const HistoryParallel = 4

// HistoryRef names one session whose messages to read and the project
// directory it lives in ("" for the reader's own).
type HistoryRef struct {
	ID, Dir string
}

// ReadHistories is the one bounded reader of many sessions' messages:
// `octop tree`, export, undo and redo, `octop watch`, the snapshot and
// the screen's subtree reads all go through it. It reads each session of
// refs with read, once (a session named twice is read the first time), HistoryParallel at a time, starting them in the order
// given (put first what a person most likely looks at), and hands each
// outcome to got as it arrives: the messages, or the read's error. A
// session gone from the server meanwhile (ErrNoSession) is left out
// without a word. What got returns stops the reads when it is not nil,
// and ReadHistories returns it: a reader that must have every history
// returns the error it was handed, one that takes what it can returns
// nil. got may be called from several goroutines at once.
//
// HistoryParallel workers each read one session after another, rather
// than a goroutine per session: at 50,000 sessions a fresh goroutine's
// stack, grown again by every decode, cost 7% of the time. T is the
// caller's own message type: a reader that needs less of a message than
// wire.MessageWithParts keeps (octop tree, undo) decodes less.
func ReadHistories[T any](ctx context.Context, refs []HistoryRef,
	read func(context.Context, HistoryRef) ([]T, error),
	got func(r HistoryRef, msgs []T, err error) error) error {
	refs = once(refs)
	g, gctx := errgroup.WithContext(ctx)
	jobs := make(chan HistoryRef)
	for range min(HistoryParallel, len(refs)) {
		g.Go(func() error {
			for r := range jobs {
				msgs, err := read(gctx, r)
				if errors.Is(err, ErrNoSession) {
					continue // deleted since it was listed
				}
				if err := got(r, msgs, err); err != nil {
					return err
				}
			}
			return nil
		})
	}
	go func() {
		defer close(jobs)
		for _, r := range refs {
			select {
			case jobs <- r:
			case <-gctx.Done():
				return
			}
		}
	}()
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// once is refs with each session named once, where it first comes.
func once(refs []HistoryRef) []HistoryRef {
	seen := make(map[string]bool, len(refs))
	out := refs[:0:0]
	for _, r := range refs {
		if !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, r)
		}
	}
	return out
}

// Run carries r out on s: a subtree's histories (HistoriesRequest) from
// s's own History with ReadHistories, every other request by s.Do. The
// screen runs its requests through it, so no Server has a case for
// reading histories in bulk, nor a way of its own to do it.
func Run(ctx context.Context, s Server, r Request) Reply {
	if h, ok := r.(HistoriesRequest); ok {
		return Histories(ctx, s, h)
	}
	return s.Do(ctx, r)
}

// Histories answers r by reading each session's history from s with
// ReadHistories; a session gone from the server is left out, any other
// error fails the reply.
func Histories(ctx context.Context, s Server, r HistoriesRequest) Reply {
	refs := make([]HistoryRef, len(r.IDs))
	for i, id := range r.IDs {
		refs[i].ID = id
		if i < len(r.Dirs) {
			refs[i].Dir = r.Dirs[i]
		}
	}
	out := make(map[string][]wire.MessageWithParts, len(refs))
	var mu sync.Mutex
	err := ReadHistories(ctx, refs, func(ctx context.Context, h HistoryRef) ([]wire.MessageWithParts, error) {
		return s.History(ctx, h.ID, h.Dir)
	}, func(h HistoryRef, msgs []wire.MessageWithParts, err error) error {
		if err != nil {
			return err
		}
		mu.Lock()
		out[h.ID] = msgs
		mu.Unlock()
		return nil
	})
	if err != nil {
		return HistoriesReply{Err: err}
	}
	return HistoriesReply{Msgs: out}
}
