package live

import (
	"context"
	"sort"
	"sync"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task"
	"github.com/octop-dev/octop/internal/wire"
	"github.com/octop-dev/octop/model"
)

// Snapshot reads the whole tree over REST: sessions and their status, then
// every message of each running session (task.ReadHistories), so a live row has
// its calls, and of each idle ancestor of one: it may be waiting on
// background tasks it launched, which only its messages say. The others'
// histories are the screen's to read in the background once the tree is
// drawn (ui's history loader).
// A list of pending permissions or questions that could not be read is
// said so (model.Snapshot's PermissionsUnread, QuestionsUnread), never
// taken for "none"; a server without the route (404) has none.
//
// A --directory that no project of the server knows is an error here, so
// the screen's header says so instead of drawing an empty tree.
func (s *Server) Snapshot(ctx context.Context) (model.Snapshot, error) {
	c := s.c
	if err := CheckDirectory(ctx, c); err != nil {
		return model.Snapshot{}, err
	}
	sessions, status, complete, err := listing(ctx, c)
	if err != nil {
		return model.Snapshot{}, err
	}
	snap := model.Snapshot{Sessions: sessions, Complete: complete, Status: status, Messages: map[string][]wire.MessageWithParts{}}
	snap.Permissions, err = c.Permissions(ctx)
	snap.PermissionsUnread = unread(err)
	snap.Questions, err = c.Questions(ctx)
	snap.QuestionsUnread = unread(err)

	// A session's messages live with its project: ask its own directory
	// (with --all-projects it may not be the one octop was started in).
	global := c.StreamPath() == "/global/event"
	dirOf := make(map[string]string, len(sessions))
	for _, ses := range sessions {
		if global {
			dirOf[ses.ID] = ses.Directory
		}
	}
	ids := withIdleAncestors(notIdle(status), sessions)
	refs := make([]task.HistoryRef, len(ids))
	for i, id := range ids {
		refs[i] = task.HistoryRef{ID: id, Dir: dirOf[id]}
	}
	var mu sync.Mutex
	_ = task.ReadHistories(ctx, refs, messagesOf[wire.MessageWithParts](c),
		func(r task.HistoryRef, msgs []wire.MessageWithParts, err error) error {
			if err != nil {
				return nil // the server may be going; the rest still helps
			}
			mu.Lock()
			snap.Messages[r.ID] = msgs
			mu.Unlock()
			return nil
		})
	return snap, ctx.Err()
}

// unread is why a list of pending asks could not be read: "" when it was,
// or when the server has no such route (404), so none is pending there.
func unread(err error) string {
	if err == nil || client.IsNotFound(err) {
		return ""
	}
	return err.Error()
}

// listing reads the sessions and their status. With --all-projects it
// lists across projects and asks each active directory for its status;
// complete is true only when nothing could have been left out, since a
// complete snapshot drops what it does not list.
func listing(ctx context.Context, c *client.Client) (sessions []wire.Session, status map[string]wire.SessionStatus, complete bool, err error) {
	if c.StreamPath() != "/global/event" {
		if sessions, err = listSessions(ctx, c, nil); err != nil {
			return nil, nil, false, err
		}
		status, err = c.Status(ctx)
		return sessions, status, err == nil, err
	}
	sessions, complete, err = c.AllSessions(ctx)
	if err != nil {
		return nil, nil, false, err
	}
	for i := range sessions {
		sessions[i] = listed(&sessions[i])
	}
	status, _, err = c.AllStatus(ctx, sessions)
	if err != nil {
		return nil, nil, false, err
	}
	// Sessions of directories not asked (beyond the most recently active
	// ones) count as idle: nothing has touched them for longer than every
	// directory that was asked.
	return sessions, status, complete, nil
}

// listSessions reads the directory's sessions as a stream, decoding of
// each what the model reads (listedSession); keep, when set, says which
// to keep.
func listSessions(ctx context.Context, c *client.Client, keep func(*wire.Session) bool) ([]wire.Session, error) {
	var out []wire.Session
	err := client.EachSessionOf(ctx, c, func(l *listedSession) error {
		s := wire.Session{ID: l.ID, ParentID: l.ParentID, Title: l.Title, Agent: l.Agent, Directory: l.Directory,
			Cost: l.Cost, Tokens: l.Tokens, Time: l.Time, Revert: l.Revert, Undecodable: l.Undecodable}
		if keep == nil || keep(&s) {
			out = append(out, s)
		}
		return nil
	})
	return out, err
}

// listedSession is what the model reads of a listed session (listed).
type listedSession struct {
	ID        string           `json:"id"`
	ParentID  string           `json:"parentID"`
	Title     string           `json:"title"`
	Agent     string           `json:"agent"`
	Directory string           `json:"directory"`
	Cost      float64          `json:"cost"`
	Tokens    wire.Tokens      `json:"tokens"`
	Time      wire.SessionTime `json:"time"`
	// Revert is kept whole: the screen marks what is undone.
	Revert *wire.Revert `json:"revert,omitempty"`
	// Undecodable is the client's word that it did not decode (see
	// client.EachSessionOf).
	Undecodable string `json:"-"`
}

// listed is what the model reads of a listed session. The rest stays
// behind: the slug, the project, and the permission rules every child
// carries (at scale, most of what a listed session weighed).
func listed(s *wire.Session) wire.Session {
	return wire.Session{ID: s.ID, ParentID: s.ParentID, Title: s.Title, Agent: s.Agent, Directory: s.Directory,
		Cost: s.Cost, Tokens: s.Tokens, Time: s.Time, Undecodable: s.Undecodable}
}

// withIdleAncestors is ids (the running sessions) and, after them, every
// ancestor of one that is not among them, once each. A server's parent
// links are not trusted to form a tree: each walk stops where it has been.
func withIdleAncestors(ids []string, sessions []wire.Session) []string {
	parent := make(map[string]string, len(sessions))
	for _, s := range sessions {
		parent[s.ID] = s.ParentID
	}
	seen := make(map[string]bool, len(ids))
	for _, id := range ids {
		seen[id] = true
	}
	out := ids
	for _, id := range ids {
		for p := parent[id]; p != "" && !seen[p]; p = parent[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// notIdle lists the sessions that are not idle, in id order.
func notIdle(status map[string]wire.SessionStatus) []string {
	var ids []string
	for id, st := range status {
		if st.Type != wire.StatusIdle {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}
