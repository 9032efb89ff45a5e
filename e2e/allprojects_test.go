package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/octop-dev/octop/client"
	"github.com/octop-dev/octop/internal/task/live"
	"github.com/octop-dev/octop/internal/testkit/harness"
	"github.com/octop-dev/octop/internal/testkit/testwait"
	"github.com/octop-dev/octop/internal/wire"
)

// TestAllProjectsSnapshot: with --all-projects the screen's snapshot must
// list the sessions of every project, not just the server's own
// directory, and know which of them are running. Otherwise a resync
// drops or stalls every other project's sessions until their next event.
func TestAllProjectsSnapshot(t *testing.T) {
	parallel(t)
	actForVersions(t, func(t *testing.T, s *harness.Server) {
		other := gitRepo(t, "second project")

		own := newClient(t, s)
		elsewhere := own.WithDirectory(other)
		ctx, cancel := context.WithTimeout(context.Background(), testwait.Scale(60*time.Second))
		defer cancel()

		home, err := own.CreateSession(ctx, client.CreateSessionRequest{Title: "in the server's project"})
		if err != nil {
			t.Fatal(err)
		}
		away := prompt(t, elsewhere, "in the second project", "RUNAWAY")
		defer func() { _ = elsewhere.Abort(context.Background(), away.ID) }()

		global := newClientWith(t, client.Options{BaseURL: s.URL, Global: true})
		var snapIDs map[string]bool
		waitREST(t, 45*time.Second, "a snapshot listing both projects with the runaway busy", func(ctx context.Context) (bool, error) {
			snap, err := live.New(global).Snapshot(ctx)
			if err != nil {
				return false, err
			}
			snapIDs = map[string]bool{}
			for _, se := range snap.Sessions {
				snapIDs[se.ID] = true
			}
			return snapIDs[home.ID] && snapIDs[away.ID] && snap.Status[away.ID].Type == wire.StatusBusy, nil
		})

		// The one-project view still lists only its own project.
		snap, err := live.New(own).Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, se := range snap.Sessions {
			if se.ID == away.ID {
				t.Fatalf("the one-project snapshot lists a session of %s", other)
			}
		}
	})
}

// gitRepo makes a git repository with one commit whose message makes its
// project id its own.
func gitRepo(t *testing.T, msg string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init", "-q"},
		{"-c", "user.email=e2e@octop.invalid", "-c", "user.name=e2e", "commit", "-q", "--allow-empty", "-m", msg + " " + dir},
	} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}
