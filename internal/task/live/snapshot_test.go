package live

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/task"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/testkit/opencodetest"
	"github.com/octop-dev/octop/internal/wire"
)

// TestSnapshotRefusesAnUnknownDirectory: the screen's snapshot fails with
// the one-line usage error the subcommands give, which the header shows
// ("could not read the sessions: no project … has the directory …"), rather
// than drawing an empty tree as if the project had no sessions.
func TestSnapshotRefusesAnUnknownDirectory(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.SetProjects([]opencodetest.Project{{ID: "p", Worktree: "/src/app"}, {ID: "global", Worktree: "/"}})
	srv.AddSession(wire.Session{ID: "ses_1", Directory: "/src/app"})
	for dir, ok := range map[string]bool{"": true, "/src/app": true, "/nonexistent": false} {
		c, err := client.New(client.Options{BaseURL: srv.URL(), Directory: dir})
		if err != nil {
			t.Fatal(err)
		}
		_, err = New(c).Snapshot(context.Background())
		if ok != (err == nil) {
			t.Errorf("%q: %v", dir, err)
		}
		if !ok && (!errors.Is(err, task.ErrInvalid) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "/nonexistent")) {
			t.Errorf("%q: %v, want one line naming the directory", dir, err)
		}
	}
}

// The snapshot reads the messages of the running sessions and of their
// idle ancestors (which may wait on background tasks they launched), and
// no other's.
func TestSnapshotReadsIdleAncestors(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	for _, s := range []wire.Session{{ID: "ses_root"}, {ID: "ses_mid", ParentID: "ses_root"},
		{ID: "ses_leaf", ParentID: "ses_mid"}, {ID: "ses_other"}, {ID: "ses_x", ParentID: "ses_y"}, {ID: "ses_y", ParentID: "ses_x"}} {
		srv.AddSession(s)
	}
	srv.SetStatus("ses_leaf", wire.SessionStatus{Type: wire.StatusBusy})
	srv.SetStatus("ses_x", wire.SessionStatus{Type: wire.StatusBusy})
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := New(c).Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"ses_root", "ses_mid", "ses_leaf", "ses_x", "ses_y"} {
		if _, ok := snap.Messages[id]; !ok {
			t.Errorf("%s's messages were not read", id)
		}
	}
	if _, ok := snap.Messages["ses_other"]; ok || len(snap.Messages) != 5 {
		t.Errorf("read %d message lists, an idle session with nothing running below included", len(snap.Messages))
	}
}

// TestSnapshotSaysAsksUnread: a list of pending asks that fails to read
// is said unread, so the model keeps what it had, where it was once taken
// for "none"; a server without the route (404) has none to keep.
func TestSnapshotSaysAsksUnread(t *testing.T) {
	srv := opencodetest.New(t, opencodetest.Options{})
	srv.AddSession(wire.Session{ID: "ses_1"})
	c, err := client.New(client.Options{BaseURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := New(c).Snapshot(context.Background())
	if err != nil || snap.Unread() != "" {
		t.Fatalf("a whole read: %v, unread %q", err, snap.Unread())
	}
	srv.Fail("GET /permission", 503, "busy")
	srv.Fail("GET /question", 404, "no such route")
	snap, err = New(c).Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(snap.PermissionsUnread, "GET /permission") || snap.QuestionsUnread != "" {
		t.Errorf("permissions unread %q, questions unread %q", snap.PermissionsUnread, snap.QuestionsUnread)
	}
}
