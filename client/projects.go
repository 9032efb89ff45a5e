package client

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"strconv"

	"github.com/octop-dev/octop/internal/wire"
)

// Project is one project the server has opened (GET /project). Worktree
// is its directory; Sandboxes are further directories of the same project.
type Project struct {
	ID        string   `json:"id"`
	Worktree  string   `json:"worktree"`
	Name      string   `json:"name,omitempty"`
	Sandboxes []string `json:"sandboxes,omitempty"`
}

// Projects lists the projects the server has opened (GET /project).
func (c *Client) Projects(ctx context.Context) ([]Project, error) {
	var p []Project
	err := c.do(ctx, call{method: http.MethodGet, path: "/project"}, &p)
	return p, err
}

// WithDirectory returns a copy of the client whose calls name dir as their
// project directory ("" for the server's own).
func (c *Client) WithDirectory(dir string) *Client {
	cp := *c
	cp.dir = dir
	return &cp
}

// Bounds of a listing across projects, so a server with a long history
// cannot make one snapshot unbounded.
const (
	allSessionsPage     = 1000
	allSessionsMaxPages = 50
	// AllStatusMaxDirs bounds how many directories AllStatus asks.
	AllStatusMaxDirs = 32
)

// AllSessions lists the sessions of every project. Servers that have
// GET /experimental/session (1.18 on) answer in one paged listing, and
// complete is true. Older ones are asked project by project, worktree and
// sandboxes; sessions of directories outside any git project cannot be
// listed that way, so complete is false.
func (c *Client) AllSessions(ctx context.Context) (sessions []wire.Session, complete bool, err error) {
	all := c.WithDirectory("")
	q := url.Values{"limit": {strconv.Itoa(allSessionsPage)}}
	for page := 0; page < allSessionsMaxPages; page++ {
		var batch []wire.Session
		var h http.Header
		err := all.do(ctx, call{method: http.MethodGet, path: "/experimental/session", query: q, header: &h, what: whatSession}, &batch)
		if err != nil {
			// 1.1 has no such route and answers it with a 500 (it forwards
			// unknown paths to its web app); anything but a dead or
			// refusing server means "ask the old way".
			if page == 0 && ctx.Err() == nil && !IsUnauthorized(err) && !IsUnreachable(err) && !IsTimeout(err) {
				return c.sessionsByProject(ctx)
			}
			return nil, false, err
		}
		sessions = append(sessions, batch...)
		next := h.Get("x-next-cursor")
		if next == "" || len(batch) == 0 {
			return dedupeSessions(sessions), true, nil
		}
		q = url.Values{"limit": {strconv.Itoa(allSessionsPage)}, "cursor": {next}}
	}
	return dedupeSessions(sessions), false, nil
}

// sessionsByProject is AllSessions for servers without the global listing.
func (c *Client) sessionsByProject(ctx context.Context) ([]wire.Session, bool, error) {
	sessions, err := c.WithDirectory("").Sessions(ctx)
	if err != nil {
		return nil, false, err
	}
	projects, err := c.Projects(ctx)
	if err != nil {
		return dedupeSessions(sessions), false, nil
	}
	for _, p := range projects {
		for _, dir := range append([]string{p.Worktree}, p.Sandboxes...) {
			if dir == "" || dir == "/" {
				continue // the catch-all project: not listable by directory
			}
			more, err := c.WithDirectory(dir).Sessions(ctx)
			if err != nil {
				continue // a project whose directory is gone; the rest still helps
			}
			sessions = append(sessions, more...)
		}
	}
	return dedupeSessions(sessions), false, nil
}

func dedupeSessions(in []wire.Session) []wire.Session {
	seen := make(map[string]bool, len(in))
	out := in[:0]
	for _, s := range in {
		if !seen[s.ID] {
			seen[s.ID] = true
			out = append(out, s)
		}
	}
	return out
}

// AllStatus merges GET /session/status over the directories of the given
// sessions: the server keeps run state per project directory. It asks the
// AllStatusMaxDirs most recently active directories and returns the ones
// it asked, so a caller knows which sessions the map covers.
func (c *Client) AllStatus(ctx context.Context, sessions []wire.Session) (map[string]wire.SessionStatus, map[string]bool, error) {
	latest := map[string]int64{}
	for _, s := range sessions {
		if s.Time.Updated >= latest[s.Directory] {
			latest[s.Directory] = s.Time.Updated
		}
	}
	dirs := make([]string, 0, len(latest))
	for d := range latest {
		dirs = append(dirs, d)
	}
	sort.Slice(dirs, func(i, j int) bool {
		if latest[dirs[i]] != latest[dirs[j]] {
			return latest[dirs[i]] > latest[dirs[j]]
		}
		return dirs[i] < dirs[j]
	})
	if len(dirs) > AllStatusMaxDirs {
		dirs = dirs[:AllStatusMaxDirs]
	}
	status := map[string]wire.SessionStatus{}
	asked := map[string]bool{}
	for _, d := range dirs {
		st, err := c.WithDirectory(d).Status(ctx)
		if err != nil {
			if ctx.Err() != nil || IsUnauthorized(err) || IsUnreachable(err) {
				return nil, nil, err
			}
			continue
		}
		asked[d] = true
		for id, s := range st {
			status[id] = s
		}
	}
	return status, asked, nil
}
