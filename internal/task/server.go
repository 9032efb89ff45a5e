package task

import (
	"context"
	"errors"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Server is one server as the screen sees it. The root reads the
// sessions (Snapshot) and the version (Health) itself, and the history
// reader each session's messages (History), in the background; every
// request of a room goes through Do, which carries it out and answers with
// its reply, the request's Refused reply when it has no call for it. The
// screen calls it only inside a tea.Cmd, with a context it can cancel.
// Package live implements it over a running server, package record over a
// recording, ReadOnly over another Server; tests use a fake.
type Server interface {
	Snapshot(ctx context.Context) (model.Snapshot, error)
	Health(ctx context.Context) (wire.Health, error)
	// History reads every message of session id, which lives in project
	// directory dir ("" for the screen's own).
	History(ctx context.Context, id, dir string) ([]wire.MessageWithParts, error)
	Do(ctx context.Context, r Request) Reply
}

const (
	// RequestTimeout bounds one request (a launch makes four calls).
	RequestTimeout = 30 * time.Second
	// waitLimit bounds waiting for a busy session before a resume; esc
	// stops it sooner.
	waitLimit = 2 * time.Hour
	// historiesTimeout bounds reading a subtree's messages, a few at a
	// time.
	historiesTimeout = 2 * time.Minute
	// historiesParallel is how many message lists are read at once.
	historiesParallel = 4
)

// Timeout is how long the call carrying r may take.
func Timeout(r Request) time.Duration {
	switch r.(type) {
	case WaitRequest:
		return waitLimit
	case HistoriesRequest:
		return historiesTimeout
	}
	return RequestTimeout
}

// Histories answers r by reading each session's history from s, a few at
// a time; a session gone from the server is left out, any other error
// fails the reply.
func Histories(ctx context.Context, s Server, r HistoriesRequest) Reply {
	out := make(map[string][]wire.MessageWithParts, len(r.IDs))
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(historiesParallel)
	for i, id := range r.IDs {
		dir := ""
		if i < len(r.Dirs) {
			dir = r.Dirs[i]
		}
		g.Go(func() error {
			msgs, err := s.History(gctx, id, dir)
			if errors.Is(err, ErrNoSession) {
				return nil
			}
			if err != nil {
				return err
			}
			mu.Lock()
			out[id] = msgs
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return HistoriesReply{Err: err}
	}
	return HistoriesReply{Msgs: out}
}
