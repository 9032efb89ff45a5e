package ui

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/model"
	"github.com/octop-dev/octop/wire"
)

// Backend is how the root reads the server. Every call happens inside a
// tea.Cmd, never in Update.
type Backend interface {
	// Snapshot reads the whole tree over REST.
	Snapshot(ctx context.Context) (model.Snapshot, error)
	// Health asks the server for its version.
	Health(ctx context.Context) (wire.Health, error)
}

// snapshotMessagesFor bounds how many sessions' messages a snapshot reads:
// every running session plus the most recently updated others, so the
// detail pane has tool calls to show without reading the whole history.
const (
	snapshotRecent     = 20
	snapshotMessageCap = 50 // messages per session
	snapshotParallel   = 4
)

// ClientBackend reads the server through a *client.Client.
func ClientBackend(c *client.Client) Backend { return clientBackend{c} }

type clientBackend struct{ c *client.Client }

// global says the screen watches every project (--all-projects): the
// stream carries every directory's sessions, so the snapshot must list
// them all too.
func (b clientBackend) global() bool { return b.c.StreamPath() == "/global/event" }

// listing reads the sessions and their status. With --all-projects it
// lists across projects and asks each active directory for its status;
// complete is true only when nothing could have been left out, since a
// complete snapshot drops what it does not list.
func (b clientBackend) listing(ctx context.Context) (sessions []wire.Session, status map[string]wire.SessionStatus, complete bool, err error) {
	if !b.global() {
		if sessions, err = b.c.Sessions(ctx); err != nil {
			return nil, nil, false, err
		}
		status, err = b.c.Status(ctx)
		return sessions, status, err == nil, err
	}
	sessions, complete, err = b.c.AllSessions(ctx)
	if err != nil {
		return nil, nil, false, err
	}
	status, _, err = b.c.AllStatus(ctx, sessions)
	if err != nil {
		return nil, nil, false, err
	}
	// Sessions of directories not asked (beyond the most recently active
	// ones) count as idle: nothing has touched them for longer than every
	// directory that was asked.
	return sessions, status, complete, nil
}

func (b clientBackend) Health(ctx context.Context) (wire.Health, error) { return b.c.Health(ctx) }

// Snapshot reads sessions and their status, then the messages of the
// sessions worth showing in detail, a few at a time. Pending permissions
// and questions are best effort: older servers lack the endpoints.
func (b clientBackend) Snapshot(ctx context.Context) (model.Snapshot, error) {
	sessions, status, complete, err := b.listing(ctx)
	if err != nil {
		return model.Snapshot{}, err
	}
	snap := model.Snapshot{Sessions: sessions, Complete: complete, Status: status, Messages: map[string][]wire.MessageWithParts{}}
	snap.Permissions, _ = b.c.Permissions(ctx)
	snap.Questions, _ = b.c.Questions(ctx)

	// A session's messages live with its project: ask its own directory
	// (with --all-projects it may not be the one octop was started in).
	dirOf := map[string]string{}
	for _, s := range sessions {
		dirOf[s.ID] = b.c.Directory()
		if b.global() {
			dirOf[s.ID] = s.Directory
		}
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, snapshotParallel)
	for _, id := range worthReading(sessions, status) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			msgs, err := b.c.WithDirectory(dirOf[id]).Messages(ctx, id, snapshotMessageCap)
			if err != nil {
				return // the session may have been deleted meanwhile; the rest still helps
			}
			mu.Lock()
			snap.Messages[id] = msgs
			mu.Unlock()
		}()
	}
	wg.Wait()
	return snap, ctx.Err()
}

// worthReading picks the sessions whose messages a snapshot reads.
func worthReading(sessions []wire.Session, status map[string]wire.SessionStatus) []string {
	var ids []string
	seen := map[string]bool{}
	for id, st := range status {
		if st.Type != wire.StatusIdle {
			ids = append(ids, id)
			seen[id] = true
		}
	}
	recent := make([]wire.Session, 0, len(sessions))
	for _, s := range sessions {
		if !seen[s.ID] {
			recent = append(recent, s)
		}
	}
	sort.Slice(recent, func(i, j int) bool { return recent[i].Time.Updated > recent[j].Time.Updated })
	for _, s := range recent[:min(len(recent), snapshotRecent)] {
		ids = append(ids, s.ID)
	}
	sort.Strings(ids)
	return ids
}

// requestTimeout bounds a whole snapshot; each call also has the client's
// own per-request timeout.
const requestTimeout = 30 * time.Second
