package ui

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/model"
)

// Backend is how the root reads the server. Every call happens inside a
// tea.Cmd, never in Update.
type Backend interface {
	// Snapshot reads the whole tree over REST.
	Snapshot(ctx context.Context) (model.Snapshot, error)
	// Health asks the server for its version.
	Health(ctx context.Context) (client.Health, error)
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

// complete says GET /session lists every session the screen tracks. With
// --all-projects the stream carries other directories' sessions too, which
// a one-directory listing must not be taken to have deleted.
func (b clientBackend) complete() bool { return b.c.StreamPath() != "/global/event" }

func (b clientBackend) Health(ctx context.Context) (client.Health, error) { return b.c.Health(ctx) }

// Snapshot reads sessions and their status, then the messages of the
// sessions worth showing in detail, a few at a time. Pending permissions
// and questions are best effort: older servers lack the endpoints.
func (b clientBackend) Snapshot(ctx context.Context) (model.Snapshot, error) {
	sessions, err := b.c.Sessions(ctx)
	if err != nil {
		return model.Snapshot{}, err
	}
	status, err := b.c.Status(ctx)
	if err != nil {
		return model.Snapshot{}, err
	}
	snap := model.Snapshot{Sessions: sessions, Complete: b.complete(), Status: status, Messages: map[string][]client.MessageWithParts{}}
	snap.Permissions, _ = b.c.Permissions(ctx)
	snap.Questions, _ = b.c.Questions(ctx)

	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, snapshotParallel)
	for _, id := range worthReading(sessions, status) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			msgs, err := b.c.Messages(ctx, id, snapshotMessageCap)
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
func worthReading(sessions []client.Session, status map[string]client.SessionStatus) []string {
	var ids []string
	seen := map[string]bool{}
	for id, st := range status {
		if st.Type != client.StatusIdle {
			ids = append(ids, id)
			seen[id] = true
		}
	}
	recent := make([]client.Session, 0, len(sessions))
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
