package live

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/octop-dev/octop/internal/task"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/opencodetest"
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
