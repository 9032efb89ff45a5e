package task

import (
	"context"
	"time"

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
