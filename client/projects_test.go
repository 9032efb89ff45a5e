package client

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// projectServer is the shared fake server with sessions in several
// directories: its own /srv/a, and the project p1 (/srv/a with the
// sandbox /srv/b). As 1.18 it has /experimental/session; as 1.1 it
// answers that with a 500.
func projectServer(t *testing.T, version string, sessions ...wire.Session) *opencodetest.Server {
	srv := opencodetest.New(t, opencodetest.Options{Version: version, Directory: "/srv/a"})
	srv.SetProjects([]opencodetest.Project{{ID: "p1", Worktree: "/srv/a", Sandboxes: []string{"/srv/b"}}, {ID: "global", Worktree: "/"}})
	for _, s := range sessions {
		srv.AddSession(s)
	}
	return srv
}

// statusAsked is the directories GET /session/status was asked for.
func statusAsked(srv *opencodetest.Server) []string {
	var out []string
	for _, r := range srv.RequestsTo("GET /session/status") {
		out = append(out, r.Directory())
	}
	return out
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
	var sessions []wire.Session
	for i := range 2500 {
		sessions = append(sessions, wire.Session{ID: fmt.Sprintf("ses_%04d", i), Directory: "/srv/" + string(rune('a'+i%3))})
	}
	srv := projectServer(t, opencodetest.V118, sessions...)
	c, _ := New(Options{BaseURL: srv.URL(), Directory: "/srv/a"})
	got, complete, err := c.AllSessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !complete || len(got) != 2500 {
		t.Fatalf("got %d sessions, complete=%v; want all 2500, complete", len(got), complete)
	}
}

func TestAllSessionsFallsBackToProjects(t *testing.T) {
	srv := projectServer(t, opencodetest.V11,
		wire.Session{ID: "ses_a1", Directory: "/srv/a"}, wire.Session{ID: "ses_b1", Directory: "/srv/b"},
		wire.Session{ID: "ses_c1", Directory: "/tmp/loose"}, // outside any git project: not listable
	)
	c, _ := New(Options{BaseURL: srv.URL()})
	got, complete, err := c.AllSessions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ses_a1", "ses_b1"}; !reflect.DeepEqual(ids(got), want) || complete {
		t.Fatalf("got %v complete=%v, want %v and not complete", ids(got), complete, want)
	}
}

func TestAllSessionsDeadServer(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	url := srv.URL()
	srv.Stop()
	c, _ := New(Options{BaseURL: url})
	if _, _, err := c.AllSessions(context.Background()); !IsUnreachable(err) {
		t.Fatalf("err = %v, want unreachable (no fallback on a dead server)", err)
	}
}

func TestAllStatusMergesDirectories(t *testing.T) {
	sessions := []wire.Session{{ID: "ses_a1", Directory: "/srv/a"}, {ID: "ses_b1", Directory: "/srv/b"}, {ID: "ses_a2", Directory: "/srv/a"}}
	srv := projectServer(t, opencodetest.V118, sessions...)
	srv.SetStatus("ses_a1", wire.SessionStatus{Type: wire.StatusBusy})
	srv.SetStatus("ses_b1", wire.SessionStatus{Type: wire.StatusBusy})
	c, _ := New(Options{BaseURL: srv.URL()})
	st, asked, err := c.AllStatus(context.Background(), sessions)
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 2 || st["ses_a1"].Type != wire.StatusBusy || st["ses_b1"].Type != wire.StatusBusy {
		t.Fatalf("status = %v, want both busy sessions", st)
	}
	if !asked["/srv/a"] || !asked["/srv/b"] || len(statusAsked(srv)) != 2 {
		t.Fatalf("asked %v (server saw %v), want each directory once", asked, statusAsked(srv))
	}
	// Many directories: only the most recently active are asked.
	srv.ClearRequests()
	var many []wire.Session
	for i := range AllStatusMaxDirs + 10 {
		many = append(many, wire.Session{ID: fmt.Sprintf("ses_%d", i), Directory: fmt.Sprintf("/d/%d", i), Time: wire.SessionTime{Updated: int64(i)}})
	}
	_, asked, _ = c.AllStatus(context.Background(), many)
	if len(asked) != AllStatusMaxDirs || !asked[fmt.Sprintf("/d/%d", AllStatusMaxDirs+9)] || asked["/d/0"] {
		t.Fatalf("asked %d directories; want the %d newest", len(asked), AllStatusMaxDirs)
	}
}
