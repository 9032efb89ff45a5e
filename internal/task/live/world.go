package live

import (
	"context"
	"sort"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/wire"
)

// world is the server's sessions and their run states as undo and redo
// read them: who is whose child, who runs.
type world struct {
	sessions map[string]wire.Session
	kids     map[string][]string
	status   map[string]wire.SessionStatus
}

// readWorld reads every session of the client's directory and the run
// states; s is kept even if the list missed it.
func readWorld(ctx context.Context, c *client.Client, s wire.Session) (world, error) {
	list, err := c.Sessions(ctx)
	if err != nil {
		return world{}, err
	}
	st, err := c.Status(ctx)
	if err != nil {
		return world{}, err
	}
	w := world{sessions: map[string]wire.Session{s.ID: s}, kids: map[string][]string{}, status: st}
	for _, x := range list {
		w.sessions[x.ID] = x
	}
	for _, x := range w.sessions {
		if x.ParentID != "" {
			w.kids[x.ParentID] = append(w.kids[x.ParentID], x.ID)
		}
	}
	for _, k := range w.kids {
		sort.Strings(k)
	}
	return w, nil
}

// running says the session is busy or retrying.
func (w world) running(id string) bool { return running(w.status[id]) }

// descendants are every session below id, parents before children.
func (w world) descendants(id string) []wire.Session {
	var out []wire.Session
	var walk func(string)
	walk = func(p string) {
		for _, k := range w.kids[p] {
			out = append(out, w.sessions[k])
			walk(k)
		}
	}
	walk(id)
	return out
}

// startedSince are the descendants of id created at or after since (and
// all below them), latest created first: those whose work an undo of id
// from since takes back.
func (w world) startedSince(id string, since int64) []wire.Session {
	var out []wire.Session
	var walk func(string)
	walk = func(p string) {
		for _, k := range w.kids[p] {
			if ks := w.sessions[k]; ks.Time.Created >= since {
				out = append(out, ks)
				walk(k)
			}
		}
	}
	walk(id)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Created > out[j].Time.Created })
	return out
}

// ancestors are the sessions above id.
func (w world) ancestors(id string) map[string]bool {
	out := map[string]bool{}
	for p := w.sessions[id].ParentID; p != "" && !out[p]; p = w.sessions[p].ParentID {
		out[p] = true
	}
	return out
}

// touchedSince are the sessions of directory dir (any, when dir is "")
// that changed at or after since, but skip: only they can have changed a
// file since.
func (w world) touchedSince(since int64, dir, skip string) []wire.Session {
	var out []wire.Session
	for _, s := range w.sessions {
		if s.ID != skip && s.Time.Updated >= since && (dir == "" || s.Directory == "" || s.Directory == dir) {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// readHistories reads every message of each session (once each), in its
// own directory; a session deleted meanwhile is left out.
func readHistories(ctx context.Context, c *client.Client, ss []wire.Session) (map[string][]spanMsg, error) {
	return historiesOf[spanMsg](ctx, c, refsOf(ss))
}
