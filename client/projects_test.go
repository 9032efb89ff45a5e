package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strconv"
	"sync"
	"testing"

	"github.com/octop-dev/octop/wire"
)

// projectServer fakes the listing routes of a server with sessions in
// several directories. global says whether it has /experimental/session
// (1.18) or answers it with a 500 as 1.1 does.
type projectServer struct {
	global   bool
	sessions []wire.Session
	busy     map[string]string // session id -> directory whose status lists it
	mu       sync.Mutex
	asked    []string // directories asked for status
}

func (p *projectServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	dir := r.URL.Query().Get("directory")
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/experimental/session":
		if !p.global {
			w.WriteHeader(500)
			fmt.Fprint(w, `{"name":"UnknownError","data":{"message":"Unable to connect"}}`)
			return
		}
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		start, _ := strconv.Atoi(r.URL.Query().Get("cursor")) // the fake's cursor is an index
		end := min(start+limit, len(p.sessions))
		if end < len(p.sessions) {
			w.Header().Set("x-next-cursor", strconv.Itoa(end))
		}
		json.NewEncoder(w).Encode(p.sessions[start:end])
	case "/session":
		out := []wire.Session{}
		for _, s := range p.sessions {
			if s.Directory == dir || (dir == "" && s.Directory == "/srv/a") {
				out = append(out, s)
			}
		}
		json.NewEncoder(w).Encode(out)
	case "/project":
		fmt.Fprint(w, `[{"id":"p1","worktree":"/srv/a","sandboxes":["/srv/b"]},{"id":"global","worktree":"/"}]`)
	case "/session/status":
		p.mu.Lock()
		p.asked = append(p.asked, dir)
		p.mu.Unlock()
		st := map[string]wire.SessionStatus{}
		for id, d := range p.busy {
			if d == dir {
				st[id] = wire.SessionStatus{Type: wire.StatusBusy}
			}
		}
		json.NewEncoder(w).Encode(st)
	default:
		http.NotFound(w, r)
	}
}

func ids(ss []wire.Session) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.ID)
	}
	sort.Strings(out)
	return out
}

func TestAllSessionsPagesTheGlobalListing(t *testing.T) {
	ps := &projectServer{global: true}
	for i := range 2500 {
		ps.sessions = append(ps.sessions, wire.Session{ID: fmt.Sprintf("ses_%04d", i), Directory: "/srv/" + string(rune('a'+i%3))})
	}
	srv := httptest.NewServer(ps)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL, Directory: "/srv/a"})
	got, complete, err := c.AllSessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !complete || len(got) != 2500 {
		t.Fatalf("got %d sessions, complete=%v; want all 2500, complete", len(got), complete)
	}
}

func TestAllSessionsFallsBackToProjects(t *testing.T) {
	ps := &projectServer{sessions: []wire.Session{
		{ID: "ses_a1", Directory: "/srv/a"}, {ID: "ses_b1", Directory: "/srv/b"},
		{ID: "ses_c1", Directory: "/tmp/loose"}, // outside any git project: not listable
	}}
	srv := httptest.NewServer(ps)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	got, complete, err := c.AllSessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ses_a1", "ses_b1"}; !reflect.DeepEqual(ids(got), want) || complete {
		t.Fatalf("got %v complete=%v, want %v and not complete", ids(got), complete, want)
	}
}

func TestAllSessionsDeadServer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c, _ := New(Options{BaseURL: url})
	if _, _, err := c.AllSessions(context.Background()); !IsUnreachable(err) {
		t.Fatalf("err = %v, want unreachable (no fallback on a dead server)", err)
	}
}

func TestAllStatusMergesDirectories(t *testing.T) {
	ps := &projectServer{busy: map[string]string{"ses_a1": "/srv/a", "ses_b1": "/srv/b"}}
	srv := httptest.NewServer(ps)
	defer srv.Close()
	c, _ := New(Options{BaseURL: srv.URL})
	sessions := []wire.Session{{ID: "ses_a1", Directory: "/srv/a"}, {ID: "ses_b1", Directory: "/srv/b"}, {ID: "ses_a2", Directory: "/srv/a"}}
	st, asked, err := c.AllStatus(context.Background(), sessions)
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 2 || st["ses_a1"].Type != wire.StatusBusy || st["ses_b1"].Type != wire.StatusBusy {
		t.Fatalf("status = %v, want both busy sessions", st)
	}
	if !asked["/srv/a"] || !asked["/srv/b"] || len(ps.asked) != 2 {
		t.Fatalf("asked %v (server saw %v), want each directory once", asked, ps.asked)
	}
	// Many directories: only the most recently active are asked.
	ps.asked = nil
	var many []wire.Session
	for i := range AllStatusMaxDirs + 10 {
		many = append(many, wire.Session{ID: fmt.Sprintf("ses_%d", i), Directory: fmt.Sprintf("/d/%d", i), Time: wire.SessionTime{Updated: int64(i)}})
	}
	_, asked, _ = c.AllStatus(context.Background(), many)
	if len(asked) != AllStatusMaxDirs || !asked[fmt.Sprintf("/d/%d", AllStatusMaxDirs+9)] || asked["/d/0"] {
		t.Fatalf("asked %d directories; want the %d newest", len(asked), AllStatusMaxDirs)
	}
}
